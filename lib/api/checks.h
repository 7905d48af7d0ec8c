// The argument checks of the entry points: PE range, symmetric range, `cmp` and `sig_op`.
// Each throws Error (through fail) with the entry point's name; guard() turns that into the
// status and the text of ishmemx_last_error(). Fast paths test the same conditions inline
// (direct_address, valid_sig_op) and call these only on their slow path.
#pragma once

#include <cstddef>

#include "common/error.h"
#include "ishmem/detail/scan.h"
#include "runtime/runtime.h"

namespace ishmem::detail {

// The one symmetric range test: true if [sym, sym + bytes) lies in this PE's heap as far as
// it is committed (past that the window is only reserved, and an access would fault); `off`
// gets sym's offset in it, from the user's heap (g_fast's layout starts there: the library's
// own area below it is out of range).
inline bool in_heap(const void *sym, std::size_t bytes, std::size_t &off) {
  off = static_cast<std::size_t>(static_cast<const char *>(sym) - g_fast.local_base);
  return off < g_fast.committed && bytes <= g_fast.committed - off;
}

// The same for an array of `count` elements of `size` bytes, aligned to `size`.
inline bool in_heap_aligned(const void *sym, std::size_t count, std::size_t size,
                            std::size_t &off) {
  off = static_cast<std::size_t>(static_cast<const char *>(sym) - g_fast.local_base);
  return off < g_fast.committed && count <= (g_fast.committed - off) / size && off % size == 0;
}

inline bool valid_sig_op(int sig_op) {
  return sig_op == ISHMEM_SIGNAL_SET || sig_op == ISHMEM_SIGNAL_ADD;
}

// ISHMEM_ERR_INVALID_PE unless 0 <= pe < n_pes.
void check_pe(int pe, const char *fn);
// The symmetric range checks: each fails with ISHMEM_ERR_NOT_SYMMETRIC when the data is not in
// the committed heap (saying so when it is in the reserved but uncommitted part) and, with
// ISHMEM_DEBUG=1, when it is not inside one live allocation; the message names `pe`, the
// target; for an address in the program's static data it speaks of that. Each returns sym's
// offset from the heap's start (Heap::local_base, as the off-node transports take it).
// [sym, sym + bytes).
std::size_t check_symmetric(const void *sym, std::size_t bytes, int pe, const char *fn);
// `count` elements of `size` bytes at `sym`, aligned; the message calls sym "<label><sym>" and
// the data "an aligned <kind>".
std::size_t check_symmetric_aligned(const void *sym, std::size_t count, std::size_t size, int pe,
                                    const char *fn, const char *label, const char *kind);
// An AMO target; then ISHMEM_ERR_INVALID_ARG unless aligned to `size`.
std::size_t check_symmetric_word(const void *sym, std::size_t size, int pe, const char *fn);
// The program's static data (docs/STATIC_DATA.md), which the slow paths test before the heap's
// checks: the window if [sym, sym + bytes) lies in it (`off` gets sym's offset there), else
// nullptr. Static data that is unusable here (executables that differ between PEs, no MPI
// window) fails with why.
MpiTransport *static_window(const void *sym, std::size_t bytes, std::size_t &off, const char *fn);
// The same for `count` elements of `size` bytes at `sym`, which must be aligned to `size`
// (ISHMEM_ERR_INVALID_ARG otherwise).
MpiTransport *static_window_aligned(const void *sym, std::size_t count, std::size_t size,
                                    std::size_t &off, const char *fn);
// ISHMEM_ERR_INVALID_ARG unless cmp is an ISHMEM_CMP_* operator.
void check_cmp(int cmp, const char *fn);
// ISHMEM_ERR_INVALID_ARG unless sig_op is ISHMEM_SIGNAL_SET or ISHMEM_SIGNAL_ADD.
void check_sig_op(int sig_op, const char *fn);

}  // namespace ishmem::detail
