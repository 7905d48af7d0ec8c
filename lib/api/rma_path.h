// The RMA fast path. A node-local transfer on a host heap is a range check, one multiply-add
// to find the peer's copy of the address, and the loads and stores themselves. Everything
// else (errors, off-node PEs through MPI, GPU heaps through the backend's copy) is out of line.
#pragma once

#include <cstring>

#include "runtime/runtime.h"

namespace ishmem::detail {

enum class Direction { put, get };

// Slow path: validates and reports bad arguments, or moves data through MPI or the backend.
int rma_slow(Direction dir, void *dest, const void *source, std::size_t bytes, int pe,
             bool blocking, const char *fn) noexcept;

// Address of symmetric `sym` (with `bytes` after it) on node-local `pe` for direct access, or
// nullptr if the slow path must handle it. `limit` is g_fast.direct_bytes or atomic_bytes.
inline char *direct_address(const void *sym, std::size_t bytes, int pe, std::size_t limit) {
  const FastPath &f = g_fast;
  std::size_t off = static_cast<const char *>(sym) - f.local_base;
  if (off >= limit || bytes > limit - off) return nullptr;
  unsigned slot;
  if (__builtin_expect(f.contiguous_byte, 1)) {
    // Unsigned, so that a PE far below the first local one (INT_MIN) wraps instead of
    // overflowing; a PE outside the node lands at or above n_local either way.
    slot = static_cast<unsigned>(pe) - static_cast<unsigned>(f.first_local_pe);
  } else {
    if (static_cast<unsigned>(pe) >= static_cast<unsigned>(f.n_pes)) return nullptr;
    slot = static_cast<unsigned>(f.pe_slot[pe]);
  }
  if (slot >= static_cast<unsigned>(f.n_local)) return nullptr;
  return f.window + f.stride * slot + off;
}

inline int rma(Direction dir, void *dest, const void *source, std::size_t bytes, int pe,
               bool blocking, const char *fn) noexcept {
  char *peer =
      direct_address(dir == Direction::put ? dest : source, bytes, pe, g_fast.direct_bytes);
  const void *local = dir == Direction::put ? source : dest;
  if (__builtin_expect(peer == nullptr, 0) || __builtin_expect(local == nullptr, 0))
    return rma_slow(dir, dest, source, bytes, pe, blocking, fn);
  if (dir == Direction::put)
    memcpy(peer, source, bytes);
  else
    memcpy(dest, peer, bytes);
  return ISHMEM_SUCCESS;
}

// Elements of `size` bytes, `stride` elements apart, one element at a time.
int rma_strided(Direction dir, void *dest, const void *source, std::ptrdiff_t dst,
                std::ptrdiff_t sst, std::size_t nelems, std::size_t size, int pe,
                const char *fn) noexcept;

}  // namespace ishmem::detail
