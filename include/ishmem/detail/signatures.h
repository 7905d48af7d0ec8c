/* The signature lists: one per family (RMA, AMO, signal, wait/test). Each entry is
 *   F(RETURN, STEM, (PARAMETERS), (ARGUMENTS), OP, TARG)
 * and every form of the call is generated from it: the host declarations (ishmem.h,
 * ishmem/sync.h), the host definitions (lib/api), which call OP<TARG>(name, ARGUMENTS...),
 * and the device forms (ishmem/detail/generate.h), which call ishmemi::OP<TARG>(handle,
 * ARGUMENTS...). TARG is the element type (void for the byte forms) or, for the sized RMA
 * calls, the element size. Typed lists take the type table's (T, N) after F.
 *
 * Internal, and without an include guard: ishmem.h and ishmem/device.h undefine these names
 * after use (ishmem/detail/undef.h), and the library includes this header again to define
 * its calls. */
#include "ishmem/types.h"

#define ISHMEMI_UNPAREN(...) __VA_ARGS__

/* ---- RMA ---------------------------------------------------------------------------------- */

/* Host and device. */
#define ISHMEMI_RMA_BYTES_CALLS(F)                                            \
  F(int, putmem, (void *dest, const void *source, size_t nbytes, int pe),     \
    (dest, source, nbytes, pe), putmem, void)                                 \
  F(int, getmem, (void *dest, const void *source, size_t nbytes, int pe),     \
    (dest, source, nbytes, pe), getmem, void)                                 \
  F(int, putmem_nbi, (void *dest, const void *source, size_t nbytes, int pe), \
    (dest, source, nbytes, pe), putmem_nbi, void)                             \
  F(int, getmem_nbi, (void *dest, const void *source, size_t nbytes, int pe), \
    (dest, source, nbytes, pe), getmem_nbi, void)

/* For every RMA type (ISHMEMX_RMA_TYPES) on the host; its device forms, for
 * ISHMEMX_RMA_DEVICE_TYPES. */
