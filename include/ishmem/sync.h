/* Atomics, put-with-signal and point-to-point synchronization (OpenSHMEM 1.5 sections 9.7,
 * 9.8 and 9.10), host API. Included by ishmem.h; not meant to be included alone. */
#ifndef ISHMEM_SYNC_H
#define ISHMEM_SYNC_H

#include <stddef.h>
#include <stdint.h>

#include "ishmem/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Comparison operators for wait_until and test. */
enum {
  ISHMEM_CMP_EQ = 1,
  ISHMEM_CMP_NE = 2,
  ISHMEM_CMP_GT = 3,
  ISHMEM_CMP_GE = 4,
  ISHMEM_CMP_LT = 5,
  ISHMEM_CMP_LE = 6
};

/* Signal operators for put-with-signal. */
enum { ISHMEM_SIGNAL_SET = 0, ISHMEM_SIGNAL_ADD = 1 };

/* ---- Atomic memory operations -----------------------------------------------------------
 * Atomic with respect to every other ishmem AMO on the same location, from any PE. Fetching
 * calls return the old value; on error they return 0 and set ishmemx_last_error(). */

/* fetch, set, swap: standard and extended AMO types. */
#define ISHMEMI_DECLARE_AMO_EXTENDED(T, N)                              \
  T ishmem_##N##_atomic_fetch(const T *source, int pe);                 \
  int ishmem_##N##_atomic_set(T *dest, T value, int pe);                \
  T ishmem_##N##_atomic_swap(T *dest, T value, int pe);                 \
  int ishmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe); \
  int ishmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);
ISHMEMI_AMO_STANDARD_TYPES(ISHMEMI_DECLARE_AMO_EXTENDED)
ISHMEMI_AMO_EXTENDED_ONLY_TYPES(ISHMEMI_DECLARE_AMO_EXTENDED)
#undef ISHMEMI_DECLARE_AMO_EXTENDED

/* compare_swap, inc, add: standard AMO types. */
#define ISHMEMI_DECLARE_AMO_STANDARD(T, N)                                              \
  T ishmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                 \
  int ishmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe); \
  T ishmem_##N##_atomic_fetch_inc(T *dest, int pe);                                     \
  int ishmem_##N##_atomic_inc(T *dest, int pe);                                         \
  int ishmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                     \
  T ishmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                            \
  int ishmem_##N##_atomic_add(T *dest, T value, int pe);                                \
  int ishmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);
ISHMEMI_AMO_STANDARD_TYPES(ISHMEMI_DECLARE_AMO_STANDARD)
#undef ISHMEMI_DECLARE_AMO_STANDARD

/* and, or, xor: bitwise AMO types. */
#define ISHMEMI_DECLARE_AMO_BITWISE(T, N)                                    \
  T ishmem_##N##_atomic_fetch_and(T *dest, T value, int pe);                 \
  int ishmem_##N##_atomic_and(T *dest, T value, int pe);                     \
  int ishmem_##N##_atomic_fetch_and_nbi(T *fetch, T *dest, T value, int pe); \
  T ishmem_##N##_atomic_fetch_or(T *dest, T value, int pe);                  \
  int ishmem_##N##_atomic_or(T *dest, T value, int pe);                      \
  int ishmem_##N##_atomic_fetch_or_nbi(T *fetch, T *dest, T value, int pe);  \
  T ishmem_##N##_atomic_fetch_xor(T *dest, T value, int pe);                 \
  int ishmem_##N##_atomic_xor(T *dest, T value, int pe);                     \
  int ishmem_##N##_atomic_fetch_xor_nbi(T *fetch, T *dest, T value, int pe);
ISHMEMI_AMO_BITWISE_TYPES(ISHMEMI_DECLARE_AMO_BITWISE)
#undef ISHMEMI_DECLARE_AMO_BITWISE

/* ---- Put with signal ---------------------------------------------------------------------
 * Puts the data, then updates the 64-bit signal at sig_addr on pe (set or add) so that a PE
 * that sees the new signal also sees the data. sig_addr is symmetric. */
int ishmem_putmem_signal(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe);
int ishmem_putmem_signal_nbi(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);
#define ISHMEMI_DECLARE_PUT_SIGNAL(T, N)                                                       \
  int ishmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,     \
                              uint64_t signal, int sig_op, int pe);                            \
  int ishmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                  uint64_t signal, int sig_op, int pe);
ISHMEMI_RMA_TYPES(ISHMEMI_DECLARE_PUT_SIGNAL)
#undef ISHMEMI_DECLARE_PUT_SIGNAL
/* Atomically reads this PE's signal. */
uint64_t ishmem_signal_fetch(const uint64_t *sig_addr);
/* Waits until this PE's signal compares true against cmp_value; returns its value. */
uint64_t ishmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ---- Point-to-point synchronization on this PE's symmetric variables ---------------------
 * status (may be NULL) excludes entries whose status is nonzero. _any returns the index of a
 * satisfied entry (SIZE_MAX if none can be), _some the number of satisfied entries, written
 * to indices. The _vector forms compare entry i with cmp_values[i]. On an error (a bad cmp,
 * an address outside the heap) wait_until returns a negative status, test and _some return
 * 0, _any returns SIZE_MAX, and ishmemx_last_error() says why. */
#define ISHMEMI_DECLARE_P2P(T, N)                                                                  \
  int ishmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                                      \
  int ishmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,             \
                                  T cmp_value);                                                    \
  size_t ishmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,          \
                                     T cmp_value);                                                 \
  size_t ishmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                      int cmp, T cmp_value);                                       \
  int ishmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp,      \
                                         const T *cmp_values);                                     \
  size_t ishmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp,   \
                                            const T *cmp_values);                                  \
  size_t ishmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,             \
                                             const int *status, int cmp, const T *cmp_values);     \
  int ishmem_##N##_test(T *ivar, int cmp, T cmp_value);                                            \
  int ishmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);     \
  size_t ishmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);  \
  size_t ishmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status,       \
                                int cmp, T cmp_value);                                             \
  int ishmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,            \
                                   const T *cmp_values);                                           \
  size_t ishmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,         \
                                      const T *cmp_values);                                        \
  size_t ishmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,                   \
                                       const int *status, int cmp, const T *cmp_values);
ISHMEMI_AMO_STANDARD_TYPES(ISHMEMI_DECLARE_P2P)
#undef ISHMEMI_DECLARE_P2P

#ifdef __cplusplus
}
#endif

#endif /* ISHMEM_SYNC_H */
