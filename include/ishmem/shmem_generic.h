/* The type-generic names of OpenSHMEM 1.5 (shmem_put, shmem_atomic_fetch_add, shmem_wait_until,
 * shmem_broadcast, shmem_sum_reduce, ...): C11 _Generic macros in C, overloaded functions in
 * C++. The RMA, atomic and put-with-signal names take an optional leading context where the
 * specification has one (with ishmem/ctx.h), told apart by the number of arguments. Every
 * type of the specification's tables has each generic name of its family
 * (tests/shmem/generic_types.h calls them all). Included by shmem.h; not meant to be included
 * alone. */
#ifndef ISHMEM_SHMEM_GENERIC_H
#define ISHMEM_SHMEM_GENERIC_H

/* The types of each generic family, X(T, N, P, S): P and S are passed on to X. They stay
 * defined: the C11 macros expand them where the program calls them. A family lists each C
 * type once: the fixed-width, size_t and ptrdiff_t names of the specification's tables are
 * typedefs of standard types, so a family names them only where their standard type is not
 * in it (int32_t and int64_t among the bitwise atomics, int8_t ... int64_t among the bitwise
 * reductions); the others reach the standard type's call, which is the same call. */
#define shmemi_unsigned_types(X, P, S) \
  X(unsigned int, uint, P, S) X(unsigned long, ulong, P, S) X(unsigned long long, ulonglong, P, S)
#define shmemi_bitwise_types(X, P, S) \
  shmemi_unsigned_types(X, P, S) X(int32_t, int32, P, S) X(int64_t, int64, P, S)
#define shmemi_amo_types(X, P, S) \
  X(int, int, P, S) X(long, long, P, S) X(long long, longlong, P, S) shmemi_unsigned_types(X, P, S)
#define shmemi_extended_types(X, P, S) \
  shmemi_amo_types(X, P, S) X(float, float, P, S) X(double, double, P, S)
#define shmemi_p2p_types(X, P, S) \
  shmemi_amo_types(X, P, S) X(short, short, P, S) X(unsigned short, ushort, P, S)
#define shmemi_reduce_unsigned_types(X, P, S) \
  X(unsigned char, uchar, P, S) X(unsigned short, ushort, P, S) shmemi_unsigned_types(X, P, S)
#define shmemi_reduce_bitwise_types(X, P, S)                                          \
  shmemi_reduce_unsigned_types(X, P, S) X(int8_t, int8, P, S) X(int16_t, int16, P, S) \
      X(int32_t, int32, P, S) X(int64_t, int64, P, S)
/* clang-format reflows this table differently at every run. */
/* clang-format off */
#define shmemi_reduce_minmax_types(X, P, S)                                 \
  X(char, char, P, S) X(signed char, schar, P, S) X(short, short, P, S)     \
  X(int, int, P, S) X(long, long, P, S) X(long long, longlong, P, S)        \
  shmemi_reduce_unsigned_types(X, P, S)                                     \
  X(float, float, P, S) X(double, double, P, S) X(long double, longdouble, P, S)
/* clang-format on */
#define shmemi_rma_types shmemi_reduce_minmax_types
#define shmemi_reduce_arith_types(X, P, S)                               \
  shmemi_reduce_minmax_types(X, P, S) X(double _Complex, complexd, P, S) \
      X(float _Complex, complexf, P, S)

#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
/* ---- C11 ---------------------------------------------------------------------------------- */

/* Never defined: a type outside the family selects it, and the call does not compile. */
void shmemi_generic_type_not_supported(void);
#define shmemi_branch(T, N, P, S) \
  T:                              \
  P##N##S,
/* The call S of family TYPES on the element type of `first`, after an optional context or
 * team argument. */
#define shmemi_generic(TYPES, S, first, ...)                 \
  _Generic(*(first), TYPES(shmemi_branch, shmem_, S) default \
           : shmemi_generic_type_not_supported)(first, __VA_ARGS__)
#define shmemi_generic_ctx(TYPES, S, ctx, first, ...)            \
  _Generic(*(first), TYPES(shmemi_branch, shmem_ctx_, S) default \
           : shmemi_generic_type_not_supported)(ctx, first, __VA_ARGS__)
