/* The calls OpenSHMEM 1.5 keeps as deprecated (its annex of deprecated interfaces): the
 * collectives over an active set, the sized collectives, TYPE_OP_to_all, the pSync/pWrk
 * constants, ishmem_pcontrol and ishmem_malloc_with_hints. Included by ishmem.h; not meant to
 * be included alone. New code should use the team collectives of ishmem/collectives.h.
 *
 * An active set is the PEs PE_start + i * 2^logPE_stride for 0 <= i < PE_size, all inside
 * [0, n_pes), the calling PE among them. Every call over an active set is collective over its
 * members only (the other PEs do not call), which make the same call in the same order with the
 * same set. The first call over a set makes an MPI communicator of its members, kept until
 * ishmem_finalize. source and dest are this PE's own memory (heap, static or any host memory:
 * the data moves with MPI's collectives on these buffers); on a GPU heap, heap buffers are
 * refused with ISHMEM_ERR_UNSUPPORTED (use the team collectives). pSync and pWrk are accepted
 * and never read or written: ishmem needs no scratch from the program, so pSync keeps the
 * ISHMEM_SYNC_VALUE the program stored, and the calls need not alternate pSync arrays. Each
 * call returns ISHMEM_SUCCESS or a negative ISHMEM_ERR_* (void in OpenSHMEM). */

/* The signature lists, F(RETURN, STEM, (PARAMETERS), (ARGUMENTS), OP, TARG) as in
 * ishmem/detail/signatures.h: each entry is the host call ishmem_STEM, implemented by
 * OP<TARG>. Read again each time (no guard), like the collective lists. */
