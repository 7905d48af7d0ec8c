// The vendor shim of the GPU backend: one spelling for the virtual-memory calls (cuMem* of
// the CUDA driver, hipMem* of HIP), their types and constants, on top of the runtime names
// of gpu_platform.h, so that gpu_backend.cpp is one source for both vendors. What only one
// vendor has lives in its own header, included at the end: vendor_cuda.h resolves the
// driver API at run time and checks the device; vendor_hip.h picks the heap's allocation
// type and adapts the host-function call. Included by gpu_backend.cpp only.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "backend/backend.h"
#include "backend/gpu/gpu_platform.h"
#include "common/error.h"

#ifdef ISHMEMI_PLATFORM_HIP
#include <hip/hip_runtime_api.h>
#else
#include <cuda.h>
#endif

namespace ishmem::detail::vendor {

// "CUDA" or "HIP", for messages.
constexpr const char *kLabel = ISHMEMI_CUDA_HIP("CUDA", "HIP");

// The virtual-memory API's status, chunk handle, address and descriptor types.
using Result = ISHMEMI_CUDA_HIP(CUresult, hipError_t);
using Handle = ISHMEMI_CUDA_HIP(CUmemGenericAllocationHandle, hipMemGenericAllocationHandle_t);
using DevicePtr = ISHMEMI_CUDA_HIP(CUdeviceptr, void *);
using AllocationProp = ISHMEMI_CUDA_HIP(CUmemAllocationProp, hipMemAllocationProp);
using AccessDesc = ISHMEMI_CUDA_HIP(CUmemAccessDesc, hipMemAccessDesc);

constexpr Result kSuccess = ISHMEMI_CUDA_HIP(CUDA_SUCCESS, hipSuccess);
constexpr auto kPosixFd =
    ISHMEMI_CUDA_HIP(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, hipMemHandleTypePosixFileDescriptor);
constexpr auto kOnDevice = ISHMEMI_CUDA_HIP(CU_MEM_LOCATION_TYPE_DEVICE, hipMemLocationTypeDevice);
constexpr auto kReadWrite =
    ISHMEMI_CUDA_HIP(CU_MEM_ACCESS_FLAGS_PROT_READWRITE, hipMemAccessFlagsProtReadWrite);
constexpr auto kGranularityMinimum =
    ISHMEMI_CUDA_HIP(CU_MEM_ALLOC_GRANULARITY_MINIMUM, hipMemAllocationGranularityMinimum);
// The field of AllocationProp that lists the handle types a chunk can be exported as.
#define ISHMEMI_VMM_HANDLE_TYPES ISHMEMI_CUDA_HIP(requestedHandleTypes, requestedHandleType)

// Handles and addresses cross the Backend interface as integers (ChunkHandle) and void*; the
// vendors' types are integers (CUDA) or pointers (HIP). Converts between any two of these.
template <class To, class From>
To value_as(From from) {
  if constexpr (std::is_pointer_v<From> && std::is_pointer_v<To>)
    return static_cast<To>(from);
  else if constexpr (std::is_pointer_v<From>)
    return static_cast<To>(reinterpret_cast<std::uintptr_t>(from));
  else if constexpr (std::is_pointer_v<To>)
    return reinterpret_cast<To>(static_cast<std::uintptr_t>(from));
  else
    return static_cast<To>(from);
}
inline Handle to_handle(ChunkHandle h) {
  return value_as<Handle>(h);
}
inline ChunkHandle to_chunk(Handle h) {
  return value_as<ChunkHandle>(h);
}
inline DevicePtr to_dptr(void *p) {
  return value_as<DevicePtr>(p);
}
inline void *from_dptr(DevicePtr p) {
  return value_as<void *>(p);
}

// Every failed vendor call is reported as "<call> failed: <status> at <file>:<line>".
[[noreturn]] inline void fail_call(const char *call, const std::string &status, const char *file,
                                   int line) {
  fail(ISHMEM_ERR_BACKEND, "%s failed: %s at %s:%d", call, status.c_str(), file, line);
}

// A runtime status as text: "<description> (<name>)".
inline std::string runtime_text(gpuError_t rc) {
  return std::string(gpuGetErrorString(rc)) + " (" + gpuGetErrorName(rc) + ")";
}

}  // namespace ishmem::detail::vendor

// Checks a runtime call, written ISHMEMI_GPU(SetDevice, (device)) for gpuSetDevice(device);
// a failure names the call as the vendor spells it ("cudaSetDevice(device)").
#define ISHMEMI_GPU(name, args)                                                                   \
  do {                                                                                            \
    gpuError_t ishmemi_gpu_rc = gpu##name args;                                                   \
    if (ishmemi_gpu_rc != gpuSuccess)                                                             \
      ::ishmem::detail::vendor::fail_call(ISHMEMI_GPU_VENDOR #name #args,                         \
                                          ::ishmem::detail::vendor::runtime_text(ishmemi_gpu_rc), \
                                          __FILE__, __LINE__);                                    \
  } while (0)

// Checks a virtual-memory call, written ISHMEMI_VMM(driver, MemMap, (args)) for cuMemMap
// (through `driver`, a vendor::Driver) or hipMemMap; a failure names the call as the vendor
// spells it ("cuMemMap(addr, bytes, ...)") and describes the status the vendor's way.
#define ISHMEMI_VMM(driver, name, args)                                                       \
  do {                                                                                        \
    ::ishmem::detail::vendor::Result ishmemi_vmm_rc = ISHMEMI_VMM_CALL(driver, name) args;    \
    if (ishmemi_vmm_rc != ::ishmem::detail::vendor::kSuccess)                                 \
      ::ishmem::detail::vendor::fail_call(ISHMEMI_VMM_PREFIX #name #args,                     \
                                          (driver).text(ishmemi_vmm_rc), __FILE__, __LINE__); \
  } while (0)

// Each vendor's header defines, in namespace ishmem::detail::vendor:
//   class Driver: open(device) readies the virtual-memory calls for `device` (throws Error
//     with the reason it cannot) and returns the device's id for AllocationProp::location;
//     text(Result) describes a status.
//   kHeapAllocationType: the allocation type of heap chunks.
//   launch_host_func(stream, fn, arg): enqueues fn(arg) on `stream`; throws on failure.
// and the macros ISHMEMI_VMM_PREFIX ("cu" or "hip") and ISHMEMI_VMM_CALL(driver, name), the
// callable virtual-memory call `name`.
#ifdef ISHMEMI_PLATFORM_HIP
#include "backend/gpu/vendor_hip.h"
#else
#include "backend/gpu/vendor_cuda.h"
#endif