#define shmemi_generic_team(TYPES, S, team, first, ...)      \
  _Generic(*(first), TYPES(shmemi_branch, shmem_, S) default \
           : shmemi_generic_type_not_supported)(team, first, __VA_ARGS__)
/* With or without a context: a call of n arguments without it has n + 1 with it. */
#define shmemi_n2(_1, _2, _3, NAME, ...) NAME
#define shmemi_n3(_1, _2, _3, _4, NAME, ...) NAME
#define shmemi_n4(_1, _2, _3, _4, _5, NAME, ...) NAME
#define shmemi_n5(_1, _2, _3, _4, _5, _6, NAME, ...) NAME
#define shmemi_n6(_1, _2, _3, _4, _5, _6, _7, NAME, ...) NAME
#define shmemi_n7(_1, _2, _3, _4, _5, _6, _7, _8, NAME, ...) NAME
#define shmemi_ctx_or_not(N, TYPES, S, ...) \
  N(__VA_ARGS__, shmemi_generic_ctx, shmemi_generic, ~)(TYPES, S, __VA_ARGS__)

#define shmem_put(...) shmemi_ctx_or_not(shmemi_n4, shmemi_rma_types, _put, __VA_ARGS__)
#define shmem_get(...) shmemi_ctx_or_not(shmemi_n4, shmemi_rma_types, _get, __VA_ARGS__)
#define shmem_put_nbi(...) shmemi_ctx_or_not(shmemi_n4, shmemi_rma_types, _put_nbi, __VA_ARGS__)
#define shmem_get_nbi(...) shmemi_ctx_or_not(shmemi_n4, shmemi_rma_types, _get_nbi, __VA_ARGS__)
#define shmem_p(...) shmemi_ctx_or_not(shmemi_n3, shmemi_rma_types, _p, __VA_ARGS__)
#define shmem_g(...) shmemi_ctx_or_not(shmemi_n2, shmemi_rma_types, _g, __VA_ARGS__)
#define shmem_iput(...) shmemi_ctx_or_not(shmemi_n6, shmemi_rma_types, _iput, __VA_ARGS__)
#define shmem_iget(...) shmemi_ctx_or_not(shmemi_n6, shmemi_rma_types, _iget, __VA_ARGS__)
#define shmem_put_signal(...) \
  shmemi_ctx_or_not(shmemi_n7, shmemi_rma_types, _put_signal, __VA_ARGS__)
#define shmem_put_signal_nbi(...) \
  shmemi_ctx_or_not(shmemi_n7, shmemi_rma_types, _put_signal_nbi, __VA_ARGS__)

#define shmemi_atomic(N, TYPES, S, ...) shmemi_ctx_or_not(N, TYPES, _atomic##S, __VA_ARGS__)
#define shmem_atomic_fetch(...) shmemi_atomic(shmemi_n2, shmemi_extended_types, _fetch, __VA_ARGS__)
#define shmem_atomic_set(...) shmemi_atomic(shmemi_n3, shmemi_extended_types, _set, __VA_ARGS__)
#define shmem_atomic_swap(...) shmemi_atomic(shmemi_n3, shmemi_extended_types, _swap, __VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) \
  shmemi_atomic(shmemi_n3, shmemi_extended_types, _fetch_nbi, __VA_ARGS__)
#define shmem_atomic_swap_nbi(...) \
  shmemi_atomic(shmemi_n4, shmemi_extended_types, _swap_nbi, __VA_ARGS__)
