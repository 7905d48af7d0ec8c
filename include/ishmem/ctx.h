/* Communication contexts, locks and thread levels (OpenSHMEM 1.5 sections 9.4, 9.2.2, 9.11),
 * host API. Included by ishmem.h; not meant to be included alone. docs/CONTEXTS.md describes
 * what a context's quiet completes on each transport. */
#ifndef ISHMEM_CTX_H
#define ISHMEM_CTX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Contexts ---------------------------------------------------------------------------- */

/* A context: an ordered stream of RMA, atomics and signals that ishmem_ctx_quiet and
 * ishmem_ctx_fence complete and order on their own. */
typedef struct ishmemi_ctx *ishmem_ctx_t;
extern struct ishmemi_ctx ishmemi_ctx_default_object;
/* The context of the calls without ctx (ishmem_putmem, ishmem_quiet, ...), over TEAM_WORLD. */
#define ISHMEM_CTX_DEFAULT ((ishmem_ctx_t)&ishmemi_ctx_default_object)
/* What a failed create returns; every call with it fails with ISHMEM_ERR_INVALID_ARG. */
#define ISHMEM_CTX_INVALID ((ishmem_ctx_t)0)

/* Options of ishmem_ctx_create, to be or'ed: hints that the program keeps (one thread at a
 * time; only the creating thread; no stores to complete by quiet). Other bits are an error. */
enum { ISHMEM_CTX_SERIALIZED = 1, ISHMEM_CTX_PRIVATE = 2, ISHMEM_CTX_NOSTORE = 4 };

/* A new context over ISHMEM_TEAM_WORLD. Not collective. On error *ctx = ISHMEM_CTX_INVALID. */
int ishmem_ctx_create(long options, ishmem_ctx_t *ctx);
/* A new context over `team`: its calls take PE numbers of the team (an out-of-team PE is
 * ISHMEM_ERR_INVALID_PE). Not collective. On error *ctx = ISHMEM_CTX_INVALID. On
 * ISHMEM_TEAM_INVALID: ISHMEM_CTX_INVALID and ISHMEM_ERR_INVALID_ARG, with no error report
 * (OpenSHMEM 1.5 defines it: a PE outside a split's new team reaches it). */
int ishmem_team_create_ctx(ishmem_team_t team, long options, ishmem_ctx_t *ctx);
/* Completes the context's operations (as ishmem_ctx_quiet), then frees it. The default
 * context cannot be destroyed; a destroyed context is invalid afterwards. ISHMEM_CTX_INVALID:
 * nothing is done and the return is ISHMEM_SUCCESS (OpenSHMEM 1.5), as for the quiet and
 * fence below. */
int ishmem_ctx_destroy(ishmem_ctx_t ctx);
/* The team the context was made from (ISHMEM_TEAM_WORLD for the default and for
 * ishmem_ctx_create); ISHMEM_TEAM_INVALID and an error for an invalid context, without the
 * error report for ISHMEM_CTX_INVALID itself (OpenSHMEM 1.5 defines that case). */
int ishmem_ctx_get_team(ishmem_ctx_t ctx, ishmem_team_t *team);
/* Completes (quiet) or orders (fence) the operations issued on `ctx`. */
int ishmem_ctx_quiet(ishmem_ctx_t ctx);
int ishmem_ctx_fence(ishmem_ctx_t ctx);

/* Every RMA, atomic and put-with-signal call with a context first:
 * ishmem_ctx_<name>(ctx, <the parameters of ishmem_<name>>), e.g.
 * ishmem_ctx_long_put(ctx, dest, source, nelems, pe). Host only. */
#define ISHMEMI_DECLARE_CTX(RET, STEM, PARAMS, ARGS, OP, TARG) \
  RET ishmem_ctx_##STEM(ishmem_ctx_t ctx, ISHMEMI_UNPAREN PARAMS);
