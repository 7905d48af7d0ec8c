/* Collectives on teams (OpenSHMEM 1.5 section 9.9), host-initiated and blocking, declared from
 * the signature lists below. Included by ishmem.h; not meant to be included alone.
 *
 * Every PE of `team` calls the same collective, in the same order, with the same nelems and
 * root (collect: nelems may differ). dest and source are symmetric; they must not overlap,
 * except that a reduction may run in place (dest == source). Each call returns
 * ISHMEM_SUCCESS or a negative ISHMEM_ERR_*; PEs that called different collectives, or the
 * same one with different sizes or roots, get ISHMEM_ERR_MISMATCH (docs/COLLECTIVES.md says
 * which mismatches are found always and which only under ISHMEM_DEBUG=1). On return dest
 * holds the result and source may be reused. The _mem forms count bytes.
 *
 * ishmemx_<name>_on_stream: the same collective, enqueued on `stream` (a cudaStream_t or
 * hipStream_t as void*, NULL: the default stream) with a GPU backend: it returns once the
 * arguments are checked, and dest holds the result when the stream reaches that point. Teams
 * of at most ISHMEMX_DEVICE_TEAM_MAX_PES PEs; long double and complex types return
 * ISHMEM_ERR_UNSUPPORTED. With the host backend it runs the blocking call at once. Host calls
 * on a GPU heap run the same device algorithm and wait for it; device forms, stream-ordered
 * and host calls on one team form one sequence (docs/COLLECTIVES.md). */

/* The signature lists, F(RETURN, STEM, (PARAMETERS), (ARGUMENTS), OP, TARG): each entry is
 * the host call ishmem_STEM, the stream-ordered ishmemx_STEM_on_stream (PARAMETERS, then a
 * stream) and the device forms ishmemx_STEM_warp, _block and _grid (ishmem/device.h); the
 * implementations are OP<TARG>. Read again each time (no guard) so that the library and the
 * device headers can keep them. */
#ifndef ISHMEMI_COLLECTIVE_BYTES_CALLS
#define ISHMEMI_COLLECTIVE_BYTES_CALLS(F)                                                  \
  F(int, broadcastmem,                                                                     \
    (ishmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root),      \
    (team, dest, source, nelems, PE_root), broadcast, void)                                \
  F(int, collectmem, (ishmem_team_t team, void *dest, const void *source, size_t nelems),  \
    (team, dest, source, nelems), collect, void)                                           \
  F(int, fcollectmem, (ishmem_team_t team, void *dest, const void *source, size_t nelems), \
    (team, dest, source, nelems), fcollect, void)                                          \
  F(int, alltoallmem, (ishmem_team_t team, void *dest, const void *source, size_t nelems), \
    (team, dest, source, nelems), alltoall, void)                                          \
  F(int, alltoallsmem,                                                                     \
    (ishmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,     \
     size_t nelems),                                                                       \
    (team, dest, source, dst, sst, nelems), alltoalls, void)

/* For every RMA type (ISHMEMX_RMA_TYPES). */
#define ISHMEMI_COLLECTIVE_TYPED_CALLS(F, T, N)                                                   \
  F(int, N##_broadcast,                                                                           \
    (ishmem_team_t team, T * dest, const T *source, size_t nelems, int PE_root),                  \
    (team, dest, source, nelems, PE_root), broadcast, T)                                          \
  F(int, N##_collect, (ishmem_team_t team, T * dest, const T *source, size_t nelems),             \
    (team, dest, source, nelems), collect, T)                                                     \
  F(int, N##_fcollect, (ishmem_team_t team, T * dest, const T *source, size_t nelems),            \
    (team, dest, source, nelems), fcollect, T)                                                    \
  F(int, N##_alltoall, (ishmem_team_t team, T * dest, const T *source, size_t nelems),            \
    (team, dest, source, nelems), alltoall, T)                                                    \
  F(int, N##_alltoalls,                                                                           \
    (ishmem_team_t team, T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems), \
    (team, dest, source, dst, sst, nelems), alltoalls, T)

