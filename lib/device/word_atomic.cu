// The kernel of DeviceWordAtomic: the device API's system-scope atomics (ishmem/detail/
// atomics.h), so that a peer's off-node atomic and a node-local kernel's atomic on the same
// word are both read-modify-writes of the device's memory system.
#include "device/word_atomic.h"

#include "backend/gpu/gpu_platform.h"
#include "common/error.h"
#include "ishmem/device.h"

namespace ishmem::detail {
namespace {

template <class U>
__device__ U word_rmw(U *p, WordOp op, U operand, U compare) {
  switch (op) {
    case WordOp::fetch:
      return ishmemi::ld_relaxed(p);
    case WordOp::swap:
      return ishmemi::atomic_exch(p, operand);
    case WordOp::add:
      return ishmemi::atomic_add(p, operand);
    case WordOp::bit_and:
      return ishmemi::atomic_and(p, operand);
    case WordOp::bit_or:
      return ishmemi::atomic_or(p, operand);
    case WordOp::bit_xor:
      return ishmemi::atomic_xor(p, operand);
    case WordOp::compare_swap:
      return ishmemi::atomic_cas(p, compare, operand);
  }
  return U{};
}

__global__ void word_atomic(void *word, int bytes, WordOp op, std::uint64_t operand,
                            std::uint64_t compare, std::uint64_t *result) {
  if (bytes == 4)
    *result = word_rmw(static_cast<unsigned int *>(word), op, static_cast<unsigned int>(operand),
                       static_cast<unsigned int>(compare));
  else
    *result = word_rmw(static_cast<unsigned long long *>(word), op,
                       static_cast<unsigned long long>(operand),
                       static_cast<unsigned long long>(compare));
  // The word's new value is visible system-wide before the host answers the peer.
  __threadfence_system();
}

// Every failure names the vendor's call.
void check(gpuError_t rc, const char *call) {
  if (rc != gpuSuccess)
    fail(ISHMEM_ERR_BACKEND, "off-node atomics: %s failed: %s", call, gpuGetErrorString(rc));
}

}  // namespace

DeviceWordAtomic::DeviceWordAtomic(int device) : device_(device) {
  check(gpuSetDevice(device_), ISHMEMI_GPU_VENDOR "SetDevice");
  // Loads the kernel now, at ishmem_init: under lazy module loading (CUDA's default) its first
  // launch could wait for a program kernel that spins on a peer's answer, while that peer
  // waits for this atomic (docs/DEVICE_API.md).
  gpuFuncAttributes attributes{};
  check(gpuFuncGetAttributes(&attributes, reinterpret_cast<const void *>(&word_atomic)),
        ISHMEMI_GPU_VENDOR "FuncGetAttributes");
  gpuStream_t stream = nullptr;
  check(gpuStreamCreateWithFlags(&stream, gpuStreamNonBlocking),
        ISHMEMI_GPU_VENDOR "StreamCreateWithFlags");
  stream_ = stream;
  void *result = nullptr;
  const gpuError_t rc = gpuMalloc(&result, sizeof *result_);
  if (rc != gpuSuccess) (void)gpuStreamDestroy(stream);
  check(rc, ISHMEMI_GPU_VENDOR "Malloc");
  result_ = static_cast<std::uint64_t *>(result);
}

DeviceWordAtomic::~DeviceWordAtomic() {
  (void)gpuFree(result_);
  (void)gpuStreamDestroy(static_cast<gpuStream_t>(stream_));
}

std::uint64_t DeviceWordAtomic::run(void *word, int bytes, WordOp op, std::uint64_t operand,
                                    std::uint64_t compare) {
  std::lock_guard<std::mutex> lock(mutex_);
  // The calling thread (the service thread, or a program thread) may have another device
  // current: the kernel runs on the heap's.
  check(gpuSetDevice(device_), ISHMEMI_GPU_VENDOR "SetDevice");
  auto stream = static_cast<gpuStream_t>(stream_);
  word_atomic<<<1, 1, 0, stream>>>(word, bytes, op, operand, compare, result_);
  check(gpuGetLastError(), "the kernel launch");
  std::uint64_t old = 0;
  check(gpuMemcpyAsync(&old, result_, sizeof old, gpuMemcpyDeviceToHost, stream),
        ISHMEMI_GPU_VENDOR "MemcpyAsync");
  check(gpuStreamSynchronize(stream), ISHMEMI_GPU_VENDOR "StreamSynchronize");
  return old;
}

}  // namespace ishmem::detail
