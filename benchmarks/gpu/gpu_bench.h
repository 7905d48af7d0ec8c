// The ishmem layer of the GPU benchmarks (benchmarks/gpu, and peer_bench.cu's ishmem build)
// over the library-neutral gpu_harness.h: ishmem status checks, starting with a GPU
// backend, the peer address of a symmetric buffer for the raw baselines, and the device
// calls that gpu_rma.h's kernels are written over.
#pragma once

#include "gpu_harness.h"
#include "ishmem.h"
#include "ishmem/device.h"

namespace gpu_bench {

#define BENCH_ISHMEM(call)                                               \
  do {                                                                   \
    int bench_rc = (call);                                               \
    if (bench_rc != ISHMEM_SUCCESS)                                      \
      ::gpu_bench::die(#call, ishmemx_last_error(), __FILE__, __LINE__); \
  } while (0)

// Starts ishmem; from here a failure ends the job through ishmem_global_exit.
inline void init_or_exit(const char *name) {
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "%s: ishmem_init failed: %s\n", name, ishmemx_last_error());
    exit(1);
  }
  job = {"ishmem", ishmem_my_pe(), ishmem_global_exit};
}

// Starts ishmem and requires a GPU backend: benchmarks of GPU heaps mean nothing on host
// memory. Returns false (after finalizing) when there is none, so the program exits 0.
inline bool start(const char *name) {
  init_or_exit(name);
  std::string backend = ishmemx_backend_name();
  if (backend != "cuda" && backend != "hip") {
    if (ishmem_my_pe() == 0)
      printf("# %s: skipped, backend is %s (no usable GPU)\n", name, backend.c_str());
    ishmem_finalize();
    return false;
  }
  if (ishmem_n_pes() < 2) {
    if (ishmem_my_pe() == 0) printf("# %s: needs 2 PEs\n", name);
    ishmem_finalize();
    return false;
  }
  return true;
}

// --csv FILE / --json FILE (gpu_harness.h's rows), written by PE 0; ends the job when a file
// cannot be written.
inline void open_output_or_exit(int argc, char **argv, const char *benchmark) {
  if (!open_output(argc, argv, benchmark, ishmemx_backend_name(), ishmem_n_pes(),
                   ishmem_my_pe() == 0))
    die("--csv/--json", "the output file cannot be written", __FILE__, __LINE__);
}

// The peer's copy of symmetric `sym`, as a device address, for the raw baselines (the host's
// ishmem_ptr is NULL on GPU heaps).
inline char *peer_address(void *sym, int pe) {
  ishmemx_device_handle_t h{};
  BENCH_ISHMEM(ishmemx_get_device_handle(&h));
  int slot = pe - h.first_local_pe;  // GPU heaps are on one node, numbered contiguously
  return static_cast<char *>(sym) +
         static_cast<std::ptrdiff_t>(slot - h.my_slot) * static_cast<std::ptrdiff_t>(h.stride);
}

// gpu_rma.h's library: the no-argument device RMA calls.
struct IshmemDevice {
  static BENCH_DEVICE void put(void *d, const void *s, std::size_t n, int pe) {
    ishmem_putmem(d, s, n, pe);
  }
  static BENCH_DEVICE void put_warp(void *d, const void *s, std::size_t n, int pe) {
    ishmemx_putmem_warp(d, s, n, pe);
  }
  static BENCH_DEVICE void put_block(void *d, const void *s, std::size_t n, int pe) {
    ishmemx_putmem_block(d, s, n, pe);
  }
  static BENCH_DEVICE void get(void *d, const void *s, std::size_t n, int pe) {
    ishmem_getmem(d, s, n, pe);
  }
  static BENCH_DEVICE void get_warp(void *d, const void *s, std::size_t n, int pe) {
    ishmemx_getmem_warp(d, s, n, pe);
  }
  static BENCH_DEVICE void get_block(void *d, const void *s, std::size_t n, int pe) {
    ishmemx_getmem_block(d, s, n, pe);
  }
};

}  // namespace gpu_bench
