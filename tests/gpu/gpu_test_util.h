// Helpers for the GPU tests: GPU status checks that record a failure and carry on (a PE that
// returned early would leave its peers waiting in a barrier), skipping where no GPU backend
// is active, and host copies of device memory.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "backend/gpu/gpu_platform.h"
#include "ishmem.h"
#include "ishmem/device.h"
#include "../mpi/mpi_test_util.h"

namespace gpu_test {

// The MPI tests' PE helpers, for every GPU test (`using namespace gpu_test`).
using ishmem_test::left_pe;
using ishmem_test::my_pe;
using ishmem_test::n_pes;
using ishmem_test::right_pe;

// Records a failure naming the call when `rc` is not gpuSuccess; returns whether it was.
inline bool gpu_ok(gpuError_t rc, const char *what, const char *file, int line) {
  if (rc == gpuSuccess) return true;
  ADD_FAILURE_AT(file, line) << "PE " << ishmem_my_pe() << ": " << what << ": "
                             << gpuGetErrorString(rc);
  return false;
}
#define GPU_OK(call) ::gpu_test::gpu_ok((call), #call, __FILE__, __LINE__)
// After a launch: the launch status, then the kernel's.
#define GPU_LAUNCHED() (GPU_OK(gpuGetLastError()) && GPU_OK(gpuDeviceSynchronize()))

inline bool gpu_backend_active() {
  std::string name = ishmemx_backend_name();
  return name == "cuda" || name == "hip";
}
// Every PE agrees on the backend, so every PE skips or none does.
#define SKIP_WITHOUT_GPU()                                                    \
  do {                                                                        \
    if (!::gpu_test::gpu_backend_active())                                    \
      GTEST_SKIP() << "no usable GPU: backend is " << ishmemx_backend_name(); \
  } while (0)

// This PE's device handle; a failed call is recorded and leaves it zeroed.
inline ishmemx_device_handle_t handle() {
  ishmemx_device_handle_t h{};
  EXPECT_EQ(ishmemx_get_device_handle(&h), ISHMEM_SUCCESS) << ishmemx_last_error();
  return h;
}

template <class T>
std::vector<T> to_host(const T *device, std::size_t count) {
  std::vector<T> host(count);
  GPU_OK(gpuMemcpy(host.data(), device, count * sizeof(T), gpuMemcpyDefault));
  return host;
}

// A copy from pageable host memory may return before its DMA lands: wait for it, or a peer's
// put made after the next barrier could be overwritten by it.
template <class T>
void to_device(T *device, const std::vector<T> &host) {
  GPU_OK(gpuMemcpy(device, host.data(), host.size() * sizeof(T), gpuMemcpyDefault));
  GPU_OK(gpuDeviceSynchronize());
}

// Device memory private to this PE (not symmetric), freed at scope end.
struct DeviceBuffer {
  explicit DeviceBuffer(std::size_t bytes) : bytes(bytes) { GPU_OK(gpuMalloc(&ptr, bytes)); }
  ~DeviceBuffer() { (void)gpuFree(ptr); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  template <class T>
  T *as() const {
    return static_cast<T *>(ptr);
  }
  void *ptr = nullptr;
  std::size_t bytes;
};

// A byte that depends on the PE and the position, never zero.
inline unsigned char pattern(int pe, std::size_t i) {
  return static_cast<unsigned char>(1 + (pe * 37 + i * 11 + i / 251) % 251);
}
constexpr unsigned char kGuard = 0xEE;

}  // namespace gpu_test
