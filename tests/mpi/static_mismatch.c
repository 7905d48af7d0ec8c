/* Two executables in one job (built from this file with different EXTRA_WORDS): their static
 * data differs, so ishmem_init succeeds, the heap works, and every call on a global variable
 * fails with ISHMEM_ERR_NOT_SYMMETRIC naming the PEs' sizes. Plain C, its own main; every PE
 * exits non-zero on a failure. */
#include <stdio.h>
#include <string.h>

#include "c_check.h"
#include "ishmem.h"

long g_value;
long g_extra[EXTRA_WORDS] = {1};

int main(void) {
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  const int me = ishmem_my_pe(), right = (me + 1) % ishmem_n_pes();
  CHECK(ishmem_long_p(&g_value, 1, right) == ISHMEM_ERR_NOT_SYMMETRIC);
  CHECK(strstr(ishmemx_last_error(), "static data, which differs between PEs (PE 0: ") != NULL);
  CHECK(ishmem_long_atomic_add(&g_value, 1, me) == ISHMEM_ERR_NOT_SYMMETRIC);
  CHECK(ishmem_addr_accessible(&g_value, me) == 0);
  long *heap = ishmem_calloc(1, sizeof(long));
  CHECK(heap != NULL);
  if (heap) {
    CHECK(ishmem_long_p(heap, me + 1, right) == ISHMEM_SUCCESS);
    CHECK(ishmem_barrier_all() == ISHMEM_SUCCESS);
    CHECK(*heap == (me + ishmem_n_pes() - 1) % ishmem_n_pes() + 1);
    ishmem_free(heap);
  }
  CHECK(g_value == 0 && g_extra[0] == 1);
  CHECK(ishmem_finalize() == ISHMEM_SUCCESS);
  return failures != 0;
}
