// A kernel that keeps a large block busy, for the tests of device work queued before a heap
// call that unmaps or moves memory (heap_lifecycle_test.cu, finalize_busy.cu).
#pragma once

#include <cstddef>

#include "backend/gpu/gpu_platform.h"

namespace busy {

constexpr long long kCycles = 400ll * 1000 * 1000;  // about 0.2 s at 2 GHz
constexpr int kGrid = 128, kBlock = 512;

// The words a writer leaves behind: they depend on its PE and the position.
__host__ __device__ inline unsigned final_word(int pe, std::size_t i) {
  return 0x9e3779b9u * static_cast<unsigned>(i + 1) + static_cast<unsigned>(pe);
}

// Whether `cycles` clocks have passed since `start` by thread 0's clock: the same answer in
// every thread of the block, so that all leave a loop together.
__device__ inline bool time_is_up(long long start, long long cycles) {
  __shared__ int up;
  if (threadIdx.x == 0) up = clock64() - start >= cycles;
  __syncthreads();
  const bool result = up;
  __syncthreads();
  return result;
}

// Writes rounds into `data` for about `cycles` clocks (each block by its own clock), then the
// final words of `pe`; block 0 records its rounds.
__global__ void keep_writing(unsigned *data, std::size_t n, long long cycles, int pe,
                             unsigned *rounds) {
  const long long start = clock64();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned r = 0;
  while (!time_is_up(start, cycles)) {
    ++r;
    for (std::size_t i = first; i < n; i += stride) data[i] = r;
  }
  for (std::size_t i = first; i < n; i += stride) data[i] = final_word(pe, i);
  if (blockIdx.x == 0 && threadIdx.x == 0) *rounds = r;
}

}  // namespace busy
