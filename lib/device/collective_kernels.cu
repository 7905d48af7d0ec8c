// The collective kernels: one for the collectives that move bytes, one per reduction type and
// operation (integer types by size and sign: int and int32_t share one).
#include "device/collective_kernels.h"

#include "backend/gpu/gpu_platform.h"
#include "common/error.h"
#include "ishmem/device.h"

namespace ishmem::detail {
namespace {

using ishmemi::Block;

constexpr int kThreads = 1024;

__device__ void report(int *status, int rc) {
  if (rc != ISHMEM_SUCCESS && ishmemi::thread_in_block() == 0) {
    atomicCAS(status, 0, rc);
    __threadfence_system();
  }
}

__global__ void __launch_bounds__(kThreads)
    move_kernel(ishmemx_device_handle_t h, DeviceCollective c, int *status) {
  const ishmemi::Lanes l = ishmemi::grid_lanes();
  const std::size_t size = c.type & 0xff;
  int rc;
  switch (c.kind) {
    case ishmemi::kBroadcast:
      rc = ishmemi::broadcast_as<Block>(h, l, c.team, c.dest, c.source, c.nelems, size, c.type,
                                        c.root);
      break;
    case ishmemi::kCollect:
    case ishmemi::kFcollect:
      rc = ishmemi::collect_as<Block>(h, l, c.team, c.dest, c.source, c.nelems, size, c.type,
                                      c.kind);
      break;
    case ishmemi::kAlltoall:
      rc = ishmemi::alltoall_as<Block>(h, l, c.team, c.dest, c.source, c.nelems, size, c.type);
      break;
    case ishmemi::kAlltoalls:
      rc = ishmemi::alltoalls_as<Block>(h, l, c.team, c.dest, c.source, c.dst, c.sst, c.nelems,
                                        size, c.type);
      break;
    case ishmemi::kSync:
      rc = ishmemi::team_sync<Block>(h, l, c.team);
      break;
    default:  // this PE rejected its arguments: the others learn of it
      rc =
          ishmemi::team_collective<Block>(h, c.team, l, ishmemi::key_of(c.kind, c.type, 0, l), true,
                                          0, 0, [](ishmemi::TeamCall<Block> &) { return 0; });
      // The call has returned its own error already: only a deadline is news.
      if (rc != ISHMEM_ERR_TIMEOUT) rc = ISHMEM_SUCCESS;
  }
  report(status, rc);
}

template <int Op, class T>
__global__ void __launch_bounds__(kThreads)
    reduce_kernel(ishmemx_device_handle_t h, DeviceCollective c, int *status) {
  report(status, ishmemi::reduce_op<Op, T, Block>(h, ishmemi::grid_lanes(), c.team,
                                                  static_cast<T *>(c.dest),
                                                  static_cast<const T *>(c.source), c.nelems));
}

using Kernel = void (*)(ishmemx_device_handle_t, DeviceCollective, int *);

template <int Op>
Kernel reduce_kernel_for(unsigned type) {
  const unsigned kind = type >> 8, size = type & 0xff;
  if (kind == 1 || kind == 2) {  // signed, unsigned integers
    const bool is_signed = kind == 1;
    switch (size) {
      case 1:
        return is_signed ? reduce_kernel<Op, signed char> : reduce_kernel<Op, unsigned char>;
      case 2:
        return is_signed ? reduce_kernel<Op, short> : reduce_kernel<Op, unsigned short>;
      case 4:
        return is_signed ? reduce_kernel<Op, int> : reduce_kernel<Op, unsigned>;
      case 8:
        return is_signed ? reduce_kernel<Op, long long> : reduce_kernel<Op, unsigned long long>;
    }
  }
  if constexpr (Op != ishmemi::kAnd && Op != ishmemi::kOr && Op != ishmemi::kXor) {
    if (kind == 3 && size == 4) return reduce_kernel<Op, float>;
    if (kind == 3 && size == 8) return reduce_kernel<Op, double>;
  }
  return nullptr;
}

Kernel kernel_for(const DeviceCollective &c) {
  switch (c.kind == ishmemi::kReduce ? c.op : 0) {
    case 0:
      return move_kernel;
    case ishmemi::kAnd:
      return reduce_kernel_for<ishmemi::kAnd>(c.type);
    case ishmemi::kOr:
      return reduce_kernel_for<ishmemi::kOr>(c.type);
    case ishmemi::kXor:
      return reduce_kernel_for<ishmemi::kXor>(c.type);
    case ishmemi::kMax:
      return reduce_kernel_for<ishmemi::kMax>(c.type);
    case ishmemi::kMin:
      return reduce_kernel_for<ishmemi::kMin>(c.type);
    case ishmemi::kSum:
      return reduce_kernel_for<ishmemi::kSum>(c.type);
    case ishmemi::kProd:
      return reduce_kernel_for<ishmemi::kProd>(c.type);
  }
  return nullptr;
}

}  // namespace

bool device_reduces(unsigned type) {
  DeviceCollective c;
  c.kind = ishmemi::kReduce;
  c.op = ishmemi::kSum;
  c.type = type;
  return kernel_for(c) != nullptr;
}

void enqueue_collective(const ishmemx_device_handle_t &h, const DeviceCollective &call, int lanes,
                        int *status, void *stream, const char *fn) {
  const Kernel kernel = kernel_for(call);
  if (!kernel)
    fail(ISHMEM_ERR_UNSUPPORTED, "%s: no device form for elements of type code %#x", fn, call.type);
  kernel<<<lanes, kThreads, 0, static_cast<gpuStream_t>(stream)>>>(h, call, status);
  const gpuError_t rc = gpuGetLastError();
  if (rc != gpuSuccess)
    fail(ISHMEM_ERR_BACKEND, "%s: collective kernel launch failed: %s", fn, gpuGetErrorString(rc));
}

void wait_stream(void *stream, const char *fn) {
  const gpuError_t rc = gpuStreamSynchronize(static_cast<gpuStream_t>(stream));
  if (rc != gpuSuccess)
    fail(ISHMEM_ERR_BACKEND, "%s: waiting for the collective kernel failed: %s", fn,
         gpuGetErrorString(rc));
}

}  // namespace ishmem::detail
