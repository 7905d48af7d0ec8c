// Shared by the GPU benchmarks: status checks that end the job with the failing call named,
// event timing (warm-up first, then the median of several timed runs), buffers that never
// hold zeros, and the peer address of a symmetric buffer for the raw baselines.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backend/gpu/gpu_platform.h"
#include "ishmem.h"
#include "ishmem/device.h"

namespace gpu_bench {

inline void die(const char *what, const char *detail, const char *file, int line) {
  fprintf(stderr, "[pe %d] %s:%d: %s: %s\n", ishmem_my_pe(), file, line, what, detail);
  fflush(stderr);
  ishmem_global_exit(1);
}
#define BENCH_GPU(call)                                                         \
  do {                                                                          \
    gpuError_t bench_rc = (call);                                               \
    if (bench_rc != gpuSuccess)                                                 \
      ::gpu_bench::die(#call, gpuGetErrorString(bench_rc), __FILE__, __LINE__); \
  } while (0)
#define BENCH_ISHMEM(call)                                               \
  do {                                                                   \
    int bench_rc = (call);                                               \
    if (bench_rc != ISHMEM_SUCCESS)                                      \
      ::gpu_bench::die(#call, ishmemx_last_error(), __FILE__, __LINE__); \
  } while (0)
// After every launch: the launch status.
#define BENCH_LAUNCHED() BENCH_GPU(gpuGetLastError())

// Starts ishmem and requires a GPU backend: benchmarks of GPU heaps mean nothing on host
// memory. Returns false (after finalizing) when there is none, so the program exits 0.
inline bool start(const char *name) {
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "%s: ishmem_init failed: %s\n", name, ishmemx_last_error());
    exit(1);
  }
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

// The peer's copy of symmetric `sym`, as a device address, for the raw baselines.
inline char *peer_address(void *sym, int pe) {
  ishmemx_device_handle_t h{};
  BENCH_ISHMEM(ishmemx_get_device_handle(&h));
  int slot = pe - h.first_local_pe;  // GPU heaps are on one node, numbered contiguously
  return static_cast<char *>(sym) +
         static_cast<std::ptrdiff_t>(slot - h.my_slot) * static_cast<std::ptrdiff_t>(h.stride);
}

// Fills device memory with a byte pattern that has no zeros.
inline void fill_pattern(void *device, std::size_t bytes, int seed) {
  std::vector<unsigned char> host(std::min<std::size_t>(bytes, 1 << 24));
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<unsigned char>(1 + (seed * 29 + i * 13 + i / 241) % 251);
  for (std::size_t done = 0; done < bytes; done += host.size())
    BENCH_GPU(gpuMemcpy(static_cast<char *>(device) + done, host.data(),
                        std::min(host.size(), bytes - done), gpuMemcpyHostToDevice));
}

// Times `launch(stream)` with events: `warmup` untimed calls, then `runs` timed batches of
// `batch` calls each; returns the median microseconds per call.
template <class Launch>
double time_us(gpuStream_t stream, int warmup, int runs, int batch, Launch &&launch) {
  gpuEvent_t start, stop;
  BENCH_GPU(gpuEventCreate(&start));
  BENCH_GPU(gpuEventCreate(&stop));
  for (int i = 0; i < warmup; ++i) launch(stream);
  BENCH_GPU(gpuStreamSynchronize(stream));
  std::vector<double> per_call;
  for (int r = 0; r < runs; ++r) {
    BENCH_GPU(gpuEventRecord(start, stream));
    for (int i = 0; i < batch; ++i) launch(stream);
    BENCH_GPU(gpuEventRecord(stop, stream));
    BENCH_GPU(gpuEventSynchronize(stop));
    float ms = 0;
    BENCH_GPU(gpuEventElapsedTime(&ms, start, stop));
    per_call.push_back(1000.0 * ms / batch);
  }
  BENCH_GPU(gpuEventDestroy(start));
  BENCH_GPU(gpuEventDestroy(stop));
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

// Calls per timed batch: enough that small transfers are not one launch each.
inline int batch_for(std::size_t bytes) {
  std::size_t b = (std::size_t{64} << 20) / std::max<std::size_t>(bytes, 1);
  return static_cast<int>(std::min<std::size_t>(std::max<std::size_t>(b, 1), 50));
}

// 8 B to `max` by factors of 8, then every power of two from 64 MiB up.
inline std::vector<std::size_t> bench_sizes(std::size_t max) {
  std::vector<std::size_t> sizes;
  for (std::size_t b = 8; b <= max && b < (std::size_t{64} << 20); b *= 8) sizes.push_back(b);
  for (std::size_t b = std::size_t{64} << 20; b <= max; b *= 2) sizes.push_back(b);
  return sizes;
}

inline double gb_per_s(std::size_t bytes, double us) {
  return us > 0 ? bytes / us / 1e3 : 0;
}

inline bool has_flag(int argc, char **argv, const char *flag) {
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], flag) == 0) return true;
  return false;
}
inline std::size_t size_arg(int argc, char **argv, const char *flag, std::size_t def) {
  for (int i = 1; i + 1 < argc; ++i)
    if (strcmp(argv[i], flag) == 0) return strtoull(argv[i + 1], nullptr, 0);
  return def;
}

}  // namespace gpu_bench
