// Device put (or, with --get, get) bandwidth, 8 B to 1 GiB, by thread, warp and block scope
// and grid size, PE 0 to PE 1. Beside them, in the same run and between the same buffers,
// the limits: the copy engine (cudaMemcpyAsync / hipMemcpyAsync device to device into the
// peer's mapping) and a plain 16-byte load/store kernel.
//   usage: mpirun -np 2 ishmem-gpu-bench-put [--get] [--max BYTES] [--csv FILE] [--json FILE]
// Rows: op scope blocks threads bytes usec GB/s (median of timed runs after a warm-up).
#include "gpu_bench.h"
#include "gpu_rma.h"

using namespace gpu_bench;

namespace {

#ifdef ISHMEMI_STREAMING_COPY
const char *const kVariant = " (evict-first copies)";
const char *const kBenchmark = "gpu-put-streaming";
#else
const char *const kVariant = "";
const char *const kBenchmark = "gpu-put";
#endif

struct Row {
  std::string what;
  unsigned blocks;
  std::size_t bytes;
  double us;
};

}  // namespace

int main(int argc, char **argv) {
  if (!start("ishmem-gpu-bench-put")) return 0;
  const bool get = has_flag(argc, argv, "--get");
  const std::size_t max_bytes = size_arg(argc, argv, "--max", std::size_t{1} << 30);
  const char *op = get ? "get" : "put";
  const int me = ishmem_my_pe(), peer = 1;
  open_output_or_exit(argc, argv, kBenchmark);

  int device = 0, warp = 32, sms = 1;
  gpuDeviceProp prop{};
  BENCH_GPU(gpuGetDevice(&device));
  BENCH_GPU(gpuGetDeviceProperties(&prop, device));
  warp = prop.warpSize;
  sms = prop.multiProcessorCount;

  char *sym = static_cast<char *>(ishmem_malloc(max_bytes));
  if (!sym) die("ishmem_malloc", ishmemx_last_error(), __FILE__, __LINE__);
  char *local = nullptr;
  BENCH_GPU(gpuMalloc(&local, max_bytes));
  // Puts read `local` and write the peer's `sym`; gets read the peer's `sym`.
  fill_pattern(get ? static_cast<void *>(sym) : static_cast<void *>(local), max_bytes, me + 1);
  BENCH_GPU(gpuDeviceSynchronize());
  BENCH_ISHMEM(ishmem_barrier_all());

  std::vector<Row> rows;
  if (me == 0) {
    gpuStream_t stream;
    BENCH_GPU(gpuStreamCreateWithFlags(&stream, gpuStreamNonBlocking));
    const std::vector<Config> configs = rma_configs(sms);
    const RmaBuffers buffers{sym, peer_address(sym, peer), local, peer, warp, 2u * sms};
    printf("# ishmem-gpu-bench-put%s: %s, PE 0 -> PE 1 (one GPU: %s, %d SMs, warp %d)\n", kVariant,
           op, prop.name, sms, warp);
    printf("%-4s %-16s %7s %7s %12s %12s %10s\n", "op", "scope", "blocks", "threads", "bytes",
           "usec", "GB/s");
    const std::vector<std::size_t> sizes = bench_sizes(max_bytes);
    for (std::size_t bytes : sizes) {
      progress(op, bytes, static_cast<int>(&bytes - sizes.data()) + 1,
               static_cast<int>(sizes.size()));
      auto report = [&](const Config *, const std::string &what, unsigned blocks, unsigned threads,
                        double us) {
        rows.push_back({what, blocks, bytes, us});
        // The library's scopes, and beside them the limits of the same buffers.
        const char *impl = !threads ? "copy_engine" : what == "store16" ? "raw_store" : "ishmem";
        write_row(impl, op, bytes, us, impl[0] == 'i' ? what.c_str() : nullptr);
        if (threads)
          printf("%-4s %-16s %7u %7u %12zu %12.2f %10.2f\n", op, what.c_str(), blocks, threads,
                 bytes, us, gb_per_s(bytes, us));
        else  // the copy engine: no grid
          printf("%-4s %-16s %7s %7s %12zu %12.2f %10.2f\n", op, what.c_str(), "-", "-", bytes, us,
                 gb_per_s(bytes, us));
      };
      measure_rma<IshmemDevice>(get, bytes, configs, buffers, stream, report);
    }
    // The issue's target: block put from 64 MiB up against the copy engine of the same run,
    // for each way of cutting the buffer (one slice per block; chunks walked by the grid).
    for (bool chunked : {false, true}) {
      double worst = 1e9;
      for (const Row &ce : rows) {
        if (ce.what != "copy-engine" || ce.bytes < (64u << 20)) continue;
        const Row *best = nullptr;
        for (const Row &r : rows)
          if (r.what.rfind("block", 0) == 0 &&
              (r.what.find("/c") != std::string::npos) == chunked && r.bytes == ce.bytes &&
              (!best || r.us < best->us))
            best = &r;
        if (!best) continue;
        double ratio = ce.us / best->us;
        worst = std::min(worst, ratio);
        printf(
            "# target %s%s: %zu bytes: best %s (%u blocks) %.1f GB/s, copy engine %.1f GB/s, "
            "ratio %.3f\n",
            op, kVariant, ce.bytes, best->what.c_str(), best->blocks, gb_per_s(ce.bytes, best->us),
            gb_per_s(ce.bytes, ce.us), ratio);
      }
      if (worst < 1e9)
        printf(
            "# summary %s%s: block %s (%s) / copy engine from 64 MiB up: min ratio %.3f "
            "(target >= 0.9: %s)\n",
            op, kVariant, op, chunked ? "chunks walked by the grid" : "one slice per block", worst,
            worst >= 0.9 ? "met" : "NOT met");
    }
    BENCH_GPU(gpuStreamDestroy(stream));
  }
  BENCH_ISHMEM(ishmem_barrier_all());
  BENCH_GPU(gpuFree(local));
  BENCH_ISHMEM(ishmem_free(sym));
  BENCH_ISHMEM(ishmem_finalize());
  return 0;
}
