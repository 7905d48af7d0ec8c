// Host atomic memory operations, generated from the AMO type tables. A node-local target on
// a host heap is one __atomic instruction on the shared mapping; other targets go through
// MPI's atomics (MPI_Fetch_and_op, MPI_Compare_and_swap).
#include <type_traits>

#include "api/amo_path.h"
#include "api/guard.h"

using namespace ishmem::detail;

namespace ishmem::detail {
namespace {

template <class T>
MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>) return MPI_FLOAT;
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  if constexpr (std::is_signed_v<T>) return sizeof(T) == 4 ? MPI_INT32_T : MPI_INT64_T;
  return sizeof(T) == 4 ? MPI_UINT32_T : MPI_UINT64_T;
}

MPI_Op mpi_op(AmoOp op) {
  switch (op) {
    case AmoOp::fetch:
      return MPI_NO_OP;
    case AmoOp::set:
    case AmoOp::swap:
      return MPI_REPLACE;
    case AmoOp::add:
      return MPI_SUM;
    case AmoOp::bit_and:
      return MPI_BAND;
    case AmoOp::bit_or:
      return MPI_BOR;
    case AmoOp::bit_xor:
      return MPI_BXOR;
    case AmoOp::compare_swap:
      break;
  }
  return MPI_NO_OP;
}

}  // namespace

template <class T>
T amo_slow(AmoOp op, T *dest, T value, T cond, int pe, int &rc) noexcept {
  T result{};
  rc = guard([&] {
    Runtime &rt = runtime();
    if (pe < 0 || pe >= g_fast.n_pes)
      fail(ISHMEM_ERR_INVALID_PE, "atomic: PE %d is not in [0, %d)", pe, g_fast.n_pes);
    std::size_t off = reinterpret_cast<char *>(dest) - g_fast.local_base;
    if (off >= g_fast.stride || sizeof(T) > g_fast.stride - off)
      fail(ISHMEM_ERR_NOT_SYMMETRIC, "atomic: %p is not inside the symmetric heap",
           static_cast<void *>(dest));
    if (off % sizeof(T) != 0)
      fail(ISHMEM_ERR_INVALID_ARG, "atomic: %p is not aligned to %zu bytes",
           static_cast<void *>(dest), sizeof(T));
    if (!rt.remote)
      fail(ISHMEM_ERR_UNSUPPORTED,
           "atomic: host-initiated atomics on a %s heap are not supported; use the device API",
           rt.backend->name());
    if (op == AmoOp::compare_swap && pe == g_fast.my_pe) {
      // Open MPI 4.1's osc/rdma crashes on MPI_Compare_and_swap to the calling rank (its
      // shared-memory btl emulates it with a send to a self endpoint it does not have). That
      // emulation runs CPU atomics on this memory, so a CPU compare-and-swap is atomic with it.
      rt.remote->progress();  // a PE spinning on its own lock still serves its peers
      result = amo_direct(op, dest, value, cond);
      return;
    }
    rt.remote->atomic(pe, off, mpi_type<T>(), mpi_op(op), &value,
                      op == AmoOp::compare_swap ? &cond : nullptr, &result);
  });
  return result;
}

}  // namespace ishmem::detail

// Every AMO is a call of amo<T>(op, dest, value, cond, pe, rc); the macros only name them.
#define ISHMEMI_RC_CALL(expr) \
  int rc;                     \
  (void)(expr);               \
  return rc
#define ISHMEMI_NBI_CALL(expr) \
  int rc;                      \
  *fetch = (expr);             \
  return rc

extern "C" {

#define ISHMEMI_DEFINE_AMO_EXTENDED(T, N)                                                          \
  T ishmem_##N##_atomic_fetch(const T *source, int pe) {                                           \
    int rc;                                                                                        \
    return amo<T>(AmoOp::fetch, const_cast<T *>(source), static_cast<T>(0), static_cast<T>(0), pe, \
                  rc);                                                                             \
  }                                                                                                \
  int ishmem_##N##_atomic_set(T *dest, T value, int pe) {                                          \
    ISHMEMI_RC_CALL(amo<T>(AmoOp::set, dest, value, static_cast<T>(0), pe, rc));                   \
  }                                                                                                \
  T ishmem_##N##_atomic_swap(T *dest, T value, int pe) {                                           \
    int rc;                                                                                        \
    return amo<T>(AmoOp::swap, dest, value, static_cast<T>(0), pe, rc);                            \
  }                                                                                                \
  int ishmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe) {                           \
    ISHMEMI_NBI_CALL(amo<T>(AmoOp::fetch, const_cast<T *>(source), static_cast<T>(0),              \
                            static_cast<T>(0), pe, rc));                                           \
  }                                                                                                \
  int ishmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe) {                           \
    ISHMEMI_NBI_CALL(amo<T>(AmoOp::swap, dest, value, static_cast<T>(0), pe, rc));                 \
  }
