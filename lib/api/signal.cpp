// Put-with-signal. The data goes first; the signal is updated only once the data is in place
// at the target, so a PE that sees the signal also sees the data.
#include "api/calls.h"
#include "api/checks.h"
#include "api/guard.h"
#include "api/rma_path.h"
#include "runtime/sync.h"

using namespace ishmem::detail;

namespace {

// The signal's update on the peer's mapping, once the data is stored: release, so that the
// data becomes visible no later than the signal.
void signal_direct(char *peer_sig, std::uint64_t signal, int sig_op) {
  auto *sig = reinterpret_cast<std::uint64_t *>(peer_sig);
  if (sig_op == ISHMEM_SIGNAL_SET)
    __atomic_store_n(sig, signal, __ATOMIC_RELEASE);
  else
    __atomic_fetch_add(sig, signal, __ATOMIC_RELEASE);
}

// Every put-with-signal reports its errors under this name.
constexpr const char *kName = "ishmem_putmem_signal";

int signal_slow(void *dest, const void *source, std::size_t bytes, std::uint64_t *sig_addr,
                std::uint64_t signal, int sig_op, int pe, bool blocking) noexcept {
  // Everything is checked before anything moves: an error has no side effect at the target.
  int rc = guard([&] {
    Runtime &rt = runtime();
    check_pe(pe, kName);  // a bad PE is reported as such, as by ishmem_putmem
    check_sig_op(sig_op, kName);
    check_symmetric_aligned(sig_addr, 1, sizeof *sig_addr, pe, kName, "signal ", "address");
    if (!rt.remote && !g_fast.direct_atomics)
      fail(ISHMEM_ERR_UNSUPPORTED,
           "ishmem_putmem_signal: host-initiated signals on a %s heap "
           "are not supported; use the device API",
           rt.backend->name());
  });
  if (rc == ISHMEM_SUCCESS) rc = rma(Direction::put, dest, source, bytes, pe, blocking, kName);
  if (rc != ISHMEM_SUCCESS) return rc;
  return guard([&] {
    Runtime &rt = runtime();
    if (!rt.remote) {  // a host heap with ISHMEM_DEBUG=1 (no fast path): checked above
      signal_direct(direct_address(sig_addr, sizeof *sig_addr, pe, g_fast.committed), signal,
                    sig_op);
      return;
    }
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
                           !valid_sig_op(sig_op),
                       0))
    return signal_slow(dest, source, bytes, sig_addr, signal, sig_op, pe, blocking);
  int rc = rma(Direction::put, dest, source, bytes, pe, blocking, kName);
  if (rc != ISHMEM_SUCCESS) return rc;
  signal_direct(peer_sig, signal, sig_op);
  return ISHMEM_SUCCESS;
}

}  // namespace

// The operations of the signal signature lists.
namespace ishmem::detail::host {

template <class>
int putmem_signal(const char *, void *dest, const void *source, std::size_t nbytes,
                  std::uint64_t *sig_addr, std::uint64_t signal, int sig_op, int pe) {
  return put_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe, true);
}
template <class>
int putmem_signal_nbi(const char *, void *dest, const void *source, std::size_t nbytes,
                      std::uint64_t *sig_addr, std::uint64_t signal, int sig_op, int pe) {
  return put_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe, false);
}
// An element count whose byte count overflows fails the range check.
inline std::size_t element_bytes(std::size_t nelems, std::size_t size) {
  std::size_t bytes;
  return __builtin_mul_overflow(nelems, size, &bytes) ? SIZE_MAX : bytes;
}
template <class T>
int put_signal(const char *, T *dest, const T *source, std::size_t nelems, std::uint64_t *sig_addr,
               std::uint64_t signal, int sig_op, int pe) {
  return ::put_signal(dest, source, element_bytes(nelems, sizeof(T)), sig_addr, signal, sig_op, pe,
                      true);
}
template <class T>
int put_signal_nbi(const char *, T *dest, const T *source, std::size_t nelems,
                   std::uint64_t *sig_addr, std::uint64_t signal, int sig_op, int pe) {
  return ::put_signal(dest, source, element_bytes(nelems, sizeof(T)), sig_addr, signal, sig_op, pe,
                      false);
}

}  // namespace ishmem::detail::host

extern "C" {

ISHMEMI_SIGNAL_PUT_CALLS(ISHMEMI_DEFINE_CALLS)
#define ISHMEMI_DEFINE_PUT_SIGNAL(T, N) ISHMEMI_SIGNAL_TYPED_CALLS(ISHMEMI_DEFINE_CALLS, T, N)
ISHMEMX_RMA_TYPES(ISHMEMI_DEFINE_PUT_SIGNAL)
#undef ISHMEMI_DEFINE_PUT_SIGNAL

}  // extern "C"
