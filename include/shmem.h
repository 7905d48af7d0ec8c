/* shmem.h: the OpenSHMEM 1.5 interface over ishmem, so that programs written for other
 * OpenSHMEM implementations build unchanged (docs/OPENSHMEM.md).
 *
 * Every shmem_X is a static inline wrapper of ishmem_X, generated from the same signature lists
 * as the ishmem_ API, with OpenSHMEM's return types. The ishmem_ calls return a status where
 * OpenSHMEM returns nothing; here such a failure goes to ishmemx_shmem_failed, which by default
 * prints the error and stops the job (ISHMEM_SHMEM_ERRORS=return lets the program go on; then
 * ishmemx_last_status() and ishmemx_last_error() say what failed). A program that defines
 * ISHMEMX_SHMEM_STATUS before including this header gets those calls declared int, returning
 * the status. Calls that return a value (shmem_TYPE_g, the fetching atomics, the tests) follow
 * the same policy; calls that OpenSHMEM declares int (collectives, team splits) return
 * ishmem's status as it is, nonzero on failure. */
#ifndef SHMEM_H
#define SHMEM_H

#include "ishmem.h"
#define ISHMEMI_KEEP_COLLECTIVE_LISTS
#include "ishmem/collectives.h"       /* the collectives' lists, kept */
#include "ishmem/deprecated.h"        /* the active-set and to_all lists, kept */
#include "ishmem/detail/signatures.h" /* the lists again: ishmem.h's end undefined them */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Constants and types ---------------------------------------------------------------- */

#define SHMEM_MAJOR_VERSION ISHMEM_MAJOR_VERSION
#define SHMEM_MINOR_VERSION ISHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN ISHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING ISHMEM_VENDOR_STRING
#define SHMEM_CMP_EQ ISHMEM_CMP_EQ
#define SHMEM_CMP_NE ISHMEM_CMP_NE
#define SHMEM_CMP_GT ISHMEM_CMP_GT
#define SHMEM_CMP_GE ISHMEM_CMP_GE
#define SHMEM_CMP_LT ISHMEM_CMP_LT
#define SHMEM_CMP_LE ISHMEM_CMP_LE
#define SHMEM_SIGNAL_SET ISHMEM_SIGNAL_SET
#define SHMEM_SIGNAL_ADD ISHMEM_SIGNAL_ADD
#define SHMEM_TEAM_WORLD ISHMEM_TEAM_WORLD
#define SHMEM_TEAM_SHARED ISHMEM_TEAM_SHARED
#define SHMEM_TEAM_INVALID ISHMEM_TEAM_INVALID
#define SHMEM_TEAM_NUM_CONTEXTS ISHMEM_TEAM_NUM_CONTEXTS
typedef ishmem_team_t shmem_team_t;
typedef ishmem_team_config_t shmem_team_config_t;

/* ---- The wrappers' machinery (undefined at the end) ------------------------------------- */

#ifdef ISHMEMX_SHMEM_STATUS
#define ISHMEMI_SHMEM_VOID int
#define ISHMEMI_SHMEM_RETURN(rc) return rc
#else
#define ISHMEMI_SHMEM_VOID void
#define ISHMEMI_SHMEM_RETURN(rc) (void)(rc)
#endif
#if defined(__GNUC__) || defined(__clang__)
#define ISHMEMI_SHMEM_FAILED(x) __builtin_expect(!!(x), 0)
#else
#define ISHMEMI_SHMEM_FAILED(x) (x)
#endif