ISHMEMI_AMO_STANDARD_TYPES(ISHMEMI_DEFINE_AMO_EXTENDED)
ISHMEMI_AMO_EXTENDED_ONLY_TYPES(ISHMEMI_DEFINE_AMO_EXTENDED)
#undef ISHMEMI_DEFINE_AMO_EXTENDED

#define ISHMEMI_DEFINE_AMO_STANDARD(T, N)                                                     \
  T ishmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe) {                      \
    int rc;                                                                                   \
    return amo<T>(AmoOp::compare_swap, dest, value, cond, pe, rc);                            \
  }                                                                                           \
  int ishmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe) {      \
    ISHMEMI_NBI_CALL(amo<T>(AmoOp::compare_swap, dest, value, cond, pe, rc));                 \
  }                                                                                           \
  T ishmem_##N##_atomic_fetch_inc(T *dest, int pe) {                                          \
    int rc;                                                                                   \
    return amo<T>(AmoOp::add, dest, static_cast<T>(1), static_cast<T>(0), pe, rc);            \
  }                                                                                           \
  int ishmem_##N##_atomic_inc(T *dest, int pe) {                                              \
    ISHMEMI_RC_CALL(amo<T>(AmoOp::add, dest, static_cast<T>(1), static_cast<T>(0), pe, rc));  \
  }                                                                                           \
  int ishmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe) {                          \
    ISHMEMI_NBI_CALL(amo<T>(AmoOp::add, dest, static_cast<T>(1), static_cast<T>(0), pe, rc)); \
  }                                                                                           \
  T ishmem_##N##_atomic_fetch_add(T *dest, T value, int pe) {                                 \
    int rc;                                                                                   \
    return amo<T>(AmoOp::add, dest, value, static_cast<T>(0), pe, rc);                        \
  }                                                                                           \
  int ishmem_##N##_atomic_add(T *dest, T value, int pe) {                                     \
    ISHMEMI_RC_CALL(amo<T>(AmoOp::add, dest, value, static_cast<T>(0), pe, rc));              \
  }                                                                                           \
  int ishmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe) {                 \
    ISHMEMI_NBI_CALL(amo<T>(AmoOp::add, dest, value, static_cast<T>(0), pe, rc));             \
  }
ISHMEMI_AMO_STANDARD_TYPES(ISHMEMI_DEFINE_AMO_STANDARD)
#undef ISHMEMI_DEFINE_AMO_STANDARD

// NAME carries its leading underscore: and/or/xor are operator names in C++.
#define ISHMEMI_DEFINE_AMO_BITWISE_OP(T, N, NAME, OP)                             \
  T ishmem_##N##_atomic_fetch##NAME(T *dest, T value, int pe) {                   \
    int rc;                                                                       \
    return amo<T>(OP, dest, value, static_cast<T>(0), pe, rc);                    \
  }                                                                               \
  int ishmem_##N##_atomic##NAME(T *dest, T value, int pe) {                       \
    ISHMEMI_RC_CALL(amo<T>(OP, dest, value, static_cast<T>(0), pe, rc));          \
  }                                                                               \
  int ishmem_##N##_atomic_fetch##NAME##_nbi(T *fetch, T *dest, T value, int pe) { \
    ISHMEMI_NBI_CALL(amo<T>(OP, dest, value, static_cast<T>(0), pe, rc));         \
  }
#define ISHMEMI_DEFINE_AMO_BITWISE(T, N)                    \
  ISHMEMI_DEFINE_AMO_BITWISE_OP(T, N, _and, AmoOp::bit_and) \
  ISHMEMI_DEFINE_AMO_BITWISE_OP(T, N, _or, AmoOp::bit_or)   \
  ISHMEMI_DEFINE_AMO_BITWISE_OP(T, N, _xor, AmoOp::bit_xor)
ISHMEMI_AMO_BITWISE_TYPES(ISHMEMI_DEFINE_AMO_BITWISE)
#undef ISHMEMI_DEFINE_AMO_BITWISE
#undef ISHMEMI_DEFINE_AMO_BITWISE_OP

}  // extern "C"
