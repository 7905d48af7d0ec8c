/* The error policy of shmem.h. `errors putmem` and `errors g` make a bad call on PE 0 (an
 * address outside the symmetric heap): under the default ISHMEM_SHMEM_ERRORS=abort the job
 * stops there with the message (ctest matches it), and the line after the call must never
 * print. `errors return` runs under ISHMEM_SHMEM_ERRORS=return: every bad call returns, the
 * status and text are kept, and the job finishes. Built a second time with
 * ISHMEMX_SHMEM_STATUS, where the void calls return the status. */
#include <stdlib.h>
#include <string.h>

#include <shmemx.h>

#include "shmem_test.h"

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "return";
  long *heap, *outside = (long *)malloc(4 * sizeof(long));
  unsigned long errors;
  int me;
  shmem_init();
  me = shmem_my_pe();
  heap = (long *)shmem_calloc(4, sizeof(long));
  shmem_barrier_all();
  if (strcmp(mode, "putmem") == 0 || strcmp(mode, "g") == 0) {
    /* PE 0 stops the job; the others wait at the barrier until it does. Should PE 0 go on,
     * every PE finishes and the job fails without the message. */
    if (me == 0 && mode[0] == 'p') shmem_putmem(outside, heap, sizeof(long), 0);
    if (me == 0 && mode[0] == 'g') (void)shmem_long_g(outside, 0);
    if (me == 0) printf("pe 0 continued after the failed call\n");
    shmem_barrier_all();
    shmem_finalize();
    return 1;
  }
  /* "return": each bad call returns, with its status and text kept. */
  errors = shmemx_error_count();
#ifdef ISHMEMX_SHMEM_STATUS
  CHECK(shmem_putmem(outside, heap, sizeof(long), 0) == ISHMEM_ERR_NOT_SYMMETRIC);
  CHECK(shmem_long_atomic_add(outside, 1, 0) == ISHMEM_ERR_NOT_SYMMETRIC);
  CHECK(shmem_long_put(heap, heap, 1, shmem_n_pes()) == ISHMEM_ERR_INVALID_PE);
  CHECK(shmem_quiet() == 0);
#else
  shmem_putmem(outside, heap, sizeof(long), 0);
  CHECK(shmemx_last_status() == ISHMEM_ERR_NOT_SYMMETRIC);
  shmem_long_atomic_add(outside, 1, 0);
  CHECK(shmemx_last_status() == ISHMEM_ERR_NOT_SYMMETRIC);
  shmem_long_put(heap, heap, 1, shmem_n_pes());
  CHECK(shmemx_last_status() == ISHMEM_ERR_INVALID_PE);
#endif
  CHECK(strstr(shmemx_last_error(), "[ishmem pe ") != NULL);
  CHECK(shmemx_error_count() == errors + 3);
  CHECK(shmem_long_g(outside, 0) == 0 && shmemx_last_status() == ISHMEM_ERR_NOT_SYMMETRIC);
  CHECK(shmem_long_atomic_fetch_add(outside, 1, 0) == 0 && shmemx_error_count() == errors + 5);
  /* Good calls after them work and count no error. */
  shmem_long_p(heap, 5, 0);
  shmem_barrier_all();
  CHECK(shmem_long_g(heap, 0) == 5 && shmemx_error_count() == errors + 5);
  shmem_barrier_all();
  shmem_free(heap);
  free(outside);
  return shmem_test_finish("shmem_errors");
}
