/* Setup, query and memory through shmem.h, with the names from before 1.4: start_pes,
 * _my_pe, _num_pes, shmalloc, shrealloc, shmemalign, shfree, the cache calls (no-ops), the
 * version and name queries, the constants, shmem_ptr and the accessibility calls. */
#include <string.h>

#include "shmem_test.h"

int main(void) {
  char name[SHMEM_MAX_NAME_LEN];
  int major = 0, minor = 0, me, n;
  long *a, *b;
  start_pes(0);
  me = _my_pe();
  n = _num_pes();
  CHECK(me == shmem_my_pe() && n == shmem_n_pes() && me >= 0 && me < n);
  shmem_info_get_version(&major, &minor);
  CHECK(major == SHMEM_MAJOR_VERSION && minor == SHMEM_MINOR_VERSION);
  CHECK(major == 1 && minor == 5 && _SHMEM_MAJOR_VERSION == 1 && _SHMEM_MINOR_VERSION == 5);
  shmem_info_get_name(name);
  CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0 && strcmp(name, _SHMEM_VENDOR_STRING) == 0);
  CHECK(SHMEM_CMP_EQ == _SHMEM_CMP_EQ && SHMEM_CMP_NE != SHMEM_CMP_EQ && _SHMEM_CMP_LE > 0);

  a = (long *)shmalloc(4 * sizeof(long));
  CHECK(a != NULL);
  a[3] = me;
  a = (long *)shrealloc(a, 64 * sizeof(long));
  CHECK(a != NULL && a[3] == me);
  b = (long *)shmemalign(256, 16 * sizeof(long));
  CHECK(b != NULL && ((uintptr_t)b % 256) == 0);
  CHECK(shmem_addr_accessible(a, (me + 1) % n) == 1 && shmem_pe_accessible(n - 1) == 1);
  CHECK(shmem_pe_accessible(n) == 0);
  {
    long local = 0;
    CHECK(shmem_addr_accessible(&local, 0) == 0); /* the stack is never symmetric */
  }
  shmem_long_p(&b[0], me + 100, (me + 1) % n);
  shmem_barrier_all();
  CHECK(b[0] == (me + n - 1) % n + 100);
  {
    /* shmem_ptr: the peer's copy by load and store where the PE is node-local, else NULL. */
    long *peer = (long *)shmem_ptr(b, (me + 1) % n);
    CHECK(peer == NULL || *peer == me + 100);
    CHECK(shmem_ptr(b, me) == NULL || shmem_ptr(b, me) == (void *)b);
  }
  shmem_clear_cache_inv();
  shmem_set_cache_inv();
  shmem_clear_cache_line_inv(b);
  shmem_set_cache_line_inv(b);
  shmem_udcflush();
  shmem_udcflush_line(b);
  shmem_barrier_all();
  shfree(b);
  shfree(a);
  {
    long *c = (long *)shmem_calloc(3, sizeof(long));
    long *d = (long *)shmem_align(64, sizeof(long));
    CHECK(c && c[0] == 0 && c[2] == 0 && d && (uintptr_t)d % 64 == 0);
    shmem_free(c);
    shmem_free(d);
  }
  return shmem_test_finish("shmem_setup");
}
