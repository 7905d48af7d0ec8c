/* Checks for the tests/shmem programs, written against shmem.h only: CHECK records a failure
 * with its place; shmem_test_finish combines every PE's count (a sum reduction on the world
 * team) and returns the program's exit status, nonzero if any PE failed. */
#ifndef SHMEM_TEST_H
#define SHMEM_TEST_H

#include <shmem.h>
#include <stdio.h>

static int shmem_test_failures = 0;

#define CHECK(cond)                                                                          \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      fprintf(stderr, "pe %d: %s:%d: check failed: %s\n", shmem_my_pe(), __FILE__, __LINE__, \
              #cond);                                                                        \
      ++shmem_test_failures;                                                                 \
    }                                                                                        \
  } while (0)

/* This PE's number, the number of PEs, and its neighbours on the ring of PEs. */
static inline void shmem_test_ring(int *me, int *n, int *right, int *left) {
  *me = shmem_my_pe();
  *n = shmem_n_pes();
  *right = (*me + 1) % *n;
  *left = (*me + *n - 1) % *n;
}

/* Collective over every PE; finalizes the library. A program that defines
 * SHMEM_TEST_STATIC_COUNTS sums in static data instead of the heap, so that it never touches
 * the heap from the CPU (and runs beside a GPU heap). */
#ifdef SHMEM_TEST_STATIC_COUNTS
static int shmem_test_counts[2];
#endif
static inline int shmem_test_finish(const char *name) {
#ifdef SHMEM_TEST_STATIC_COUNTS
  int *count = shmem_test_counts;
#else
  int *count = (int *)shmem_malloc(2 * sizeof(int));
#endif
  int total = 0;
  if (!count) {
    fprintf(stderr, "pe %d: %s: shmem_malloc failed\n", shmem_my_pe(), name);
    return 1;
  }
  count[0] = shmem_test_failures;
  shmem_barrier_all();
  shmem_int_sum_reduce(SHMEM_TEAM_WORLD, &count[1], &count[0], 1);
  total = count[1];
  if (shmem_my_pe() == 0)
    printf("%s: %s on %d PEs\n", name, total ? "FAILED" : "ok", shmem_n_pes());
#ifndef SHMEM_TEST_STATIC_COUNTS
  shmem_free(count);
#endif
  shmem_finalize();
  return total ? 1 : 0;
}

#endif /* SHMEM_TEST_H */
