// Device put (or, with --get, get) bandwidth, 8 B to 1 GiB, by thread, warp and block scope
// and grid size, PE 0 to PE 1. Beside them, in the same run and between the same buffers,
// the limits: the copy engine (cudaMemcpyAsync / hipMemcpyAsync device to device into the
// peer's mapping) and a plain 16-byte load/store kernel.
//   usage: mpirun -np 2 ishmem-gpu-bench-put [--get] [--max BYTES]
// Rows: op scope blocks threads bytes usec GB/s (median of timed runs after a warm-up).
#include <cinttypes>

#include "gpu_bench.h"

using namespace gpu_bench;

namespace {

enum Scope { kThread, kWarp, kBlock };
const char *scope_name(Scope s) {
  return s == kThread ? "thread" : s == kWarp ? "warp" : "block";
}

constexpr unsigned kThreads = 1024;
#ifdef ISHMEMI_STREAMING_COPY
const char *const kVariant = " (evict-first copies)";
#else
const char *const kVariant = "";
#endif

// Group g of `groups` moves bytes [g * slice, min((g + 1) * slice, bytes)); a group takes
// g, g + (groups launched), ... so that a grid smaller than `groups` walks the buffer in
// chunks (one pass when it is as large).
template <Scope S, bool GET>
__device__ __forceinline__ void rma_body(char *sym, char *local, std::size_t bytes,
                                         std::size_t slice, std::size_t groups, int peer) {
  const std::size_t tid = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x;
  const std::size_t threads = (std::size_t)gridDim.x * blockDim.x;
  std::size_t g0 = S == kThread ? tid : S == kWarp ? tid / warpSize : blockIdx.x;
  std::size_t launched = S == kThread ? threads
                         : S == kWarp ? (threads + warpSize - 1) / warpSize
                                      : gridDim.x;
  for (std::size_t g = g0; g < groups; g += launched) {  // whole groups move together
    std::size_t off = g * slice;
    std::size_t n = bytes - off < slice ? bytes - off : slice;
    if (S == kThread) {
      GET ? ishmem_getmem(local + off, sym + off, n, peer)
          : ishmem_putmem(sym + off, local + off, n, peer);
    } else if (S == kWarp) {
      GET ? ishmemx_getmem_warp(local + off, sym + off, n, peer)
          : ishmemx_putmem_warp(sym + off, local + off, n, peer);
    } else {
      GET ? ishmemx_getmem_block(local + off, sym + off, n, peer)
          : ishmemx_putmem_block(sym + off, local + off, n, peer);
    }
  }
}

// As an application would launch them: with no bounds, and with the bounds that let two
// 1024-thread blocks share a multiprocessor (at most 32 registers a thread).
template <Scope S, bool GET>
__global__ void rma_kernel(char *sym, char *local, std::size_t bytes, std::size_t slice,
                           std::size_t groups, int peer) {
  rma_body<S, GET>(sym, local, bytes, slice, groups, peer);
}
template <Scope S, bool GET>
__global__ void __launch_bounds__(1024, 2)
    rma_kernel_full(char *sym, char *local, std::size_t bytes, std::size_t slice,
                    std::size_t groups, int peer) {
  rma_body<S, GET>(sym, local, bytes, slice, groups, peer);
}

// The plain store kernel: 16-byte loads and stores over a grid-stride loop, bytes tail.
__global__ void store16(char *dst, const char *src, std::size_t bytes) {
  std::size_t nv = bytes / 16, stride = (std::size_t)gridDim.x * blockDim.x;
  uint4 *d = (uint4 *)dst;
  const uint4 *s = (const uint4 *)src;
  for (std::size_t i = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < nv; i += stride)
    d[i] = s[i];
  for (std::size_t i = nv * 16 + blockIdx.x * (std::size_t)blockDim.x + threadIdx.x; i < bytes;
       i += stride)
    dst[i] = src[i];
}

struct Config {
  Scope scope;
  unsigned max_blocks;
  unsigned threads;
  bool bounded;       // __launch_bounds__(1024, 2)
  std::size_t chunk;  // 0: one contiguous slice per group; else groups walk chunks of this
};

struct Row {
  std::string what;
  unsigned blocks;
  std::size_t bytes;
  double us;
};

template <Scope S, bool GET>
void launch_scoped(const Config &c, unsigned blocks, char *sym, char *local, std::size_t bytes,
                   std::size_t slice, std::size_t groups, int peer, gpuStream_t stream) {
  if (c.bounded)
    rma_kernel_full<S, GET>
        <<<blocks, c.threads, 0, stream>>>(sym, local, bytes, slice, groups, peer);
  else
    rma_kernel<S, GET><<<blocks, c.threads, 0, stream>>>(sym, local, bytes, slice, groups, peer);
  BENCH_LAUNCHED();
}

template <bool GET>
void launch_rma(const Config &c, unsigned blocks, char *sym, char *local, std::size_t bytes,
                std::size_t slice, std::size_t groups, int peer, gpuStream_t stream) {
  switch (c.scope) {
    case kThread:
      return launch_scoped<kThread, GET>(c, blocks, sym, local, bytes, slice, groups, peer, stream);
    case kWarp:
      return launch_scoped<kWarp, GET>(c, blocks, sym, local, bytes, slice, groups, peer, stream);
    case kBlock:
      return launch_scoped<kBlock, GET>(c, blocks, sym, local, bytes, slice, groups, peer, stream);
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (!start("ishmem-gpu-bench-put")) return 0;
  const bool get = has_flag(argc, argv, "--get");
  const std::size_t max_bytes = size_arg(argc, argv, "--max", std::size_t{1} << 30);
  const char *op = get ? "get" : "put";
  const int me = ishmem_my_pe(), peer = 1;

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
    char *remote = peer_address(sym, peer);
    const unsigned full = 2 * sms;  // two 1024-thread blocks per multiprocessor
    const unsigned s3 = 3 * unsigned(sms), s6 = 6 * unsigned(sms);  // 512-thread blocks
    const std::size_t k256 = 256 << 10, m1 = 1 << 20;
    const Config configs[] = {{kBlock, 1, 1024, false, 0},
                              {kBlock, 16, 1024, false, 0},
                              {kBlock, unsigned(sms), 1024, false, 0},
                              {kBlock, full, 1024, false, 0},
                              {kBlock, 2 * full, 1024, true, 0},
                              {kBlock, s6, 512, false, 0},
                              {kBlock, full, 1024, true, k256},
                              {kBlock, s3, 512, false, k256},
                              {kBlock, s6, 512, false, k256},
                              {kBlock, s3, 512, false, m1},
                              {kWarp, full, 1024, true, 0},
                              {kWarp, full, 1024, true, 16 << 10},
                              {kThread, full, 1024, true, 0}};
    printf("# ishmem-gpu-bench-put%s: %s, PE 0 -> PE 1 (one GPU: %s, %d SMs, warp %d)\n", kVariant,
           op, prop.name, sms, warp);
    printf("%-4s %-16s %7s %7s %12s %12s %10s\n", "op", "scope", "blocks", "threads", "bytes",
           "usec", "GB/s");
    for (std::size_t bytes : bench_sizes(max_bytes)) {
      const int batch = batch_for(bytes), runs = 7, warmup = 2;
      for (const Config &c : configs) {
        const unsigned per_warp = c.threads / warp;
        const std::size_t per_block = c.scope == kBlock  ? 1
                                      : c.scope == kWarp ? per_warp
                                                         : c.threads;
        std::size_t slice, groups;
        unsigned blocks;
        if (c.chunk) {  // fixed chunks, at most max_blocks blocks walking them
          slice = c.chunk;
          groups = (bytes + slice - 1) / slice;
          blocks = static_cast<unsigned>(
              std::min<std::size_t>(c.max_blocks, (groups + per_block - 1) / per_block));
        } else {  // one slice per group, as many groups as fit in max_blocks
          std::size_t groups_max = std::size_t{c.max_blocks} * per_block;
          slice = (bytes + groups_max - 1) / groups_max;
          slice = std::max<std::size_t>((slice + 15) / 16 * 16, 16);
          groups = (bytes + slice - 1) / slice;
          blocks = static_cast<unsigned>((groups + per_block - 1) / per_block);
        }
        double us = time_us(stream, warmup, runs, batch, [&](gpuStream_t s) {
          if (get)
            launch_rma<true>(c, blocks, sym, local, bytes, slice, groups, peer, s);
          else
            launch_rma<false>(c, blocks, sym, local, bytes, slice, groups, peer, s);
        });
        std::string what = std::string(scope_name(c.scope)) +
                           (c.chunk ? "/c" + std::to_string(c.chunk >> 10) + "K" : "") +
                           (c.bounded ? "/lb" : "");
        rows.push_back({what, blocks, bytes, us});
        printf("%-4s %-16s %7u %7u %12zu %12.2f %10.2f\n", op, what.c_str(), blocks, c.threads,
               bytes, us, gb_per_s(bytes, us));
      }
      // The limits, between the same buffers.
      double ce = time_us(stream, warmup, runs, batch, [&](gpuStream_t s) {
        BENCH_GPU(get ? gpuMemcpyAsync(local, remote, bytes, gpuMemcpyDeviceToDevice, s)
                      : gpuMemcpyAsync(remote, local, bytes, gpuMemcpyDeviceToDevice, s));
      });
      rows.push_back({"copy-engine", 0, bytes, ce});
      printf("%-4s %-16s %7s %7s %12zu %12.2f %10.2f\n", op, "copy-engine", "-", "-", bytes, ce,
             gb_per_s(bytes, ce));
      unsigned sb = static_cast<unsigned>(
          std::min<std::size_t>(full, std::max<std::size_t>(1, bytes / 16 / kThreads)));
      double st = time_us(stream, warmup, runs, batch, [&](gpuStream_t s) {
        if (get)
          store16<<<sb, kThreads, 0, s>>>(local, remote, bytes);
        else
          store16<<<sb, kThreads, 0, s>>>(remote, local, bytes);
        BENCH_LAUNCHED();
      });
      rows.push_back({"store16", sb, bytes, st});
      printf("%-4s %-16s %7u %7u %12zu %12.2f %10.2f\n", op, "store16", sb, kThreads, bytes, st,
             gb_per_s(bytes, st));
      fflush(stdout);
      // Never benchmark on garbage: the last bytes moved must be the source's.
      BENCH_GPU(gpuStreamSynchronize(stream));
      std::size_t check = std::min<std::size_t>(bytes, 4096);
      std::vector<char> a(check), b(check);
      BENCH_GPU(gpuMemcpy(a.data(), (get ? remote : local) + bytes - check, check,
                          gpuMemcpyDeviceToHost));
      BENCH_GPU(gpuMemcpy(b.data(), (get ? local : remote) + bytes - check, check,
                          gpuMemcpyDeviceToHost));
      if (memcmp(a.data(), b.data(), check) != 0 || a[0] == 0)
        die("check", "destination does not hold the source's bytes", __FILE__, __LINE__);
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
