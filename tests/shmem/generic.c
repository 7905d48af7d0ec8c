/* The C11 type-generic names of shmem.h: each one on two or three types, checked against the
 * values the typed call would give (a wrong dispatch writes the wrong width). */
#include "shmem_test.h"

int main(void) {
  long *lv, lsrc[4] = {1, 2, 3, 4}, lgot[4] = {0, 0, 0, 0};
  int *iv;
  double *dv;
  unsigned int *uv;
  uint64_t *sig;
  size_t idx[2];
  int me, n, right, left;
  shmem_init();
  shmem_test_ring(&me, &n, &right, &left);
  lv = (long *)shmem_calloc(8, sizeof(long));
  iv = (int *)shmem_calloc(8, sizeof(int));
  dv = (double *)shmem_calloc(4, sizeof(double));
  uv = (unsigned int *)shmem_calloc(2, sizeof(unsigned int));
  sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
  shmem_barrier_all();

  /* RMA */
  shmem_put(lv, lsrc, 4, right);
  shmem_p(&iv[0], me + 7, right);
  shmem_p(&dv[0], me + 0.25, right);
  shmem_iput(&lv[4], lsrc, 2, 1, 2, right); /* lv[4] = 1, lv[6] = 2 */
  shmem_put_nbi(&iv[4], (int *)lsrc, 2, right);
  shmem_quiet();
  shmem_barrier_all();
  CHECK(lv[3] == 4 && lv[4] == 1 && lv[5] == 0 && lv[6] == 2);
  CHECK(iv[0] == left + 7 && dv[0] == left + 0.25);
  CHECK(shmem_g(&iv[0], right) == me + 7 && shmem_g(&dv[0], right) == me + 0.25);
  shmem_get(lgot, lv, 4, right);
  CHECK(lgot[0] == 1 && lgot[3] == 4);
  shmem_iget(lgot, &lv[4], 1, 2, 2, right);
  CHECK(lgot[0] == 1 && lgot[1] == 2);
  shmem_get_nbi(lgot, lv, 1, right);
  shmem_quiet();
  CHECK(lgot[0] == 1);
  shmem_barrier_all();

  /* Atomics, 1.5 and 1.3 generic names */
  shmem_atomic_add(&lv[7], 2L, 0);
  shmem_atomic_inc(&iv[7], 0);
  shmem_fadd(&lv[7], 1L, 0);
  shmem_finc(&iv[7], 0);
  CHECK(shmem_atomic_fetch_add(&iv[6], 0, 0) >= 0);
  shmem_atomic_or(&uv[0], 1u << me, 0);
  shmem_barrier_all();
  if (me == 0) CHECK(lv[7] == 3L * n && iv[7] == 2 * n && uv[0] == (1u << n) - 1);
  if (me == 0) {
    shmem_atomic_set(&dv[1], 2.5, 0);
    CHECK(shmem_atomic_swap(&dv[1], 3.5, 0) == 2.5);
    CHECK(shmem_atomic_fetch(&dv[1], 0) == 3.5);
    CHECK(shmem_atomic_compare_swap(&lv[7], 3L * n, 5L, 0) == 3L * n);
    CHECK(shmem_cswap(&lv[7], 5L, 6L, 0) == 5);
    CHECK(shmem_swap(&iv[7], 9, 0) == 2 * n);
    CHECK(shmem_atomic_fetch_inc(&iv[7], 0) == 9 && shmem_fetch(&iv[7], 0) == 10);
    CHECK(shmem_atomic_fetch_and(&uv[0], 1u, 0) == (1u << n) - 1 && uv[0] == 1u);
    CHECK(shmem_atomic_fetch_xor(&uv[0], 3u, 0) == 1u && uv[0] == 2u);
    shmem_atomic_fetch_add_nbi(&lgot[0], &lv[7], 1L, 0);
    shmem_quiet();
    CHECK(lgot[0] == 6 && lv[7] == 7);
  }
  shmem_barrier_all();

  /* Signals, waits, tests */
  shmem_put_signal(&lv[0], lsrc, 1, sig, 1, SHMEM_SIGNAL_ADD, right);
  shmem_signal_wait_until(sig, SHMEM_CMP_GE, 1);
  shmem_p(&iv[1], 1, right);
  shmem_wait_until(&iv[1], SHMEM_CMP_EQ, 1);
  CHECK(shmem_test(&iv[1], SHMEM_CMP_EQ, 1) == 1);
  CHECK(shmem_test_any(&iv[1], 1, NULL, SHMEM_CMP_EQ, 1) == 0);
  CHECK(shmem_wait_until_some(&iv[0], 2, idx, NULL, SHMEM_CMP_GT, 0) == 2);
  shmem_wait_until_all(&iv[0], 2, NULL, SHMEM_CMP_GT, 0);
  CHECK(shmem_test_all(&iv[0], 2, NULL, SHMEM_CMP_GT, 0) == 1);
  shmem_barrier_all();

  /* Collectives */
  lv[1] = me;
  CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, &lv[0], &lv[1], 1) == 0);
  CHECK(lv[0] == (long)n * (n - 1) / 2);
  CHECK(shmem_max_reduce(SHMEM_TEAM_WORLD, &dv[2], &dv[0], 1) == 0 && dv[2] == (n - 1) + 0.25);
  CHECK(shmem_broadcast(SHMEM_TEAM_WORLD, &iv[2], &iv[0], 1, 0) == 0);
  CHECK(iv[2] == shmem_g(&iv[0], 0));
  CHECK(shmem_fcollect(SHMEM_TEAM_WORLD, &lv[2], &lv[1], 1) == 0);
  CHECK(lv[2] == 0 && lv[1 + n] == n - 1);
  shmem_barrier_all();
  shmem_free(lv);
  shmem_free(iv);
  shmem_free(dv);
  shmem_free(uv);
  shmem_free(sig);
  return shmem_test_finish("shmem_generic");
}