#define ISHMEMI_DECLARE_CTX_TYPED(T, N)                \
  ISHMEMI_RMA_TYPED_CALLS(ISHMEMI_DECLARE_CTX, T, N)   \
  ISHMEMI_RMA_STRIDED_CALLS(ISHMEMI_DECLARE_CTX, T, N) \
  ISHMEMI_SIGNAL_TYPED_CALLS(ISHMEMI_DECLARE_CTX, T, N)
#define ISHMEMI_DECLARE_CTX_SIZED(BITS, BYTES) \
  ISHMEMI_RMA_SIZED_CALLS(ISHMEMI_DECLARE_CTX, BITS, BYTES)
#define ISHMEMI_DECLARE_CTX_AMO_EXTENDED(T, N) ISHMEMI_AMO_EXTENDED_CALLS(ISHMEMI_DECLARE_CTX, T, N)
#define ISHMEMI_DECLARE_CTX_AMO_STANDARD(T, N) ISHMEMI_AMO_STANDARD_CALLS(ISHMEMI_DECLARE_CTX, T, N)
#define ISHMEMI_DECLARE_CTX_AMO_BITWISE(T, N) ISHMEMI_AMO_BITWISE_CALLS(ISHMEMI_DECLARE_CTX, T, N)
ISHMEMI_RMA_BYTES_CALLS(ISHMEMI_DECLARE_CTX)
ISHMEMI_SIGNAL_PUT_CALLS(ISHMEMI_DECLARE_CTX)
ISHMEMX_RMA_TYPES(ISHMEMI_DECLARE_CTX_TYPED)
ISHMEMX_SIZED_RMA(ISHMEMI_DECLARE_CTX_SIZED)
ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_DECLARE_CTX_AMO_EXTENDED)
ISHMEMX_AMO_EXTENDED_ONLY_TYPES(ISHMEMI_DECLARE_CTX_AMO_EXTENDED)
ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_DECLARE_CTX_AMO_STANDARD)
ISHMEMX_AMO_BITWISE_TYPES(ISHMEMI_DECLARE_CTX_AMO_BITWISE)
#undef ISHMEMI_DECLARE_CTX_TYPED
#undef ISHMEMI_DECLARE_CTX_SIZED
#undef ISHMEMI_DECLARE_CTX_AMO_EXTENDED
#undef ISHMEMI_DECLARE_CTX_AMO_STANDARD
#undef ISHMEMI_DECLARE_CTX_AMO_BITWISE
#undef ISHMEMI_DECLARE_CTX

/* ---- Distributed locks ------------------------------------------------------------------- */

/* `lock` is a symmetric long, 0 before first use; the lock word lives on PE 0. Locks are
 * granted in the order they were asked for (a ticket lock). set_lock waits for it;
 * test_lock takes it only if it is free: 0 = acquired, 1 = held by another, <0 an error.
 * clear_lock completes this PE's puts (quiet) before the next holder may enter. */
int ishmem_set_lock(long *lock);
int ishmem_test_lock(long *lock);
int ishmem_clear_lock(long *lock);

/* ---- Thread levels ----------------------------------------------------------------------- */

enum {
  ISHMEM_THREAD_SINGLE = 0,
  ISHMEM_THREAD_FUNNELED = 1,
  ISHMEM_THREAD_SERIALIZED = 2,
  ISHMEM_THREAD_MULTIPLE = 3
};
/* ishmem_init with a thread level: *provided gets the highest level <= requested that both
 * MPI and ishmem give (MPI is started at the matching MPI_THREAD_* level, or asked with
 * MPI_Query_thread when the program started it). */
int ishmem_init_thread(int requested, int *provided);
/* The level the library was initialized with (ishmem_init: SINGLE when it started MPI, else
 * MPI's level). */
int ishmem_query_thread(int *provided);

#ifdef __cplusplus
}
#endif

#endif /* ISHMEM_CTX_H */