#ifndef ISHMEMI_TO_ALL_CALLS
/* collect, fcollect, alltoall: blocks of nelems BITS-bit elements per member. */
#define ISHMEMI_ACTIVE_SET_BLOCKS_CALL(F, KIND, BITS, BYTES)                                     \
  F(int, KIND##BITS,                                                                             \
    (void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size, \
     long *pSync),                                                                               \
    (dest, source, nelems, PE_start, logPE_stride, PE_size, pSync), set_##KIND, BYTES)
/* The sized collectives over an active set: X(bits, bytes) for 32 and 64. */
#define ISHMEMI_ACTIVE_SET_SIZED_CALLS(F, BITS, BYTES)                                             \
  F(int, broadcast##BITS,                                                                          \
    (void *dest, const void *source, size_t nelems, int PE_root, int PE_start, int logPE_stride,   \
     int PE_size, long *pSync),                                                                    \
    (dest, source, nelems, PE_root, PE_start, logPE_stride, PE_size, pSync), set_broadcast, BYTES) \
  ISHMEMI_ACTIVE_SET_BLOCKS_CALL(F, collect, BITS, BYTES)                                          \
  ISHMEMI_ACTIVE_SET_BLOCKS_CALL(F, fcollect, BITS, BYTES)                                         \
  ISHMEMI_ACTIVE_SET_BLOCKS_CALL(F, alltoall, BITS, BYTES)                                         \
  F(int, alltoalls##BITS,                                                                          \
    (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,    \
     int logPE_stride, int PE_size, long *pSync),                                                  \
    (dest, source, dst, sst, nelems, PE_start, logPE_stride, PE_size, pSync), set_alltoalls,       \
    BYTES)

/* One TYPE_OP_to_all call. */
#define ISHMEMI_TO_ALL_CALL(F, T, N, OP)                                                           \
  F(int, N##_##OP##_to_all,                                                                        \
    (T * dest, const T *source, int nreduce, int PE_start, int logPE_stride, int PE_size, T *pWrk, \
     long *pSync),                                                                                 \
    (dest, source, nreduce, PE_start, logPE_stride, PE_size, pWrk, pSync), OP##_to_all, T)
#define ISHMEMI_TO_ALL_ARITH_CALLS(F, T, N) \
  ISHMEMI_TO_ALL_CALL(F, T, N, sum)         \
  ISHMEMI_TO_ALL_CALL(F, T, N, prod)
#define ISHMEMI_TO_ALL_REAL_CALLS(F, T, N) \
  ISHMEMI_TO_ALL_CALL(F, T, N, max)        \
  ISHMEMI_TO_ALL_CALL(F, T, N, min)        \
  ISHMEMI_TO_ALL_ARITH_CALLS(F, T, N)
#define ISHMEMI_TO_ALL_INTEGER_CALLS(F, T, N) \
  ISHMEMI_TO_ALL_CALL(F, T, N, and)           \
  ISHMEMI_TO_ALL_CALL(F, T, N, or)            \
  ISHMEMI_TO_ALL_CALL(F, T, N, xor)           \
  ISHMEMI_TO_ALL_REAL_CALLS(F, T, N)
/* OpenSHMEM 1.5's table of the deprecated reductions: and, or, xor on short, int, long,
 * long long; max, min on those and float, double, long double; sum, prod on all of
 * those and the complex types. */
#define ISHMEMI_TO_ALL_CALLS(F)                           \
  ISHMEMI_TO_ALL_INTEGER_CALLS(F, short, short)           \
  ISHMEMI_TO_ALL_INTEGER_CALLS(F, int, int)               \
  ISHMEMI_TO_ALL_INTEGER_CALLS(F, long, long)             \
  ISHMEMI_TO_ALL_INTEGER_CALLS(F, long long, longlong)    \
  ISHMEMI_TO_ALL_REAL_CALLS(F, float, float)              \
  ISHMEMI_TO_ALL_REAL_CALLS(F, double, double)            \
  ISHMEMI_TO_ALL_REAL_CALLS(F, long double, longdouble)   \
  ISHMEMI_TO_ALL_ARITH_CALLS(F, float _Complex, complexf) \
  ISHMEMI_TO_ALL_ARITH_CALLS(F, double _Complex, complexd)
#endif /* ISHMEMI_TO_ALL_CALLS */

#ifndef ISHMEM_DEPRECATED_H
#define ISHMEM_DEPRECATED_H

#include <stddef.h>

/* The pSync and pWrk sizes (in longs and elements). ishmem touches neither array, so one
 * element is enough; programs that size their arrays with these constants keep working. */
#define ISHMEM_SYNC_VALUE 0L
#define ISHMEM_SYNC_SIZE 1
#define ISHMEM_BARRIER_SYNC_SIZE 1
#define ISHMEM_BCAST_SYNC_SIZE 1
#define ISHMEM_REDUCE_SYNC_SIZE 1
#define ISHMEM_REDUCE_MIN_WRKDATA_SIZE 1
#define ISHMEM_COLLECT_SYNC_SIZE 1
#define ISHMEM_ALLTOALL_SYNC_SIZE 1
#define ISHMEM_ALLTOALLS_SYNC_SIZE 1

/* Hints of ishmem_malloc_with_hints (OR them). */
enum { ISHMEM_MALLOC_ATOMICS_REMOTE = 1, ISHMEM_MALLOC_SIGNAL_REMOTE = 2 };

#ifdef __cplusplus
extern "C" {
#endif

#define ISHMEMI_DECLARE_DEPRECATED(RET, STEM, PARAMS, ARGS, OP, TARG) RET ishmem_##STEM PARAMS;

/* Over the active set: ishmem_barrier completes this PE's puts, AMOs and non-blocking calls
 * (as ishmem_quiet) and waits for every member; ishmem_sync only waits. */
int ishmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
int ishmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

/* ishmem_broadcast32/64: dest of every member but the root gets nelems 32- or 64-bit elements
 * of the root's source; PE_root is an index in the active set (0 <= PE_root < PE_size), and
 * the root's dest is left as it was. ishmem_collect32/64: dest gets every member's source
 * (nelems may differ between members) concatenated in set order; ishmem_fcollect32/64: the
 * same with equal nelems. ishmem_alltoall32/64: block j of dest (nelems elements) gets block i
 * of member j's source, i being this PE's index in the set. ishmem_alltoalls32/64: the same
 * with element strides dst and sst (> 0): element k of the block from member j lands at
 * dest[(j * nelems + k) * dst], read from its source[(i * nelems + k) * sst]. */
#define ISHMEMI_DECLARE_ACTIVE_SET_SIZED(BITS, BYTES) \
  ISHMEMI_ACTIVE_SET_SIZED_CALLS(ISHMEMI_DECLARE_DEPRECATED, BITS, BYTES)
ISHMEMI_DECLARE_ACTIVE_SET_SIZED(32, 4)
ISHMEMI_DECLARE_ACTIVE_SET_SIZED(64, 8)
#undef ISHMEMI_DECLARE_ACTIVE_SET_SIZED

/* ishmem_TYPE_OP_to_all: dest[i] = source[i] of every member combined by OP, for
 * 0 <= i < nreduce (>= 0), the same on every member; dest == source is allowed (in place),
 * other overlap is not. Integer sums and products wrap around. */
ISHMEMI_TO_ALL_CALLS(ISHMEMI_DECLARE_DEPRECATED)
#undef ISHMEMI_DECLARE_DEPRECATED

/* Accepts any level and arguments and does nothing: ishmem has no profiling interface to
 * control. Variadic, as OpenSHMEM's shmem_pcontrol. */
int ishmem_pcontrol(int level, ...);
/* ishmem_malloc with usage hints (ISHMEM_MALLOC_*, or 0): collective like ishmem_malloc, with
 * the same checks; the hints change nothing in where the memory goes. Bits that are no
 * ISHMEM_MALLOC_* hint are no hint either (OpenSHMEM 1.5: a hint the library cannot act on
 * leaves the call an ishmem_malloc); ISHMEM_DEBUG logs the first such call. */
void *ishmem_malloc_with_hints(size_t size, long hints);

#ifdef __cplusplus
}
#endif

#endif /* ISHMEM_DEPRECATED_H */

/* The library and shmem.h define ISHMEMI_KEEP_COLLECTIVE_LISTS to generate from the lists. */
#ifndef ISHMEMI_KEEP_COLLECTIVE_LISTS
#include "ishmem/detail/deprecated_end.h"
#endif
