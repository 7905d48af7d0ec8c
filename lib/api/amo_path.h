// The host AMO fast path: for a node-local target on a host heap, one __atomic operation on
// the peer's copy of the address. Everything else is amo_slow (MPI, or an error).
#pragma once

#include <cstdint>
#include <type_traits>

#include "api/rma_path.h"

namespace ishmem::detail {

enum class AmoOp { fetch, set, swap, compare_swap, add, bit_and, bit_or, bit_xor };

template <class T>
T amo_slow(AmoOp op, T *dest, T value, T cond, int pe, int &rc) noexcept;

template <class T>
inline T amo_direct(AmoOp op, T *p, T value, T cond) {
  T old{};
  switch (op) {
    case AmoOp::fetch:
      __atomic_load(p, &old, __ATOMIC_SEQ_CST);
      break;
    case AmoOp::set:
      __atomic_store(p, &value, __ATOMIC_SEQ_CST);
      break;
    case AmoOp::swap:
      __atomic_exchange(p, &value, &old, __ATOMIC_SEQ_CST);
      break;
    case AmoOp::compare_swap:
      old = cond;
      __atomic_compare_exchange(p, &old, &value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
      break;
    default:
      if constexpr (std::is_integral_v<T>) {
        switch (op) {
          case AmoOp::add:
            old = __atomic_fetch_add(p, value, __ATOMIC_SEQ_CST);
            break;
          case AmoOp::bit_and:
            old = __atomic_fetch_and(p, value, __ATOMIC_SEQ_CST);
            break;
          case AmoOp::bit_or:
            old = __atomic_fetch_or(p, value, __ATOMIC_SEQ_CST);
            break;
          case AmoOp::bit_xor:
            old = __atomic_fetch_xor(p, value, __ATOMIC_SEQ_CST);
            break;
          default:
            break;
        }
      }
  }
  return old;
}

// Returns the old value (or 0 on error); `rc` gets the status.
template <class T>
inline T amo(AmoOp op, T *dest, T value, T cond, int pe, int &rc) noexcept {
  char *peer = direct_address(dest, sizeof(T), pe, g_fast.atomic_bytes);
  if (__builtin_expect(peer != nullptr, 1) &&
      __builtin_expect(reinterpret_cast<std::uintptr_t>(peer) % sizeof(T) == 0, 1)) {
    rc = ISHMEM_SUCCESS;
    return amo_direct(op, reinterpret_cast<T *>(peer), value, cond);
  }
  return amo_slow(op, dest, value, cond, pe, rc);
}

}  // namespace ishmem::detail
