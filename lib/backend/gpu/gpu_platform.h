// Private portability header: one spelling (gpu*) for the few runtime names that differ
// between CUDA and HIP, so library code, tests and benchmarks are written once. Never
// included from a public header. The platform is HIP when compiled by hipcc / clang -x hip
// (or ISHMEMI_PLATFORM_HIP is defined), else CUDA.
#pragma once

#if defined(ISHMEMI_PLATFORM_HIP) || defined(__HIPCC__) || defined(__HIP__)
#ifndef ISHMEMI_PLATFORM_HIP
#define ISHMEMI_PLATFORM_HIP 1
#endif
#include <hip/hip_runtime.h>

#define ISHMEMI_GPU_VENDOR "hip"
using gpuError_t = hipError_t;
using gpuStream_t = hipStream_t;
using gpuEvent_t = hipEvent_t;
using gpuHostFn_t = hipHostFn_t;
constexpr gpuError_t gpuSuccess = hipSuccess;
#define gpuMemcpyDefault hipMemcpyDefault
#define gpuMemcpyHostToDevice hipMemcpyHostToDevice
#define gpuMemcpyDeviceToHost hipMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define gpuStreamNonBlocking hipStreamNonBlocking
#define gpuGetErrorString hipGetErrorString
#define gpuGetErrorName hipGetErrorName
#define gpuGetLastError hipGetLastError
#define gpuGetDeviceCount hipGetDeviceCount
#define gpuSetDevice hipSetDevice
#define gpuGetDevice hipGetDevice
#define gpuFree hipFree
#define gpuMalloc hipMalloc
#define gpuMemset hipMemset
#define gpuMemcpy hipMemcpy
#define gpuMemcpyAsync hipMemcpyAsync
#define gpuMemcpyToSymbol(sym, src, bytes) hipMemcpyToSymbol(HIP_SYMBOL(sym), src, bytes)
#define gpuDeviceSynchronize hipDeviceSynchronize
#define gpuDeviceGetPCIBusId hipDeviceGetPCIBusId
#define gpuStreamCreateWithFlags hipStreamCreateWithFlags
#define gpuStreamDestroy hipStreamDestroy
#define gpuStreamSynchronize hipStreamSynchronize
#define gpuLaunchHostFunc hipLaunchHostFunc
#define gpuEventCreate hipEventCreate
#define gpuEventDestroy hipEventDestroy
#define gpuEventRecord hipEventRecord
#define gpuEventSynchronize hipEventSynchronize
#define gpuEventElapsedTime hipEventElapsedTime
#define gpuGetDeviceProperties hipGetDeviceProperties
#define gpuFuncGetAttributes hipFuncGetAttributes
using gpuDeviceProp = hipDeviceProp_t;
using gpuFuncAttributes = hipFuncAttributes;

#else
#ifndef ISHMEMI_PLATFORM_CUDA
#define ISHMEMI_PLATFORM_CUDA 1
#endif
#include <cuda_runtime_api.h>

#define ISHMEMI_GPU_VENDOR "cuda"
using gpuError_t = cudaError_t;
using gpuStream_t = cudaStream_t;
using gpuEvent_t = cudaEvent_t;
using gpuHostFn_t = cudaHostFn_t;
constexpr gpuError_t gpuSuccess = cudaSuccess;
#define gpuMemcpyDefault cudaMemcpyDefault
#define gpuMemcpyHostToDevice cudaMemcpyHostToDevice
#define gpuMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define gpuMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define gpuStreamNonBlocking cudaStreamNonBlocking
#define gpuGetErrorString cudaGetErrorString
#define gpuGetErrorName cudaGetErrorName
#define gpuGetLastError cudaGetLastError
#define gpuGetDeviceCount cudaGetDeviceCount
#define gpuSetDevice cudaSetDevice
#define gpuGetDevice cudaGetDevice
#define gpuFree cudaFree
#define gpuMalloc cudaMalloc
#define gpuMemset cudaMemset
#define gpuMemcpy cudaMemcpy
#define gpuMemcpyAsync cudaMemcpyAsync
#define gpuMemcpyToSymbol(sym, src, bytes) cudaMemcpyToSymbol(sym, src, bytes)
#define gpuDeviceSynchronize cudaDeviceSynchronize
#define gpuDeviceGetPCIBusId cudaDeviceGetPCIBusId
#define gpuStreamCreateWithFlags cudaStreamCreateWithFlags
#define gpuStreamDestroy cudaStreamDestroy
#define gpuStreamSynchronize cudaStreamSynchronize
#define gpuLaunchHostFunc cudaLaunchHostFunc
#define gpuEventCreate cudaEventCreate
#define gpuEventDestroy cudaEventDestroy
#define gpuEventRecord cudaEventRecord
#define gpuEventSynchronize cudaEventSynchronize
#define gpuEventElapsedTime cudaEventElapsedTime
#define gpuGetDeviceProperties cudaGetDeviceProperties
#define gpuFuncGetAttributes cudaFuncGetAttributes
using gpuDeviceProp = cudaDeviceProp;
using gpuFuncAttributes = cudaFuncAttributes;
#endif
