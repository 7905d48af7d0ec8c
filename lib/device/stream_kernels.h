// The kernels behind the stream-ordered signal and barrier calls (lib/api/stream.cpp): one thread
// each, enqueued on the caller's stream. Compiled into the library with a GPU backend only.
#pragma once

#include <cstdint>

#include "ishmem/device_handle.h"

namespace ishmem::detail {

// After the work before it on `stream` (the data's copy): a system-scope fence, then the
// signal update at `peer_sig` (ISHMEM_SIGNAL_SET or ISHMEM_SIGNAL_ADD).
void enqueue_signal_update(std::uint64_t *peer_sig, std::uint64_t value, int sig_op, void *stream);
// Work after it on `stream` waits until this PE's signal compares true against `value`.
void enqueue_signal_wait(const ishmemx_device_handle_t &h, std::uint64_t *sig, int cmp,
                         std::uint64_t value, void *stream);
// A barrier over the node's PEs, in the sequence of the device barriers (ishmem/device.h);
// past the handle's deadline the kernel stores the late PE's slot + 1 in *status (device
// address of host memory) and ends.
void enqueue_barrier(const ishmemx_device_handle_t &h, int *status, void *stream);

}  // namespace ishmem::detail
