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

#endif /* ISHMEM_TESTS_C_CHECK_H */
