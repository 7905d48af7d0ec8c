/* Atomics through shmem.h: the 1.5 names (fetch, set, swap, compare_swap, inc, add, the
 * bitwise ones and the _nbi forms) and the names from before 1.4 (fadd, finc, add, inc,
 * cswap, swap, fetch, set), every PE at once on PE 0's copy so that atomicity shows. */
#include "shmem_test.h"

int main(void) {
  long *lv;
  int *iv;
  unsigned long *uv;
  double *dv;
  long fetched = 0, old;
  int me, n, i;
  shmem_init();
  me = shmem_my_pe();
  n = shmem_n_pes();
  lv = (long *)shmem_calloc(4, sizeof(long));
  iv = (int *)shmem_calloc(4, sizeof(int));
  uv = (unsigned long *)shmem_calloc(2, sizeof(unsigned long));
  dv = (double *)shmem_calloc(2, sizeof(double));
  shmem_barrier_all();

  /* Counters every PE updates: each adds its share, so PE 0 sees the total. */
  old = shmem_long_atomic_fetch_add(&lv[0], me + 1, 0);
  /* others may have added their 1000 already: the rest is a sum of the others' shares */
  CHECK(old >= 0 && old % 1000 <= (long)n * (n + 1) / 2 - (me + 1));
  shmem_long_atomic_add(&lv[0], 1000, 0);
  shmem_long_atomic_inc(&lv[1], 0);
  old = shmem_long_atomic_fetch_inc(&lv[1], 0);
  CHECK(old >= 1 && old < 2 * n);
  shmem_long_fadd(&lv[2], 2, 0);
  shmem_long_finc(&lv[2], 0);
  shmem_long_add(&lv[2], 3, 0);
  shmem_long_inc(&lv[2], 0);
  shmem_int_atomic_fetch_add_nbi(&iv[1], &iv[0], 5, 0);
  shmem_uint64_atomic_or((uint64_t *)&uv[0], 1ul << me, 0);
  shmem_ulong_atomic_fetch_xor_nbi(&uv[1], &uv[1], 0, 0); /* fetches without changing */
  shmem_quiet();
  shmem_barrier_all();
  if (me == 0) {
    CHECK(lv[0] == (long)n * (n + 1) / 2 + 1000L * n);
    CHECK(lv[1] == 2L * n);
    CHECK(lv[2] == 7L * n);
    CHECK(iv[0] == 5 * n);
    CHECK(uv[0] == (1ul << n) - 1);
  }
  CHECK(iv[1] >= 0 && iv[1] < 5 * n && iv[1] % 5 == 0);
  CHECK(shmem_long_atomic_fetch(&lv[0], 0) == (long)n * (n + 1) / 2 + 1000L * n);
  CHECK(shmem_long_fetch(&lv[1], 0) == 2L * n);
  shmem_barrier_all();

  /* Exactly one PE wins a compare-and-swap; swap returns what was there. */
  old = shmem_long_atomic_compare_swap(&lv[3], 0, me + 1, 0);
  shmem_barrier_all();
  if (me == 0) CHECK(lv[3] >= 1 && lv[3] <= n);
  CHECK(old == 0 || old == shmem_long_atomic_fetch(&lv[3], 0));
  shmem_barrier_all();
  if (me == n - 1) {
    shmem_long_atomic_set(&lv[3], 42, 0);
    CHECK(shmem_long_atomic_swap(&lv[3], 7, 0) == 42);
    CHECK(shmem_long_swap(&lv[3], 8, 0) == 7);
    CHECK(shmem_long_cswap(&lv[3], 8, 9, 0) == 8);
    CHECK(shmem_long_cswap(&lv[3], 8, 10, 0) == 9); /* no match: unchanged */
    shmem_long_set(&lv[3], 11, 0);
    shmem_long_atomic_swap_nbi(&fetched, &lv[3], 12, 0);
    shmem_quiet();
    CHECK(fetched == 11);
    shmem_long_atomic_compare_swap_nbi(&fetched, &lv[3], 12, 13, 0);
    shmem_long_atomic_fetch_inc_nbi(&old, &lv[1], 0);
    shmem_quiet();
    CHECK(fetched == 12 && old == 2L * n);
    /* Extended types: float and double swap, fetch and set. */
    shmem_double_atomic_set(&dv[0], 1.5, 0);
    CHECK(shmem_double_atomic_swap(&dv[0], 2.5, 0) == 1.5);
    CHECK(shmem_double_swap(&dv[0], 3.5, 0) == 2.5);
    shmem_double_set(&dv[1], 4.25, 0);
    CHECK(shmem_double_fetch(&dv[1], 0) == 4.25);
    shmem_double_atomic_fetch_nbi(&dv[1], &dv[0], 0);
    shmem_quiet();
    CHECK(dv[1] == 3.5);
  }
  shmem_barrier_all();
  if (me == 0) CHECK(lv[3] == 13 && dv[0] == 3.5);

  /* Bitwise: and, or, xor with fetch, on int, uint32 and ulong. */
  for (i = 0; i < 2; ++i) uv[i] = 0;
  shmem_barrier_all();
  shmem_ulong_atomic_or(&uv[0], 1ul << (2 * me), 0);
  shmem_barrier_all();
  CHECK(shmem_ulong_atomic_fetch_and(&uv[0], ~(1ul << (2 * me)), 0) & (1ul << (2 * me)));
  shmem_barrier_all();
  if (me == 0) CHECK(uv[0] == 0);
  CHECK(shmem_ulong_atomic_fetch_xor(&uv[1], 1ul << me, 0) < (1ul << n));
  shmem_ulong_atomic_xor(&uv[1], 1ul << me, 0);
  shmem_uint32_atomic_fetch_or((uint32_t *)&iv[2], 3u, 0);
  shmem_int32_atomic_and((int32_t *)&iv[2], 1, 0);
  shmem_barrier_all();
  if (me == 0) CHECK(uv[1] == 0 && iv[2] == 1);
  shmem_free(lv);
  shmem_free(iv);
  shmem_free(uv);
  shmem_free(dv);
  return shmem_test_finish("shmem_amo");
}
