// The element-wise reductions of the collectives: one template over operation and type
// (combine), and the MPI datatype and operation that do the same on the off-node path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "common/error.h"  // ISHMEMI_CHECK_MPI
#include "ishmem.h"        // brings in mpi.h without the C++ bindings

namespace ishmem::detail {

enum class ReduceOp : std::uint8_t { none = 0, and_, or_, xor_, max, min, sum, prod };
const char *reduce_op_name(ReduceOp op);

// acc[i] = acc[i] op in[i] for i < count.
using CombineFn = void (*)(void *acc, const void *in, std::size_t count);

// An element type as the PEs compare it: its size and kind (signed or unsigned integer, real
// or complex floating), so that int_sum against float_sum is a mismatch.
enum class ElementKind : std::uint8_t { bytes = 0, signed_int, unsigned_int, real, complex };
struct ElementType {
  std::size_t size;
  ElementKind kind;
  std::uint64_t code() const { return static_cast<std::uint64_t>(kind) << 8 | size; }
};
const char *element_kind_name(ElementKind kind);

// One reduction: operation and element type, with its kernel and MPI equivalents. Where
// `wrapping_mpi_op` is set, the off-node path reduces through the MPI operation it returns
// (made once from `combine` by MPI_Op_create) in place of `mpi_op`: Open MPI 4.1's AVX
// operations saturate 8- and 16-bit integer sums (open-mpi/ompi#8045, "wontfix"), where
// ishmem's and MPI's wrap around.
struct Reduction {
  ReduceOp op;
  ElementType type;
  CombineFn combine;
  MPI_Datatype mpi_type;
  MPI_Op mpi_op;
  MPI_Op (*wrapping_mpi_op)();
};

namespace reduce_impl {

template <class T>
constexpr bool is_complex = std::is_same_v<T, double _Complex> || std::is_same_v<T, float _Complex>;

// Integer sums and products wrap around, as MPI's do: computed in an unsigned type at least
// as wide as unsigned int (narrower ones would be promoted to signed int, where overflow is
// undefined).
template <class T>
using Wrapping =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <ReduceOp Op, class T>
inline T apply(T a, T b) {
  if constexpr (Op == ReduceOp::and_) return a & b;
  if constexpr (Op == ReduceOp::or_) return a | b;
  if constexpr (Op == ReduceOp::xor_) return a ^ b;
  if constexpr (Op == ReduceOp::max) return a < b ? b : a;
  if constexpr (Op == ReduceOp::min) return b < a ? b : a;
  if constexpr (Op == ReduceOp::sum) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<Wrapping<T>>(a) + static_cast<Wrapping<T>>(b));
    else
      return a + b;
  }
  if constexpr (Op == ReduceOp::prod) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(static_cast<Wrapping<T>>(a) * static_cast<Wrapping<T>>(b));
    else
      return a * b;
  }
}

template <ReduceOp Op, class T>
void combine(void *acc, const void *in, std::size_t count) {
  T *a = static_cast<T *>(acc);
  const T *b = static_cast<const T *>(in);
  for (std::size_t i = 0; i < count; ++i) a[i] = apply<Op>(a[i], b[i]);
}

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    if constexpr (sizeof(T) == 1) return MPI_INT8_T;
    if constexpr (sizeof(T) == 2) return MPI_INT16_T;
    if constexpr (sizeof(T) == 4) return MPI_INT32_T;
    if constexpr (sizeof(T) == 8) return MPI_INT64_T;
  } else if constexpr (std::is_integral_v<T>) {
    if constexpr (sizeof(T) == 1) return MPI_UINT8_T;
    if constexpr (sizeof(T) == 2) return MPI_UINT16_T;
    if constexpr (sizeof(T) == 4) return MPI_UINT32_T;
    if constexpr (sizeof(T) == 8) return MPI_UINT64_T;
  } else if constexpr (std::is_same_v<T, float>) {
    return MPI_FLOAT;
  } else if constexpr (std::is_same_v<T, double>) {
    return MPI_DOUBLE;
  } else if constexpr (std::is_same_v<T, long double>) {
    return MPI_LONG_DOUBLE;
  } else if constexpr (std::is_same_v<T, double _Complex>) {
    return MPI_C_DOUBLE_COMPLEX;
  } else if constexpr (std::is_same_v<T, float _Complex>) {
    return MPI_C_FLOAT_COMPLEX;
  }
}

// MPI_User_function's form of combine: inout[i] = in[i] op inout[i].
template <ReduceOp Op, class T>
void mpi_user_combine(void *in, void *inout, int *len, MPI_Datatype *) {
  combine<Op, T>(inout, in, static_cast<std::size_t>(*len));
}

// The MPI operation of mpi_user_combine, made at the first call (after MPI_Init; MPI_Finalize
// frees it); a failure throws, and the next call tries again.
template <ReduceOp Op, class T>
MPI_Op wrapping_op() {
  static const MPI_Op op = [] {
    MPI_Op made;
    ISHMEMI_CHECK_MPI(MPI_Op_create(&mpi_user_combine<Op, T>, 1, &made));
    return made;
  }();
  return op;
}

template <ReduceOp Op, class T>
constexpr MPI_Op (*wrapping_mpi_op())() {
  if constexpr (std::is_integral_v<T> && sizeof(T) <= 2 &&
                (Op == ReduceOp::sum || Op == ReduceOp::prod))
    return &wrapping_op<Op, T>;
  else
    return nullptr;
}

template <ReduceOp Op>
MPI_Op mpi_op() {
  if constexpr (Op == ReduceOp::and_) return MPI_BAND;
  if constexpr (Op == ReduceOp::or_) return MPI_BOR;
  if constexpr (Op == ReduceOp::xor_) return MPI_BXOR;
  if constexpr (Op == ReduceOp::max) return MPI_MAX;
  if constexpr (Op == ReduceOp::min) return MPI_MIN;
  if constexpr (Op == ReduceOp::sum) return MPI_SUM;
  if constexpr (Op == ReduceOp::prod) return MPI_PROD;
}

}  // namespace reduce_impl

template <class T>
constexpr ElementType element_type() {
  using reduce_impl::is_complex;
  if constexpr (std::is_integral_v<T>)
    return {sizeof(T), std::is_signed_v<T> ? ElementKind::signed_int : ElementKind::unsigned_int};
  else if constexpr (is_complex<T>)
    return {sizeof(T), ElementKind::complex};
  else if constexpr (std::is_floating_point_v<T>)
    return {sizeof(T), ElementKind::real};
  else
    return {1, ElementKind::bytes};  // the _mem forms
}

template <ReduceOp Op, class T>
Reduction reduction_of() {
  static_assert(sizeof(T) <= 32, "reductions stage elements in small blocks");
  return {Op,
          element_type<T>(),
          &reduce_impl::combine<Op, T>,
          reduce_impl::mpi_type<T>(),
          reduce_impl::mpi_op<Op>(),
          reduce_impl::wrapping_mpi_op<Op, T>()};
}

}  // namespace ishmem::detail
