// Where the SM-driven copy between two GPUs tops out: 1 GiB from GPU 0 to GPU 1 over NVLink
// by the copy engine, by a 16-byte load/store block copy (ishmem's copy loop, chunks walked
// by the grid) and by Hopper's bulk copies (cp.async.bulk: global -> shared memory -> the
// peer's global memory, one issuing thread per block, S stages in flight), each checked.
// Standalone (CUDA only, no MPI, no ishmem); on the two-GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o bulk_copy_probe benchmarks/nvshmem/bulk_copy_probe.cu
//   ./bulk_copy_probe
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#define CK(x)                                        \
  do {                                               \
    cudaError_t e = (x);                             \
    if (e != cudaSuccess) {                          \
      printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      return 1;                                      \
    }                                                \
  } while (0)

__global__ void ldst(uint4 *dst, const uint4 *src, size_t n, size_t chunk) {
  // grid walks chunks of `chunk` elements; the block copies each chunk 4 per thread per step
  for (size_t c = blockIdx.x * chunk; c < n; c += (size_t)gridDim.x * chunk) {
    size_t end = c + chunk < n ? c + chunk : n;
    size_t i = c + threadIdx.x;
    unsigned g = blockDim.x;
    for (; i + 3 * g < end; i += 4 * g) {
      uint4 a = src[i], b = src[i + g], d = src[i + 2 * g], e = src[i + 3 * g];
      dst[i] = a;
      dst[i + g] = b;
      dst[i + 2 * g] = d;
      dst[i + 3 * g] = e;
    }
    for (; i < end; i += g) dst[i] = src[i];
  }
}

__device__ __forceinline__ unsigned sa(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}

template <int S>
__global__ void bulk(char *dst, const char *src, size_t bytes, unsigned chunk) {
  extern __shared__ __align__(128) char buf[];
  __shared__ __align__(8) unsigned long long bar[S];
  if (threadIdx.x != 0) return;
  for (int s = 0; s < S; ++s)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sa(&bar[s])));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  unsigned phase[S] = {};
  // this block's chunks: blockIdx.x, + gridDim.x, ...
  size_t n = (bytes + chunk - 1) / chunk;
  size_t mine = n > blockIdx.x ? (n - blockIdx.x + gridDim.x - 1) / gridDim.x : 0;
  auto off = [&](size_t k) { return (blockIdx.x + k * gridDim.x) * (size_t)chunk; };
  auto load = [&](size_t k) {
    int s = k % S;
    unsigned len = (unsigned)min((size_t)chunk, bytes - off(k));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(sa(&bar[s])),
                 "r"(len)
                 : "memory");
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
            "r"(sa(buf + (size_t)s * chunk)),
        "l"(src + off(k)), "r"(len), "r"(sa(&bar[s]))
        : "memory");
  };
  for (size_t k = 0; k < S && k < mine; ++k) load(k);
  for (size_t k = 0; k < mine; ++k) {
    int s = k % S;
    asm volatile(
        "{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra "
        "W;\n}" ::"r"(sa(&bar[s])),
        "r"(phase[s])
        : "memory");
    phase[s] ^= 1;
    unsigned len = (unsigned)min((size_t)chunk, bytes - off(k));
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst + off(k)),
                 "r"(sa(buf + (size_t)s * chunk)), "r"(len)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    if (k >= 1 &&
        k - 1 + S < mine) {  // the previous chunk's buffer: reuse once its store has read it
      asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
      load(k - 1 + S);
    }
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

int main() {
  int n;
  CK(cudaGetDeviceCount(&n));
  if (n < 2) {
    printf("need 2 GPUs\n");
    return 1;
  }
  size_t bytes = (size_t)1 << 30;
  char *src, *dst;
  CK(cudaSetDevice(1));
  CK(cudaMalloc(&dst, bytes));
  CK(cudaMemset(dst, 0, bytes));
  CK(cudaSetDevice(0));
  CK(cudaDeviceEnablePeerAccess(1, 0));
  CK(cudaMalloc(&src, bytes));
  std::vector<unsigned char> h(bytes);
  for (size_t i = 0; i < bytes; ++i) h[i] = (unsigned char)(i * 7 + i / 4093 + 1);
  CK(cudaMemcpy(src, h.data(), bytes, cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  auto timeit = [&](auto fn) {
    std::vector<float> t;
    for (int r = 0; r < 7; ++r) {
      cudaEventRecord(a);
      fn();
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms;
      cudaEventElapsedTime(&ms, a, b);
      if (r >= 2) t.push_back(ms);
    }
    std::sort(t.begin(), t.end());
    return bytes / (t[t.size() / 2] * 1e-3) / 1e9;
  };
  auto check = [&](const char *what) {
    std::vector<unsigned char> g(bytes);
    cudaMemcpy(g.data(), dst, bytes, cudaMemcpyDefault);
    bool ok = g == h;
    cudaSetDevice(1);
    cudaMemset(dst, 0, bytes);
    cudaDeviceSynchronize();
    cudaSetDevice(0);
    if (!ok) printf("%s: WRONG DATA\n", what);
    return ok;
  };
  double ce = timeit([&] { cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault); });
  check("copy engine");
  printf("copy engine             %7.1f GB/s\n", ce);
  for (int grid : {132, 264, 528})
    for (size_t chunkB : {(size_t)256 << 10}) {
      double v = timeit(
          [&] { ldst<<<grid, 1024>>>((uint4 *)dst, (const uint4 *)src, bytes / 16, chunkB / 16); });
      check("ldst");
      printf("ldst grid %4d x1024 c%zuK %7.1f GB/s  %.3f\n", grid, chunkB >> 10, v, v / ce);
    }
  for (unsigned chunk : {16384u, 32768u, 49152u}) {
    const int S = 4;
    size_t smem = (size_t)S * chunk;
    CK(cudaFuncSetAttribute(bulk<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    for (int grid : {132, 264}) {
      if (grid == 264 && smem > 110 * 1024) continue;
      double v = timeit([&] { bulk<S><<<grid, 32, smem>>>(dst, src, bytes, chunk); });
      CK(cudaGetLastError());
      bool ok = check("bulk");
      printf("bulk S=%d chunk %6u grid %4d %7.1f GB/s  %.3f %s\n", S, chunk, grid, v, v / ce,
             ok ? "" : "BAD");
    }
  }
  for (unsigned chunk : {16384u, 32768u}) {
    const int S = 6;
    size_t smem = (size_t)S * chunk;
    CK(cudaFuncSetAttribute(bulk<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    double v = timeit([&] { bulk<S><<<132, 32, smem>>>(dst, src, bytes, chunk); });
    CK(cudaGetLastError());
    bool ok = check("bulk6");
    printf("bulk S=%d chunk %6u grid  132 %7.1f GB/s  %.3f %s\n", S, chunk, v, v / ce,
           ok ? "" : "BAD");
  }
  double ce2 = timeit([&] { cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault); });
  printf("copy engine again       %7.1f GB/s\n", ce2);
  return 0;
}
