// The library-neutral half of the GPU benchmarks, shared by benchmarks/gpu (ishmem) and
// benchmarks/nvshmem/peer_bench.cu (ishmem or NVSHMEM): status checks that end the job with
// the failing call named, event timing (warm-up first, then the median of several timed
// runs), buffers that never hold zeros, the size sweep and the command line. Nothing here
// names a SHMEM library, so both builds time their loops the same way.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

// The gpu* spelling of the CUDA / HIP runtime names. By path, not through the library's
// include directories: peer_bench.cu is built outside this tree's targets.
#include "../../lib/backend/gpu/gpu_platform.h"
// The machine-readable rows, shared with the host benchmarks.
#include "../bench_out.h"

// The device calls of a library layer: one call each, inlined, so that the kernels written
// over a layer compile to what they would calling the library directly.
#define BENCH_DEVICE __device__ __forceinline__

namespace gpu_bench {

// How a failure ends the job, set by the library layer once it has started: through the
// library's global exit, so that the other PEs do not wait for this one forever.
struct Job {
  const char *impl;
  int pe;
  void (*global_exit)(int);
};
inline Job job{"", -1, nullptr};

[[noreturn]] inline void die(const char *what, const char *detail, const char *file, int line) {
  fprintf(stderr, "[%s pe %d] %s:%d: %s: %s\n", job.impl, job.pe, file, line, what, detail);
  fflush(stderr);
  if (job.global_exit) job.global_exit(1);
  exit(1);
}
#define BENCH_GPU(call)                                                         \
  do {                                                                          \
    gpuError_t bench_rc = (call);                                               \
    if (bench_rc != gpuSuccess)                                                 \
      ::gpu_bench::die(#call, gpuGetErrorString(bench_rc), __FILE__, __LINE__); \
  } while (0)
// After every launch: the launch status.
#define BENCH_LAUNCHED() BENCH_GPU(gpuGetLastError())

// Fills device memory with a byte pattern that has no zeros.
inline void fill_pattern(void *device, std::size_t bytes, int seed) {
  std::vector<unsigned char> host(std::min<std::size_t>(bytes, 1 << 24));
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<unsigned char>(1 + (seed * 29 + i * 13 + i / 241) % 251);
  for (std::size_t done = 0; done < bytes; done += host.size())
    BENCH_GPU(gpuMemcpy(static_cast<char *>(device) + done, host.data(),
                        std::min(host.size(), bytes - done), gpuMemcpyHostToDevice));
}

// Never benchmark on garbage: the `n` bytes at `dst` (device memory) must be those at `src`,
// and not zeros.
inline void expect_copied(const char *src, const char *dst, std::size_t n, const char *message) {
  std::vector<char> a(n), b(n);
  BENCH_GPU(gpuMemcpy(a.data(), src, n, gpuMemcpyDeviceToHost));
  BENCH_GPU(gpuMemcpy(b.data(), dst, n, gpuMemcpyDeviceToHost));
  if (memcmp(a.data(), b.data(), n) != 0 || a[0] == 0) die("check", message, __FILE__, __LINE__);
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

// Milliseconds of one `launch(stream)` between two events recorded around it, with nothing
// before it: a kernel that waits for another PE's kernel starts as soon as the host gets here.
template <class Launch>
float time_once_ms(gpuStream_t stream, Launch &&launch) {
  gpuEvent_t start, stop;
  BENCH_GPU(gpuEventCreate(&start));
  BENCH_GPU(gpuEventCreate(&stop));
  BENCH_GPU(gpuEventRecord(start, stream));
  launch(stream);
  BENCH_GPU(gpuEventRecord(stop, stream));
  BENCH_GPU(gpuEventSynchronize(stop));
  float ms = 0;
  BENCH_GPU(gpuEventElapsedTime(&ms, start, stop));
  BENCH_GPU(gpuEventDestroy(start));
  BENCH_GPU(gpuEventDestroy(stop));
  return ms;
}

inline double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
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

// Host putmem_on_stream against a copy-engine copy into the peer's mapping, on one stream,
// between the same buffers: `put(dst, src, bytes, stream)` is the library's call. Returns
// the two medians (put, copy) in microseconds per call.
template <class PutOnStream>
std::pair<double, double> time_stream_put(PutOnStream &&put, char *sym, char *remote,
                                          const char *local, std::size_t bytes, gpuStream_t s) {
  const int batch = batch_for(bytes);
  double put_us = time_us(s, 2, 7, batch, [&](gpuStream_t st) { put(sym, local, bytes, st); });
  double copy_us = time_us(s, 2, 7, batch, [&](gpuStream_t st) {
    BENCH_GPU(gpuMemcpyAsync(remote, local, bytes, gpuMemcpyDeviceToDevice, st));
  });
  return {put_us, copy_us};
}

// --csv FILE and --json FILE (bench_out.h's rows; FILE "-" is stdout). The programs print
// their tables with printf; when the rows take stdout, the writer gets its own handle on it
// and stdout goes to /dev/null, so that it holds the rows alone.
inline bench_out output{};
inline int output_pes = 0;
inline void close_output() {
  bench_out_close(&output);
}

// Opens the writers of `benchmark` on the reporting PE (`reporting`); false, with the reason
// on stderr, when a file cannot be written.
inline bool open_output(int argc, char **argv, const char *benchmark, const char *backend, int pes,
                        bool reporting) {
  const char *csv = nullptr, *json = nullptr;
  for (int i = 1; i + 1 < argc; ++i) {
    if (strcmp(argv[i], "--csv") == 0) csv = argv[i + 1];
    if (strcmp(argv[i], "--json") == 0) json = argv[i + 1];
  }
  output_pes = pes;
  if (!reporting || (!csv && !json)) return true;
  if (bench_out_open(&output, benchmark, backend, csv, json) != 0) return false;
  if (output.stdout_taken) {
    fflush(stdout);
    FILE *rows = fdopen(dup(fileno(stdout)), "w");
    if (!rows || !freopen("/dev/null", "w", stdout)) {
      perror("--csv/--json on stdout");
      return false;
    }
    if (output.csv == stdout) output.csv = rows;
    if (output.json == stdout) output.json = rows;
  }
  atexit(close_output);
  return true;
}

// One row (where the writers are open): microseconds per call and the bandwidth from them;
// `bytes` 0 for no bandwidth. `detail`: the grid or scope, or nullptr.
inline void write_row(const char *impl, const char *op, std::size_t bytes, double us,
                      const char *detail = nullptr) {
  if (!output.csv && !output.json) return;
  if (output.progress) fputs("\r\033[K", stderr);
  bench_row r{impl, op, bytes, us, bytes && us > 0 ? bytes / us : -1.0, output_pes, -1, detail};
  bench_out_row(&output, &r);
}

// "size 1 MiB (3/9)" on a terminal's stderr, on the reporting PE.
inline void progress(const char *what, std::size_t bytes, int done, int total) {
  bench_out shown{};
  shown.benchmark = output.benchmark ? output.benchmark : "";
  shown.progress = bench_out_on_terminal();
  bench_out_progress(&shown, what, bytes, done, total);
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
