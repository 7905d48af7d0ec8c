// The GPU part of the runtime, built at ishmem_init when the backend is a GPU one: the device
// handle (and the device copy of the PE-to-slot table it points to), the device library's
// state updaters, and the barrier rows where stream-ordered and device barriers meet
// (runtime/barrier_rows.h).
#pragma once

#include "backend/gpu/gpu_backend.h"
#include "ishmem/device_handle.h"
#include "runtime/runtime.h"

namespace ishmem::detail {

// Called by runtime_init once the heap exists (collective over the node when the backend is
// a GPU one; nothing otherwise), and by runtime_finalize after the last barrier.
void gpu_runtime_init(Runtime &rt, const FastPath &fast);
void gpu_runtime_finalize() noexcept;
// After a heap call (runtime's heap_changed): the device's heap map follows the heap.
void gpu_heap_changed(Runtime &rt);
// After a team split or destroy: the device's entry of team slot `slot` follows this PE's.
void gpu_team_changed(Runtime &rt, int slot);

// The runtime's GPU backend, or nullptr with the host backend.
GpuBackend *gpu_backend(const Runtime &rt);
// The handle kernels use (valid between init and finalize).
ishmemx_device_handle_t device_handle(const FastPath &fast);
// Two words of host memory the collective kernels report failures in: [0] for the calls the
// host waits for, [1] for the stream-ordered ones. *device gets the kernels' address of them.
int *collective_status(int **device);
// With off-node PEs: waits until the device proxy has executed every request kernels wrote so
// far, so that the host's quiet completes them (nothing without a proxy).
void device_proxy_drain();
// Enqueues on `stream` a barrier over every PE: later work on the stream starts only after
// every PE's stream has reached its matching barrier.
void stream_barrier(Runtime &rt, void *stream);

}  // namespace ishmem::detail
