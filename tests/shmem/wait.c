/* Put-with-signal, signal reads, wait and test through shmem.h: each PE signals its right-hand
 * neighbour and waits for its left-hand one with the 1.5 calls, then with the older
 * shmem_TYPE_wait and shmem_wait; the test calls see set and unset flags. */
#include "shmem_test.h"

int main(void) {
  long *data, *flags, *counter;
  int *iflags;
  uint64_t *sig;
  long src[4];
  size_t idx[4];
  int status[4] = {0, 0, 0, 0};
  long cmp_values[4];
  int me, n, right, left, i;
  shmem_init();
  shmem_test_ring(&me, &n, &right, &left);
  data = (long *)shmem_calloc(4, sizeof(long));
  flags = (long *)shmem_calloc(4, sizeof(long));
  counter = (long *)shmem_calloc(1, sizeof(long));
  iflags = (int *)shmem_calloc(2, sizeof(int));
  sig = (uint64_t *)shmem_calloc(2, sizeof(uint64_t));
  shmem_barrier_all();

  for (i = 0; i < 4; ++i) src[i] = me * 100 + i;
  shmem_long_put_signal(data, src, 4, &sig[0], (uint64_t)me + 1, SHMEM_SIGNAL_SET, right);
  CHECK(shmem_signal_wait_until(&sig[0], SHMEM_CMP_EQ, (uint64_t)left + 1) == (uint64_t)left + 1);
  for (i = 0; i < 4; ++i) CHECK(data[i] == left * 100 + i);
  shmem_putmem_signal_nbi(&data[0], src, sizeof(long), &sig[1], 5, SHMEM_SIGNAL_ADD, right);
  shmem_quiet();
  shmem_uint64_wait_until(&sig[1], SHMEM_CMP_GE, 5);
  CHECK(shmem_signal_fetch(&sig[1]) == 5);

  /* Nothing set yet: the tests say so. */
  CHECK(shmem_long_test(&flags[0], SHMEM_CMP_NE, 0) == 0);
  CHECK(shmem_long_test_any(flags, 4, NULL, SHMEM_CMP_NE, 0) == SIZE_MAX);
  CHECK(shmem_long_test_some(flags, 4, idx, NULL, SHMEM_CMP_NE, 0) == 0);
  CHECK(shmem_long_test_all(flags, 4, NULL, SHMEM_CMP_EQ, 0) == 1);
  shmem_barrier_all();

  /* Each PE sets its neighbour's flags 1 and 3; the waits see exactly those. */
  shmem_long_p(&flags[1], 1, right);
  shmem_long_p(&flags[3], 3, right);
  shmem_long_wait_until(&flags[3], SHMEM_CMP_EQ, 3);
  shmem_long_wait_until_all(&flags[1], 1, NULL, SHMEM_CMP_EQ, 1);
  status[0] = 1; /* excluded */
  i = (int)shmem_long_wait_until_any(flags, 4, status, SHMEM_CMP_GT, 0);
  CHECK(i == 1 || i == 3);
  CHECK(shmem_long_wait_until_some(flags, 4, idx, NULL, SHMEM_CMP_GT, 0) == 2);
  CHECK(idx[0] == 1 && idx[1] == 3);
  for (i = 0; i < 4; ++i) cmp_values[i] = i % 2 ? i : 0;
  shmem_long_wait_until_all_vector(flags, 4, NULL, SHMEM_CMP_EQ, cmp_values);
  CHECK(shmem_long_test_all_vector(flags, 4, NULL, SHMEM_CMP_EQ, cmp_values) == 1);
  i = (int)shmem_long_test_any_vector(flags, 4, status, SHMEM_CMP_EQ, cmp_values);
  CHECK(i >= 1 && i <= 3); /* entry 0 excluded by its status */
  CHECK(shmem_long_test_some_vector(flags, 4, idx, NULL, SHMEM_CMP_GE, cmp_values) == 4);
  CHECK(shmem_long_wait_until_any_vector(flags, 4, status, SHMEM_CMP_GE, cmp_values) != SIZE_MAX);
  CHECK(shmem_long_wait_until_some_vector(flags, 4, idx, status, SHMEM_CMP_GE, cmp_values) == 3);
  CHECK(shmem_long_test(&flags[3], SHMEM_CMP_GE, 3) == 1);
  shmem_barrier_all();

  /* The names from before 1.4: wait until the value differs. */
  shmem_int_p(&iflags[0], 7, right);
  shmem_int_wait(&iflags[0], 0);
  CHECK(iflags[0] == 7);
  shmem_long_atomic_inc(counter, right);
  shmem_wait(counter, 0);
  CHECK(*counter == 1);
  shmem_long_atomic_add(&flags[0], 9, right);
  shmem_long_wait(&flags[0], 0);
  CHECK(flags[0] == 9);
#ifdef ISHMEMX_P2P_TYPES
  {
    short *sflags = (short *)shmem_calloc(1, sizeof(short));
    unsigned short *uflags = (unsigned short *)shmem_calloc(1, sizeof(unsigned short));
    shmem_short_p(sflags, -3, right);
    shmem_ushort_p(uflags, 65535, right);
    shmem_short_wait_until(sflags, SHMEM_CMP_EQ, -3);
    shmem_ushort_wait_until(uflags, SHMEM_CMP_GT, 60000);
    shmem_short_wait(sflags, 0);
    CHECK(shmem_short_test(sflags, SHMEM_CMP_LT, 0) == 1);
    CHECK(*uflags == 65535);
    shmem_barrier_all();
    shmem_free(sflags);
    shmem_free(uflags);
  }
#endif
  shmem_barrier_all();
  shmem_free(data);
  shmem_free(flags);
  shmem_free(counter);
  shmem_free(iflags);
  shmem_free(sig);
  return shmem_test_finish("shmem_wait");
}
