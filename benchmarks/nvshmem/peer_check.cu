// Checks what a two-GPU run needs: at least two visible GPUs, and peer access between every
// pair both ways (cudaDeviceCanAccessPeer), with the link's attributes. Prints one line a
// pair and exits 1 ("PEER ACCESS NOT ENABLED") if any pair lacks it. Built by
// scripts/gpu-test-x2 with nvcc alone (no MPI, no ishmem).
#include <cuda_runtime.h>

#include <cstdio>

int main() {
  int count = 0;
  cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) {
    printf("peer-check: cudaGetDeviceCount: %s\nPEER ACCESS NOT ENABLED\n", cudaGetErrorString(rc));
    return 1;
  }
  printf("peer-check: %d GPUs\n", count);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p{};
    char bus[32] = {0};
    cudaGetDeviceProperties(&p, d);
    cudaDeviceGetPCIBusId(bus, sizeof bus, d);
    printf("peer-check: GPU %d: %s, %s, %d SMs, %.1f GiB\n", d, p.name, bus, p.multiProcessorCount,
           p.totalGlobalMem / double(1 << 30));
  }
  if (count < 2) {
    printf("peer-check: fewer than 2 GPUs\nPEER ACCESS NOT ENABLED\n");
    return 1;
  }
  int bad = 0;
  for (int a = 0; a < count; ++a)
    for (int b = 0; b < count; ++b) {
      if (a == b) continue;
      int can = 0, rank = -1, atomics = 0, access = 0;
      cudaDeviceCanAccessPeer(&can, a, b);
      cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a, b);
      cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, a, b);
      cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, a, b);
      printf(
          "peer-check: GPU %d -> GPU %d: can access peer %d, access supported %d, native "
          "atomics %d, performance rank %d\n",
          a, b, can, access, atomics, rank);
      if (!can) ++bad;
    }
  // Enable it one way and copy through it, so that "can" is also "does".
  if (!bad) {
    void *x = nullptr, *y = nullptr;
    const size_t n = 64 << 20;
    bool ok = cudaSetDevice(0) == cudaSuccess && cudaDeviceEnablePeerAccess(1, 0) == cudaSuccess &&
              cudaMalloc(&x, n) == cudaSuccess && cudaSetDevice(1) == cudaSuccess &&
              cudaMalloc(&y, n) == cudaSuccess && cudaSetDevice(0) == cudaSuccess;
    cudaEvent_t e0, e1;
    float ms = 0;
    if (ok) {
      cudaEventCreate(&e0);
      cudaEventCreate(&e1);
      cudaMemcpyPeer(y, 1, x, 0, n);  // warm-up
      cudaEventRecord(e0);
      for (int i = 0; i < 10; ++i) cudaMemcpyPeerAsync(y, 1, x, 0, n);
      cudaEventRecord(e1);
      ok = cudaEventSynchronize(e1) == cudaSuccess &&
           cudaEventElapsedTime(&ms, e0, e1) == cudaSuccess;
    }
    if (ok)
      printf("peer-check: cudaMemcpyPeerAsync GPU 0 -> GPU 1, 64 MiB: %.1f GB/s\n",
             10.0 * n / (ms * 1e-3) / 1e9);
    else
      printf("peer-check: enabling peer access or copying through it failed: %s\n",
             cudaGetErrorString(cudaGetLastError()));
    if (!ok) ++bad;
  }
  if (bad) {
    printf("PEER ACCESS NOT ENABLED (%d pair(s) or the copy failed)\n", bad);
    return 1;
  }
  printf("peer-check: peer access enabled both ways\n");
  return 0;
}
