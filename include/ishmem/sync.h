/* Atomics, put-with-signal and point-to-point synchronization (OpenSHMEM 1.5 sections 9.7,
 * 9.8 and 9.10), host API, declared from the signature lists. Included by ishmem.h; not meant to be
 * included alone. */
#ifndef ISHMEM_SYNC_H
#define ISHMEM_SYNC_H

#include <stddef.h>
#include <stdint.h>

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

/* fetch, set, swap: standard and extended AMO types. compare_swap, inc, add: standard AMO
 * types. and, or, xor: bitwise AMO types. */
#define ISHMEMI_DECLARE_AMO_EXTENDED(T, N) ISHMEMI_AMO_EXTENDED_CALLS(ISHMEMI_DECLARE, T, N)
#define ISHMEMI_DECLARE_AMO_STANDARD(T, N) ISHMEMI_AMO_STANDARD_CALLS(ISHMEMI_DECLARE, T, N)
#define ISHMEMI_DECLARE_AMO_BITWISE(T, N) ISHMEMI_AMO_BITWISE_CALLS(ISHMEMI_DECLARE, T, N)
ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_DECLARE_AMO_EXTENDED)
ISHMEMX_AMO_EXTENDED_ONLY_TYPES(ISHMEMI_DECLARE_AMO_EXTENDED)
ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_DECLARE_AMO_STANDARD)
ISHMEMX_AMO_BITWISE_TYPES(ISHMEMI_DECLARE_AMO_BITWISE)
#undef ISHMEMI_DECLARE_AMO_EXTENDED
#undef ISHMEMI_DECLARE_AMO_STANDARD
#undef ISHMEMI_DECLARE_AMO_BITWISE

/* ---- Put with signal ---------------------------------------------------------------------
 * Puts the data, then updates the 64-bit signal at sig_addr on pe (set or add) so that a PE
 * that sees the new signal also sees the data. sig_addr is symmetric. */
ISHMEMI_SIGNAL_PUT_CALLS(ISHMEMI_DECLARE)
#define ISHMEMI_DECLARE_PUT_SIGNAL(T, N) ISHMEMI_SIGNAL_TYPED_CALLS(ISHMEMI_DECLARE, T, N)
ISHMEMX_RMA_TYPES(ISHMEMI_DECLARE_PUT_SIGNAL)
#undef ISHMEMI_DECLARE_PUT_SIGNAL
/* ishmem_signal_fetch atomically reads this PE's signal; ishmem_signal_wait_until waits until
 * it compares true against cmp_value, and returns its value. */
ISHMEMI_SIGNAL_READ_CALLS(ISHMEMI_DECLARE)

/* ---- Point-to-point synchronization on this PE's symmetric variables ---------------------
 * status (may be NULL) excludes entries whose status is nonzero. _any returns the index of a
 * satisfied entry (SIZE_MAX if none can be): the first from the one after the index that
 * this thread's last _any call returned, wrapping around, so that a series of calls returns
 * every satisfied entry. _some returns the number of satisfied entries, written to indices. The
 * _vector forms compare entry i with cmp_values[i]. On an error (a bad cmp, an address outside the
 * heap) wait_until returns a negative status, test and _some return 0, _any returns SIZE_MAX, and
 * ishmemx_last_error() says why. */
#define ISHMEMI_DECLARE_P2P(T, N) ISHMEMI_P2P_CALLS(ISHMEMI_DECLARE, T, N)
ISHMEMX_P2P_TYPES(ISHMEMI_DECLARE_P2P)
#undef ISHMEMI_DECLARE_P2P

#ifdef __cplusplus
}
#endif

#endif /* ISHMEM_SYNC_H */
