// One source, two libraries: the device and stream benchmarks of benchmarks/gpu, built for
// ishmem (ishmem-x2-bench, CMakeLists.txt beside this) and for NVSHMEM 3 (nvshmem-x2-bench,
// -DUSE_NVSHMEM, compiled by scripts/gpu-test-x2 with nvcc), so that both run exactly the same
// loops: the same kernels, grids, block sizes and sizes, timed the same way (events after a
// warm-up, median of timed batches) on data that is never zeros. The put/get kernels, their
// grid configurations and the timing are benchmarks/gpu's own (gpu_rma.h, gpu_harness.h);
// everything is written over `Lib`, the thin per-library layer (x2_ishmem.h, x2_nvshmem.h).
// Meant for two PEs on two GPUs (kind nvidia-h200-x2); PE 0 reports.
//
//   usage: mpirun -np 2 <program> [--compare-csv FILE] [--csv FILE] [--json FILE]
//   [--max BYTES] [--only put,get,p,signal,stream,barrier]
//
// Benchmarks (--compare-csv rows, which benchmarks/plot.py reads:
// impl,bench,op,what,blocks,threads,bytes,usec,gbps; --csv / --json: benchmarks/bench_out.h's):
//   put, get   device putmem/getmem by thread, warp and block scope, 8 B to 1 GiB, with the
//              grid configurations of ishmem-gpu-bench-put; the copy engine and a 16-byte
//              store kernel between the same buffers as the limits
//   p          one thread's p issue rate and p + quiet; p ping-pong between the two PEs'
//              kernels (one way = round trip / 2)
//   signal     put-with-signal ping-pong (thread and block scope); ishmem only where its
//              device API has put-with-signal (ISHMEM_X2_SIGNAL / ISHMEM_X2_SIGNAL_BLOCK)
//   stream     putmem_on_stream against cudaMemcpyAsync to the peer on the same stream
//   barrier    host barrier_all, barrier_all_on_stream, and a device barrier_all kernel
//              (ishmem only where its device API has one: ISHMEM_X2_DEVICE_BARRIER)
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>

#ifdef USE_NVSHMEM
#include "x2_nvshmem.h"
#else
#include "x2_ishmem.h"
#endif

using namespace gpu_bench;
using x2::Lib;

