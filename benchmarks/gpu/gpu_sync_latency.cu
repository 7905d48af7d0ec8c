// Device synchronization latency, 2+ PEs on one GPU:
//  - atomics: one thread of PE 0 runs a chain of fetching AMOs on a word of PE 1's heap
//    (fetch_add, compare_swap, swap, fetch), and a run of non-fetching adds; raw
//    atomicAdd_system / atomicCAS_system on the same mapped address beside them;
//  - signal ping-pong between two blocks of ONE kernel of PE 0 (through PE 0's own heap, with
//    the same calls a peer would use), against the reference: a raw store to the other
//    block's flag + __threadfence_system() + a volatile spin (for 8 bytes of data: data store
//    + fence + flag store), and put-with-signal written by hand (the 8 bytes loaded and
//    stored, the flag stored with release order, acquire polls); then put-with-signal by size;
//  - the same two ping-pongs between PE 0's and PE 1's kernels. Two processes' kernels share
//    the GPU by time slicing (no MPS), so this measures the GPU's switching, not the path;
//  - barriers: PE 0's kernel in device barriers while the other PEs use
//    ishmemx_barrier_all_on_stream; every PE in device barriers (time-sliced again); every
//    PE on streams; host ishmem_barrier_all.
// Each figure is the median of interleaved rounds, timed with events.
// ishmem-gpu-bench-sync-node-local is the same program with its kernels built with
// ISHMEMX_DEVICE_NODE_LOCAL (no call into the device library for the host proxy).
//   usage: mpirun -np 2 ishmem-gpu-bench-sync[-node-local] [--ops N] [--iters N]
//          [--cross-iters N]
#include <chrono>

#include "gpu_bench.h"

using namespace gpu_bench;