#define ISHMEMI_RMA_TYPED_CALLS(F, T, N)                                                          \
  F(int, N##_put, (T * dest, const T *source, size_t nelems, int pe), (dest, source, nelems, pe), \
    put, T)                                                                                       \
  F(int, N##_get, (T * dest, const T *source, size_t nelems, int pe), (dest, source, nelems, pe), \
    get, T)                                                                                       \
  F(int, N##_put_nbi, (T * dest, const T *source, size_t nelems, int pe),                         \
    (dest, source, nelems, pe), put_nbi, T)                                                       \
  F(int, N##_get_nbi, (T * dest, const T *source, size_t nelems, int pe),                         \
    (dest, source, nelems, pe), get_nbi, T)                                                       \
  F(int, N##_p, (T * dest, T value, int pe), (dest, value, pe), p, T)                             \
  F(T, N##_g, (const T *source, int pe), (source, pe), g, T)

/* Host only: strided typed calls (strides counted in elements). */
#define ISHMEMI_RMA_STRIDED_CALLS(F, T, N)                                            \
  F(int, N##_iput,                                                                    \
    (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
    (dest, source, dst, sst, nelems, pe), iput, T)                                    \
  F(int, N##_iget,                                                                    \
    (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
    (dest, source, dst, sst, nelems, pe), iget, T)

/* Host only: sized calls, X(bits, bytes) of ISHMEMX_SIZED_RMA. */
#define ISHMEMI_RMA_SIZED_CALLS(F, BITS, BYTES)                                            \
  F(int, put##BITS, (void *dest, const void *source, size_t nelems, int pe),               \
    (dest, source, nelems, pe), put_sized, BYTES)                                          \
  F(int, get##BITS, (void *dest, const void *source, size_t nelems, int pe),               \
    (dest, source, nelems, pe), get_sized, BYTES)                                          \
  F(int, put##BITS##_nbi, (void *dest, const void *source, size_t nelems, int pe),         \
    (dest, source, nelems, pe), put_sized_nbi, BYTES)                                      \
  F(int, get##BITS##_nbi, (void *dest, const void *source, size_t nelems, int pe),         \
    (dest, source, nelems, pe), get_sized_nbi, BYTES)                                      \
  F(int, iput##BITS,                                                                       \
    (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
    (dest, source, dst, sst, nelems, pe), iput_sized, BYTES)                               \
  F(int, iget##BITS,                                                                       \
    (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
    (dest, source, dst, sst, nelems, pe), iget_sized, BYTES)

/* ---- AMO (host and device) ------------------------------------------------------------------ */

/* fetch, set, swap: standard and extended AMO types. */
#define ISHMEMI_AMO_EXTENDED_CALLS(F, T, N)                                                     \
  F(T, N##_atomic_fetch, (const T *source, int pe), (source, pe), amo_fetch, T)                 \
  F(int, N##_atomic_set, (T * dest, T value, int pe), (dest, value, pe), amo_set, T)            \
  F(T, N##_atomic_swap, (T * dest, T value, int pe), (dest, value, pe), amo_swap, T)            \
  F(int, N##_atomic_fetch_nbi, (T * fetch, const T *source, int pe), (fetch, source, pe),       \
    amo_fetch_nbi, T)                                                                           \
  F(int, N##_atomic_swap_nbi, (T * fetch, T * dest, T value, int pe), (fetch, dest, value, pe), \
    amo_swap_nbi, T)

/* compare_swap, inc, add: standard AMO types. */
#define ISHMEMI_AMO_STANDARD_CALLS(F, T, N)                                                    \
  F(T, N##_atomic_compare_swap, (T * dest, T cond, T value, int pe), (dest, cond, value, pe),  \
    amo_compare_swap, T)                                                                       \
  F(int, N##_atomic_compare_swap_nbi, (T * fetch, T * dest, T cond, T value, int pe),          \
    (fetch, dest, cond, value, pe), amo_compare_swap_nbi, T)                                   \
  F(T, N##_atomic_fetch_inc, (T * dest, int pe), (dest, pe), amo_fetch_inc, T)                 \
  F(int, N##_atomic_inc, (T * dest, int pe), (dest, pe), amo_inc, T)                           \
  F(int, N##_atomic_fetch_inc_nbi, (T * fetch, T * dest, int pe), (fetch, dest, pe),           \
    amo_fetch_inc_nbi, T)                                                                      \
  F(T, N##_atomic_fetch_add, (T * dest, T value, int pe), (dest, value, pe), amo_fetch_add, T) \
  F(int, N##_atomic_add, (T * dest, T value, int pe), (dest, value, pe), amo_add, T)           \
  F(int, N##_atomic_fetch_add_nbi, (T * fetch, T * dest, T value, int pe),                     \
    (fetch, dest, value, pe), amo_fetch_add_nbi, T)

/* and, or, xor: bitwise AMO types. */
#define ISHMEMI_AMO_BITWISE_OP_CALLS(F, T, N, OP)                                                \
  F(T, N##_atomic_fetch_##OP, (T * dest, T value, int pe), (dest, value, pe), amo_fetch_##OP, T) \
  F(int, N##_atomic_##OP, (T * dest, T value, int pe), (dest, value, pe), amo_##OP, T)           \
  F(int, N##_atomic_fetch_##OP##_nbi, (T * fetch, T * dest, T value, int pe),                    \
    (fetch, dest, value, pe), amo_fetch_##OP##_nbi, T)
#define ISHMEMI_AMO_BITWISE_CALLS(F, T, N)   \
  ISHMEMI_AMO_BITWISE_OP_CALLS(F, T, N, and) \
  ISHMEMI_AMO_BITWISE_OP_CALLS(F, T, N, or)  \
  ISHMEMI_AMO_BITWISE_OP_CALLS(F, T, N, xor)

/* ---- Put with signal and signal reads (host and device) ------------------------------------- */

#define ISHMEMI_SIGNAL_PUT_CALLS(F)                                                      \
  F(int, putmem_signal,                                                                  \
    (void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal, \
     int sig_op, int pe),                                                                \
    (dest, source, nbytes, sig_addr, signal, sig_op, pe), putmem_signal, void)           \
  F(int, putmem_signal_nbi,                                                              \
    (void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal, \
     int sig_op, int pe),                                                                \
    (dest, source, nbytes, sig_addr, signal, sig_op, pe), putmem_signal_nbi, void)
#define ISHMEMI_SIGNAL_TYPED_CALLS(F, T, N)                                                     \
  F(int, N##_put_signal,                                                                        \
    (T * dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, \
     int pe),                                                                                   \
    (dest, source, nelems, sig_addr, signal, sig_op, pe), put_signal, T)                        \
  F(int, N##_put_signal_nbi,                                                                    \
    (T * dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op, \
     int pe),                                                                                   \
    (dest, source, nelems, sig_addr, signal, sig_op, pe), put_signal_nbi, T)
#define ISHMEMI_SIGNAL_READ_CALLS(F)                                                        \
  F(uint64_t, signal_fetch, (const uint64_t *sig_addr), (sig_addr), signal_fetch, uint64_t) \
  F(uint64_t, signal_wait_until, (uint64_t * sig_addr, int cmp, uint64_t cmp_value),        \
    (sig_addr, cmp, cmp_value), signal_wait_until, uint64_t)

/* ---- Wait and test (host and device), for the point-to-point types (ISHMEMX_P2P_TYPES) ------- */

#define ISHMEMI_P2P_FORM_CALLS(F, T, N, SUFFIX, TARGET, TARGET_NAME)                              \
  F(int, N##_wait_until_all##SUFFIX,                                                              \
    (T * ivars, size_t nelems, const int *status, int cmp, TARGET TARGET_NAME),                   \
    (ivars, nelems, status, cmp, TARGET_NAME), wait_until_all##SUFFIX, T)                         \
  F(size_t, N##_wait_until_any##SUFFIX,                                                           \
    (T * ivars, size_t nelems, const int *status, int cmp, TARGET TARGET_NAME),                   \
    (ivars, nelems, status, cmp, TARGET_NAME), wait_until_any##SUFFIX, T)                         \
  F(size_t, N##_wait_until_some##SUFFIX,                                                          \
    (T * ivars, size_t nelems, size_t * indices, const int *status, int cmp, TARGET TARGET_NAME), \
    (ivars, nelems, indices, status, cmp, TARGET_NAME), wait_until_some##SUFFIX, T)               \
  F(int, N##_test_all##SUFFIX,                                                                    \
    (T * ivars, size_t nelems, const int *status, int cmp, TARGET TARGET_NAME),                   \
    (ivars, nelems, status, cmp, TARGET_NAME), test_all##SUFFIX, T)                               \
  F(size_t, N##_test_any##SUFFIX,                                                                 \
    (T * ivars, size_t nelems, const int *status, int cmp, TARGET TARGET_NAME),                   \
    (ivars, nelems, status, cmp, TARGET_NAME), test_any##SUFFIX, T)                               \
  F(size_t, N##_test_some##SUFFIX,                                                                \
    (T * ivars, size_t nelems, size_t * indices, const int *status, int cmp, TARGET TARGET_NAME), \
    (ivars, nelems, indices, status, cmp, TARGET_NAME), test_some##SUFFIX, T)
#define ISHMEMI_P2P_CALLS(F, T, N)                                                                \
  F(int, N##_wait_until, (T * ivar, int cmp, T cmp_value), (ivar, cmp, cmp_value), wait_until, T) \
  F(int, N##_test, (T * ivar, int cmp, T cmp_value), (ivar, cmp, cmp_value), test, T)             \
  ISHMEMI_P2P_FORM_CALLS(F, T, N, , T, cmp_value)                                                 \
  ISHMEMI_P2P_FORM_CALLS(F, T, N, _vector, const T *, cmp_values)
