#include "api/checks.h"

#include <cstdint>

namespace ishmem::detail {

void check_pe(int pe, const char *fn) {
  if (pe < 0 || pe >= g_fast.n_pes)
    fail(ISHMEM_ERR_INVALID_PE, "%s: PE %d is not in [0, %d)", fn, pe, g_fast.n_pes);
}

namespace {

// A NULL symmetric address is a bad argument in every call, not an address outside the heap.
void check_not_null(const void *sym, const char *fn) {
  if (!sym) fail(ISHMEM_ERR_INVALID_ARG, "%s: NULL symmetric address", fn);
}

// Fails if sym lies in the library's own area below the user's heap (Heap::library_area), or
// [sym, sym + bytes) in the heap's reservation but not in its committed part: nothing was ever
// allocated there, or it was freed and trimmed. Offsets here are from the user's heap.
void check_committed(const void *sym, std::size_t bytes, const char *fn) {
  const auto off = static_cast<std::size_t>(static_cast<const char *>(sym) - g_fast.local_base);
  const std::size_t library = runtime().heap->user_offset();
  if (off + library < library)  // [heap start, user's heap): wrapped below the user's heap
    fail(ISHMEM_ERR_NOT_SYMMETRIC,
         "%s: %p is in ishmem's own area of the heap (%zu bytes of team sync words and scratch "
         "below [%p, +%zu), the symmetric heap); no call reaches it",
         fn, sym, library, static_cast<void *>(g_fast.local_base), g_fast.committed);
  const std::size_t reserved = g_fast.stride - library, committed = g_fast.committed;
  if (off < reserved && bytes <= reserved - off && (off >= committed || bytes > committed - off))
    fail(ISHMEM_ERR_NOT_SYMMETRIC,
         "%s: [%p, +%zu) is in the symmetric heap's reserved but uncommitted part (committed: "
         "[%p, +%zu)); nothing is allocated there",
         fn, sym, bytes, static_cast<void *>(g_fast.local_base), g_fast.committed);
}

// Fails, in words about static data, if [sym, sym + bytes) starts in the program's static data
// (a call that takes static data tried it first): it runs past the end of its segment, or the
// call takes none.
void check_not_static(const void *sym, std::size_t bytes, const char *fn) {
  const char *start = nullptr;
  std::size_t size = 0;
  if (!runtime().statics->segment_of(sym, start, size)) return;
  if (bytes <= size - static_cast<std::size_t>(static_cast<const char *>(sym) - start))
    fail(ISHMEM_ERR_NOT_SYMMETRIC,
         "%s: %p is in the program's static data, which this call does not take: it needs "
         "symmetric heap memory (ishmem_malloc)",
         fn, sym);
  fail(ISHMEM_ERR_NOT_SYMMETRIC,
       "%s: [%p, +%zu) starts in the program's static data but runs past the end of its "
       "segment [%p, +%zu)",
       fn, sym, bytes, static_cast<const void *>(start), size);
}

// ISHMEM_DEBUG=1: [sym, sym + bytes), at `off` in the heap, lies in one live allocation.
void check_live(const void *sym, std::size_t off, std::size_t bytes, int pe, const char *fn) {
  if (g_fast.debug && !runtime().heap->allocator().in_live_block(off, bytes))
    fail(ISHMEM_ERR_NOT_SYMMETRIC,
         "%s: address %p (+%zu bytes) to PE %d is not inside a live allocation (ISHMEM_DEBUG=1)",
         fn, sym, bytes, pe);
}

}  // namespace

std::size_t check_symmetric(const void *sym, std::size_t bytes, int pe, const char *fn) {
  std::size_t off;
  if (!in_heap(sym, bytes, off)) {
    check_not_null(sym, fn);
    check_committed(sym, bytes, fn);
    check_not_static(sym, bytes, fn);
    fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s: [%p, +%zu) is not inside the symmetric heap [%p, +%zu)", fn,
         sym, bytes, static_cast<void *>(g_fast.local_base), g_fast.committed);
  }
  off += runtime().heap->user_offset();  // from the user's heap to the heap's start
  check_live(sym, off, bytes, pe, fn);
  return off;
}

std::size_t check_symmetric_aligned(const void *sym, std::size_t count, std::size_t size, int pe,
                                    const char *fn, const char *label, const char *kind) {
  std::size_t off;
  if (!in_heap_aligned(sym, count, size, off)) {
    // An overflowing count never fits: the reservation test needs no exact byte count.
    std::size_t bytes;
    if (__builtin_mul_overflow(count, size, &bytes)) bytes = SIZE_MAX;
    check_not_null(sym, fn);
    check_committed(sym, bytes, fn);
    check_not_static(sym, bytes, fn);
    fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s: %s%p is not an aligned %s in the symmetric heap", fn, label,
         sym, kind);
  }
  off += runtime().heap->user_offset();
  check_live(sym, off, count * size, pe, fn);
  return off;
}

std::size_t check_symmetric_word(const void *sym, std::size_t size, int pe, const char *fn) {
  std::size_t off = check_symmetric(sym, size, pe, fn);
  if (off % size != 0)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: %p is not aligned to %zu bytes", fn, sym, size);
  return off;
}

MpiTransport *static_window(const void *sym, std::size_t bytes, std::size_t &off, const char *fn) {
  const StaticData &statics = *runtime().statics;
  return statics.contains(sym, bytes, off) ? &statics.window(fn, sym) : nullptr;
}

MpiTransport *static_window_aligned(const void *sym, std::size_t count, std::size_t size,
                                    std::size_t &off, const char *fn) {
  std::size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) return nullptr;  // the heap's check fails it
  MpiTransport *window = static_window(sym, bytes, off, fn);
  // The segment's start has no particular alignment: the address itself must be aligned (its
  // copies are too, since the PEs' load addresses differ by whole pages).
  if (window && reinterpret_cast<std::uintptr_t>(sym) % size != 0)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: %p is not aligned to %zu bytes", fn, sym, size);
  return window;
}

void check_cmp(int cmp, const char *fn) {
  if (!ishmemi::valid_cmp(cmp))
    fail(ISHMEM_ERR_INVALID_ARG, "%s: %d is not an ISHMEM_CMP_* operator", fn, cmp);
}

void check_sig_op(int sig_op, const char *fn) {
  if (!valid_sig_op(sig_op))
    fail(ISHMEM_ERR_INVALID_ARG, "%s: sig_op %d is neither ISHMEM_SIGNAL_SET nor ISHMEM_SIGNAL_ADD",
         fn, sig_op);
}

}  // namespace ishmem::detail
