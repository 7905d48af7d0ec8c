// Put-with-signal. The data goes first; the signal is updated only once the data is in place
// at the target, so a PE that sees the signal also sees the data.
#include "api/guard.h"
#include "api/rma_path.h"
#include "runtime/sync.h"

using namespace ishmem::detail;

namespace {

int signal_slow(void *dest, const void *source, std::size_t bytes, std::uint64_t *sig_addr,
                std::uint64_t signal, int sig_op, int pe, bool blocking) noexcept {
  // Everything is checked before anything moves: an error has no side effect at the target.
  int rc = guard([&] {
    Runtime &rt = runtime();
    if (sig_op != ISHMEM_SIGNAL_SET && sig_op != ISHMEM_SIGNAL_ADD)
      fail(ISHMEM_ERR_INVALID_ARG,
           "ishmem_putmem_signal: sig_op %d is neither "
           "ISHMEM_SIGNAL_SET nor ISHMEM_SIGNAL_ADD",
           sig_op);
    std::size_t off = reinterpret_cast<char *>(sig_addr) - g_fast.local_base;
    if (off >= g_fast.stride || sizeof *sig_addr > g_fast.stride - off || off % 8 != 0)
      fail(ISHMEM_ERR_NOT_SYMMETRIC,
           "ishmem_putmem_signal: signal %p is not an aligned "
           "address in the symmetric heap",
           static_cast<void *>(sig_addr));
    if (!rt.remote)
      fail(ISHMEM_ERR_UNSUPPORTED,
           "ishmem_putmem_signal: host-initiated signals on a %s heap "
           "are not supported; use the device API",
           rt.backend->name());
  });
  if (rc == ISHMEM_SUCCESS)
    rc = rma(Direction::put, dest, source, bytes, pe, blocking, "ishmem_putmem_signal");
  if (rc != ISHMEM_SUCCESS) return rc;
  return guard([&] {
    Runtime &rt = runtime();
    std::size_t off = reinterpret_cast<char *>(sig_addr) - g_fast.local_base;
    // The data may have gone by CPU stores (a node-local target): order them before the
    // MPI atomic as well.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    rt.remote->flush(pe);  // MPI does not order the data before the signal by itself
    std::uint64_t old;
    rt.remote->atomic(pe, off, MPI_UINT64_T, sig_op == ISHMEM_SIGNAL_SET ? MPI_REPLACE : MPI_SUM,
                      &signal, nullptr, &old);
  });
}

inline int put_signal(void *dest, const void *source, std::size_t bytes, std::uint64_t *sig_addr,
                      std::uint64_t signal, int sig_op, int pe, bool blocking) noexcept {
  char *peer_sig = direct_address(sig_addr, sizeof *sig_addr, pe, g_fast.atomic_bytes);
  if (__builtin_expect(peer_sig == nullptr || reinterpret_cast<std::uintptr_t>(peer_sig) % 8 ||
                           (sig_op != ISHMEM_SIGNAL_SET && sig_op != ISHMEM_SIGNAL_ADD),
                       0))
    return signal_slow(dest, source, bytes, sig_addr, signal, sig_op, pe, blocking);
  int rc = rma(Direction::put, dest, source, bytes, pe, blocking, "ishmem_putmem_signal");
  if (rc != ISHMEM_SUCCESS) return rc;
  // Release: the data stores above become visible no later than the signal.
  auto *sig = reinterpret_cast<std::uint64_t *>(peer_sig);
  if (sig_op == ISHMEM_SIGNAL_SET)
    __atomic_store_n(sig, signal, __ATOMIC_RELEASE);
  else
    __atomic_fetch_add(sig, signal, __ATOMIC_RELEASE);
  return ISHMEM_SUCCESS;
}

}  // namespace

extern "C" {

int ishmem_putmem_signal(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe) {
  return put_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe, true);
}

int ishmem_putmem_signal_nbi(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe) {
  return put_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe, false);
}

#define ISHMEMI_DEFINE_PUT_SIGNAL(T, N)                                                        \
  int ishmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,     \
                              uint64_t signal, int sig_op, int pe) {                           \
    std::size_t bytes;                                                                         \
    if (__builtin_mul_overflow(nelems, sizeof(T), &bytes)) bytes = SIZE_MAX;                   \
    return put_signal(dest, source, bytes, sig_addr, signal, sig_op, pe, true);                \
  }                                                                                            \
  int ishmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr, \
                                  uint64_t signal, int sig_op, int pe) {                       \
    std::size_t bytes;                                                                         \
    if (__builtin_mul_overflow(nelems, sizeof(T), &bytes)) bytes = SIZE_MAX;                   \
    return put_signal(dest, source, bytes, sig_addr, signal, sig_op, pe, false);               \
  }
ISHMEMI_RMA_TYPES(ISHMEMI_DEFINE_PUT_SIGNAL)
#undef ISHMEMI_DEFINE_PUT_SIGNAL

}  // extern "C"