/* One reduction OP (and, or, xor, max, min, sum, prod) of type T. */
#define ISHMEMI_REDUCE_CALL(F, T, N, OP)                                                     \
  F(int, N##_##OP##_reduce, (ishmem_team_t team, T * dest, const T *source, size_t nreduce), \
    (team, dest, source, nreduce), OP##_reduce, T)
#define ISHMEMI_REDUCE_BITWISE_CALLS(F, T, N) \
  ISHMEMI_REDUCE_CALL(F, T, N, and)           \
  ISHMEMI_REDUCE_CALL(F, T, N, or)            \
  ISHMEMI_REDUCE_CALL(F, T, N, xor)
#define ISHMEMI_REDUCE_MINMAX_CALLS(F, T, N) \
  ISHMEMI_REDUCE_CALL(F, T, N, max)          \
  ISHMEMI_REDUCE_CALL(F, T, N, min)
#define ISHMEMI_REDUCE_ARITH_CALLS(F, T, N) \
  ISHMEMI_REDUCE_CALL(F, T, N, sum)         \
  ISHMEMI_REDUCE_CALL(F, T, N, prod)
#endif /* ISHMEMI_COLLECTIVE_BYTES_CALLS */

#ifndef ISHMEM_COLLECTIVES_H
#define ISHMEM_COLLECTIVES_H

#include <stddef.h>

#include "ishmem/team.h"
#include "ishmem/types.h"

/* The device collectives' limits: a _grid form runs on at most this many blocks, and the
 * device and stream-ordered forms take teams of at most this many PEs. */
#define ISHMEMX_GRID_MAX_BLOCKS 16
#define ISHMEMX_DEVICE_TEAM_MAX_PES 32

#ifdef __cplusplus
extern "C" {
#endif

/* The host call and its stream-ordered twin. */
#define ISHMEMI_DECLARE_COLLECTIVE(RET, STEM, PARAMS, ARGS, OP, TARG) \
  RET ishmem_##STEM PARAMS;                                           \
  RET ishmemx_##STEM##_on_stream(ISHMEMI_UNPAREN PARAMS, void *stream);

/* broadcastmem, broadcast: dest on every PE of the team, PE_root's included, gets PE_root's
 * source (PE_root is a team index). collectmem, collect: dest gets every PE's nelems of
 * source, concatenated in team order (nelems may differ between PEs). fcollectmem, fcollect:
 * the same with equal nelems. alltoallmem, alltoall: block j of dest (nelems each) gets block
 * `this PE's index` of PE j's source. alltoallsmem, alltoalls: the same with element strides
 * dst and sst (positive; the _mem form counts bytes): element k of the block from PE j lands
 * at dest[(j * nelems + k) * dst], read from source[(i * nelems + k) * sst] of PE j, where i
 * is this PE's index. */
#define ISHMEMI_DECLARE_COLLECTIVES(T, N) \
  ISHMEMI_COLLECTIVE_TYPED_CALLS(ISHMEMI_DECLARE_COLLECTIVE, T, N)
ISHMEMI_COLLECTIVE_BYTES_CALLS(ISHMEMI_DECLARE_COLLECTIVE)
ISHMEMX_RMA_TYPES(ISHMEMI_DECLARE_COLLECTIVES)
#undef ISHMEMI_DECLARE_COLLECTIVES

/* ishmem_<type>_<op>_reduce: dest[i] = source[i] of every PE of the team combined by op, for
 * i < nreduce, the same on every PE. dest == source is allowed (in place); other overlap is
 * not. and, or, xor: ISHMEMX_REDUCE_BITWISE_TYPES; max, min: ISHMEMX_REDUCE_MINMAX_TYPES;
 * sum, prod: ISHMEMX_REDUCE_ARITH_TYPES (integers wrap around). */
#define ISHMEMI_DECLARE_REDUCE_BITWISE(T, N) \
  ISHMEMI_REDUCE_BITWISE_CALLS(ISHMEMI_DECLARE_COLLECTIVE, T, N)
#define ISHMEMI_DECLARE_REDUCE_MINMAX(T, N) \
  ISHMEMI_REDUCE_MINMAX_CALLS(ISHMEMI_DECLARE_COLLECTIVE, T, N)
#define ISHMEMI_DECLARE_REDUCE_ARITH(T, N) \
  ISHMEMI_REDUCE_ARITH_CALLS(ISHMEMI_DECLARE_COLLECTIVE, T, N)
ISHMEMX_REDUCE_BITWISE_TYPES(ISHMEMI_DECLARE_REDUCE_BITWISE)
ISHMEMX_REDUCE_MINMAX_TYPES(ISHMEMI_DECLARE_REDUCE_MINMAX)
ISHMEMX_REDUCE_ARITH_TYPES(ISHMEMI_DECLARE_REDUCE_ARITH)
#undef ISHMEMI_DECLARE_REDUCE_BITWISE
#undef ISHMEMI_DECLARE_REDUCE_MINMAX
#undef ISHMEMI_DECLARE_REDUCE_ARITH
#undef ISHMEMI_DECLARE_COLLECTIVE

/* Stream-ordered team barrier (see ishmem_team_sync). */
int ishmemx_team_sync_on_stream(ishmem_team_t team, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* ISHMEM_COLLECTIVES_H */

/* The library defines ISHMEMI_KEEP_COLLECTIVE_LISTS to define its calls from the lists. */
#ifndef ISHMEMI_KEEP_COLLECTIVE_LISTS
#undef ISHMEMI_COLLECTIVE_BYTES_CALLS
#undef ISHMEMI_COLLECTIVE_TYPED_CALLS
#undef ISHMEMI_REDUCE_CALL
#undef ISHMEMI_REDUCE_BITWISE_CALLS
#undef ISHMEMI_REDUCE_MINMAX_CALLS
#undef ISHMEMI_REDUCE_ARITH_CALLS
#endif
