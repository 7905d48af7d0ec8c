// One-thread kernels for the stream-ordered signal and barrier calls, written with the handle form
// of the device API (the library itself is not relocatable device code).
#include "device/stream_kernels.h"

#include "backend/gpu/gpu_platform.h"
#include "common/error.h"
#include "ishmem/device.h"

namespace ishmem::detail {
namespace {

__global__ void signal_update(std::uint64_t *peer_sig, std::uint64_t value, int sig_op) {
  // The copy before this kernel on the stream has completed; the fence makes this kernel's
  // view of it, and the signal after it, system-wide.
  __threadfence_system();
  auto *sig = reinterpret_cast<unsigned long long *>(peer_sig);
  if (sig_op == ISHMEM_SIGNAL_ADD)
    ishmemi::atomic_add(sig, static_cast<unsigned long long>(value));
  else
    ishmemi::st_relaxed(sig, static_cast<unsigned long long>(value));
}

__global__ void signal_wait(ishmemx_device_handle_t h, std::uint64_t *sig, int cmp,
                            std::uint64_t value) {
  ishmem_signal_wait_until(h, sig, cmp, value);
}

// The device barrier, run by a kernel in stream order; a PE that does not arrive within the
// handle's deadline is reported in *status (its slot + 1) for the host to act on.
__global__ void stream_barrier(ishmemx_device_handle_t h, int *status) {
  int late_slot = 0;
  if (ishmemi::sync_slots(h, &late_slot) != ISHMEM_SUCCESS) {
    *reinterpret_cast<volatile int *>(status) = late_slot + 1;
    __threadfence_system();
  }
}

void check_launch(const char *what) {
  gpuError_t rc = gpuGetLastError();
  if (rc != gpuSuccess)
    fail(ISHMEM_ERR_BACKEND, "%s: launch failed: %s", what, gpuGetErrorString(rc));
}

}  // namespace

void enqueue_signal_update(std::uint64_t *peer_sig, std::uint64_t value, int sig_op, void *stream) {
  signal_update<<<1, 1, 0, static_cast<gpuStream_t>(stream)>>>(peer_sig, value, sig_op);
  check_launch("ishmemx_putmem_signal_on_stream");
}

void enqueue_signal_wait(const ishmemx_device_handle_t &h, std::uint64_t *sig, int cmp,
                         std::uint64_t value, void *stream) {
  signal_wait<<<1, 1, 0, static_cast<gpuStream_t>(stream)>>>(h, sig, cmp, value);
  check_launch("ishmemx_signal_wait_until_on_stream");
}

void enqueue_barrier(const ishmemx_device_handle_t &h, int *status, void *stream) {
  stream_barrier<<<1, 1, 0, static_cast<gpuStream_t>(stream)>>>(h, status);
  check_launch("ishmemx_barrier_all_on_stream");
}

}  // namespace ishmem::detail
