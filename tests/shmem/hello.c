/* Built by the build tree's ishmemcc and run by ishmemrun (tests/shmem/CMakeLists.txt): an
 * OpenSHMEM program of the usual shape, each PE passing its number around the ring. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  int me, n, ok;
  int *ring;
  shmem_init();
  me = shmem_my_pe();
  n = shmem_n_pes();
  ring = (int *)shmem_malloc(sizeof(int));
  *ring = -1;
  shmem_barrier_all();
  shmem_int_p(ring, me, (me + 1) % n);
  shmem_barrier_all();
  ok = *ring == (me + n - 1) % n;
  printf("hello from pe %d of %d: %s\n", me, n, ok ? "ring ok" : "ring WRONG");
  shmem_free(ring);
  shmem_finalize();
  return ok ? 0 : 1;
}
