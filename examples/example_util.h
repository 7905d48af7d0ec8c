// What the GPU examples share: one source builds with nvcc (CUDA), hipcc (HIP) and a plain C++
// compiler (host backend). A "kernel" is a __host__ __device__ function run by example_run:
// as a kernel of one block when the heap is in GPU memory, else on the calling thread. A GPU
// build falls back to host heaps on a machine without a usable GPU (ishmemx_backend_name()
// says "host"), so the same binary runs the host path there: CPU loads and host calls reach a
// host heap, but not a GPU one, which only kernels and the library's calls may touch.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ishmem.h"
#include "ishmem/device.h"

#if defined(__CUDACC__) && !defined(__HIP__)
#include <cuda_runtime.h>
#define EXAMPLE_GPU 1
#define EXAMPLE_HD __host__ __device__
typedef cudaError_t example_gpu_status;
#define example_gpu_ok cudaSuccess
#define example_gpu_error_string cudaGetErrorString
#define example_gpu_last_error cudaGetLastError
#define example_gpu_synchronize cudaDeviceSynchronize
#define example_gpu_malloc cudaMalloc
#define example_gpu_free cudaFree
#define example_gpu_memcpy(d, s, n) cudaMemcpy(d, s, n, cudaMemcpyDefault)
#elif defined(__HIP__)
#include <hip/hip_runtime.h>
#define EXAMPLE_GPU 1
#define EXAMPLE_HD __host__ __device__
typedef hipError_t example_gpu_status;
#define example_gpu_ok hipSuccess
#define example_gpu_error_string hipGetErrorString
#define example_gpu_last_error hipGetLastError
#define example_gpu_synchronize hipDeviceSynchronize
#define example_gpu_malloc hipMalloc
#define example_gpu_free hipFree
#define example_gpu_memcpy(d, s, n) hipMemcpy(d, s, n, hipMemcpyDefault)
#else
#define EXAMPLE_HD
#endif

// Where the device forms (the _block collectives, ...) can be called: in a GPU compiler's
// device pass, and in plain C++, where ishmem/device.h forwards them to the host calls. The
// host pass of a GPU build has only the standard names (the host API).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__) || !defined(EXAMPLE_GPU)
#define EXAMPLE_DEVICE_FORMS 1
#endif

// The calling thread's index in its block and the block's size; on the host path the one thread
// is the whole block.
EXAMPLE_HD inline int example_thread() {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return threadIdx.x;
#else
  return 0;
#endif
}
EXAMPLE_HD inline int example_threads() {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return blockDim.x;
#else
  return 1;
#endif
}
// Every thread of the block waits here, and sees the block's writes before it.
EXAMPLE_HD inline void example_block_sync() {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  __syncthreads();
#endif
}

// A failed call ends every PE: a PE that returned alone would leave its peers in a barrier.
#define EXAMPLE_CHECK(what, ok)                                                                   \
  do {                                                                                            \
    if (!(ok)) {                                                                                  \
      fprintf(stderr, "[pe %d] %s:%d: %s failed: %s\n", ishmem_my_pe(), __FILE__, __LINE__, what, \
              ishmemx_last_error());                                                              \
      ishmem_global_exit(1);                                                                      \
    }                                                                                             \
  } while (0)
#define EXAMPLE_OK(call) EXAMPLE_CHECK(#call, (call) == ISHMEM_SUCCESS)

#ifdef EXAMPLE_GPU
#define EXAMPLE_GPU_OK(call)                                                                \
  do {                                                                                      \
    example_gpu_status rc_ = (call);                                                        \
    if (rc_ != example_gpu_ok) {                                                            \
      fprintf(stderr, "[pe %d] %s:%d: %s: %s\n", ishmem_my_pe(), __FILE__, __LINE__, #call, \
              example_gpu_error_string(rc_));                                               \
      ishmem_global_exit(1);                                                                \
    }                                                                                       \
  } while (0)

template <auto Body, class... Args>
__global__ void example_kernel(Args... args) {
  Body(args...);
}
#endif

// Whether the heap is in GPU memory (every PE has the same backend).
inline bool example_heap_on_gpu() {
  return strcmp(ishmemx_backend_name(), "host") != 0;
}

// Runs Body(args...) as one block of `threads` threads on the GPU and waits for it, or on this
// thread where the heap is on the host (Body then stands for the whole block).
template <auto Body, class... Args>
void example_run(unsigned threads, Args... args) {
#ifdef EXAMPLE_GPU
  if (example_heap_on_gpu()) {
    example_kernel<Body><<<1, threads>>>(args...);
    EXAMPLE_GPU_OK(example_gpu_last_error());
    EXAMPLE_GPU_OK(example_gpu_synchronize());
    return;
  }
#endif
  (void)threads;
  Body(args...);
}

// Memory of this PE only (a kernel's source or result): on the GPU where the heap is.
inline void *example_private_alloc(size_t bytes) {
  void *p = nullptr;
#ifdef EXAMPLE_GPU
  if (example_heap_on_gpu()) {
    EXAMPLE_GPU_OK(example_gpu_malloc(&p, bytes));
    return p;
  }
#endif
  p = malloc(bytes);
  EXAMPLE_CHECK("malloc", p != nullptr);
  return p;
}
inline void example_private_free(void *p) {
#ifdef EXAMPLE_GPU
  if (example_heap_on_gpu()) {
    EXAMPLE_GPU_OK(example_gpu_free(p));
    return;
  }
#endif
  free(p);
}

// Copies between host memory and the heap or private memory, whichever side they are on.
inline void example_copy(void *dest, const void *src, size_t bytes) {
#ifdef EXAMPLE_GPU
  if (example_heap_on_gpu()) {
    EXAMPLE_GPU_OK(example_gpu_memcpy(dest, src, bytes));
    return;
  }
#endif
  memcpy(dest, src, bytes);
}

// Waits for the stream-ordered calls on the default stream (host heaps: they acted at once).
inline void example_stream_sync() {
#ifdef EXAMPLE_GPU
  if (example_heap_on_gpu()) EXAMPLE_GPU_OK(example_gpu_synchronize());
#endif
}
