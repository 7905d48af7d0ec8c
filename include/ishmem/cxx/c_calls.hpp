// ishmem C++ API: the typed C calls of each element type, as tables of function pointers built
// from the C API's own type lists (ishmem/types.h). A type outside a list stops the build at a
// static_assert naming the operation. Part of ishmem.hpp.
#ifndef ISHMEM_CXX_C_CALLS_HPP
#define ISHMEM_CXX_C_CALLS_HPP

#include <complex>
#include <type_traits>

#include "ishmem.h"

namespace ishmem::c_api {

template <class>
inline constexpr bool unsupported_type = false;

// std::complex<float/double> reach the C calls of float/double _Complex (the same layout).
template <class T>
struct c_type {
  using type = T;
};
template <>
struct c_type<std::complex<float>> {
  using type = float _Complex;
};
template <>
struct c_type<std::complex<double>> {
  using type = double _Complex;
};
template <class T>
using c_type_t = typename c_type<T>::type;

// Each table is filled by a chain of `if constexpr (V is T) return {...}; else` over the
// types of the C list; fixed-width names that are typedefs of a type listed earlier
// (int32_t of int) match the earlier entry, which takes the same values.

// fetch, set, swap: the standard and extended AMO types.
template <class T>
struct amo_extended_calls {
  T (*fetch)(ishmem_ctx_t, const T *, int);
  int (*set)(ishmem_ctx_t, T *, T, int);
  T (*swap)(ishmem_ctx_t, T *, T, int);
};
#define ISHMEMCXX_AMO_EXTENDED(T, N)                                    \
  if constexpr (std::is_same_v<V, T>)                                   \
    return {ishmem_ctx_##N##_atomic_fetch, ishmem_ctx_##N##_atomic_set, \
            ishmem_ctx_##N##_atomic_swap};                              \
  else
template <class V>
constexpr amo_extended_calls<V> amo_extended() {
  ISHMEMX_AMO_STANDARD_TYPES(ISHMEMCXX_AMO_EXTENDED)
  ISHMEMX_AMO_EXTENDED_ONLY_TYPES(ISHMEMCXX_AMO_EXTENDED) {
    static_assert(unsupported_type<V>,
                  "ishmem atomic fetch/set/swap: T must be one of the OpenSHMEM standard or "
                  "extended AMO types (int, long, long long, unsigned int/long/long long, "
                  "int32_t, int64_t, uint32_t, uint64_t, size_t, ptrdiff_t, float, double)");
    return {};
  }
}
#undef ISHMEMCXX_AMO_EXTENDED

// compare_swap, fetch_inc, inc, fetch_add, add: the standard AMO types.
template <class T>
struct amo_standard_calls {
  T (*compare_swap)(ishmem_ctx_t, T *, T, T, int);
  T (*fetch_inc)(ishmem_ctx_t, T *, int);
  int (*inc)(ishmem_ctx_t, T *, int);
  T (*fetch_add)(ishmem_ctx_t, T *, T, int);
  int (*add)(ishmem_ctx_t, T *, T, int);
};
#define ISHMEMCXX_AMO_STANDARD(T, N)                                                 \
  if constexpr (std::is_same_v<V, T>)                                                \
    return {ishmem_ctx_##N##_atomic_compare_swap, ishmem_ctx_##N##_atomic_fetch_inc, \
            ishmem_ctx_##N##_atomic_inc, ishmem_ctx_##N##_atomic_fetch_add,          \
            ishmem_ctx_##N##_atomic_add};                                            \
  else
template <class V>
constexpr amo_standard_calls<V> amo_standard() {
  ISHMEMX_AMO_STANDARD_TYPES(ISHMEMCXX_AMO_STANDARD) {
    static_assert(unsupported_type<V>,
                  "ishmem atomic compare_swap/inc/add: T must be one of the OpenSHMEM standard "
                  "AMO types (int, long, long long, unsigned int/long/long long, int32_t, "
                  "int64_t, uint32_t, uint64_t, size_t, ptrdiff_t)");
    return {};
  }
}
#undef ISHMEMCXX_AMO_STANDARD

// and, or, xor (fetching or not): the bitwise AMO types.
template <class T>
struct amo_bitwise_calls {
  T (*fetch_and)(ishmem_ctx_t, T *, T, int);
  int (*and_)(ishmem_ctx_t, T *, T, int);
  T (*fetch_or)(ishmem_ctx_t, T *, T, int);
  int (*or_)(ishmem_ctx_t, T *, T, int);
  T (*fetch_xor)(ishmem_ctx_t, T *, T, int);
  int (*xor_)(ishmem_ctx_t, T *, T, int);
};
#define ISHMEMCXX_AMO_BITWISE(T, N)                                          \
  if constexpr (std::is_same_v<V, T>)                                        \
    return {ishmem_ctx_##N##_atomic_fetch_and, ishmem_ctx_##N##_atomic_and,  \
            ishmem_ctx_##N##_atomic_fetch_or,  ishmem_ctx_##N##_atomic_or,   \
            ishmem_ctx_##N##_atomic_fetch_xor, ishmem_ctx_##N##_atomic_xor}; \
  else
template <class V>
constexpr amo_bitwise_calls<V> amo_bitwise() {
  ISHMEMX_AMO_BITWISE_TYPES(ISHMEMCXX_AMO_BITWISE) {
    static_assert(unsupported_type<V>,
                  "ishmem atomic and/or/xor: T must be one of the OpenSHMEM bitwise AMO types "
                  "(unsigned int/long/long long, int32_t, int64_t, uint32_t, uint64_t)");
    return {};
  }
}
#undef ISHMEMCXX_AMO_BITWISE

// wait_until, test on this PE's variable: the point-to-point synchronization types.
template <class T>
struct p2p_calls {
  int (*wait_until)(T *, int, T);
  int (*test)(T *, int, T);
};
#define ISHMEMCXX_P2P(T, N)                              \
  if constexpr (std::is_same_v<V, T>)                    \
    return {ishmem_##N##_wait_until, ishmem_##N##_test}; \
  else
template <class V>
constexpr p2p_calls<V> p2p() {
  ISHMEMX_P2P_TYPES(ISHMEMCXX_P2P) {
    static_assert(unsupported_type<V>,
                  "ishmem wait_until/test: T must be one of the OpenSHMEM point-to-point types "
                  "(short, int, long, long long, their unsigned forms, int32_t, int64_t, "
                  "uint32_t, uint64_t, size_t, ptrdiff_t)");
    return {};
  }
}
#undef ISHMEMCXX_P2P

// Reductions: one call per operation; the C name is ishmem_<type>_<op>_reduce.
template <class T>
using reduce_call = int (*)(ishmem_team_t, T *, const T *, size_t);
enum class reduce_op { and_, or_, xor_, max, min, sum, prod };

#define ISHMEMCXX_REDUCE_BITWISE(T, N)       \
  if constexpr (std::is_same_v<V, T>) {      \
    if constexpr (Op == reduce_op::and_)     \
      return ishmem_##N##_and_reduce;        \
    else if constexpr (Op == reduce_op::or_) \
      return ishmem_##N##_or_reduce;         \
    else                                     \
      return ishmem_##N##_xor_reduce;        \
  } else
#define ISHMEMCXX_REDUCE_MINMAX(T, N)   \
  if constexpr (std::is_same_v<V, T>) { \
    if constexpr (Op == reduce_op::max) \
      return ishmem_##N##_max_reduce;   \
    else                                \
      return ishmem_##N##_min_reduce;   \
  } else
#define ISHMEMCXX_REDUCE_ARITH(T, N)    \
  if constexpr (std::is_same_v<V, T>) { \
    if constexpr (Op == reduce_op::sum) \
      return ishmem_##N##_sum_reduce;   \
    else                                \
      return ishmem_##N##_prod_reduce;  \
  } else
template <reduce_op Op, class V>
constexpr reduce_call<V> reduce() {
  if constexpr (Op == reduce_op::and_ || Op == reduce_op::or_ || Op == reduce_op::xor_) {
    ISHMEMX_REDUCE_BITWISE_TYPES(ISHMEMCXX_REDUCE_BITWISE) {
      static_assert(unsupported_type<V>,
                    "ishmem and/or/xor reductions: T must be an unsigned integer type or a "
                    "fixed-width integer (int8_t ... uint64_t, size_t)");
      return nullptr;
    }
  } else if constexpr (Op == reduce_op::max || Op == reduce_op::min) {
    ISHMEMX_REDUCE_MINMAX_TYPES(ISHMEMCXX_REDUCE_MINMAX) {
      static_assert(unsupported_type<V>,
                    "ishmem min/max reductions: T must be an integer or real floating type");
      return nullptr;
    }
  } else {
    ISHMEMX_REDUCE_ARITH_TYPES(ISHMEMCXX_REDUCE_ARITH) {
      static_assert(unsupported_type<V>,
                    "ishmem sum/prod reductions: T must be an integer, real floating or "
                    "complex type (std::complex<float>, std::complex<double>)");
      return nullptr;
    }
  }
}
#undef ISHMEMCXX_REDUCE_BITWISE
#undef ISHMEMCXX_REDUCE_MINMAX
#undef ISHMEMCXX_REDUCE_ARITH

}  // namespace ishmem::c_api

#endif  // ISHMEM_CXX_C_CALLS_HPP
