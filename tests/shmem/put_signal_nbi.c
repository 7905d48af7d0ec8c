/* Non-blocking put-with-signal in a ring, as small third-party programs use it: each PE
 * sends 64 longs to its right-hand neighbour with shmem_long_put_signal_nbi (SET, then ADD in
 * later rounds), waits for its left-hand neighbour's signal, and checks the data; quiet and a
 * barrier end each round. Short by design, to be run many times in a row (docs/OPENSHMEM.md,
 * "Repeated runs"). */
#include "shmem_test.h"

#define WORDS 64
#define ROUNDS 8

int main(void) {
  long *data, src[WORDS];
  uint64_t *sig;
  int me, n, right, left, round, i;
  shmem_init();
  shmem_test_ring(&me, &n, &right, &left);
  data = (long *)shmem_calloc(WORDS, sizeof(long));
  sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
  if (!data || !sig) return 1;
  shmem_barrier_all();
  for (round = 0; round < ROUNDS; ++round) {
    for (i = 0; i < WORDS; ++i) src[i] = (long)me * 100000 + round * 1000 + i;
    shmem_long_put_signal_nbi(data, src, WORDS, sig, 1,
                              round == 0 ? SHMEM_SIGNAL_SET : SHMEM_SIGNAL_ADD, right);
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)round + 1);
    for (i = 0; i < WORDS; ++i) CHECK(data[i] == (long)left * 100000 + round * 1000 + i);
    shmem_quiet();
    shmem_barrier_all(); /* the neighbour's data stays until this PE has read it */
  }
  shmem_free(sig);
  shmem_free(data);
  return shmem_test_finish("shmem_put_signal_nbi");
}
