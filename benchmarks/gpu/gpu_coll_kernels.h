// gpu_coll.h's device half: the values every source holds (so that every result can be
// checked), the checks, and the kernels: a loop of in-kernel reductions, the read of the
// peer's buffer that is a two-PE reduce's floor, and a probe of the peer's mapping. Written
// over the library layer `Lib` that gpu_coll.h describes.
#pragma once

#include <string>
#include <vector>

#include "gpu_harness.h"

namespace gpu_coll {
using namespace gpu_bench;

// ---- Values: every source float is value_of(pe, index); results are checked against them --
__host__ __device__ inline float value_of(int pe, std::size_t k) {
  return static_cast<float>(pe * 8192 + static_cast<int>(k % 8191) + 1);  // exact in a float
}
__global__ void fill_values(float *p, std::size_t n, int pe) {
  for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < n;
       i += (std::size_t)gridDim.x * blockDim.x)
    p[i] = value_of(pe, i);
}

// Floats [first, first + count) of device array `dev` must be expect(index).
template <class Expect>
void expect_values(const float *dev, std::size_t first, std::size_t count, Expect &&expect,
                   const char *what) {
  std::vector<float> host(count);
  BENCH_GPU(gpuMemcpy(host.data(), dev + first, count * sizeof(float), gpuMemcpyDeviceToHost));
  for (std::size_t i = 0; i < count; ++i)
    if (host[i] != expect(first + i)) {
      char detail[200];
      snprintf(detail, sizeof detail, "%s: element %zu is %g, not %g", what, first + i,
               static_cast<double>(host[i]), static_cast<double>(expect(first + i)));
      die("check", detail, __FILE__, __LINE__);
    }
}
// The first and the last 256 floats of [first, first + n).
template <class Expect>
void expect_ends(const float *dev, std::size_t first, std::size_t n, Expect &&expect,
                 const char *what) {
  const std::size_t c = std::min<std::size_t>(n, 256);
  expect_values(dev, first, c, expect, what);
  if (n > c) expect_values(dev, first + n - c, c, expect, what);
}

// ---- Kernels --------------------------------------------------------------------------------
// `iters` reductions of the same buffers inside one kernel; the first failing status is kept.
template <class Lib, bool GRID>
__global__ void reduce_loop(float *d, const float *s, std::size_t n, int iters, int *status) {
  for (int i = 0; i < iters; ++i) {
    int rc;
    if constexpr (GRID)
      rc = Lib::reduce_grid(d, s, n);
    else
      rc = Lib::reduce_block(d, s, n);
    if (rc != 0) {  // the same status on every thread: they leave together
      if (threadIdx.x == 0 && blockIdx.x == 0) *status = rc;
      return;
    }
  }
}

// The floor of a two-PE one-shot reduce done by the same grid: read the peer's `n` floats
// once through its mapping (past L1, as a reduce must), add ours, store; `iters` passes.
__device__ __forceinline__ float4 load_past_l1(const float4 *p) {
#ifdef ISHMEMI_PLATFORM_CUDA
  return __ldcg(p);
#else
  return *p;
#endif
}
template <class Lib>
__global__ void peer_read_loop(float *d, const float *s, std::size_t n, int iters, int peer,
                               int *status) {
  const float4 *theirs = static_cast<const float4 *>(Lib::ptr(s, peer));
  if (!theirs) {
    if (threadIdx.x == 0 && blockIdx.x == 0) *status = -1;
    return;
  }
  const float4 *ours = reinterpret_cast<const float4 *>(s);
  float4 *out = reinterpret_cast<float4 *>(d);
  const std::size_t n4 = n / 4, stride = (std::size_t)gridDim.x * blockDim.x;
  for (int it = 0; it < iters; ++it)
    for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < n4; i += stride) {
      float4 a = load_past_l1(theirs + i), b = ours[i];
      out[i] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
}

// The int at the next PE's `sym`, read through its mapping (-1: not mapped).
template <class Lib>
__global__ void read_peer_int(const int *sym, int pe, int *out) {
  const int *theirs = static_cast<const int *>(Lib::ptr(sym, pe));
  *out = theirs ? *theirs : -1;
}

}  // namespace gpu_coll
