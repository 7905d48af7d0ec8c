// Device ishmem_p from one thread, PE 0 to PE 1, against a raw store to the same mapped
// address: a run of stores (issue cost per op) and store + quiet per op (completion cost),
// each in the no-argument form and the handle form. Then a p ping-pong between two PEs'
// kernels (on one GPU the two processes' kernels take turns, so this measures the GPU's
// time slicing as much as the path; the figure is printed for what it is).
// ishmem-gpu-bench-p-node-local is the same program with its kernels built with
// ISHMEMX_DEVICE_NODE_LOCAL (no request code for the host proxy beside the stores).
//   usage: mpirun -np 2 ishmem-gpu-bench-p[-node-local] [--ops N] [--pingpong-iters N]
#include "gpu_bench.h"

using namespace gpu_bench;

namespace {

#ifdef ISHMEMX_DEVICE_NODE_LOCAL
const char *const kBuild = " (node-local build)";
#else
const char *const kBuild = "";
#endif

enum Mode { kRawStore, kP, kPHandle, kPtrStore, kRawStoreFence, kPQuiet, kPHandleQuiet };
const char *mode_name(Mode m) {
  switch (m) {
    case kRawStore:
      return "raw-store";
    case kP:
      return "ishmem_p";
    case kPHandle:
      return "ishmem_p(handle)";
    case kPtrStore:
      return "ishmem_ptr once+store";
    case kRawStoreFence:
      return "raw-store+fence_system";
    case kPQuiet:
      return "ishmem_p+quiet";
    default:
      return "ishmem_p+quiet(handle)";
  }
}

// One thread: `ops` stores of int i to element i % 1024 of the peer's array. kPtrStore
// translates the array's address once (ishmem_ptr) and stores through it, as a hot loop may.
template <Mode M>
__global__ void p_loop(ishmemx_device_handle_t h, int *sym, int *raw, int ops, int peer) {
  int *peer_array = M == kPtrStore ? static_cast<int *>(ishmem_ptr(h, sym, peer)) : nullptr;
  for (int i = 0; i < ops; ++i) {
    int at = i & 1023;
    if (M == kRawStore || M == kRawStoreFence) ((volatile int *)raw)[at] = i;
    if (M == kP || M == kPQuiet) ishmem_int_p(sym + at, i, peer);
    if (M == kPHandle || M == kPHandleQuiet) ishmem_int_p(h, sym + at, i, peer);
    if (M == kPtrStore) ((volatile int *)peer_array)[at] = i;
    if (M == kRawStoreFence) __threadfence_system();
    if (M == kPQuiet) ishmem_quiet();
    if (M == kPHandleQuiet) ishmem_quiet(h);
  }
}

template <Mode M>
double time_once(ishmemx_device_handle_t h, int *sym, int *raw, int ops, int peer, gpuStream_t s) {
  return time_us(s, 0, 1, 1, [&](gpuStream_t st) {
    p_loop<M><<<1, 1, 0, st>>>(h, sym, raw, ops, peer);
    BENCH_LAUNCHED();
  });
}

// The modes take turns, round after round, and each keeps the median of its rounds: a
// drift of clocks or of the memory system over the run falls on all of them alike.
std::vector<double> time_modes(ishmemx_device_handle_t h, int *sym, int *raw, int ops, int peer,
                               gpuStream_t s, int rounds) {
  double (*const modes[])(ishmemx_device_handle_t, int *, int *, int, int, gpuStream_t) = {
      time_once<kRawStore>,      time_once<kP>,      time_once<kPHandle>,     time_once<kPtrStore>,
      time_once<kRawStoreFence>, time_once<kPQuiet>, time_once<kPHandleQuiet>};
  const int n = sizeof modes / sizeof modes[0];
  std::vector<std::vector<double>> t(n);
  for (int r = 0; r < rounds + 2; ++r)
    for (int m = 0; m < n; ++m) {
      // Fenced modes cost ~70x more per op: fewer ops keep the rounds short.
      int mode_ops = m >= kRawStoreFence ? ops / 64 : ops;
      double us = modes[m](h, sym, raw, mode_ops, peer, s) * ops / mode_ops;
      if (r >= 2) t[m].push_back(us);  // two warm-up rounds
    }
  std::vector<double> median(n);
  for (int m = 0; m < n; ++m) {
    std::sort(t[m].begin(), t[m].end());
    median[m] = t[m][t[m].size() / 2];
  }
  return median;
}

// Ping-pong on flag[0]: the starter sends i and waits for i back; the other waits and
// answers. Gives up after `timeout` clocks per wait and counts that in *status.
__global__ void pingpong(int *flag, int iters, int peer, bool starter, long long timeout,
                         int *status) {
  volatile int *mine = flag;
  for (int i = 1; i <= iters; ++i) {
    if (starter) ishmem_int_p(flag, i, peer);
    long long t0 = clock64();
    while (*mine < i)
      if (clock64() - t0 > timeout) {
        *status = i;
        return;
      }
    if (!starter) ishmem_int_p(flag, i, peer);
  }
}

}  // namespace

