/* The thread-level calls alone, as small third-party programs use them: shmem_init_thread
 * with SHMEM_THREAD_MULTIPLE, shmem_query_thread from the main thread, a barrier, finalize.
 * Short by design: run many times in a row it probes start-up and shutdown through MPI
 * (docs/OPENSHMEM.md, "Repeated runs"). */
#include "shmem_test.h"

int main(void) {
  int provided = -1, queried = -1;
  if (shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) != 0) return 1;
  shmem_query_thread(&queried);
  CHECK(provided >= SHMEM_THREAD_SINGLE && provided <= SHMEM_THREAD_MULTIPLE);
  CHECK(queried == provided);
  shmem_barrier_all();
  return shmem_test_finish("shmem_query_thread");
}
