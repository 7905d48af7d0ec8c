/* The C tests' check: a failed condition is printed with the library's last error and
 * counted in `failures`; the program ends with a non-zero status if any failed. For the tests
 * that must stay plain C (no GoogleTest). */
#ifndef ISHMEM_TESTS_C_CHECK_H
#define ISHMEM_TESTS_C_CHECK_H

#include <stdio.h>

#include "ishmem.h"

static int failures = 0;

#define CHECK(cond)                                                                                \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s (last error: \"%s\")\n", __FILE__, __LINE__, #cond, \
              ishmemx_last_error());                                                               \
      ++failures;                                                                                  \
    }                                                                                              \
  } while (0)

/* The library works: each PE puts its rank into its right neighbour's int, and each checks
 * its left neighbour's rank. */
static inline void check_ring_put(int rank, int size) {
  int *sym = (int *)ishmem_malloc(sizeof(int));
  CHECK(sym != NULL);
  if (!sym) return;
  CHECK(ishmem_int_p(sym, rank, (rank + 1) % size) == ISHMEM_SUCCESS);
  CHECK(ishmem_barrier_all() == ISHMEM_SUCCESS);
  CHECK(*sym == (rank + size - 1) % size);
  CHECK(ishmem_free(sym) == ISHMEM_SUCCESS);
}

#endif /* ISHMEM_TESTS_C_CHECK_H */
