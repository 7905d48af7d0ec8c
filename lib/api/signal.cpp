// Put-with-signal. The data goes first; the signal is updated only once the data is in place
// at the target, so a PE that sees the signal also sees the data. Either may be in the heap or
// in the program's static data (whose signal goes through MPI, this PE's own included).
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
  // The signal's window: static data's, the heap's (off-node), or none (CPU atomics).
  OffNode *sig_window = nullptr;
  std::size_t sig_off = 0;
  // Everything is checked before anything moves: an error has no side effect at the target.
  int rc = guard([&] {
    Runtime &rt = runtime();
    check_pe(pe, kName);  // a bad PE is reported as such, as by ishmem_putmem
    check_sig_op(sig_op, kName);
    sig_window = static_window_aligned(sig_addr, 1, sizeof *sig_addr, sig_off, kName);
    if (sig_window) return;
    sig_off =
        check_symmetric_aligned(sig_addr, 1, sizeof *sig_addr, pe, kName, "signal ", "address");
    sig_window = rt.remote;
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
    // MPI does not order the data before the signal by itself: the data's MPI operations are
    // completed at the target first, and CPU stores (a node-local heap) fenced.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (rt.remote) rt.remote->flush(pe);
    std::size_t data_off;
    if (bytes && rt.statics->contains(dest, bytes, data_off)) rt.statics->flush(pe);
    if (!sig_window) {  // a host heap with ISHMEM_DEBUG=1 (no fast path): checked above
      signal_direct(direct_address(sig_addr, sizeof *sig_addr, pe, g_fast.committed), signal,
                    sig_op);
      return;
    }
    std::uint64_t old;
    sig_window->atomic(pe, sig_off, MPI_UINT64_T,
                       sig_op == ISHMEM_SIGNAL_SET ? MPI_REPLACE : MPI_SUM, &signal, nullptr, &old);
  });
}

// The fast path: data and signal both on a node-local host heap, by CPU stores and a release.
inline int put_signal(void *dest, const void *source, std::size_t bytes, std::uint64_t *sig_addr,
                      std::uint64_t signal, int sig_op, int pe, bool blocking) noexcept {
  char *peer_sig = direct_address(sig_addr, sizeof *sig_addr, pe, g_fast.atomic_bytes);
  char *peer_dest = direct_address(dest, bytes, pe, g_fast.direct_bytes);
  if (__builtin_expect(peer_sig == nullptr || reinterpret_cast<std::uintptr_t>(peer_sig) % 8 ||
                           !valid_sig_op(sig_op) || peer_dest == nullptr || source == nullptr,
                       0))
    return signal_slow(dest, source, bytes, sig_addr, signal, sig_op, pe, blocking);
  memcpy(peer_dest, source, bytes);
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
