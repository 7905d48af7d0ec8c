// Device put/get bandwidth, written once for ishmem-gpu-bench-put and for both builds of
// benchmarks/nvshmem/peer_bench.cu: the kernels by thread, warp and block scope, the grid
// configurations, how a buffer is cut among the groups, and one size's measurement with
// the limits beside it (the copy engine into the peer's mapping and a plain 16-byte store
// kernel, between the same buffers).
//
// The kernels take the library as a template parameter `Dev`: a type with the static device
// functions put, put_warp, put_block, get, get_warp and get_block (dst, src, bytes, pe), each
// one call of the library (gpu_bench.h's IshmemDevice, peer_bench.cu's NVSHMEM layer).
#pragma once

#include "gpu_harness.h"

namespace gpu_bench {

enum Scope { kThread, kWarp, kBlock };
inline const char *scope_name(Scope s) {
  return s == kThread ? "thread" : s == kWarp ? "warp" : "block";
}

// The store16 kernel's block.
constexpr unsigned kThreads = 1024;

// Group g of `groups` moves bytes [g * slice, min((g + 1) * slice, bytes)); a group takes
// g, g + (groups launched), ... so that a grid smaller than `groups` walks the buffer in
// chunks (one pass when it is as large).
template <class Dev, Scope S, bool GET>
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
      GET ? Dev::get(local + off, sym + off, n, peer) : Dev::put(sym + off, local + off, n, peer);
    } else if (S == kWarp) {
      GET ? Dev::get_warp(local + off, sym + off, n, peer)
          : Dev::put_warp(sym + off, local + off, n, peer);
    } else {
      GET ? Dev::get_block(local + off, sym + off, n, peer)
          : Dev::put_block(sym + off, local + off, n, peer);
    }
  }
}