int main(int argc, char **argv) {
  if (!start("ishmem-gpu-bench-p")) return 0;
  const int ops = static_cast<int>(size_arg(argc, argv, "--ops", 1 << 16));
  const int iters = static_cast<int>(size_arg(argc, argv, "--pingpong-iters", 200));
  const int me = ishmem_my_pe();
  open_output_or_exit(argc, argv, "gpu-p");
  int *sym = static_cast<int *>(ishmem_calloc(1024, sizeof(int)));
  int *flag = static_cast<int *>(ishmem_calloc(1, sizeof(int)));
  if (!sym || !flag) die("ishmem_calloc", ishmemx_last_error(), __FILE__, __LINE__);
  ishmemx_device_handle_t h{};
  BENCH_ISHMEM(ishmemx_get_device_handle(&h));
  gpuStream_t s;
  BENCH_GPU(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  BENCH_ISHMEM(ishmem_barrier_all());

  if (me == 0) {
    int *raw = reinterpret_cast<int *>(peer_address(sym, 1));
    printf(
        "# ishmem-gpu-bench-p%s: one thread, %d ops per kernel (%d with a fence per op), PE 0 "
        "-> PE 1, median of 15 interleaved rounds\n",
        kBuild, ops, ops / 64);
    printf("%-26s %12s %10s\n", "what", "ns/op", "vs raw");
    std::vector<double> t = time_modes(h, sym, raw, ops, 1, s, 15);
    double raw_store = t[kRawStore], p = t[kP], ph = t[kPHandle], ptr = t[kPtrStore],
           raw_fence = t[kRawStoreFence], pq = t[kPQuiet], phq = t[kPHandleQuiet];
    auto row = [&](Mode m, double us, double base) {
      printf("%-26s %12.2f %10.3f\n", mode_name(m), 1000.0 * us / ops, us / base);
      // One row per mode: the raw modes are the baselines, the others ishmem's.
      const bool raw = m == kRawStore || m == kRawStoreFence;
      write_row(raw ? "raw_store" : "ishmem", mode_name(m), sizeof(int), us / ops);
    };
    row(kRawStore, raw_store, raw_store);
    row(kP, p, raw_store);
    row(kPHandle, ph, raw_store);
    row(kPtrStore, ptr, raw_store);
    row(kRawStoreFence, raw_fence, raw_fence);
    row(kPQuiet, pq, raw_fence);
    row(kPHandleQuiet, phq, raw_fence);
    // The stores landed: the peer's array ends with the last values written.
    std::vector<int> got(1024);
    BENCH_GPU(gpuMemcpy(got.data(), raw, sizeof(int) * 1024, gpuMemcpyDeviceToHost));
    int last = ops / 64 - 1;  // the last kernel run: a fenced mode
    if (got[last & 1023] != last)
      die("check", "the peer does not hold the last value", __FILE__, __LINE__);
    double worst = std::max(p, ph) / raw_store;
    printf(
        "# summary p%s: raw store %.2f ns/op; ishmem_p %.2f ns/op (+%.1f%%), handle form "
        "%.2f ns/op (+%.1f%%), ishmem_ptr once + store %.2f ns/op (+%.1f%%); target <= 10%% in "
        "both forms: %s; p+quiet %.1f ns/op, store+fence %.1f ns/op\n",
        kBuild, 1000.0 * raw_store / ops, 1000.0 * p / ops, 100.0 * (p / raw_store - 1),
        1000.0 * ph / ops, 100.0 * (ph / raw_store - 1), 1000.0 * ptr / ops,
        100.0 * (ptr / raw_store - 1), worst <= 1.10 ? "met" : "NOT met", 1000.0 * pq / ops,
        1000.0 * raw_fence / ops);
  }
  BENCH_ISHMEM(ishmem_barrier_all());

  // Ping-pong between PE 0 and PE 1; other PEs sit it out.
  int *status = nullptr;
  BENCH_GPU(gpuMalloc(&status, sizeof(int)));
  BENCH_GPU(gpuMemset(status, 0, sizeof(int)));
  BENCH_ISHMEM(ishmem_barrier_all());
  if (me < 2) {
    gpuEvent_t a, b;
    BENCH_GPU(gpuEventCreate(&a));
    BENCH_GPU(gpuEventCreate(&b));
    BENCH_GPU(gpuEventRecord(a, s));
    pingpong<<<1, 1, 0, s>>>(flag, iters, 1 - me, me == 0, 4000000000ll, status);
    BENCH_LAUNCHED();
    BENCH_GPU(gpuEventRecord(b, s));
    BENCH_GPU(gpuEventSynchronize(b));
    float ms = 0;
    BENCH_GPU(gpuEventElapsedTime(&ms, a, b));
    int st = 0;
    BENCH_GPU(gpuMemcpy(&st, status, sizeof st, gpuMemcpyDeviceToHost));
    if (me == 0) {
      if (st)
        printf("# summary pingpong: timed out at round %d of %d\n", st, iters);
      else
        write_row("ishmem", "int_p_pingpong", sizeof(int), 1000.0 * ms / (2.0 * iters));
      if (!st)
        printf(
            "# summary pingpong: ishmem_int_p one way %.2f us (%d round trips, kernels of two "
            "processes sharing one GPU)\n",
            1000.0 * ms / (2.0 * iters), iters);
    }
    BENCH_GPU(gpuEventDestroy(a));
    BENCH_GPU(gpuEventDestroy(b));
  }
  BENCH_ISHMEM(ishmem_barrier_all());
  BENCH_GPU(gpuFree(status));
  BENCH_GPU(gpuStreamDestroy(s));
  ishmem_free(flag);
  ishmem_free(sym);
  BENCH_ISHMEM(ishmem_finalize());
  return 0;
}