/* A call that is void in OpenSHMEM: the status is tested inline, the policy is out of line. */
#define ISHMEMI_SHMEM_WRAP_VOID_(RET, NAME, CALL, PARAMS, ARGS) \
  static inline ISHMEMI_SHMEM_VOID NAME PARAMS {                \
    int ishmemi_rc = CALL ARGS;                                 \
    if (ISHMEMI_SHMEM_FAILED(ishmemi_rc < 0))                   \
      ishmemi_rc = ishmemx_shmem_failed(ishmemi_rc, #NAME);     \
    ISHMEMI_SHMEM_RETURN(ishmemi_rc);                           \
  }
/* A call that returns a value: it failed when this thread's error count moved across it. */
#define ISHMEMI_SHMEM_WRAP_VALUE_(RET, NAME, CALL, PARAMS, ARGS)       \
  static inline RET NAME PARAMS {                                      \
    unsigned long ishmemi_errors = ishmemx_error_count();              \
    RET ishmemi_value = CALL ARGS;                                     \
    if (ISHMEMI_SHMEM_FAILED(ishmemx_error_count() != ishmemi_errors)) \
      ishmemx_shmem_failed(ishmemx_last_status(), #NAME);              \
    return ishmemi_value;                                              \
  }
/* A call whose OpenSHMEM form returns the status (or a value that is never an error). */
#define ISHMEMI_SHMEM_WRAP_PASS_(RET, NAME, CALL, PARAMS, ARGS) \
  static inline RET NAME PARAMS {                               \
    return CALL ARGS;                                           \
  }

/* Which wrapper an entry of the lists gets, by its operation: the operations listed here
 * return a value in OpenSHMEM; every other int-returning entry is void there. */
#define ISHMEMI_SHMEM_VALUE_g ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_amo_fetch ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_amo_swap ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_amo_compare_swap ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_amo_fetch_inc ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_amo_fetch_add ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_amo_fetch_and ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_amo_fetch_or ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_amo_fetch_xor ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_signal_fetch ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_signal_wait_until ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_test ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_test_all ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_test_any ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_test_some ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_test_all_vector ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_test_any_vector ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_test_some_vector ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_wait_until_any ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_wait_until_some ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_wait_until_any_vector ~, VALUE_
#define ISHMEMI_SHMEM_VALUE_wait_until_some_vector ~, VALUE_
#define ISHMEMI_SHMEM_SECOND(a, b, ...) b
#define ISHMEMI_SHMEM_PROBE(...) ISHMEMI_SHMEM_SECOND(__VA_ARGS__)
#define ISHMEMI_SHMEM_CAT(a, b) ISHMEMI_SHMEM_CAT_(a, b)
#define ISHMEMI_SHMEM_CAT_(a, b) a##b
#define ISHMEMI_SHMEM_WRAP(OP) \
  ISHMEMI_SHMEM_CAT(ISHMEMI_SHMEM_WRAP_, ISHMEMI_SHMEM_PROBE(ISHMEMI_SHMEM_VALUE_##OP, VOID_, ~))

/* List entry -> shmem_STEM, and (contexts) shmem_ctx_STEM with a leading context. */
#define ISHMEMI_SHMEM_F(RET, STEM, PARAMS, ARGS, OP, TARG) \
  ISHMEMI_SHMEM_WRAP(OP)(RET, shmem_##STEM, ishmem_##STEM, PARAMS, ARGS)
#define ISHMEMI_SHMEM_CTX_F(RET, STEM, PARAMS, ARGS, OP, TARG)                           \
  ISHMEMI_SHMEM_WRAP(OP)                                                                 \
  (RET, shmem_ctx_##STEM, ishmem_ctx_##STEM, (ishmem_ctx_t ctx, ISHMEMI_UNPAREN PARAMS), \
   (ctx, ISHMEMI_UNPAREN ARGS))
#define ISHMEMI_SHMEM_PASS_F(RET, STEM, PARAMS, ARGS, OP, TARG) \
  ISHMEMI_SHMEM_WRAP_PASS_(RET, shmem_##STEM, ishmem_##STEM, PARAMS, ARGS)
/* Hand-written calls: (return type, name, parameters, arguments). */
#define ISHMEMI_SHMEM_VOID_CALL(NAME, PARAMS, ARGS) \
  ISHMEMI_SHMEM_WRAP_VOID_(int, shmem_##NAME, ishmem_##NAME, PARAMS, ARGS)
#define ISHMEMI_SHMEM_PASS_CALL(RET, NAME, PARAMS, ARGS) \
  ISHMEMI_SHMEM_WRAP_PASS_(RET, shmem_##NAME, ishmem_##NAME, PARAMS, ARGS)

/* The families with context forms: RMA, AMO and put-with-signal, applied to F. */
#define ISHMEMI_SHMEM_TYPED_RMA(T, N)                 \
  ISHMEMI_RMA_TYPED_CALLS(ISHMEMI_SHMEM_LIST_F, T, N) \
  ISHMEMI_RMA_STRIDED_CALLS(ISHMEMI_SHMEM_LIST_F, T, N)
#define ISHMEMI_SHMEM_SIZED_RMA(BITS, BYTES) \
  ISHMEMI_RMA_SIZED_CALLS(ISHMEMI_SHMEM_LIST_F, BITS, BYTES)
#define ISHMEMI_SHMEM_AMO_EXTENDED(T, N) ISHMEMI_AMO_EXTENDED_CALLS(ISHMEMI_SHMEM_LIST_F, T, N)
#define ISHMEMI_SHMEM_AMO_STANDARD(T, N) ISHMEMI_AMO_STANDARD_CALLS(ISHMEMI_SHMEM_LIST_F, T, N)
#define ISHMEMI_SHMEM_AMO_BITWISE(T, N) ISHMEMI_AMO_BITWISE_CALLS(ISHMEMI_SHMEM_LIST_F, T, N)
#define ISHMEMI_SHMEM_PUT_SIGNAL(T, N) ISHMEMI_SIGNAL_TYPED_CALLS(ISHMEMI_SHMEM_LIST_F, T, N)
#define ISHMEMI_SHMEM_CTX_FAMILIES                            \
  ISHMEMI_RMA_BYTES_CALLS(ISHMEMI_SHMEM_LIST_F)               \
  ISHMEMX_RMA_TYPES(ISHMEMI_SHMEM_TYPED_RMA)                  \
  ISHMEMX_SIZED_RMA(ISHMEMI_SHMEM_SIZED_RMA)                  \
  ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_SHMEM_AMO_EXTENDED)      \
  ISHMEMX_AMO_EXTENDED_ONLY_TYPES(ISHMEMI_SHMEM_AMO_EXTENDED) \
  ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_SHMEM_AMO_STANDARD)      \
  ISHMEMX_AMO_BITWISE_TYPES(ISHMEMI_SHMEM_AMO_BITWISE)        \
  ISHMEMI_SIGNAL_PUT_CALLS(ISHMEMI_SHMEM_LIST_F)              \
  ISHMEMX_RMA_TYPES(ISHMEMI_SHMEM_PUT_SIGNAL)

/* ---- Setup, query, memory, ordering ----------------------------------------------------- */

ISHMEMI_SHMEM_VOID_CALL(init, (void), ())
ISHMEMI_SHMEM_VOID_CALL(finalize, (void), ())
ISHMEMI_SHMEM_PASS_CALL(int, my_pe, (void), ())
ISHMEMI_SHMEM_PASS_CALL(int, n_pes, (void), ())
ISHMEMI_SHMEM_PASS_CALL(int, pe_accessible, (int pe), (pe))
ISHMEMI_SHMEM_PASS_CALL(int, addr_accessible, (const void *addr, int pe), (addr, pe))
ISHMEMI_SHMEM_PASS_CALL(void *, ptr, (const void *dest, int pe), (dest, pe))
static inline void shmem_info_get_version(int *major, int *minor) {
  ishmem_info_get_version(major, minor);
}
static inline void shmem_info_get_name(char *name) {
  ishmem_info_get_name(name);
}
static inline void shmem_global_exit(int status) {
  ishmem_global_exit(status);
}
/* The allocation calls return NULL on failure, as OpenSHMEM says (no policy). */
ISHMEMI_SHMEM_PASS_CALL(void *, malloc, (size_t size), (size))
ISHMEMI_SHMEM_PASS_CALL(void *, calloc, (size_t count, size_t size), (count, size))
ISHMEMI_SHMEM_PASS_CALL(void *, align, (size_t alignment, size_t size), (alignment, size))
ISHMEMI_SHMEM_PASS_CALL(void *, realloc, (void *ptr, size_t size), (ptr, size))
ISHMEMI_SHMEM_VOID_CALL(free, (void *ptr), (ptr))
ISHMEMI_SHMEM_VOID_CALL(quiet, (void), ())
ISHMEMI_SHMEM_VOID_CALL(fence, (void), ())
ISHMEMI_SHMEM_VOID_CALL(barrier_all, (void), ())
ISHMEMI_SHMEM_VOID_CALL(sync_all, (void), ())

/* ---- Teams ------------------------------------------------------------------------------ */

ISHMEMI_SHMEM_PASS_CALL(int, team_my_pe, (shmem_team_t team), (team))
ISHMEMI_SHMEM_PASS_CALL(int, team_n_pes, (shmem_team_t team), (team))
ISHMEMI_SHMEM_PASS_CALL(int, team_translate_pe,
                        (shmem_team_t src_team, int src_pe, shmem_team_t dest_team),
                        (src_team, src_pe, dest_team))
ISHMEMI_SHMEM_PASS_CALL(int, team_get_config,
                        (shmem_team_t team, long config_mask, shmem_team_config_t *config),
                        (team, config_mask, config))
ISHMEMI_SHMEM_PASS_CALL(void *, team_ptr, (shmem_team_t team, const void *dest, int pe),
                        (team, dest, pe))
ISHMEMI_SHMEM_PASS_CALL(int, team_split_strided,
                        (shmem_team_t parent_team, int start, int stride, int size,
                         const shmem_team_config_t *config, long config_mask,
                         shmem_team_t *new_team),
                        (parent_team, start, stride, size, config, config_mask, new_team))
ISHMEMI_SHMEM_PASS_CALL(int, team_split_2d,
                        (shmem_team_t parent_team, int xrange,
                         const shmem_team_config_t *xaxis_config, long xaxis_mask,
                         shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                         long yaxis_mask, shmem_team_t *yaxis_team),
                        (parent_team, xrange, xaxis_config, xaxis_mask, xaxis_team, yaxis_config,
                         yaxis_mask, yaxis_team))
ISHMEMI_SHMEM_VOID_CALL(team_destroy, (shmem_team_t team), (team))
ISHMEMI_SHMEM_PASS_CALL(int, team_sync, (shmem_team_t team), (team))

/* ---- RMA, atomics, put-with-signal, signal reads, wait and test ------------------------- */

#define ISHMEMI_SHMEM_LIST_F ISHMEMI_SHMEM_F
ISHMEMI_SHMEM_CTX_FAMILIES
ISHMEMI_SIGNAL_READ_CALLS(ISHMEMI_SHMEM_F)
#define ISHMEMI_SHMEM_P2P(T, N) ISHMEMI_P2P_CALLS(ISHMEMI_SHMEM_F, T, N)
ISHMEMX_P2P_TYPES(ISHMEMI_SHMEM_P2P)

/* ---- Collectives on teams (int in OpenSHMEM: the status as it is) ------------------------ */

#define ISHMEMI_SHMEM_COLLECTIVES(T, N) ISHMEMI_COLLECTIVE_TYPED_CALLS(ISHMEMI_SHMEM_PASS_F, T, N)
#define ISHMEMI_SHMEM_REDUCE_BITWISE(T, N) ISHMEMI_REDUCE_BITWISE_CALLS(ISHMEMI_SHMEM_PASS_F, T, N)
#define ISHMEMI_SHMEM_REDUCE_MINMAX(T, N) ISHMEMI_REDUCE_MINMAX_CALLS(ISHMEMI_SHMEM_PASS_F, T, N)
#define ISHMEMI_SHMEM_REDUCE_ARITH(T, N) ISHMEMI_REDUCE_ARITH_CALLS(ISHMEMI_SHMEM_PASS_F, T, N)
ISHMEMI_COLLECTIVE_BYTES_CALLS(ISHMEMI_SHMEM_PASS_F)
ISHMEMX_RMA_TYPES(ISHMEMI_SHMEM_COLLECTIVES)
ISHMEMX_REDUCE_BITWISE_TYPES(ISHMEMI_SHMEM_REDUCE_BITWISE)
ISHMEMX_REDUCE_MINMAX_TYPES(ISHMEMI_SHMEM_REDUCE_MINMAX)
ISHMEMX_REDUCE_ARITH_TYPES(ISHMEMI_SHMEM_REDUCE_ARITH)

/* ---- Contexts, locks, threads (with ishmem/ctx.h) --------------------------------------- */

typedef ishmem_ctx_t shmem_ctx_t;
#define SHMEM_CTX_DEFAULT ISHMEM_CTX_DEFAULT
#define SHMEM_CTX_INVALID ISHMEM_CTX_INVALID
#define SHMEM_CTX_SERIALIZED ISHMEM_CTX_SERIALIZED
#define SHMEM_CTX_PRIVATE ISHMEM_CTX_PRIVATE
#define SHMEM_CTX_NOSTORE ISHMEM_CTX_NOSTORE
#define SHMEM_THREAD_SINGLE ISHMEM_THREAD_SINGLE
#define SHMEM_THREAD_FUNNELED ISHMEM_THREAD_FUNNELED
#define SHMEM_THREAD_SERIALIZED ISHMEM_THREAD_SERIALIZED
#define SHMEM_THREAD_MULTIPLE ISHMEM_THREAD_MULTIPLE
ISHMEMI_SHMEM_PASS_CALL(int, ctx_create, (long options, shmem_ctx_t *ctx), (options, ctx))
ISHMEMI_SHMEM_PASS_CALL(int, team_create_ctx, (shmem_team_t team, long options, shmem_ctx_t *ctx),
                        (team, options, ctx))
ISHMEMI_SHMEM_VOID_CALL(ctx_destroy, (shmem_ctx_t ctx), (ctx))
ISHMEMI_SHMEM_PASS_CALL(int, ctx_get_team, (shmem_ctx_t ctx, shmem_team_t *team), (ctx, team))
ISHMEMI_SHMEM_VOID_CALL(ctx_quiet, (shmem_ctx_t ctx), (ctx))
ISHMEMI_SHMEM_VOID_CALL(ctx_fence, (shmem_ctx_t ctx), (ctx))
#undef ISHMEMI_SHMEM_LIST_F
#define ISHMEMI_SHMEM_LIST_F ISHMEMI_SHMEM_CTX_F
ISHMEMI_SHMEM_CTX_FAMILIES
ISHMEMI_SHMEM_VOID_CALL(set_lock, (long *lock), (lock))
ISHMEMI_SHMEM_VOID_CALL(clear_lock, (long *lock), (lock))
/* 0: acquired, 1: held by another PE. */
static inline int shmem_test_lock(long *lock) {
  int ishmemi_rc = ishmem_test_lock(lock);
  if (ISHMEMI_SHMEM_FAILED(ishmemi_rc < 0))
    ishmemi_rc = ishmemx_shmem_failed(ishmemi_rc, "shmem_test_lock");
  return ishmemi_rc;
}
ISHMEMI_SHMEM_PASS_CALL(int, init_thread, (int requested, int *provided), (requested, provided))
ISHMEMI_SHMEM_VOID_CALL(query_thread, (int *provided), (provided))

#ifdef __cplusplus
}
#endif

#include "ishmem/shmem_old_names.h" /* pre-1.4 names and the deprecated active-set calls */
#include "ishmem/shmem_generic.h"   /* C11 _Generic names, C++ overloads */

#include "ishmem/detail/shmem_end.h" /* undefines the machinery above */
#endif                               /* SHMEM_H */