namespace {

#ifdef ISHMEMX_DEVICE_NODE_LOCAL
const char *const kBuild = " (node-local build)";
#else
const char *const kBuild = "";
#endif

// ---- Atomics ------------------------------------------------------------------------------------

enum AmoMode { kFetchAdd, kCompareSwap, kSwap, kFetch, kAdd, kRawFetchAdd, kRawCas, kAmoModes };
const char *amo_name(int m) {
  static const char *names[] = {"fetch_add",
                                "compare_swap",
                                "swap",
                                "fetch",
                                "add (no fetch)",
                                "raw atomicAdd_system",
                                "raw atomicCAS_system"};
  return names[m];
}

// A dependent chain: each op's operand comes from the previous result, so ops do not overlap.
template <int M>
__global__ void amo_chain(unsigned long long *sym, unsigned long long *raw, int ops, int peer,
                          unsigned long long *sink) {
  unsigned long long v = 1;
  for (int i = 0; i < ops; ++i) {
    if (M == kFetchAdd) v = ishmem_ulonglong_atomic_fetch_add(sym, v & 1, peer);
    if (M == kCompareSwap) v = ishmem_ulonglong_atomic_compare_swap(sym, v, v + 1, peer);
    if (M == kSwap) v = ishmem_ulonglong_atomic_swap(sym, v + 1, peer);
    if (M == kFetch) v += ishmem_ulonglong_atomic_fetch(sym + (v & 1), peer);
    if (M == kAdd) ishmem_ulonglong_atomic_add(sym, 1ull, peer);
    if (M == kRawFetchAdd) v = atomicAdd_system(raw, v & 1);
    if (M == kRawCas) v = atomicCAS_system(raw, v, v + 1);
  }
  *sink = v;
}

template <int M>
double amo_once(unsigned long long *sym, unsigned long long *raw, int ops, int peer,
                unsigned long long *sink, gpuStream_t s) {
  return time_us(s, 0, 1, 1,
                 [&](gpuStream_t st) {
                   amo_chain<M><<<1, 1, 0, st>>>(sym, raw, ops, peer, sink);
                   BENCH_LAUNCHED();
                 }) /
         ops;
}

std::vector<double> time_amos(unsigned long long *sym, unsigned long long *raw, int ops, int peer,
                              unsigned long long *sink, gpuStream_t s, int rounds) {
  double (*const modes[])(unsigned long long *, unsigned long long *, int, int,
                          unsigned long long *, gpuStream_t) = {
      amo_once<kFetchAdd>, amo_once<kCompareSwap>, amo_once<kSwap>,  amo_once<kFetch>,
      amo_once<kAdd>,      amo_once<kRawFetchAdd>, amo_once<kRawCas>};
  std::vector<std::vector<double>> t(kAmoModes);
  for (int r = 0; r < rounds + 1; ++r)
    for (int m = 0; m < kAmoModes; ++m) {
      double us = modes[m](sym, raw, ops, peer, sink, s);
      if (r > 0) t[m].push_back(us);  // one warm-up round
    }
  std::vector<double> median(kAmoModes);
  for (int m = 0; m < kAmoModes; ++m) {
    std::sort(t[m].begin(), t[m].end());
    median[m] = t[m][t[m].size() / 2];
  }
  return median;
}

// ---- Ping-pong ----------------------------------------------------------------------------------
// Party 0 starts each round; party p waits on flag/signal p and answers on 1 - p. Values grow
// across launches (base + i), so nothing needs resetting between runs.

// kRaw: the reference, a store to the other party's flag + __threadfence_system() + a
// volatile spin. kSignal0: ishmem_putmem_signal with no data (a pure signal) and
// ishmem_signal_wait_until. kRawData: 8 bytes of data by hand: data store, fence, flag
// store, volatile spin. kSignal8: ishmem_putmem_signal of 8 bytes. Two more raw loops show
// where time goes: kRawRelease, data store + flag stored with release order (what
// put-with-signal does) + volatile spin; kRawAcquire, kRaw polled with acquire loads (what
// the waits do); kRawLoaded, kRawRelease with the 8 bytes loaded from the source buffer first,
// as a put must; kRawTwin, kRawLoaded polled with acquire loads: put-with-signal and its wait
// written by hand. Every mode uses the same words (the signal words, the data slots, the
// source): where a line falls (shared with what, in which L2 partition) can move a round
// trip by more than the calls' own cost, so modes on different words would compare
// placements, not code.
enum PingMode {
  kRaw,
  kSignal0,
  kRawData,
  kSignal8,
  kRawRelease,
  kRawAcquire,
  kRawLoaded,
  kRawTwin,
  kPingModes
};
const char *ping_name(int m) {
  static const char *names[] = {"raw store+fence+spin",        "putmem_signal 0 B",
                                "raw 8 B+fence+flag+spin",     "putmem_signal 8 B",
                                "raw 8 B+release flag+spin",   "raw store+fence+acquire spin",
                                "raw loaded 8 B+release flag", "raw loaded 8 B+acquire spin"};
  return names[m];
}

// Words between the two parties' signals: one 128-byte line each, as two PEs' signals are
// (each in its own GPU's memory). Two waiters polling one line slow the store that reaches it.
constexpr int kSigStride = 16;

struct PingArgs {
  uint64_t *sigs;   // symmetric, 2 * kSigStride words: the signals, and the raw modes' flags
  char *data;       // symmetric, 2 slots of `slot` bytes
  const char *src;  // local, `slot` bytes
  std::size_t slot;
  std::size_t bytes;        // block mode: bytes per message
  unsigned long long base;  // values start above this
  int iters;
  int peer;     // the PE whose heap the other party reads (self: this PE)
  bool self;    // two blocks of this kernel, or this PE and `peer`
  int *status;  // rounds that timed out
};

__device__ bool timed_out(long long start) {
  return clock64() - start > 8000000000LL;
}

template <int M>
__global__ void pingpong(PingArgs a) {
  if (threadIdx.x != 0) return;
  const int party = a.self ? blockIdx.x : (ishmem_my_pe() < a.peer ? 0 : 1);
  const int other = 1 - party;
  // Self: party p waits on signal p of this PE and writes signal 1-p of it. Across PEs: each PE
  // waits on its word 0 and writes word 0 of the peer.
  const int mine = a.self ? party : 0, theirs = a.self ? other : 0;
  auto *flags = reinterpret_cast<unsigned long long *>(a.sigs);
  volatile unsigned long long *my_flag = flags + mine * kSigStride;
  auto *peer_flag =
      static_cast<unsigned long long *>(ishmem_ptr(flags + theirs * kSigStride, a.peer));
  for (int i = 1; i <= a.iters; ++i) {
    const unsigned long long v = a.base + i;
    for (int turn = 0; turn < 2; ++turn) {
      if ((turn == 0) == (party == 0)) {
        if (M == kRaw || M == kRawAcquire) {
          *(volatile unsigned long long *)peer_flag = v;
          __threadfence_system();
        } else if (M == kRawData) {
          *(volatile unsigned long long *)(a.data + theirs * a.slot) = v;
          __threadfence_system();
          *(volatile unsigned long long *)peer_flag = v;
        } else if (M == kRawRelease) {
          *(volatile unsigned long long *)(a.data + theirs * a.slot) = v;
          ishmemi::st_release(peer_flag, v);
        } else if (M == kRawLoaded || M == kRawTwin) {
          *(volatile unsigned long long *)(a.data + theirs * a.slot) =
              *(const volatile unsigned long long *)a.src;
          ishmemi::st_release(peer_flag, v);
        } else {
          ishmem_putmem_signal(a.data + theirs * a.slot, a.src, M == kSignal8 ? 8 : 0,
                               a.sigs + theirs * kSigStride, v, ISHMEM_SIGNAL_SET, a.peer);
        }
      } else {
        if (M == kRaw || M == kRawData || M == kRawRelease || M == kRawLoaded) {
          const long long start = clock64();
          for (unsigned n = 0; *my_flag < v;)
            if ((++n & 1023) == 0 && timed_out(start)) {  // rarely: keep the spin tight
              atomicAdd(a.status, 1);
              return;
            }
        } else if (M == kRawAcquire || M == kRawTwin) {
          const long long start = clock64();
          for (unsigned n = 0; ishmemi::ld_acquire(flags + mine * kSigStride) < v;)
            if ((++n & 1023) == 0 && timed_out(start)) {
              atomicAdd(a.status, 1);
              return;
            }
        } else {
          if (ishmem_signal_wait_until(a.sigs + mine * kSigStride, ISHMEM_CMP_GE, v) < v) {
            atomicAdd(a.status, 1);
            return;
          }
        }
      }
    }
  }
}

// Block-scope put-with-signal ping-pong of `bytes` (two blocks of one kernel).
__global__ void pingpong_block(PingArgs a) {
  const int party = blockIdx.x, other = 1 - party;
  for (int i = 1; i <= a.iters; ++i) {
    const unsigned long long v = a.base + i;
    for (int turn = 0; turn < 2; ++turn) {
      if ((turn == 0) == (party == 0)) {
        ishmemx_putmem_signal_block(a.data + other * a.slot, a.src, a.bytes,
                                    a.sigs + other * kSigStride, v, ISHMEM_SIGNAL_SET, a.peer);
      } else {
        if (threadIdx.x == 0 &&
            ishmem_signal_wait_until(a.sigs + party * kSigStride, ISHMEM_CMP_GE, v) < v)
          atomicAdd(a.status, 1);
        __syncthreads();
      }
    }
  }
}

// Round-trip microseconds of one launch.
template <class Kernel>
double round_trip_us(Kernel kernel, PingArgs &a, unsigned blocks, unsigned threads, gpuStream_t s) {
  double us = time_us(s, 0, 1, 1, [&](gpuStream_t st) {
    kernel<<<blocks, threads, 0, st>>>(a);
    BENCH_LAUNCHED();
  });
  a.base += a.iters;
  return us / a.iters;
}

// ---- Barriers -----------------------------------------------------------------------------------

__global__ void device_barriers(int n, bool block_form, int *status) {
  for (int i = 0; i < n; ++i) {
    int rc = block_form ? ishmemx_barrier_all_block()
                        : (threadIdx.x == 0 ? ishmem_barrier_all() : ISHMEM_SUCCESS);
    if (rc != ISHMEM_SUCCESS && threadIdx.x == 0) atomicAdd(status, 1);
  }
}

double wall_us(std::chrono::steady_clock::time_point t0, int n) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
         n;
}

}  // namespace

