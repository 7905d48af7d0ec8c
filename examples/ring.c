/* ring: every PE passes a token to its right-hand neighbour around the ring, n_pes times, so
 * the token comes back to where it started having been incremented by every PE.
 *
 *   mpirun -np 2 build/examples/ring
 *
 * It shows the three things every ishmem program does: a collective ishmem_malloc (same
 * address on every PE), one-sided puts into a peer's copy of that memory, and barriers. The
 * heap may be in GPU memory, which the CPU cannot load: the token is read and set with
 * ishmem_long_g and ishmem_long_p on this PE, which work with every backend. */
#include <stdio.h>

#include "ishmem.h"

int main(void) {
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "ring: ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  int me = ishmem_my_pe();
  int npes = ishmem_n_pes();
  int right = (me + 1) % npes;

  /* Symmetric: every PE gets the same heap offset, so `token` names each PE's copy. */
  long *token = (long *)ishmem_malloc(sizeof(long));
  if (!token) {
    fprintf(stderr, "ring: ishmem_malloc failed: %s\n", ishmemx_last_error());
    ishmem_finalize();
    return 1;
  }
  ishmem_long_p(token, me == 0 ? 1000 : -1, me);
  ishmem_barrier_all();

  /* Round r: PE r holds the token, adds its PE number and puts it into the right-hand PE's
   * copy. barrier_all completes the put (quiet) and tells everyone the round is over. */
  for (int round = 0; round < npes; ++round) {
    if (me == round) {
      long next = ishmem_long_g(token, me) + me;
      ishmem_long_p(token, next, right);
    }
    ishmem_barrier_all();
  }

  /* After n_pes rounds the token is back on PE 0: 1000 + 0 + 1 + ... + (n_pes - 1). */
  long expected = 1000 + (long)npes * (npes - 1) / 2;
  int ok = 1;
  if (me == 0) {
    long got = ishmem_long_g(token, me);
    ok = got == expected;
    printf("ring: %d PEs, token came back to PE 0 as %ld (expected %ld): %s\n", npes, got, expected,
           ok ? "ok" : "WRONG");
  }
  ishmem_free(token);
  ishmem_finalize();
  return ok ? 0 : 1;
}
