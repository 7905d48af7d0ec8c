/* Collectives on teams (OpenSHMEM 1.5 section 9.9), host-initiated and blocking, declared from
 * the signature lists below. Included by ishmem.h; not meant to be included alone.
 *
 * Every PE of `team` calls the same collective, in the same order, with the same nelems and
 * root (collect: nelems may differ). dest and source are symmetric; they must not overlap,
 * except that a reduction may run in place (dest == source). Each call returns
 * ISHMEM_SUCCESS or a negative ISHMEM_ERR_*; PEs that called different collectives, or the
 * same one with different sizes or roots, get ISHMEM_ERR_MISMATCH (docs/COLLECTIVES.md says
 * which mismatches are found always and which only under ISHMEM_DEBUG=1). On return dest
 * holds the result and source may be reused. The _mem forms count bytes. */

/* The signature lists, F(RETURN, NAME, (PARAMETERS), (ARGUMENTS), OP, TARG) as in
 * ishmem/detail/signatures.h: the library defines each NAME as host::OP<TARG>("NAME",
 * ARGUMENTS...). Read again each time (no guard) so that the library can keep them. */
#ifndef ISHMEMI_COLLECTIVE_BYTES_CALLS
#define ISHMEMI_COLLECTIVE_BYTES_CALLS(F)                                                         \
  F(int, ishmem_broadcastmem,                                                                     \
    (ishmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root),             \
    (team, dest, source, nelems, PE_root), broadcast, void)                                       \
  F(int, ishmem_collectmem, (ishmem_team_t team, void *dest, const void *source, size_t nelems),  \
    (team, dest, source, nelems), collect, void)                                                  \
  F(int, ishmem_fcollectmem, (ishmem_team_t team, void *dest, const void *source, size_t nelems), \
    (team, dest, source, nelems), fcollect, void)                                                 \
  F(int, ishmem_alltoallmem, (ishmem_team_t team, void *dest, const void *source, size_t nelems), \
    (team, dest, source, nelems), alltoall, void)                                                 \
  F(int, ishmem_alltoallsmem,                                                                     \
    (ishmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,            \
     size_t nelems),                                                                              \
    (team, dest, source, dst, sst, nelems), alltoalls, void)

/* For every RMA type (ISHMEMX_RMA_TYPES). */
#define ISHMEMI_COLLECTIVE_TYPED_CALLS(F, T, N)                                                   \
  F(int, ishmem_##N##_broadcast,                                                                  \
    (ishmem_team_t team, T * dest, const T *source, size_t nelems, int PE_root),                  \
    (team, dest, source, nelems, PE_root), broadcast, T)                                          \
  F(int, ishmem_##N##_collect, (ishmem_team_t team, T * dest, const T *source, size_t nelems),    \
    (team, dest, source, nelems), collect, T)                                                     \
  F(int, ishmem_##N##_fcollect, (ishmem_team_t team, T * dest, const T *source, size_t nelems),   \
    (team, dest, source, nelems), fcollect, T)                                                    \
  F(int, ishmem_##N##_alltoall, (ishmem_team_t team, T * dest, const T *source, size_t nelems),   \
    (team, dest, source, nelems), alltoall, T)                                                    \
  F(int, ishmem_##N##_alltoalls,                                                                  \
    (ishmem_team_t team, T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems), \
    (team, dest, source, dst, sst, nelems), alltoalls, T)

/* One reduction OP (and, or, xor, max, min, sum, prod) of type T. */
#define ISHMEMI_REDUCE_CALL(F, T, N, OP)                             \
  F(int, ishmem_##N##_##OP##_reduce,                                 \
    (ishmem_team_t team, T * dest, const T *source, size_t nreduce), \
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

#ifdef __cplusplus
extern "C" {
#endif

/* broadcastmem, broadcast: dest on every PE of the team, PE_root's included, gets PE_root's
 * source (PE_root is a team index). collectmem, collect: dest gets every PE's nelems of
 * source, concatenated in team order (nelems may differ between PEs). fcollectmem, fcollect:
 * the same with equal nelems. alltoallmem, alltoall: block j of dest (nelems each) gets block
 * `this PE's index` of PE j's source. alltoallsmem, alltoalls: the same with element strides
 * dst and sst (positive; the _mem form counts bytes): element k of the block from PE j lands
 * at dest[(j * nelems + k) * dst], read from source[(i * nelems + k) * sst] of PE j, where i
 * is this PE's index. */
#define ISHMEMI_DECLARE_COLLECTIVES(T, N) ISHMEMI_COLLECTIVE_TYPED_CALLS(ISHMEMI_DECLARE, T, N)
ISHMEMI_COLLECTIVE_BYTES_CALLS(ISHMEMI_DECLARE)
ISHMEMX_RMA_TYPES(ISHMEMI_DECLARE_COLLECTIVES)
#undef ISHMEMI_DECLARE_COLLECTIVES

/* ishmem_<type>_<op>_reduce: dest[i] = source[i] of every PE of the team combined by op, for
 * i < nreduce, the same on every PE. dest == source is allowed (in place); other overlap is
 * not. and, or, xor: ISHMEMX_REDUCE_BITWISE_TYPES; max, min: ISHMEMX_REDUCE_MINMAX_TYPES;
 * sum, prod: ISHMEMX_REDUCE_ARITH_TYPES (integers wrap around). */
#define ISHMEMI_DECLARE_REDUCE_BITWISE(T, N) ISHMEMI_REDUCE_BITWISE_CALLS(ISHMEMI_DECLARE, T, N)
#define ISHMEMI_DECLARE_REDUCE_MINMAX(T, N) ISHMEMI_REDUCE_MINMAX_CALLS(ISHMEMI_DECLARE, T, N)
#define ISHMEMI_DECLARE_REDUCE_ARITH(T, N) ISHMEMI_REDUCE_ARITH_CALLS(ISHMEMI_DECLARE, T, N)
ISHMEMX_REDUCE_BITWISE_TYPES(ISHMEMI_DECLARE_REDUCE_BITWISE)
ISHMEMX_REDUCE_MINMAX_TYPES(ISHMEMI_DECLARE_REDUCE_MINMAX)
ISHMEMX_REDUCE_ARITH_TYPES(ISHMEMI_DECLARE_REDUCE_ARITH)
#undef ISHMEMI_DECLARE_REDUCE_BITWISE
#undef ISHMEMI_DECLARE_REDUCE_MINMAX
#undef ISHMEMI_DECLARE_REDUCE_ARITH

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