namespace {

FILE *csv = nullptr;
void row(const char *bench, const char *op, const std::string &what, unsigned blocks,
         unsigned threads, size_t bytes, double us) {
  double gbps = us > 0 ? bytes / us / 1e3 : 0;
  if (csv) {
    fprintf(csv, "%s,%s,%s,%s,%u,%u,%zu,%.4f,%.3f\n", Lib::kImpl, bench, op, what.c_str(), blocks,
            threads, bytes, us, gbps);
    fflush(csv);
  }
  printf("%-8s %-8s %-4s %-22s %7u %7u %12zu %12.3f %10.2f\n", Lib::kImpl, bench, op, what.c_str(),
         blocks, threads, bytes, us, gbps);
  char detail[96];
  snprintf(detail, sizeof detail, "%s %ux%u", what.c_str(), blocks, threads);
  gpu_bench::write_row(Lib::kImpl, (std::string(bench) + "_" + op).c_str(), bytes, us, detail);
  fflush(stdout);
}

bool wanted(const std::string &only, const char *name) {
  if (only.empty()) return true;
  std::string list = "," + only + ",";
  return list.find(std::string(",") + name + ",") != std::string::npos;
}

// ---- put / get bandwidth: benchmarks/gpu/gpu_rma.h, as ishmem-gpu-bench-put runs it ---------
void bench_rma(bool get, size_t max_bytes) {
  const char *op = get ? "get" : "put";
  const int me = Lib::my_pe(), peer = 1;
  int device = 0;
  cudaDeviceProp prop{};
  BENCH_GPU(cudaGetDevice(&device));
  BENCH_GPU(cudaGetDeviceProperties(&prop, device));
  const int sms = prop.multiProcessorCount, warp = prop.warpSize;
  char *sym = static_cast<char *>(Lib::malloc_sym(max_bytes));
  if (!sym) die("symmetric malloc", Lib::last_error(), __FILE__, __LINE__);
  char *local = nullptr;
  BENCH_GPU(cudaMalloc(&local, max_bytes));
  fill_pattern(get ? static_cast<void *>(sym) : static_cast<void *>(local), max_bytes, me + 1);
  BENCH_GPU(cudaDeviceSynchronize());
  Lib::barrier_all();
  if (me == 0) {
    cudaStream_t stream;
    BENCH_GPU(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    char *remote = Lib::peer_address(sym, peer);
    if (!remote) die("peer address", "the peer's heap is not mapped", __FILE__, __LINE__);
    const std::vector<Config> configs = rma_configs(sms);  // ishmem-gpu-bench-put's, in order
    const RmaBuffers buffers{sym, remote, local, peer, warp, 2u * sms};
    printf(
        "# %s %s bandwidth, PE 0 -> PE 1 (%s, %d SMs, warp %d, GPU %d); columns: impl bench "
        "op what blocks threads bytes usec GB/s\n",
        Lib::kImpl, op, prop.name, sms, warp, device);
    for (size_t bytes : bench_sizes(max_bytes)) {
      auto report = [&](const Config *c, const std::string &what, unsigned blocks, unsigned threads,
                        double us) {
        std::string grid =
            c ? "/" + std::to_string(c->max_blocks) + "x" + std::to_string(c->threads) : "";
        row(op, op, what + grid, blocks, threads, bytes, us);
      };
      measure_rma<Lib>(get, bytes, configs, buffers, stream, report);
    }
    BENCH_GPU(cudaStreamDestroy(stream));
  }
  Lib::barrier_all();
  BENCH_GPU(cudaFree(local));
  Lib::free_sym(sym);
}

// ---- p: issue rate of one thread, and ping-pong (benchmarks/gpu/gpu_p_latency.cu) ------------
template <bool QUIET>
__global__ void p_loop(int *sym, int ops, int peer) {
  for (int i = 0; i < ops; ++i) {
    Lib::int_p(sym + (i & 1023), i, peer);
    if (QUIET) Lib::quiet();
  }
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The starter sends base+i and waits for it back; the other waits and answers. Gives up
// after `timeout` clocks per wait (counted in status[0]); status[1] gets the nanoseconds from
// the end of the first round trip to the last (in-kernel, free of launch skew).
__global__ void pingpong(int *flag, int base, int iters, int peer, bool starter, long long timeout,
                         unsigned long long *status) {
  volatile int *mine = flag;
  unsigned long long t1 = 0;
  for (int i = 1; i <= iters; ++i) {
    const int v = base + i;
    if (starter) Lib::int_p(flag, v, peer);
    long long t0 = clock64();
    while (*mine < v)
      if (clock64() - t0 > timeout) {
        status[0] = i;
        return;
      }
    if (!starter) Lib::int_p(flag, v, peer);
    if (i == 1) t1 = global_ns();
  }
  status[1] = global_ns() - t1;
}

// `runs` launches of a ping-pong kernel of `iters` round trips, each after a host barrier, the
// first a warm-up: the medians of one way (round trip / 2) in microseconds, by events and by
// the kernel's own clock. `launch(stream, run)` starts run `run`; `kernel_ns()` then reads the
// nanoseconds the kernel measured from the end of its first round trip to its last.
template <class Launch, class KernelNs>
std::pair<double, double> one_way_us(cudaStream_t s, int runs, int iters, Launch &&launch,
                                     KernelNs &&kernel_ns) {
  std::vector<double> events, in_kernel;
  for (int r = 0; r < runs; ++r) {
    BENCH_GPU(cudaDeviceSynchronize());
    Lib::barrier_all();
    float ms = time_once_ms(s, [&](cudaStream_t st) {
      launch(st, r);
      BENCH_LAUNCHED();
    });
    unsigned long long ns = kernel_ns();
    if (r > 0) {
      events.push_back(1000.0 * ms / (2.0 * iters));
      in_kernel.push_back(ns / 1000.0 / (2.0 * (iters - 1)));
    }
  }
  return {median_of(events), median_of(in_kernel)};
}

void bench_p() {
  const int me = Lib::my_pe(), peer = 1 - me;
  int *sym = static_cast<int *>(Lib::malloc_sym(1024 * sizeof(int)));
  int *flag = static_cast<int *>(Lib::malloc_sym(sizeof(int)));
  if (!sym || !flag) die("symmetric malloc", Lib::last_error(), __FILE__, __LINE__);
  BENCH_GPU(cudaMemset(sym, 0, 1024 * sizeof(int)));
  BENCH_GPU(cudaMemset(flag, 0, sizeof(int)));
  BENCH_GPU(cudaDeviceSynchronize());
  cudaStream_t s;
  BENCH_GPU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  // Load every kernel before one spins on another PE's.
  cudaFuncAttributes fa;
  BENCH_GPU(cudaFuncGetAttributes(&fa, pingpong));
  BENCH_GPU(cudaFuncGetAttributes(&fa, p_loop<false>));
  BENCH_GPU(cudaFuncGetAttributes(&fa, p_loop<true>));
  Lib::barrier_all();
  if (me == 0) {
    const int ops = 1 << 16;
    std::vector<double> plain, quiet;
    for (int r = 0; r < 17; ++r) {  // interleaved rounds, two warm-ups
      double a = time_us(s, 0, 1, 1, [&](cudaStream_t st) {
        p_loop<false><<<1, 1, 0, st>>>(sym, ops, 1);
        BENCH_LAUNCHED();
      });
      double b = time_us(s, 0, 1, 1, [&](cudaStream_t st) {
        p_loop<true><<<1, 1, 0, st>>>(sym, ops / 64, 1);
        BENCH_LAUNCHED();
      });
      if (r >= 2) {
        plain.push_back(a / ops);
        quiet.push_back(b / (ops / 64));
      }
    }
    row("p", "p", "int_p/issue", 1, 1, sizeof(int), median_of(plain));
    row("p", "p", "int_p+quiet", 1, 1, sizeof(int), median_of(quiet));
    std::vector<int> got(1024);
    BENCH_GPU(cudaStreamSynchronize(s));
    BENCH_GPU(cudaMemcpy(got.data(), Lib::peer_address(sym, 1), sizeof(int) * 1024,
                         cudaMemcpyDeviceToHost));
    const int last = ops / 64 - 1;
    if (got[last & 1023] != last)
      die("check", "the peer does not hold the last p", __FILE__, __LINE__);
  }
  Lib::barrier_all();

  // Ping-pong: 1 warm-up run and 7 timed runs of `iters` round trips.
  unsigned long long *status = nullptr;
  BENCH_GPU(cudaMalloc(&status, 2 * sizeof(unsigned long long)));
  BENCH_GPU(cudaMemset(status, 0, 2 * sizeof(unsigned long long)));
  const int iters = 2000;
  auto [events, in_kernel] = one_way_us(
      s, 8, iters,
      [&](cudaStream_t st, int run) {
        pingpong<<<1, 1, 0, st>>>(flag, run * iters, iters, peer, me == 0, 4000000000ll, status);
      },
      [&] {
        unsigned long long st[2];
        BENCH_GPU(cudaMemcpy(st, status, sizeof st, cudaMemcpyDeviceToHost));
        if (st[0]) die("pingpong", "timed out waiting for the peer", __FILE__, __LINE__);
        BENCH_GPU(cudaMemset(status, 0, 2 * sizeof(unsigned long long)));  // for the next run
        return st[1];
      });
  if (me == 0) {
    row("p", "pingpong", "int_p/one-way/events", 1, 1, sizeof(int), events);
    row("p", "pingpong", "int_p/one-way/in-kernel", 1, 1, sizeof(int), in_kernel);
  }
  Lib::barrier_all();
  BENCH_GPU(cudaFree(status));
  BENCH_GPU(cudaStreamDestroy(s));
  Lib::free_sym(flag);
  Lib::free_sym(sym);
}

// ---- signal ping-pong -----------------------------------------------------------------------
#ifdef X2_HAS_SIGNAL
template <bool BLOCK>
__device__ __forceinline__ void put_signal(char *data, const char *src, size_t bytes, uint64_t *sig,
                                           uint64_t v, int peer) {
#if defined(X2_HAS_SIGNAL_BLOCK)
  if (BLOCK)
    Lib::put_signal_nbi_block(data, src, bytes, sig, v, peer);
  else
#endif
      if (threadIdx.x == 0)
    Lib::put_signal_nbi(data, src, bytes, sig, v, peer);
}

template <bool BLOCK>
__global__ void sig_pingpong(char *data, const char *src, size_t bytes, uint64_t *sig,
                             uint64_t base, int iters, int peer, bool starter,
                             unsigned long long *t_out) {
  unsigned long long t1 = 0;
  for (int i = 1; i <= iters; ++i) {
    const uint64_t v = base + i;
    if (starter) put_signal<BLOCK>(data, src, bytes, sig, v, peer);
    if (threadIdx.x == 0) Lib::signal_wait_ge(sig, v);
    __syncthreads();
    if (!starter) put_signal<BLOCK>(data, src, bytes, sig, v, peer);
    if (i == 1 && threadIdx.x == 0) t1 = global_ns();
  }
  if (threadIdx.x == 0) *t_out = global_ns() - t1;
}

void bench_signal() {
  const int me = Lib::my_pe(), peer = 1 - me;
  const size_t max_bytes = 1 << 20;
  char *data = static_cast<char *>(Lib::malloc_sym(max_bytes));
  uint64_t *sig = static_cast<uint64_t *>(Lib::malloc_sym(sizeof(uint64_t)));
  if (!data || !sig) die("symmetric malloc", Lib::last_error(), __FILE__, __LINE__);
  char *src = nullptr;
  BENCH_GPU(cudaMalloc(&src, max_bytes));
  fill_pattern(src, max_bytes, me + 7);
  BENCH_GPU(cudaMemset(data, 0, max_bytes));  // arrivals are told apart from zeros
  BENCH_GPU(cudaMemset(sig, 0, sizeof(uint64_t)));
  unsigned long long *t = nullptr;
  BENCH_GPU(cudaMalloc(&t, sizeof(unsigned long long)));
  cudaStream_t s;
  BENCH_GPU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaFuncAttributes fa;
  BENCH_GPU(cudaFuncGetAttributes(&fa, sig_pingpong<false>));
  BENCH_GPU(cudaFuncGetAttributes(&fa, sig_pingpong<true>));
  BENCH_GPU(cudaDeviceSynchronize());
  Lib::barrier_all();
  uint64_t base = 0;
  for (int blockscope = 0; blockscope < 2; ++blockscope) {
#if !defined(X2_HAS_SIGNAL_BLOCK)
    if (blockscope) break;
#endif
    for (size_t bytes : {size_t{8}, size_t{4096}, size_t{65536}, size_t{1} << 20}) {
      if (!blockscope && bytes > 65536) continue;  // one thread moving megabytes: skip
      const int iters = 200, runs = 6;
      auto [events, in_kernel] = one_way_us(
          s, runs, iters,
          [&](cudaStream_t st, int run) {
            const uint64_t from = base + uint64_t(run) * iters;
            if (blockscope)
              sig_pingpong<true>
                  <<<1, kThreads, 0, st>>>(data, src, bytes, sig, from, iters, peer, me == 0, t);
            else
              sig_pingpong<false>
                  <<<1, 1, 0, st>>>(data, src, bytes, sig, from, iters, peer, me == 0, t);
          },
          [&] {
            unsigned long long ns = 0;
            BENCH_GPU(cudaMemcpy(&ns, t, sizeof ns, cudaMemcpyDeviceToHost));
            return ns;
          });
      base += uint64_t(runs) * iters;
      // The data arrived with its signal: the bytes at this PE are the peer's pattern.
      std::vector<char> got(std::min<size_t>(bytes, 4096));
      BENCH_GPU(
          cudaMemcpy(got.data(), data + bytes - got.size(), got.size(), cudaMemcpyDeviceToHost));
      if (std::count(got.begin(), got.end(), 0) != 0)
        die("check", "signal ping-pong data did not arrive", __FILE__, __LINE__);
      if (me == 0) {
        const unsigned th = blockscope ? kThreads : 1;
        const std::string w =
            std::string(blockscope ? "putmem_signal_nbi_block" : "putmem_signal_nbi");
        row("signal", "pingpong", w + "/one-way/events", 1, th, bytes, events);
        row("signal", "pingpong", w + "/one-way/in-kernel", 1, th, bytes, in_kernel);
      }
    }
  }
  Lib::barrier_all();
  BENCH_GPU(cudaStreamDestroy(s));
  BENCH_GPU(cudaFree(t));
  BENCH_GPU(cudaFree(src));
  Lib::free_sym(sig);
  Lib::free_sym(data);
}
#endif

// ---- on-stream host put (benchmarks/gpu/gpu_stream.cu) ------------------------------------
void bench_stream(size_t max_bytes) {
  const int me = Lib::my_pe();
  char *sym = static_cast<char *>(Lib::malloc_sym(max_bytes));
  if (!sym) die("symmetric malloc", Lib::last_error(), __FILE__, __LINE__);
  char *local = nullptr;
  BENCH_GPU(cudaMalloc(&local, max_bytes));
  fill_pattern(local, max_bytes, me + 3);
  cudaStream_t s;
  BENCH_GPU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  BENCH_GPU(cudaDeviceSynchronize());
  Lib::barrier_all();
  if (me == 0) {
    char *remote = Lib::peer_address(sym, 1);
    auto put_on_stream = [](char *dst, const char *src, size_t n, cudaStream_t st) {
      Lib::putmem_on_stream(dst, src, n, 1, st);
    };
    for (size_t bytes : bench_sizes(max_bytes)) {
      auto [put, ce] = time_stream_put(put_on_stream, sym, remote, local, bytes, s);
      row("stream", "put", "putmem_on_stream", 0, 0, bytes, put);
      row("stream", "put", "memcpy_async", 0, 0, bytes, ce);
    }
    BENCH_GPU(cudaStreamSynchronize(s));
    expect_copied(local, remote, 64, "the peer does not hold the source's bytes");
  }
  Lib::barrier_all();
  BENCH_GPU(cudaStreamDestroy(s));
  BENCH_GPU(cudaFree(local));
  Lib::free_sym(sym);
}

// ---- barriers ---------------------------------------------------------------------------------
#ifdef X2_HAS_DEVICE_BARRIER
__global__ void barrier_loop(int n) {
  for (int i = 0; i < n; ++i) Lib::device_barrier_all();
}
#endif

void bench_barrier() {
  const int me = Lib::my_pe(), rounds = 200, runs = 7;
  cudaStream_t s;
  BENCH_GPU(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  using clock = std::chrono::steady_clock;
  std::vector<double> host, stream;
  for (int i = 0; i < 20; ++i) Lib::barrier_all();
  for (int r = 0; r < runs; ++r) {
    Lib::barrier_all();
    auto t0 = clock::now();
    for (int i = 0; i < rounds; ++i) Lib::barrier_all();
    host.push_back(std::chrono::duration<double, std::micro>(clock::now() - t0).count() / rounds);
  }
  for (int i = 0; i < 10; ++i) Lib::barrier_all_on_stream(s);
  BENCH_GPU(cudaStreamSynchronize(s));
  for (int r = 0; r < runs; ++r) {
    Lib::barrier_all();
    auto t0 = clock::now();
    for (int i = 0; i < rounds; ++i) Lib::barrier_all_on_stream(s);
    BENCH_GPU(cudaStreamSynchronize(s));
    stream.push_back(std::chrono::duration<double, std::micro>(clock::now() - t0).count() / rounds);
  }
  if (me == 0) {
    row("barrier", "barrier", "host barrier_all", 0, 0, 0, median_of(host));
    row("barrier", "barrier", "barrier_all_on_stream", 0, 0, 0, median_of(stream));
  }
#ifdef X2_HAS_DEVICE_BARRIER
  cudaFuncAttributes fa;
  BENCH_GPU(cudaFuncGetAttributes(&fa, barrier_loop));
  std::vector<double> dev;
  const int n = 1000;
  for (int r = 0; r < 6; ++r) {
    BENCH_GPU(cudaDeviceSynchronize());
    Lib::barrier_all();
    double us = time_us(s, 0, 1, 1, [&](cudaStream_t st) {
      barrier_loop<<<1, 1, 0, st>>>(n);
      BENCH_LAUNCHED();
    });
    if (r > 0) dev.push_back(us / n);
  }
  if (me == 0) row("barrier", "barrier", "device barrier_all (1 thread)", 1, 1, 0, median_of(dev));
#else
  if (me == 0) printf("# barrier: no device barrier_all in this library's device API\n");
#endif
  Lib::barrier_all();
  BENCH_GPU(cudaStreamDestroy(s));
}

}  // namespace

int main(int argc, char **argv) {
  Lib::start(argc, argv);
  std::string only, csv_path;
  size_t max_bytes = size_t{1} << 30;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!strcmp(argv[i], "--compare-csv")) csv_path = argv[i + 1];
    if (!strcmp(argv[i], "--max")) max_bytes = strtoull(argv[i + 1], nullptr, 0);
    if (!strcmp(argv[i], "--only")) only = argv[i + 1];
  }
  if (Lib::n_pes() < 2) {
    if (Lib::my_pe() == 0) printf("# %s-x2-bench needs 2 PEs\n", Lib::kImpl);
    Lib::finish();
    return 1;
  }
  if (!gpu_bench::open_output(argc, argv, "peer_bench", "", Lib::n_pes(), Lib::my_pe() == 0))
    die("--csv/--json", "the output file cannot be written", __FILE__, __LINE__);
  if (Lib::my_pe() == 0 && !csv_path.empty()) {
    csv = fopen(csv_path.c_str(), "w");
    if (!csv) die("fopen", csv_path.c_str(), __FILE__, __LINE__);
    fprintf(csv, "impl,bench,op,what,blocks,threads,bytes,usec,gbps\n");
  }
  using clock = std::chrono::steady_clock;
  auto stage = [&](const char *name, auto &&fn) {
    if (!wanted(only, name)) return;
    auto t0 = clock::now();
    fn();
    if (Lib::my_pe() == 0)
      printf("# %s %s: done in %.1f s\n", Lib::kImpl, name,
             std::chrono::duration<double>(clock::now() - t0).count());
  };
  stage("put", [&] { bench_rma(false, max_bytes); });
  stage("get", [&] { bench_rma(true, max_bytes); });
  stage("p", [&] { bench_p(); });
#ifdef X2_HAS_SIGNAL
  stage("signal", [&] { bench_signal(); });
#else
  if (Lib::my_pe() == 0 && wanted(only, "signal"))
    printf("# %s signal: skipped, no device put-with-signal in this build\n", Lib::kImpl);
#endif
  stage("stream", [&] { bench_stream(max_bytes); });
  stage("barrier", [&] { bench_barrier(); });
  if (csv) fclose(csv);
  Lib::finish();
  return 0;
}
