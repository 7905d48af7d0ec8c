// The CUDA part of the vendor shim; included by vendor.h. The driver API is reached at run
// time through the runtime's entry-point query, so the library never links libcuda: on a
// machine without a driver, Driver::open says why and the runtime takes the host backend.
#pragma once

#include <cstdio>
#include <string>

namespace ishmem::detail::vendor {

// The driver calls the backend makes (cuX, resolved into Driver::fn.X).
// clang-format off
#define ISHMEMI_CU_CALLS(X)                                                              \
  X(GetErrorString) X(DeviceGet) X(DeviceGetAttribute) X(MemGetAllocationGranularity)    \
  X(MemAddressReserve) X(MemAddressFree) X(MemCreate) X(MemExportToShareableHandle)      \
  X(MemImportFromShareableHandle) X(MemMap) X(MemSetAccess) X(MemUnmap) X(MemRelease)
// clang-format on

#define ISHMEMI_VMM_PREFIX "cu"
#define ISHMEMI_VMM_CALL(driver, name) (driver).fn.name

constexpr CUmemAllocationType kHeapAllocationType = CU_MEM_ALLOCATION_TYPE_PINNED;

// Resolves `symbol` into `fn`; returns an empty string or why it failed.
template <class F>
std::string resolve(const char *symbol, F &fn) {
  void *ptr = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  cudaError_t rc =
      cudaGetDriverEntryPointByVersion(symbol, &ptr, CUDA_VERSION, cudaEnableDefault, &found);
#else
  cudaError_t rc = cudaGetDriverEntryPoint(symbol, &ptr, cudaEnableDefault, &found);
#endif
  if (rc != cudaSuccess)
    return std::string("cudaGetDriverEntryPoint(") + symbol + "): " + cudaGetErrorString(rc);
  if (found != cudaDriverEntryPointSuccess || !ptr)
    return std::string("the CUDA driver has no ") + symbol;
  fn = reinterpret_cast<F>(ptr);
  return {};
}

class Driver {
 public:
  // The driver calls, resolved by open().
  struct Table {
#define ISHMEMI_CU_POINTER(name) decltype(&cu##name) name = nullptr;
    ISHMEMI_CU_CALLS(ISHMEMI_CU_POINTER)
#undef ISHMEMI_CU_POINTER
  } fn;

  // Resolves the driver calls (once the runtime has made `device` current) and checks that
  // the device can back the heap: virtual memory management and POSIX-fd export.
  int open(int device) {
    std::string why;
#define ISHMEMI_CU_RESOLVE(name) \
  if (why.empty()) why = resolve("cu" #name, fn.name);
    ISHMEMI_CU_CALLS(ISHMEMI_CU_RESOLVE)
#undef ISHMEMI_CU_RESOLVE
    if (!why.empty()) fail(ISHMEM_ERR_UNSUPPORTED, "%s", why.c_str());
    CUdevice cu_device = 0;
    ISHMEMI_VMM(*this, DeviceGet, (&cu_device, device));
    int vmm = 0, posix_fd = 0;
    ISHMEMI_VMM(*this, DeviceGetAttribute,
                (&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, cu_device));
    ISHMEMI_VMM(
        *this, DeviceGetAttribute,
        (&posix_fd, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, cu_device));
    if (!vmm)
      fail(ISHMEM_ERR_UNSUPPORTED, "CUDA device %d has no virtual memory management", device);
    if (!posix_fd)
      fail(ISHMEM_ERR_UNSUPPORTED, "CUDA device %d cannot export memory as POSIX fds", device);
    return cu_device;
  }

  // Text for a driver status: "<description> (CUresult N)".
  std::string text(CUresult rc) const {
    const char *text = nullptr;
    if (fn.GetErrorString) fn.GetErrorString(rc, &text);
    char buf[160];
    snprintf(buf, sizeof buf, "%s (CUresult %d)", text ? text : "unknown error",
             static_cast<int>(rc));
    return buf;
  }
};

// Ticks per second of %globaltimer, the device timer of the barriers' deadline: nanoseconds.
inline double timer_hz(int) {
  return 1e9;
}

inline void launch_host_func(gpuStream_t stream, void (*fn)(void *), void *arg) {
  ISHMEMI_GPU(LaunchHostFunc, (stream, fn, arg));
}

}  // namespace ishmem::detail::vendor
