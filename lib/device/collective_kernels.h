// The kernels of the stream-ordered collectives and of host collectives on GPU heaps: the
// device algorithm of ishmem/detail/collectives_impl.h run by blocks of 1024 threads, one
// block per lane. Compiled into the library with a GPU backend only.
#pragma once

#include <cstddef>

#include "ishmem/device_handle.h"

namespace ishmem::detail {

// One collective, as the kernels take it. Kinds and operations are numbered as
// CollectiveKind and ReduceOp (runtime/collectives.h, runtime/reduce_ops.h) and the device
// algorithm's; `type` is ElementType::code() (kind << 8 | size); counts are in elements.
struct DeviceCollective {
  int team = 0;
  int kind = 0;
  int op = 0;
  unsigned type = 1;
  void *dest = nullptr;
  const void *source = nullptr;
  std::size_t nelems = 0;
  int root = 0;
  std::ptrdiff_t dst = 1, sst = 1;
};

// Whether a reduction of element type `type` has a device form (not long double or complex).
bool device_reduces(unsigned type);
// Enqueues `call` on `stream` as one kernel of `lanes` blocks; a failure the kernel finds is
// stored in *status (device address of host memory) as its ISHMEM_ERR_ code, the first one
// only. Throws Error when the launch fails.
void enqueue_collective(const ishmemx_device_handle_t &h, const DeviceCollective &call, int lanes,
                        int *status, void *stream, const char *fn);
// Waits until the work on `stream` is done. Throws Error.
void wait_stream(void *stream, const char *fn);

}  // namespace ishmem::detail