#define shmem_atomic_compare_swap(...) \
  shmemi_atomic(shmemi_n4, shmemi_amo_types, _compare_swap, __VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) \
  shmemi_atomic(shmemi_n5, shmemi_amo_types, _compare_swap_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_inc(...) \
  shmemi_atomic(shmemi_n2, shmemi_amo_types, _fetch_inc, __VA_ARGS__)
#define shmem_atomic_inc(...) shmemi_atomic(shmemi_n2, shmemi_amo_types, _inc, __VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) \
  shmemi_atomic(shmemi_n3, shmemi_amo_types, _fetch_inc_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_add(...) \
  shmemi_atomic(shmemi_n3, shmemi_amo_types, _fetch_add, __VA_ARGS__)
#define shmem_atomic_add(...) shmemi_atomic(shmemi_n3, shmemi_amo_types, _add, __VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) \
  shmemi_atomic(shmemi_n4, shmemi_amo_types, _fetch_add_nbi, __VA_ARGS__)
#define shmemi_bitwise(OP, ...) shmemi_atomic(shmemi_n3, shmemi_bitwise_types, OP, __VA_ARGS__)
#define shmemi_bitwise_nbi(OP, ...) shmemi_atomic(shmemi_n4, shmemi_bitwise_types, OP, __VA_ARGS__)
#define shmem_atomic_fetch_and(...) shmemi_bitwise(_fetch_and, __VA_ARGS__)
#define shmem_atomic_fetch_or(...) shmemi_bitwise(_fetch_or, __VA_ARGS__)
#define shmem_atomic_fetch_xor(...) shmemi_bitwise(_fetch_xor, __VA_ARGS__)
#define shmem_atomic_and(...) shmemi_bitwise(_and, __VA_ARGS__)
#define shmem_atomic_or(...) shmemi_bitwise(_or, __VA_ARGS__)
#define shmem_atomic_xor(...) shmemi_bitwise(_xor, __VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) shmemi_bitwise_nbi(_fetch_and_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) shmemi_bitwise_nbi(_fetch_or_nbi, __VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) shmemi_bitwise_nbi(_fetch_xor_nbi, __VA_ARGS__)
/* The generic atomics of OpenSHMEM 1.3. */
#define shmem_fadd(...) shmem_atomic_fetch_add(__VA_ARGS__)
#define shmem_finc(...) shmem_atomic_fetch_inc(__VA_ARGS__)
#define shmem_add(...) shmem_atomic_add(__VA_ARGS__)
#define shmem_inc(...) shmem_atomic_inc(__VA_ARGS__)
#define shmem_cswap(...) shmem_atomic_compare_swap(__VA_ARGS__)
#define shmem_swap(...) shmem_atomic_swap(__VA_ARGS__)
#define shmem_fetch(...) shmem_atomic_fetch(__VA_ARGS__)
#define shmem_set(...) shmem_atomic_set(__VA_ARGS__)

#define shmemi_p2p(S, ...) shmemi_generic(shmemi_p2p_types, S, __VA_ARGS__)
#define shmem_wait_until(...) shmemi_p2p(_wait_until, __VA_ARGS__)
#define shmem_wait_until_all(...) shmemi_p2p(_wait_until_all, __VA_ARGS__)
#define shmem_wait_until_any(...) shmemi_p2p(_wait_until_any, __VA_ARGS__)
#define shmem_wait_until_some(...) shmemi_p2p(_wait_until_some, __VA_ARGS__)
#define shmem_wait_until_all_vector(...) shmemi_p2p(_wait_until_all_vector, __VA_ARGS__)
#define shmem_wait_until_any_vector(...) shmemi_p2p(_wait_until_any_vector, __VA_ARGS__)
#define shmem_wait_until_some_vector(...) shmemi_p2p(_wait_until_some_vector, __VA_ARGS__)
#define shmem_test(...) shmemi_p2p(_test, __VA_ARGS__)
#define shmem_test_all(...) shmemi_p2p(_test_all, __VA_ARGS__)
#define shmem_test_any(...) shmemi_p2p(_test_any, __VA_ARGS__)
#define shmem_test_some(...) shmemi_p2p(_test_some, __VA_ARGS__)
#define shmem_test_all_vector(...) shmemi_p2p(_test_all_vector, __VA_ARGS__)
#define shmem_test_any_vector(...) shmemi_p2p(_test_any_vector, __VA_ARGS__)
#define shmem_test_some_vector(...) shmemi_p2p(_test_some_vector, __VA_ARGS__)

#define shmem_broadcast(...) shmemi_generic_team(shmemi_rma_types, _broadcast, __VA_ARGS__)
#define shmem_collect(...) shmemi_generic_team(shmemi_rma_types, _collect, __VA_ARGS__)
#define shmem_fcollect(...) shmemi_generic_team(shmemi_rma_types, _fcollect, __VA_ARGS__)
#define shmem_alltoall(...) shmemi_generic_team(shmemi_rma_types, _alltoall, __VA_ARGS__)
#define shmem_alltoalls(...) shmemi_generic_team(shmemi_rma_types, _alltoalls, __VA_ARGS__)
#define shmem_and_reduce(...) \
  shmemi_generic_team(shmemi_reduce_bitwise_types, _and_reduce, __VA_ARGS__)
#define shmem_or_reduce(...) \
  shmemi_generic_team(shmemi_reduce_bitwise_types, _or_reduce, __VA_ARGS__)
#define shmem_xor_reduce(...) \
  shmemi_generic_team(shmemi_reduce_bitwise_types, _xor_reduce, __VA_ARGS__)
#define shmem_max_reduce(...) \
  shmemi_generic_team(shmemi_reduce_minmax_types, _max_reduce, __VA_ARGS__)
#define shmem_min_reduce(...) \
  shmemi_generic_team(shmemi_reduce_minmax_types, _min_reduce, __VA_ARGS__)
#define shmem_sum_reduce(...) \
  shmemi_generic_team(shmemi_reduce_arith_types, _sum_reduce, __VA_ARGS__)
#define shmem_prod_reduce(...) \
  shmemi_generic_team(shmemi_reduce_arith_types, _prod_reduce, __VA_ARGS__)

#elif defined(__cplusplus)
/* ---- C++: overloads generated from the signature lists ------------------------------------ */

/* The generic name of each operation: the same as the list's OP but for the atomics. */
#define ISHMEMI_SHMEM_GNAME(OP) \
  ISHMEMI_SHMEM_CAT(shmem_, ISHMEMI_SHMEM_PROBE(ISHMEMI_SHMEM_ATOMIC_##OP, OP, ~))
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch ~, atomic_fetch
#define ISHMEMI_SHMEM_ATOMIC_amo_set ~, atomic_set
#define ISHMEMI_SHMEM_ATOMIC_amo_swap ~, atomic_swap
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_nbi ~, atomic_fetch_nbi
#define ISHMEMI_SHMEM_ATOMIC_amo_swap_nbi ~, atomic_swap_nbi
#define ISHMEMI_SHMEM_ATOMIC_amo_compare_swap ~, atomic_compare_swap
#define ISHMEMI_SHMEM_ATOMIC_amo_compare_swap_nbi ~, atomic_compare_swap_nbi
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_inc ~, atomic_fetch_inc
#define ISHMEMI_SHMEM_ATOMIC_amo_inc ~, atomic_inc
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_inc_nbi ~, atomic_fetch_inc_nbi
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_add ~, atomic_fetch_add
#define ISHMEMI_SHMEM_ATOMIC_amo_add ~, atomic_add
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_add_nbi ~, atomic_fetch_add_nbi
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_and ~, atomic_fetch_and
#define ISHMEMI_SHMEM_ATOMIC_amo_and ~, atomic_and
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_and_nbi ~, atomic_fetch_and_nbi
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_or ~, atomic_fetch_or
#define ISHMEMI_SHMEM_ATOMIC_amo_or ~, atomic_or
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_or_nbi ~, atomic_fetch_or_nbi
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_xor ~, atomic_fetch_xor
#define ISHMEMI_SHMEM_ATOMIC_amo_xor ~, atomic_xor
#define ISHMEMI_SHMEM_ATOMIC_amo_fetch_xor_nbi ~, atomic_fetch_xor_nbi
/* Its return type: OpenSHMEM's, as the shmem_TYPE_ call it forwards to has it. */
#define ISHMEMI_SHMEM_RET_VOID_(RET) ISHMEMI_SHMEM_VOID
#define ISHMEMI_SHMEM_RET_VALUE_(RET) RET
#define ISHMEMI_SHMEM_RET(OP, RET)                                                               \
  ISHMEMI_SHMEM_CAT(ISHMEMI_SHMEM_RET_, ISHMEMI_SHMEM_PROBE(ISHMEMI_SHMEM_VALUE_##OP, VOID_, ~)) \
  (RET)
#define ISHMEMI_SHMEM_CXX_F(RET, STEM, PARAMS, ARGS, OP, TARG)       \
  inline ISHMEMI_SHMEM_RET(OP, RET) ISHMEMI_SHMEM_GNAME(OP) PARAMS { \
    return shmem_##STEM ARGS;                                        \
  }
#define ISHMEMI_SHMEM_CXX_CTX_F(RET, STEM, PARAMS, ARGS, OP, TARG)       \
  inline ISHMEMI_SHMEM_RET(OP, RET)                                      \
      ISHMEMI_SHMEM_GNAME(OP)(shmem_ctx_t ctx, ISHMEMI_UNPAREN PARAMS) { \
    return shmem_ctx_##STEM(ctx, ISHMEMI_UNPAREN ARGS);                  \
  }
#define ISHMEMI_SHMEM_CXX_PASS_F(RET, STEM, PARAMS, ARGS, OP, TARG) \
  inline RET shmem_##OP PARAMS {                                    \
    return shmem_##STEM ARGS;                                       \
  }
#define ISHMEMI_SHMEM_CXX_RMA(T, N, F, S) \
  ISHMEMI_RMA_TYPED_CALLS(F, T, N)        \
  ISHMEMI_RMA_STRIDED_CALLS(F, T, N)      \
  ISHMEMI_SIGNAL_TYPED_CALLS(F, T, N)
#define ISHMEMI_SHMEM_CXX_EXTENDED(T, N, F, S) ISHMEMI_AMO_EXTENDED_CALLS(F, T, N)
#define ISHMEMI_SHMEM_CXX_STANDARD(T, N, F, S) ISHMEMI_AMO_STANDARD_CALLS(F, T, N)
#define ISHMEMI_SHMEM_CXX_BITWISE(T, N, F, S) ISHMEMI_AMO_BITWISE_CALLS(F, T, N)
#define ISHMEMI_SHMEM_CXX_P2P(T, N, F, S) ISHMEMI_P2P_CALLS(F, T, N)
#define ISHMEMI_SHMEM_CXX_COLLECTIVES(T, N, F, S) ISHMEMI_COLLECTIVE_TYPED_CALLS(F, T, N)
#define ISHMEMI_SHMEM_CXX_REDUCE_BITWISE(T, N, F, S) ISHMEMI_REDUCE_BITWISE_CALLS(F, T, N)
#define ISHMEMI_SHMEM_CXX_REDUCE_MINMAX(T, N, F, S) ISHMEMI_REDUCE_MINMAX_CALLS(F, T, N)
#define ISHMEMI_SHMEM_CXX_REDUCE_ARITH(T, N, F, S) ISHMEMI_REDUCE_ARITH_CALLS(F, T, N)
#define ISHMEMI_SHMEM_CXX_FAMILIES(F)                         \
  shmemi_rma_types(ISHMEMI_SHMEM_CXX_RMA, F, ~)               \
      shmemi_extended_types(ISHMEMI_SHMEM_CXX_EXTENDED, F, ~) \
          shmemi_amo_types(ISHMEMI_SHMEM_CXX_STANDARD, F, ~)  \
              shmemi_bitwise_types(ISHMEMI_SHMEM_CXX_BITWISE, F, ~)
ISHMEMI_SHMEM_CXX_FAMILIES(ISHMEMI_SHMEM_CXX_F)
ISHMEMI_SHMEM_CXX_FAMILIES(ISHMEMI_SHMEM_CXX_CTX_F)
shmemi_p2p_types(ISHMEMI_SHMEM_CXX_P2P, ISHMEMI_SHMEM_CXX_F,
                 ~) shmemi_rma_types(ISHMEMI_SHMEM_CXX_COLLECTIVES, ISHMEMI_SHMEM_CXX_PASS_F, ~)
    shmemi_reduce_bitwise_types(ISHMEMI_SHMEM_CXX_REDUCE_BITWISE, ISHMEMI_SHMEM_CXX_PASS_F, ~)
        shmemi_reduce_minmax_types(ISHMEMI_SHMEM_CXX_REDUCE_MINMAX, ISHMEMI_SHMEM_CXX_PASS_F, ~)
            shmemi_reduce_arith_types(ISHMEMI_SHMEM_CXX_REDUCE_ARITH, ISHMEMI_SHMEM_CXX_PASS_F, ~)
#endif

#endif /* ISHMEM_SHMEM_GENERIC_H */
