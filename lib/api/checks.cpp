#include "api/checks.h"

namespace ishmem::detail {

void check_pe(int pe, const char *fn) {
  if (pe < 0 || pe >= g_fast.n_pes)
    fail(ISHMEM_ERR_INVALID_PE, "%s: PE %d is not in [0, %d)", fn, pe, g_fast.n_pes);
}

std::size_t check_symmetric(const void *sym, std::size_t bytes, const char *fn) {
  std::size_t off;
  if (!in_heap(sym, bytes, off))
    fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s: [%p, +%zu) is not inside the symmetric heap [%p, +%zu)", fn,
         sym, bytes, static_cast<void *>(g_fast.local_base), g_fast.stride);
  return off;
}

std::size_t check_symmetric_aligned(const void *sym, std::size_t count, std::size_t size,
                                    const char *fn, const char *label, const char *kind) {
  std::size_t off;
  if (!in_heap_aligned(sym, count, size, off))
    fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s: %s%p is not an aligned %s in the symmetric heap", fn, label,
         sym, kind);
  return off;
}

std::size_t check_symmetric_word(const void *sym, std::size_t size, const char *fn) {
  std::size_t off;
  if (!in_heap(sym, size, off))
    fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s: %p is not inside the symmetric heap", fn, sym);
  if (off % size != 0)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: %p is not aligned to %zu bytes", fn, sym, size);
  return off;
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
