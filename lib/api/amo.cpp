// Host atomic memory operations, defined from the AMO signature lists over the AMO type tables. A
// node-local target on a host heap is one __atomic instruction on the shared mapping; other targets
// (off-node heaps, the program's static data) go through MPI's atomics (MPI_Fetch_and_op,
// MPI_Compare_and_swap).
#include <type_traits>

#include "api/amo_path.h"
#include "api/calls.h"
#include "api/checks.h"
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
    check_pe(pe, "atomic");
    // Static data's atomics all go through MPI, this PE's own included: MPI's atomics are
    // atomic only with each other.
    std::size_t off;
    OffNode *mpi = static_window_aligned(dest, 1, sizeof(T), off, "atomic");
    if (!mpi) {
      off = check_symmetric_word(dest, sizeof(T), pe, "atomic");
      mpi = rt.remote;
    }
    if (!mpi) {
      // A host heap's atomics come here checked with ISHMEM_DEBUG=1 (no fast path then).
      char *peer =
          g_fast.direct_atomics ? direct_address(dest, sizeof(T), pe, g_fast.committed) : nullptr;
      if (!peer)
        fail(ISHMEM_ERR_UNSUPPORTED,
             "atomic: host-initiated atomics on a %s heap are not supported; use the device API",
             rt.backend->name());
      result = amo_direct(op, reinterpret_cast<T *>(peer), value, cond);
      return;
    }
    if (op == AmoOp::compare_swap && pe == g_fast.my_pe && g_fast.host_access) {
      // Open MPI 4.1's osc/rdma crashes on MPI_Compare_and_swap to the calling rank (its
      // shared-memory btl emulates it with a send to a self endpoint it does not have). That
      // emulation runs CPU atomics on this memory, so a CPU compare-and-swap is atomic with it.
      // (A GPU heap's word is not CPU-addressable: the served path runs a device atomic.)
      mpi->progress();  // a PE spinning on its own lock still serves its peers
      result = amo_direct(op, dest, value, cond);
      return;
    }
    mpi->atomic(pe, off, mpi_type<T>(), mpi_op(op), &value,
                op == AmoOp::compare_swap ? &cond : nullptr, &result);
  });
  return result;
}

// Out of line for the locks (api/lock.cpp), whose word is a 64-bit unsigned.
template std::uint64_t amo_slow<std::uint64_t>(AmoOp, std::uint64_t *, std::uint64_t, std::uint64_t,
                                               int, int &) noexcept;

// The operations of the AMO signature lists: each is one call of amo<T>(op, dest, value, cond,
// pe, rc). Every AMO reports its errors as "atomic".
namespace host {

template <class T>
T amo_fetch(const char *, const T *source, int pe) {
  int rc;
  return amo<T>(AmoOp::fetch, const_cast<T *>(source), static_cast<T>(0), static_cast<T>(0), pe,
                rc);
}
template <class T>
int amo_fetch_nbi(const char *, T *fetch, const T *source, int pe) {
  int rc;
  *fetch =
      amo<T>(AmoOp::fetch, const_cast<T *>(source), static_cast<T>(0), static_cast<T>(0), pe, rc);
  return rc;
}
template <class T>
int amo_set(const char *, T *dest, T value, int pe) {
  int rc;
  (void)amo<T>(AmoOp::set, dest, value, static_cast<T>(0), pe, rc);
  return rc;
}
template <class T>
T amo_compare_swap(const char *, T *dest, T cond, T value, int pe) {
  int rc;
  return amo<T>(AmoOp::compare_swap, dest, value, cond, pe, rc);
}
template <class T>
int amo_compare_swap_nbi(const char *, T *fetch, T *dest, T cond, T value, int pe) {
  int rc;
  *fetch = amo<T>(AmoOp::compare_swap, dest, value, cond, pe, rc);
  return rc;
}
template <class T>
T amo_fetch_inc(const char *, T *dest, int pe) {
  int rc;
  return amo<T>(AmoOp::add, dest, static_cast<T>(1), static_cast<T>(0), pe, rc);
}
template <class T>
int amo_inc(const char *, T *dest, int pe) {
  int rc;
  (void)amo<T>(AmoOp::add, dest, static_cast<T>(1), static_cast<T>(0), pe, rc);
  return rc;
}
template <class T>
int amo_fetch_inc_nbi(const char *, T *fetch, T *dest, int pe) {
  int rc;
  *fetch = amo<T>(AmoOp::add, dest, static_cast<T>(1), static_cast<T>(0), pe, rc);
  return rc;
}

// The operations that take one value: OP is the AmoOp, NAME the operation's list name.
#define ISHMEMI_VALUE_OPS(NAME, OP)                                        \
  template <class T>                                                       \
  T amo_##NAME(const char *, T *dest, T value, int pe) {                   \
    int rc;                                                                \
    return amo<T>(OP, dest, value, static_cast<T>(0), pe, rc);             \
  }                                                                        \
  template <class T>                                                       \
  int amo_##NAME##_nbi(const char *, T *fetch, T *dest, T value, int pe) { \
    int rc;                                                                \
    *fetch = amo<T>(OP, dest, value, static_cast<T>(0), pe, rc);           \
    return rc;                                                             \
  }
ISHMEMI_VALUE_OPS(swap, AmoOp::swap)
ISHMEMI_VALUE_OPS(fetch_add, AmoOp::add)
ISHMEMI_VALUE_OPS(fetch_and, AmoOp::bit_and)
ISHMEMI_VALUE_OPS(fetch_or, AmoOp::bit_or)
ISHMEMI_VALUE_OPS(fetch_xor, AmoOp::bit_xor)
#undef ISHMEMI_VALUE_OPS
// The non-fetching forms of add, and, or, xor.
#define ISHMEMI_UPDATE_OP(NAME, OP)                           \
  template <class T>                                          \
  int amo_##NAME(const char *, T *dest, T value, int pe) {    \
    int rc;                                                   \
    (void)amo<T>(OP, dest, value, static_cast<T>(0), pe, rc); \
    return rc;                                                \
  }
ISHMEMI_UPDATE_OP(add, AmoOp::add)
ISHMEMI_UPDATE_OP(and, AmoOp::bit_and)
ISHMEMI_UPDATE_OP(or, AmoOp::bit_or)
ISHMEMI_UPDATE_OP(xor, AmoOp::bit_xor)
#undef ISHMEMI_UPDATE_OP

}  // namespace host
}  // namespace ishmem::detail

extern "C" {

#define ISHMEMI_DEFINE_AMO_EXTENDED(T, N) ISHMEMI_AMO_EXTENDED_CALLS(ISHMEMI_DEFINE_CALLS, T, N)
#define ISHMEMI_DEFINE_AMO_STANDARD(T, N) ISHMEMI_AMO_STANDARD_CALLS(ISHMEMI_DEFINE_CALLS, T, N)
#define ISHMEMI_DEFINE_AMO_BITWISE(T, N) ISHMEMI_AMO_BITWISE_CALLS(ISHMEMI_DEFINE_CALLS, T, N)
ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_DEFINE_AMO_EXTENDED)
ISHMEMX_AMO_EXTENDED_ONLY_TYPES(ISHMEMI_DEFINE_AMO_EXTENDED)
ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_DEFINE_AMO_STANDARD)
ISHMEMX_AMO_BITWISE_TYPES(ISHMEMI_DEFINE_AMO_BITWISE)
#undef ISHMEMI_DEFINE_AMO_EXTENDED
#undef ISHMEMI_DEFINE_AMO_STANDARD
#undef ISHMEMI_DEFINE_AMO_BITWISE

}  // extern "C"
