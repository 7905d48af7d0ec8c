// Each PE's kernel puts its PE number into the right neighbour's array with the block form,
// one more word with the single-thread ishmem_putmem, and raises a flag with ishmem_int_p;
// after a barrier each PE checks what its left neighbour sent. Exit status 0 only if every
// value arrived (or there is no GPU backend).
#include <cstdio>
#include <cstring>
#include <vector>

#include <ishmem/device.h>

#if defined(__HIPCC__)  // the same program for HIP: only the runtime's names differ
#include <hip/hip_runtime.h>
#define cudaSuccess hipSuccess
#define cudaMalloc hipMalloc
#define cudaMemcpy hipMemcpy
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaGetLastError hipGetLastError
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaFree hipFree
#endif

__global__ void shift(int *sym, const int *src, size_t n) {
  int peer = (ishmem_my_pe() + 1) % ishmem_n_pes();
  ishmemx_putmem_block(sym, src, n * sizeof(int), peer);
  if (threadIdx.x == 0) {
    ishmem_putmem(sym + n + 1, src, sizeof(int), peer);
    ishmem_quiet();
    ishmem_int_p(sym + n, 1, peer);
  }
}

int main() {
  if (ishmem_init() != ISHMEM_SUCCESS) return 1;
  const int me = ishmem_my_pe(), left = (me + ishmem_n_pes() - 1) % ishmem_n_pes();
  const size_t n = 4096;
  int *sym = static_cast<int *>(ishmem_calloc(n + 2, sizeof(int)));
  int bad = sym ? 0 : 1;
  if (sym && strcmp(ishmemx_backend_name(), "host") != 0) {
    std::vector<int> mine(n, me + 100), got(n + 2);
    int *src = nullptr;
    bad |= cudaMalloc(&src, n * sizeof(int)) != cudaSuccess;
    bad |= cudaMemcpy(src, mine.data(), n * sizeof(int), cudaMemcpyHostToDevice) != cudaSuccess;
    shift<<<1, 256>>>(sym, src, n);
    bad |= cudaGetLastError() != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess;
    ishmem_barrier_all();
    bad |=
        cudaMemcpy(got.data(), sym, (n + 2) * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess;
    for (size_t i = 0; i < n; ++i) bad |= got[i] != left + 100;
    bad |= got[n] != 1 || got[n + 1] != left + 100;
    cudaFree(src);
  }
  ishmem_barrier_all();
  printf("consumer: pe %d, backend %s: %s\n", me, ishmemx_backend_name(), bad ? "FAILED" : "ok");
  ishmem_free(sym);
  ishmem_finalize();
  return bad;
}
