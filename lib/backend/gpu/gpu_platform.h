// Private portability header: one spelling (gpu*) for the runtime names that differ between
// CUDA and HIP, so library code, tests and benchmarks are written once; the GPU backend's
// vendor shim (vendor.h) builds on it. Never included from a public header. The platform is
// HIP when compiled by hipcc / clang -x hip, in a HIP build of the library (ISHMEM_GPU_HIP)
// or where ISHMEMI_PLATFORM_HIP is defined, else CUDA.
#pragma once

#if defined(ISHMEMI_PLATFORM_HIP) || defined(ISHMEM_GPU_HIP) || defined(__HIPCC__) || \
    defined(__HIP__)
#ifndef ISHMEMI_PLATFORM_HIP
#define ISHMEMI_PLATFORM_HIP 1
#endif
#include <hip/hip_runtime.h>
// ISHMEMI_CUDA_HIP(cuda, hip): this platform's spelling of a name the two do not share.
#define ISHMEMI_CUDA_HIP(cuda, hip) hip
#define ISHMEMI_GPU_NAME(name) hip##name
#define ISHMEMI_GPU_VENDOR "hip"
#else
#ifndef ISHMEMI_PLATFORM_CUDA
#define ISHMEMI_PLATFORM_CUDA 1
#endif
#include <cuda_runtime_api.h>
#define ISHMEMI_CUDA_HIP(cuda, hip) cuda
#define ISHMEMI_GPU_NAME(name) cuda##name
#define ISHMEMI_GPU_VENDOR "cuda"
#endif

// Names that differ only in their prefix (cudaX, hipX): gpuX.
using gpuError_t = ISHMEMI_GPU_NAME(Error_t);
using gpuStream_t = ISHMEMI_GPU_NAME(Stream_t);
using gpuEvent_t = ISHMEMI_GPU_NAME(Event_t);
using gpuHostFn_t = ISHMEMI_GPU_NAME(HostFn_t);
using gpuFuncAttributes = ISHMEMI_GPU_NAME(FuncAttributes);
constexpr gpuError_t gpuSuccess = ISHMEMI_GPU_NAME(Success);
#define gpuMemcpyDefault ISHMEMI_GPU_NAME(MemcpyDefault)
#define gpuMemcpyHostToDevice ISHMEMI_GPU_NAME(MemcpyHostToDevice)
#define gpuMemcpyDeviceToHost ISHMEMI_GPU_NAME(MemcpyDeviceToHost)
#define gpuMemcpyDeviceToDevice ISHMEMI_GPU_NAME(MemcpyDeviceToDevice)
#define gpuStreamNonBlocking ISHMEMI_GPU_NAME(StreamNonBlocking)
#define gpuHostRegisterPortable ISHMEMI_GPU_NAME(HostRegisterPortable)
#define gpuHostRegisterMapped ISHMEMI_GPU_NAME(HostRegisterMapped)
#define gpuGetErrorString ISHMEMI_GPU_NAME(GetErrorString)
#define gpuGetErrorName ISHMEMI_GPU_NAME(GetErrorName)
#define gpuGetLastError ISHMEMI_GPU_NAME(GetLastError)
#define gpuGetDeviceCount ISHMEMI_GPU_NAME(GetDeviceCount)
#define gpuSetDevice ISHMEMI_GPU_NAME(SetDevice)
#define gpuGetDevice ISHMEMI_GPU_NAME(GetDevice)
#define gpuFree ISHMEMI_GPU_NAME(Free)
#define gpuMalloc ISHMEMI_GPU_NAME(Malloc)
#define gpuMemset ISHMEMI_GPU_NAME(Memset)
#define gpuMemcpy ISHMEMI_GPU_NAME(Memcpy)
#define gpuMemcpyAsync ISHMEMI_GPU_NAME(MemcpyAsync)
#define gpuHostRegister ISHMEMI_GPU_NAME(HostRegister)
#define gpuHostUnregister ISHMEMI_GPU_NAME(HostUnregister)
#define gpuHostGetDevicePointer ISHMEMI_GPU_NAME(HostGetDevicePointer)
#define gpuDeviceSynchronize ISHMEMI_GPU_NAME(DeviceSynchronize)
#define gpuDeviceGetPCIBusId ISHMEMI_GPU_NAME(DeviceGetPCIBusId)
#define gpuStreamCreateWithFlags ISHMEMI_GPU_NAME(StreamCreateWithFlags)
#define gpuStreamDestroy ISHMEMI_GPU_NAME(StreamDestroy)
#define gpuStreamSynchronize ISHMEMI_GPU_NAME(StreamSynchronize)
#define gpuLaunchHostFunc ISHMEMI_GPU_NAME(LaunchHostFunc)
#define gpuEventCreate ISHMEMI_GPU_NAME(EventCreate)
#define gpuEventDestroy ISHMEMI_GPU_NAME(EventDestroy)
#define gpuEventRecord ISHMEMI_GPU_NAME(EventRecord)
#define gpuEventSynchronize ISHMEMI_GPU_NAME(EventSynchronize)
#define gpuEventQuery ISHMEMI_GPU_NAME(EventQuery)
#define gpuEventElapsedTime ISHMEMI_GPU_NAME(EventElapsedTime)
#define gpuGetDeviceProperties ISHMEMI_GPU_NAME(GetDeviceProperties)
#define gpuMemGetInfo ISHMEMI_GPU_NAME(MemGetInfo)
#define gpuFuncGetAttributes ISHMEMI_GPU_NAME(FuncGetAttributes)

// Names that differ in more than the prefix.
using gpuDeviceProp = ISHMEMI_CUDA_HIP(cudaDeviceProp, hipDeviceProp_t);
#define gpuMemcpyToSymbol(sym, src, bytes)              \
  ISHMEMI_CUDA_HIP(cudaMemcpyToSymbol(sym, src, bytes), \
                   hipMemcpyToSymbol(HIP_SYMBOL(sym), src, bytes))
