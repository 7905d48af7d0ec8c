// peer_bench.cu's ishmem layer: the no-argument device form (relocatable device code,
// ishmem::device) over benchmarks/gpu's ishmem harness (gpu_bench.h), with the same names
// as x2_nvshmem.h. Signals and the device barrier only where the build says the device API
// has them (ISHMEM_X2_* in CMakeLists.txt).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "../gpu/gpu_bench.h"
#include "../gpu/gpu_rma.h"
#if defined(ISHMEM_X2_SIGNAL)
#define X2_HAS_SIGNAL 1
#endif
#if defined(ISHMEM_X2_SIGNAL_BLOCK)
#define X2_HAS_SIGNAL_BLOCK 1
#endif
#if defined(ISHMEM_X2_DEVICE_BARRIER)
#define X2_HAS_DEVICE_BARRIER 1
#endif
namespace x2 {
struct Lib : gpu_bench::IshmemDevice {
  static constexpr const char *kImpl = "ishmem";
  static int my_pe() { return ishmem_my_pe(); }
  static int n_pes() { return ishmem_n_pes(); }
  static void *malloc_sym(size_t n) { return ishmem_malloc(n); }
  static void free_sym(void *p) { ishmem_free(p); }
  static void barrier_all() { BENCH_ISHMEM(ishmem_barrier_all()); }
  static void barrier_all_on_stream(cudaStream_t s) {
    BENCH_ISHMEM(ishmemx_barrier_all_on_stream(s));
  }
  static void putmem_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
    BENCH_ISHMEM(ishmemx_putmem_on_stream(d, s, n, pe, st));
  }
  static char *peer_address(void *sym, int pe) { return gpu_bench::peer_address(sym, pe); }
  static const char *last_error() { return ishmemx_last_error(); }
  static void start(int &, char **&) {
    gpu_bench::init_or_exit("ishmem-x2-bench");
    std::string backend = ishmemx_backend_name();
    if (backend != "cuda") {
      if (ishmem_my_pe() == 0)
        printf("# ishmem-x2-bench: backend is %s, not cuda: nothing to measure\n", backend.c_str());
      ishmem_finalize();
      exit(1);
    }
    if (ishmem_my_pe() == 0)
      printf("# ishmem %s, %d PEs, backend %s\n", ISHMEMX_VERSION_STRING, ishmem_n_pes(),
             backend.c_str());
  }
  static void finish() { BENCH_ISHMEM(ishmem_finalize()); }
  // Device calls beyond gpu_rma.h's (IshmemDevice).
  static BENCH_DEVICE void int_p(int *d, int v, int pe) { ishmem_int_p(d, v, pe); }
  static BENCH_DEVICE void quiet() { ishmem_quiet(); }
#ifdef X2_HAS_SIGNAL
  static BENCH_DEVICE void put_signal_nbi(void *d, const void *s, size_t n, uint64_t *sig,
                                          uint64_t v, int pe) {
    ishmem_putmem_signal_nbi(d, s, n, sig, v, ISHMEM_SIGNAL_SET, pe);
  }
  static BENCH_DEVICE void signal_wait_ge(uint64_t *sig, uint64_t v) {
    ishmem_signal_wait_until(sig, ISHMEM_CMP_GE, v);
  }
#endif
#ifdef X2_HAS_SIGNAL_BLOCK
  static BENCH_DEVICE void put_signal_nbi_block(void *d, const void *s, size_t n, uint64_t *sig,
                                                uint64_t v, int pe) {
    ishmemx_putmem_signal_nbi_block(d, s, n, sig, v, ISHMEM_SIGNAL_SET, pe);
  }
#endif
#ifdef X2_HAS_DEVICE_BARRIER
  static BENCH_DEVICE void device_barrier_all() {
    ishmem_barrier_all();
  }
#endif
};
}  // namespace x2