int main(int argc, char **argv) {
  if (!start("ishmem-gpu-bench-sync")) return 0;
  const int ops = static_cast<int>(size_arg(argc, argv, "--ops", 4096));
  const int iters = static_cast<int>(size_arg(argc, argv, "--iters", 2000));
  const int cross_iters = static_cast<int>(size_arg(argc, argv, "--cross-iters", 50));
  const int me = ishmem_my_pe(), npes = ishmem_n_pes();
  open_output_or_exit(argc, argv, "gpu-sync");
  const std::size_t slot = std::size_t{1} << 20;
  auto *words = static_cast<unsigned long long *>(ishmem_calloc(8, sizeof(unsigned long long)));
  auto *sigs = static_cast<uint64_t *>(ishmem_calloc(2 * kSigStride, sizeof(uint64_t)));
  char *data = static_cast<char *>(ishmem_malloc(2 * slot));
  if (!words || !sigs || !data) die("ishmem_calloc", ishmemx_last_error(), __FILE__, __LINE__);
  char *src = nullptr;
  unsigned long long *sink = nullptr;
  int *status = nullptr;
  BENCH_GPU(gpuMalloc(&src, slot));
  BENCH_GPU(gpuMalloc(&sink, sizeof *sink));
  BENCH_GPU(gpuMalloc(&status, sizeof *status));
  BENCH_GPU(gpuMemset(status, 0, sizeof *status));
  fill_pattern(src, slot, me + 7);
  gpuStream_t s;
  BENCH_GPU(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  // Load every kernel now: loading one while another PE's kernel spins would wait for it.
  gpuFuncAttributes attr;
  BENCH_GPU(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&pingpong<kRaw>)));
  BENCH_GPU(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&pingpong<kSignal8>)));
  BENCH_GPU(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&pingpong<kSignal0>)));
  BENCH_GPU(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&pingpong<kRawData>)));
  BENCH_GPU(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&pingpong<kRawRelease>)));
  BENCH_GPU(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&pingpong<kRawAcquire>)));
  BENCH_GPU(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&pingpong<kRawLoaded>)));
  BENCH_GPU(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&pingpong<kRawTwin>)));
  BENCH_GPU(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&pingpong_block)));
  BENCH_GPU(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&device_barriers)));
  BENCH_ISHMEM(ishmem_barrier_all());

  if (me == 0) {
    // Atomics on PE 1's word.
    unsigned long long *raw = reinterpret_cast<unsigned long long *>(peer_address(words, 1)) + 4;
    std::vector<double> t = time_amos(words, raw, ops, 1, sink, s, 9);
    printf(
        "# ishmem-gpu-bench-sync: atomics, one thread of PE 0 on PE 1's heap (same GPU), "
        "%d dependent ops per kernel, median of 9 interleaved rounds\n",
        ops);
    printf("%-28s %12s\n", "what", "ns/op");
    for (int m = 0; m < kAmoModes; ++m) {
      printf("%-28s %12.1f\n", amo_name(m), 1000.0 * t[m]);
      const bool raw = !strncmp(amo_name(m), "raw ", 4);
      write_row(raw ? "raw_atomic" : "ishmem", amo_name(m) + (raw ? 4 : 0), 8, t[m]);
    }
    printf(
        "# summary atomics%s: fetch_add %.3f us, compare_swap %.3f us, swap %.3f us, fetch %.3f "
        "us, add (no fetch) %.3f us/op; raw atomicAdd_system %.3f us, atomicCAS_system %.3f us\n",
        kBuild, t[kFetchAdd], t[kCompareSwap], t[kSwap], t[kFetch], t[kAdd], t[kRawFetchAdd],
        t[kRawCas]);

    // Ping-pong between two blocks of one kernel, through this PE's heap.
    PingArgs a{sigs, data, src, slot, 8, 0, iters, me, true, status};
    std::vector<std::vector<double>> rt(kPingModes);
    for (int r = 0; r < 10; ++r) {
      double v[kPingModes] = {round_trip_us(pingpong<kRaw>, a, 2, 32, s),
                              round_trip_us(pingpong<kSignal0>, a, 2, 32, s),
                              round_trip_us(pingpong<kRawData>, a, 2, 32, s),
                              round_trip_us(pingpong<kSignal8>, a, 2, 32, s),
                              round_trip_us(pingpong<kRawRelease>, a, 2, 32, s),
                              round_trip_us(pingpong<kRawAcquire>, a, 2, 32, s),
                              round_trip_us(pingpong<kRawLoaded>, a, 2, 32, s),
                              round_trip_us(pingpong<kRawTwin>, a, 2, 32, s)};
      if (r > 0)
        for (int m = 0; m < kPingModes; ++m) rt[m].push_back(v[m]);
    }
    printf(
        "# ping-pong between two blocks of one kernel (PE 0, its own heap), %d round trips "
        "per launch, median of 9 interleaved launches\n",
        iters);
    printf("%-28s %14s %12s\n", "what", "round trip us", "vs raw");
    double raw_rt = median_of(rt[kRaw]), raw8_rt = median_of(rt[kRawData]);
    for (int m = 0; m < kPingModes; ++m)
      write_row(!strncmp(ping_name(m), "raw ", 4) ? "raw_store" : "ishmem", ping_name(m), 0,
                median_of(rt[m]));
    for (int m = 0; m < kPingModes; ++m)
      printf("%-28s %14.3f %12.3f\n", ping_name(m), median_of(rt[m]),
             median_of(rt[m]) / (m >= kRawData && m != kRawAcquire ? raw8_rt : raw_rt));
    double sig8_rt = median_of(rt[kSignal8]), sig0_rt = median_of(rt[kSignal0]);
    int st = 0;
    BENCH_GPU(gpuMemcpy(&st, status, sizeof st, gpuMemcpyDeviceToHost));
    printf(
        "# summary signal%s: ping-pong round trip, two blocks of one kernel: raw store+fence+spin "
        "%.3f us, putmem_signal 0 B %.3f us; raw 8 B+fence+flag %.3f us, putmem_signal 8 B "
        "%.3f us (ratio %.3f)%s\n",
        kBuild, raw_rt, sig0_rt, raw8_rt, sig8_rt, sig8_rt / raw8_rt,
        st ? " (SOME ROUNDS TIMED OUT)" : "");
    double ratio = sig0_rt / raw_rt;
    printf(
        "# target signal%s: signal ping-pong round trip %.3f us vs raw store+fence+spin %.3f us "
        "in the same run: ratio %.3f (target <= 1.2: %s)\n",
        kBuild, sig0_rt, raw_rt, ratio, ratio <= 1.2 && !st ? "met" : "NOT met");
    const double ratio8 = sig8_rt / raw8_rt, loaded_rt = median_of(rt[kRawLoaded]),
                 twin_rt = median_of(rt[kRawTwin]);
    printf(
        "# target signal 8 B%s: putmem_signal 8 B %.3f us vs raw 8 B store+fence+flag %.3f us: "
        "ratio %.3f (target <= 1.2: %s); vs the raw loop that loads its 8 B first (%.3f us): "
        "%.3f; vs that loop polled with acquire loads, the hand-written twin (%.3f us): %.3f\n",
        kBuild, sig8_rt, raw8_rt, ratio8, ratio8 <= 1.2 && !st ? "met" : "NOT met", loaded_rt,
        sig8_rt / loaded_rt, twin_rt, sig8_rt / twin_rt);

    // Put-with-signal by size, block scope (1024 threads per block).
    printf(
        "# putmem_signal_block ping-pong by size, two blocks of 1024 threads, one way = half "
        "a round trip\n");
    printf("%-28s %12s %14s %10s\n", "what", "bytes", "one way us", "GB/s");
    for (std::size_t bytes = 8; bytes <= slot; bytes *= 8) {
      PingArgs b = a;
      b.bytes = bytes;
      b.iters = bytes >= (std::size_t{1} << 18) ? 100 : 500;
      b.base = a.base;
      std::vector<double> v;
      for (int r = 0; r < 6; ++r) {
        double us = round_trip_us(pingpong_block, b, 2, 1024, s);
        if (r > 0) v.push_back(us);
      }
      a.base = b.base;
      double one_way = median_of(v) / 2;
      write_row("ishmem", "putmem_signal_block", bytes, one_way);
      printf("%-28s %12zu %14.3f %10.2f\n", "putmem_signal_block", bytes, one_way,
             gb_per_s(bytes, one_way));
    }
    fflush(stdout);
  }
  BENCH_ISHMEM(ishmem_barrier_all());

  // Ping-pong between PE 0's and PE 1's kernels (other PEs sit out), raw then signal.
  {
    gpuEvent_t e0, e1;
    BENCH_GPU(gpuEventCreate(&e0));
    BENCH_GPU(gpuEventCreate(&e1));
    // The self runs above moved PE 0's values on: both sides start above them.
    unsigned long long base = 1ull << 40;
    double cross[3] = {0, 0, 0};  // raw, putmem_signal 0 B, 8 B
    for (int m = 0; m < 3; ++m) {
      BENCH_ISHMEM(ishmem_barrier_all());
      if (me < 2) {
        PingArgs a{sigs, data, src, slot, 8, base, cross_iters, 1 - me, false, status};
        BENCH_GPU(gpuEventRecord(e0, s));
        if (m == 0)
          pingpong<kRaw><<<1, 32, 0, s>>>(a);
        else if (m == 1)
          pingpong<kSignal0><<<1, 32, 0, s>>>(a);
        else
          pingpong<kSignal8><<<1, 32, 0, s>>>(a);
        BENCH_LAUNCHED();
        BENCH_GPU(gpuEventRecord(e1, s));
        BENCH_GPU(gpuEventSynchronize(e1));
        float ms = 0;
        BENCH_GPU(gpuEventElapsedTime(&ms, e0, e1));
        cross[m] = 1000.0 * ms / cross_iters;
      }
      base += cross_iters;
    }
    int st = 0;
    BENCH_GPU(gpuMemcpy(&st, status, sizeof st, gpuMemcpyDeviceToHost));
    if (me == 0)
      printf(
          "# summary signal across PEs%s: ping-pong round trip between PE 0's and PE 1's kernels "
          "(two processes time-slicing one GPU): raw %.1f us, putmem_signal 0 B %.1f us, 8 B "
          "%.1f us, ratio %.3f (%d round trips each)%s\n",
          kBuild, cross[0], cross[1], cross[2], cross[1] / cross[0], cross_iters,
          st ? " (SOME ROUNDS TIMED OUT)" : "");
    BENCH_GPU(gpuEventDestroy(e0));
    BENCH_GPU(gpuEventDestroy(e1));
  }
  BENCH_ISHMEM(ishmem_barrier_all());

  // Barriers.
  const int n_mixed = 200, n_device = 20, n_stream = 200;
  double mixed_us[2] = {0, 0};
  for (int form = 0; form < 2; ++form) {
    BENCH_ISHMEM(ishmem_barrier_all());
    auto t0 = std::chrono::steady_clock::now();
    if (me == 0) {
      device_barriers<<<1, form ? 256 : 32, 0, s>>>(n_mixed, form == 1, status);
      BENCH_LAUNCHED();
    } else {
      for (int i = 0; i < n_mixed; ++i) BENCH_ISHMEM(ishmemx_barrier_all_on_stream(s));
    }
    BENCH_GPU(gpuStreamSynchronize(s));
    mixed_us[form] = wall_us(t0, n_mixed);
  }
  BENCH_ISHMEM(ishmem_barrier_all());
  auto t0 = std::chrono::steady_clock::now();
  device_barriers<<<1, 32, 0, s>>>(n_device, false, status);
  BENCH_LAUNCHED();
  BENCH_GPU(gpuStreamSynchronize(s));
  double device_us = wall_us(t0, n_device);
  BENCH_ISHMEM(ishmem_barrier_all());
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n_stream; ++i) BENCH_ISHMEM(ishmemx_barrier_all_on_stream(s));
  BENCH_GPU(gpuStreamSynchronize(s));
  double stream_us = wall_us(t0, n_stream);
  BENCH_ISHMEM(ishmem_barrier_all());
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n_stream; ++i) BENCH_ISHMEM(ishmem_barrier_all());
  double host_us = wall_us(t0, n_stream);
  int st = 0;
  BENCH_GPU(gpuMemcpy(&st, status, sizeof st, gpuMemcpyDeviceToHost));
  if (me == 0)
    printf(
        "# summary barrier device%s: PE 0's kernel in ishmem_barrier_all %.2f us "
        "(ishmemx_barrier_all_block %.2f us) while the other PEs use barrier_all_on_stream; "
        "every PE in a kernel %.1f us (time-sliced); every PE on a stream %.2f us; host "
        "ishmem_barrier_all %.2f us (%d PEs)%s\n",
        kBuild, mixed_us[0], mixed_us[1], device_us, stream_us, host_us, npes,
        st ? " (SOME BARRIERS TIMED OUT)" : "");

  BENCH_ISHMEM(ishmem_barrier_all());
  BENCH_GPU(gpuStreamDestroy(s));
  BENCH_GPU(gpuFree(status));
  BENCH_GPU(gpuFree(sink));
  BENCH_GPU(gpuFree(src));
  ishmem_free(data);
  ishmem_free(sigs);
  ishmem_free(words);
  BENCH_ISHMEM(ishmem_finalize());
  return 0;
}
