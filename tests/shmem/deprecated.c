/* The active-set calls that OpenSHMEM 1.5 deprecates, through shmem.h (built when ishmem.h
 * has them): shmem_barrier, the sized broadcast, collect, fcollect and alltoall, the to_all
 * reductions with pWrk and pSync, and their constants, on static arrays and on the heap;
 * shmem_sync in both forms (the active set's and the team's, told apart by the number of
 * arguments), the variadic shmem_pcontrol, and shmem_malloc_with_hints with unknown bits. */
#include "shmem_test.h"

static long pSync[SHMEM_REDUCE_SYNC_SIZE > SHMEM_BCAST_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE
                                                                 : SHMEM_BCAST_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long src[4], dst[64];

int main(void) {
  int me, n, i;
  long *heap;
  shmem_init();
  me = shmem_my_pe();
  n = shmem_n_pes();
  for (i = 0; i < (int)(sizeof pSync / sizeof pSync[0]); ++i) pSync[i] = SHMEM_SYNC_VALUE;
  CHECK(_SHMEM_SYNC_VALUE == SHMEM_SYNC_VALUE && _SHMEM_BCAST_SYNC_SIZE == SHMEM_BCAST_SYNC_SIZE);
  heap = (long *)shmem_calloc(64, sizeof(long));
  for (i = 0; i < 4; ++i) src[i] = me * 10 + i;
  shmem_barrier_all();

  shmem_barrier(0, 0, n, pSync);
  shmem_pcontrol(1, "region", 2);
  shmem_sync(0, 0, n, pSync);
  CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0);
  shmem_broadcast64(dst, src, 4, 0, 0, 0, n, pSync);
  shmem_barrier_all();
  if (me != 0) CHECK(dst[0] == 0 && dst[3] == 3);
  shmem_fcollect64(dst, src, 2, 0, 0, n, pSync);
  shmem_barrier_all();
  for (i = 0; i < n; ++i) CHECK(dst[2 * i] == i * 10 && dst[2 * i + 1] == i * 10 + 1);
  shmem_collect64(heap, src, 1, 0, 0, n, pSync);
  shmem_barrier_all();
  CHECK(heap[n - 1] == (n - 1) * 10);
  shmem_long_sum_to_all(dst, src, 2, 0, 0, n, pWrk, pSync);
  shmem_barrier_all();
  CHECK(dst[0] == 10L * n * (n - 1) / 2 && dst[1] == dst[0] + n);
  shmem_long_max_to_all(heap, src, 1, 0, 0, n, pWrk, pSync);
  shmem_barrier_all();
  CHECK(heap[0] == (n - 1) * 10);
  shmem_free(heap);
  heap = (long *)shmem_malloc_with_hints(4 * sizeof(long), SHMEM_MALLOC_ATOMICS_REMOTE | 64);
  CHECK(heap != NULL);
  if (heap) {
    heap[0] = 0;
    shmem_barrier_all();
    shmem_long_atomic_inc(heap, 0);
    shmem_barrier_all();
    if (me == 0) CHECK(heap[0] == n);
    shmem_free(heap);
  }
  return shmem_test_finish("shmem_deprecated");
}