// As an application would launch them: with no bounds, and with the bounds that let two
// 1024-thread blocks share a multiprocessor (at most 32 registers a thread).
template <class Dev, Scope S, bool GET>
__global__ void rma_kernel(char *sym, char *local, std::size_t bytes, std::size_t slice,
                           std::size_t groups, int peer) {
  rma_body<Dev, S, GET>(sym, local, bytes, slice, groups, peer);
}
template <class Dev, Scope S, bool GET>
__global__ void __launch_bounds__(1024, 2)
    rma_kernel_full(char *sym, char *local, std::size_t bytes, std::size_t slice,
                    std::size_t groups, int peer) {
  rma_body<Dev, S, GET>(sym, local, bytes, slice, groups, peer);
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

// The grid configurations, in the order they run and print, for a GPU of `sms`
// multiprocessors.
inline std::vector<Config> rma_configs(int sms) {
  const unsigned full = 2 * sms;  // two 1024-thread blocks per multiprocessor
  const unsigned s3 = 3 * unsigned(sms), s6 = 6 * unsigned(sms);  // 512-thread blocks
  const std::size_t k256 = 256 << 10, m1 = 1 << 20;
  return {{kBlock, 1, 1024, false, 0},
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
}

// "block", "block/c256K/lb", ...: the scope, the chunk, the bounds.
inline std::string config_name(const Config &c) {
  return std::string(scope_name(c.scope)) +
         (c.chunk ? "/c" + std::to_string(c.chunk >> 10) + "K" : "") + (c.bounded ? "/lb" : "");
}

// How one configuration cuts `bytes`: groups of `slice` bytes over `blocks` blocks.
struct Cut {
  std::size_t slice, groups;
  unsigned blocks;
};
inline Cut cut(const Config &c, std::size_t bytes, int warp) {
  const unsigned per_warp = c.threads / warp;
  const std::size_t per_block = c.scope == kBlock ? 1 : c.scope == kWarp ? per_warp : c.threads;
  Cut k;
  if (c.chunk) {  // fixed chunks, at most max_blocks blocks walking them
    k.slice = c.chunk;
    k.groups = (bytes + k.slice - 1) / k.slice;
    k.blocks = static_cast<unsigned>(
        std::min<std::size_t>(c.max_blocks, (k.groups + per_block - 1) / per_block));
  } else {  // one slice per group, as many groups as fit in max_blocks
    std::size_t groups_max = std::size_t{c.max_blocks} * per_block;
    k.slice = (bytes + groups_max - 1) / groups_max;
    k.slice = std::max<std::size_t>((k.slice + 15) / 16 * 16, 16);
    k.groups = (bytes + k.slice - 1) / k.slice;
    k.blocks = static_cast<unsigned>((k.groups + per_block - 1) / per_block);
  }
  return k;
}

template <class Dev, Scope S, bool GET>
void launch_scoped(const Config &c, const Cut &k, char *sym, char *local, std::size_t bytes,
                   int peer, gpuStream_t stream) {
  if (c.bounded)
    rma_kernel_full<Dev, S, GET>
        <<<k.blocks, c.threads, 0, stream>>>(sym, local, bytes, k.slice, k.groups, peer);
  else
    rma_kernel<Dev, S, GET>
        <<<k.blocks, c.threads, 0, stream>>>(sym, local, bytes, k.slice, k.groups, peer);
  BENCH_LAUNCHED();
}

template <class Dev, bool GET>
void launch_rma(const Config &c, const Cut &k, char *sym, char *local, std::size_t bytes, int peer,
                gpuStream_t stream) {
  switch (c.scope) {
    case kThread:
      return launch_scoped<Dev, kThread, GET>(c, k, sym, local, bytes, peer, stream);
    case kWarp:
      return launch_scoped<Dev, kWarp, GET>(c, k, sym, local, bytes, peer, stream);
    case kBlock:
      return launch_scoped<Dev, kBlock, GET>(c, k, sym, local, bytes, peer, stream);
  }
}

// The buffers of one run: `sym` symmetric (the peer's copy at `remote`, mapped here), `local`
// a plain device buffer. Puts read `local` and write the peer's `sym`; gets the reverse.
struct RmaBuffers {
  char *sym, *remote, *local;
  int peer;
  int warp;       // threads per warp
  unsigned full;  // two 1024-thread blocks per multiprocessor: store16's largest grid
};

// One size: every configuration, then the copy engine and store16, each timed (2 warm-ups,
// median of 7 batches), then a check of the bytes moved. `report(config, what, blocks,
// threads, usec)` is called after each timing; config is null for the two limits, and
// threads 0 for the copy engine.
template <class Dev, class Report>
void measure_rma(bool get, std::size_t bytes, const std::vector<Config> &configs,
                 const RmaBuffers &b, gpuStream_t stream, Report &&report) {
  const int batch = batch_for(bytes), runs = 7, warmup = 2;
  for (const Config &c : configs) {
    const Cut k = cut(c, bytes, b.warp);
    double us = time_us(stream, warmup, runs, batch, [&](gpuStream_t s) {
      if (get)
        launch_rma<Dev, true>(c, k, b.sym, b.local, bytes, b.peer, s);
      else
        launch_rma<Dev, false>(c, k, b.sym, b.local, bytes, b.peer, s);
    });
    report(&c, config_name(c), k.blocks, c.threads, us);
  }
  double ce = time_us(stream, warmup, runs, batch, [&](gpuStream_t s) {
    BENCH_GPU(get ? gpuMemcpyAsync(b.local, b.remote, bytes, gpuMemcpyDeviceToDevice, s)
                  : gpuMemcpyAsync(b.remote, b.local, bytes, gpuMemcpyDeviceToDevice, s));
  });
  report(nullptr, std::string("copy-engine"), 0u, 0u, ce);
  unsigned sb = static_cast<unsigned>(
      std::min<std::size_t>(b.full, std::max<std::size_t>(1, bytes / 16 / kThreads)));
  double st = time_us(stream, warmup, runs, batch, [&](gpuStream_t s) {
    if (get)
      store16<<<sb, kThreads, 0, s>>>(b.local, b.remote, bytes);
    else
      store16<<<sb, kThreads, 0, s>>>(b.remote, b.local, bytes);
    BENCH_LAUNCHED();
  });
  report(nullptr, std::string("store16"), sb, kThreads, st);
  fflush(stdout);
  // The last bytes moved must be the source's.
  BENCH_GPU(gpuStreamSynchronize(stream));
  const std::size_t check = std::min<std::size_t>(bytes, 4096);
  const char *src = get ? b.remote : b.local, *dst = get ? b.local : b.remote;
  expect_copied(src + bytes - check, dst + bytes - check, check,
                "destination does not hold the source's bytes");
}

}  // namespace gpu_bench
