/* How this translation unit is compiled: nvcc, clang as a CUDA or HIP compiler, or a plain
 * C++ compiler; and, for GPU compilers, the vendor and whether the code is relocatable device
 * code. ISHMEMI_FN is the storage of every internal function: device and always inlined on a
 * GPU, plain inline otherwise. Internal: ishmem/device.h undefines these names at its end, so this
 * header has no include guard: a later detail header that needs them includes it again. */

#if defined(__CUDACC__) && !defined(__clang__)
#define ISHMEMI_GPU_NVCC 1
#elif defined(__HIP__) || (defined(__CUDA__) && defined(__clang__))
#define ISHMEMI_GPU_CLANG 1
#endif
#if defined(ISHMEMI_GPU_NVCC) || defined(ISHMEMI_GPU_CLANG)
#define ISHMEMI_GPU 1
#if defined(__HIP__)
#include <hip/hip_runtime.h>
#endif
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
#define ISHMEMI_GPU_AMD 1
#endif
/* Relocatable device code: the no-argument forms can read the device library's state. */
#if defined(__CUDACC_RDC__) || defined(__CLANG_RDC__)
#define ISHMEMI_DEVICE_STATE 1
#endif
#endif

#ifdef ISHMEMI_GPU
#define ISHMEMI_FN __device__ __forceinline__
#else
#define ISHMEMI_FN inline
#endif
