// The GPU collective benchmarks, written once for ishmem-gpu-bench-coll (gpu_collectives.cu)
// and its NVSHMEM peer (benchmarks/nvshmem/peer_collectives.cu), so that both libraries run
// the same loops on the same sizes: float sum-reduce on a stream; sum-reduce inside one
// running kernel, by a block (K calls in a loop, time / K: no launch in the figure) and by a
// grid of 8 or 16 blocks, beside a kernel that reads the peer's buffer once in the same
// way; alltoall, broadcast and fcollect on a stream. Every PE runs every loop (they are
// collectives) and checks its results; PE 0 reports. Medians of event-timed batches
// (gpu_harness.h). The kernels and the checks of results: gpu_coll_kernels.h.
//
// The library is the template parameter `Lib`, a type with
//   kImpl (its name in the rows), kGrid (true: it has a grid-wide reduce);
//   host:   my_pe(), n_pes(), malloc_sym(bytes), free_sym(p), barrier_all(),
//           reduce_on_stream(float *d, const float *s, size_t n, gpuStream_t),
//           alltoall_on_stream(void *d, const void *s, size_t bytes, gpuStream_t),
//           broadcast_on_stream(void *d, const void *s, size_t bytes, int root, gpuStream_t),
//           fcollect_on_stream(void *d, const void *s, size_t bytes, gpuStream_t);
//   device: int reduce_block(float *d, const float *s, size_t n), int reduce_grid(...) where
//           kGrid, void *ptr(const void *sym, int pe): one library call each, on the world team.
//
// Rows (CSV and stdout), as peer_bench.cu's: impl,bench,op,what,blocks,threads,bytes,usec,gbps
//   reduce    stream  <call>          float sum-reduce on a stream; bytes = the array
//   reduce    block   block/T         in one kernel, one block of T threads, per call
//   reduce    grid    grid/BxT        in one kernel, B blocks of T threads, per call
//   peer-read kernel  read/BxT        dest = ours + the peer's (read through ptr), per pass
//   alltoall  stream  <call>          bytes = the block each PE sends to each PE
//   broadcast stream  <call>          from PE 0; bytes = the array
//   fcollect  stream  <call>          bytes = each PE's contribution
// usec -1: the kernel did not launch at that block size (the row says so, nothing is timed).
// GB/s is bytes / time (the comparison derives bus bandwidths).
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "gpu_coll_kernels.h"
#include "gpu_harness.h"

namespace gpu_coll {
using namespace gpu_bench;

constexpr std::size_t kKiB = 1024, kMiB = kKiB * kKiB;
constexpr unsigned kBlockThreads = 1024;

// 8 B, 64 B, then every power of 4 from 1 KiB: the sizes of the figures (64 KiB,
// 1 MiB, 16 MiB, 256 MiB) among them.
inline std::vector<std::size_t> coll_sizes(std::size_t lo, std::size_t hi) {
  std::vector<std::size_t> sizes;
  for (std::size_t b : {std::size_t{8}, std::size_t{64}})
    if (b >= lo && b <= hi) sizes.push_back(b);
  for (std::size_t b = kKiB; b <= hi; b *= 4)
    if (b >= lo) sizes.push_back(b);
  return sizes;
}

// What the run covers: the caps on sizes and how long each measurement takes. --quick (one
// GPU shared by the PEs: every collective waits for a time slice) keeps it short.
struct Plan {
  std::size_t reduce_max = 256 * kMiB, alltoall_max = 64 * kMiB, broadcast_max = 64 * kMiB,
              fcollect_max = 16 * kMiB, block_max = kMiB, grid_max = 16 * kMiB;
  int warmup = 2, runs = 7, batch_cap = 50, iters_div = 1;
  std::string only;
  bool wanted(const char *name) const {
    return only.empty() ||
           ("," + only + ",").find(std::string(",") + name + ",") != std::string::npos;
  }
  void cap(std::size_t max) {
    for (std::size_t *m :
         {&reduce_max, &alltoall_max, &broadcast_max, &fcollect_max, &block_max, &grid_max})
      *m = std::min(*m, max);
  }
  void make_quick() {
    cap(4 * kMiB);
    block_max = 64 * kKiB;
    grid_max = kMiB;
    fcollect_max = alltoall_max = kMiB;
    runs = 3;
    batch_cap = 10;
    iters_div = 10;
  }
  int batch(std::size_t bytes) const { return std::min(batch_for(bytes), batch_cap); }
  // Calls of a collective inside one timed kernel: enough that the launch and the PEs' skew
  // vanish from the per-call figure.
  int iters(std::size_t bytes, std::size_t budget, int lo, int hi) const {
    std::size_t k = budget / std::max<std::size_t>(bytes, 1);
    return std::max(2, static_cast<int>(std::clamp<std::size_t>(k, lo, hi)) / iters_div);
  }
};

// The rows, printed by PE 0 and kept for its summary lines.
struct Row {
  std::string bench, op, what;
  std::size_t bytes;
  double us;
};
struct Report {
  const char *impl = "";
  bool print = false;
  FILE *csv = nullptr;
  std::string note;  // ends every summary line
  std::vector<Row> rows;
  void row(const char *bench, const char *op, const std::string &what, unsigned blocks,
           unsigned threads, std::size_t bytes, double us) {
    if (!print) return;
    const double gbps = us > 0 ? gb_per_s(bytes, us) : 0;
    if (csv) {
      fprintf(csv, "%s,%s,%s,%s,%u,%u,%zu,%.4f,%.3f\n", impl, bench, op, what.c_str(), blocks,
              threads, bytes, us, gbps);
      fflush(csv);
    }
    printf("%-8s %-9s %-6s %-28s %6u %6u %11zu %11.3f %9.2f\n", impl, bench, op, what.c_str(),
           blocks, threads, bytes, us, gbps);
    // --csv / --json: the rows of every benchmark (bench_out.h), the grid as the detail.
    char detail[96];
    snprintf(detail, sizeof detail, "%s %ux%u", what.c_str(), blocks, threads);
    write_row(impl, (std::string(bench) + "_" + op).c_str(), bytes, us, detail);
    fflush(stdout);
    rows.push_back({bench, op, what, bytes, us});
  }
  // The time of one row, or -1.
  double us(const char *bench, const char *op, const std::string &what, std::size_t bytes) const {
    for (const Row &r : rows)
      if (r.bench == bench && r.op == op && r.what == what && r.bytes == bytes) return r.us;
    return -1;
  }
};

// ---- The run ----------------------------------------------------------------------------------
template <class Lib>
class Run {
 public:
  // `gpu`: this PE's GPU, as a number that no other GPU of the node has.
  Run(const Plan &plan, Report &report, int gpu) : plan_(plan), report_(report) {
    me_ = Lib::my_pe();
    npes_ = Lib::n_pes();
    bytes_ = std::max({plan.reduce_max, plan.broadcast_max, plan.alltoall_max * npes_,
                       plan.fcollect_max * npes_, std::size_t{kKiB}});
    src_ = static_cast<float *>(Lib::malloc_sym(bytes_));
    dst_ = static_cast<float *>(Lib::malloc_sym(bytes_));
    if (!src_ || !dst_) die("symmetric malloc", "no room for the buffers", __FILE__, __LINE__);
    BENCH_GPU(gpuMalloc(&status_, sizeof(int)));
    BENCH_GPU(gpuMemset(status_, 0, sizeof(int)));
    BENCH_GPU(gpuStreamCreateWithFlags(&stream_, gpuStreamNonBlocking));
    // The sources never change: every result below is checked against value_of.
    fill_values<<<256, 256, 0, stream_>>>(src_, bytes_ / sizeof(float), me_);
    BENCH_LAUNCHED();
    BENCH_GPU(gpuStreamSynchronize(stream_));
    Lib::barrier_all();
    // Does the next PE share this GPU (scripts/gpu-test: 2 PEs on one)? Every collective then
    // waits for the other PE's time slice, and the figures say so.
    BENCH_GPU(gpuMemcpy(dst_, &gpu, sizeof gpu, gpuMemcpyHostToDevice));
    Lib::barrier_all();
    read_peer_int<Lib>
        <<<1, 1, 0, stream_>>>(reinterpret_cast<const int *>(dst_), (me_ + 1) % npes_, status_);
    BENCH_LAUNCHED();
    BENCH_GPU(gpuStreamSynchronize(stream_));
    int next = 0;
    BENCH_GPU(gpuMemcpy(&next, status_, sizeof next, gpuMemcpyDeviceToHost));
    BENCH_GPU(gpuMemset(status_, 0, sizeof(int)));
    shared_gpu_ = next == gpu;
    Lib::barrier_all();
  }
  bool shared_gpu() const { return shared_gpu_; }
  ~Run() {
    Lib::barrier_all();
    BENCH_GPU(gpuStreamDestroy(stream_));
    BENCH_GPU(gpuFree(status_));
    Lib::free_sym(dst_);
    Lib::free_sym(src_);
  }

  void reduce_on_stream() {
    for (std::size_t bytes : coll_sizes(8, plan_.reduce_max)) {
      const std::size_t n = bytes / sizeof(float);
      double us = on_stream(bytes, [&](gpuStream_t s) { Lib::reduce_on_stream(dst_, src_, n, s); });
      expect_sum(n, "sum-reduce on a stream");
      report_.row("reduce", "stream", "float_sum_reduce_on_stream", 0, 0, bytes, us);
    }
  }

  // One block of `threads`, then the grid forms beside the peer-read floor.
  void reduce_block(unsigned threads) {
    for (std::size_t bytes : coll_sizes(8, plan_.block_max)) {
      const std::size_t n = bytes / sizeof(float);
      const std::string what = "block/" + std::to_string(threads);
      if (!in_kernel<false>(1, threads, n, plan_.iters(bytes, 16 * kMiB, 10, 200), what)) return;
    }
  }
  void reduce_grid(const std::vector<unsigned> &grids, const std::vector<unsigned> &read_grids) {
    for (std::size_t bytes : coll_sizes(64 * kKiB, plan_.grid_max)) {
      const std::size_t n = bytes / sizeof(float);
      const int iters = plan_.iters(bytes, 64 * kMiB, 4, 100);
      if constexpr (Lib::kGrid)
        for (unsigned blocks : grids) {
          const std::string what = "grid/" + std::to_string(blocks) + "x1024";
          in_kernel<true>(blocks, kBlockThreads, n, iters, what);
        }
      for (unsigned blocks : read_grids) peer_read(blocks, n, iters);
    }
  }

  void alltoall() {
    for (std::size_t bytes : coll_sizes(kKiB, plan_.alltoall_max)) {
      double us =
          on_stream(bytes, [&](gpuStream_t s) { Lib::alltoall_on_stream(dst_, src_, bytes, s); });
      const std::size_t m = bytes / sizeof(float);
      for (int j = 0; j < npes_; ++j)  // block j comes from PE j's block me
        expect_ends(
            dst_, j * m, m, [&](std::size_t k) { return value_of(j, me_ * m + k - j * m); },
            "alltoall on a stream");
      report_.row("alltoall", "stream", "alltoallmem_on_stream", 0, 0, bytes, us);
    }
  }

  void broadcast() {
    for (std::size_t bytes : coll_sizes(8, plan_.broadcast_max)) {
      double us = on_stream(
          bytes, [&](gpuStream_t s) { Lib::broadcast_on_stream(dst_, src_, bytes, 0, s); });
      if (me_ != 0)  // what the root's own dest holds is not compared between libraries
        expect_ends(
            dst_, 0, bytes / sizeof(float), [](std::size_t k) { return value_of(0, k); },
            "broadcast on a stream");
      report_.row("broadcast", "stream", "broadcastmem_on_stream", 0, 0, bytes, us);
    }
  }

  void fcollect() {
    for (std::size_t bytes : coll_sizes(8, plan_.fcollect_max)) {
      double us =
          on_stream(bytes, [&](gpuStream_t s) { Lib::fcollect_on_stream(dst_, src_, bytes, s); });
      const std::size_t m = bytes / sizeof(float);
      for (int j = 0; j < npes_; ++j)  // block j is PE j's source
        expect_ends(
            dst_, j * m, m, [&](std::size_t k) { return value_of(j, k - j * m); },
            "fcollect on a stream");
      report_.row("fcollect", "stream", "fcollectmem_on_stream", 0, 0, bytes, us);
    }
  }

 private:
  // Every PE's previous collective done, then dest cleared on every PE, so that a result
  // checked is this size's.
  void clear_dest() {
    BENCH_GPU(gpuStreamSynchronize(stream_));
    Lib::barrier_all();
    BENCH_GPU(gpuMemset(dst_, 0, bytes_));
    BENCH_GPU(gpuDeviceSynchronize());
    Lib::barrier_all();
  }
  template <class Call>
  double on_stream(std::size_t bytes, Call &&call) {
    clear_dest();
    double us = time_us(stream_, plan_.warmup, plan_.runs, plan_.batch(bytes), call);
    BENCH_GPU(gpuStreamSynchronize(stream_));
    return us;
  }
  void expect_sum(std::size_t n, const char *what) {
    const int np = npes_;
    expect_ends(
        dst_, 0, n,
        [np](std::size_t k) {
          float sum = 0;
          for (int p = 0; p < np; ++p) sum += value_of(p, k);
          return sum;
        },
        what);
  }
  void expect_status(const char *what) {
    int status = 0;
    BENCH_GPU(gpuMemcpy(&status, status_, sizeof status, gpuMemcpyDeviceToHost));
    if (status != 0) die(what, ("status " + std::to_string(status)).c_str(), __FILE__, __LINE__);
  }

  // `iters` reductions in one kernel of blocks x threads, timed per call. Returns false when
  // the kernel does not launch at that size (the same on every PE: the same binary and
  // GPUs), which is reported as a row of -1.
  template <bool GRID>
  bool in_kernel(unsigned blocks, unsigned threads, std::size_t n, int iters,
                 const std::string &what) {
    clear_dest();
    const std::size_t bytes = n * sizeof(float);
    reduce_loop<Lib, GRID><<<blocks, threads, 0, stream_>>>(dst_, src_, n, 1, status_);
    gpuError_t launched = gpuGetLastError();
    if (launched != gpuSuccess) {
      if (report_.print)
        printf("# %s reduce %s: the kernel does not launch (%s)\n", report_.impl, what.c_str(),
               gpuGetErrorString(launched));
      report_.row("reduce", GRID ? "grid" : "block", what + "/no-launch", blocks, threads, bytes,
                  -1);
      return false;
    }
    double us = time_us(stream_, plan_.warmup - 1, plan_.runs, 1, [&](gpuStream_t s) {
      reduce_loop<Lib, GRID><<<blocks, threads, 0, s>>>(dst_, src_, n, iters, status_);
      BENCH_LAUNCHED();
    });
    BENCH_GPU(gpuStreamSynchronize(stream_));
    expect_status("reduce in a kernel");
    expect_sum(n, GRID ? "sum-reduce by a grid" : "sum-reduce by a block");
    report_.row("reduce", GRID ? "grid" : "block", what, blocks, threads, bytes, us / iters);
    return true;
  }

  void peer_read(unsigned blocks, std::size_t n, int iters) {
    const int peer = (me_ + 1) % npes_;
    clear_dest();
    double us = time_us(stream_, plan_.warmup - 1, plan_.runs, 1, [&](gpuStream_t s) {
      peer_read_loop<Lib><<<blocks, kBlockThreads, 0, s>>>(dst_, src_, n, iters, peer, status_);
      BENCH_LAUNCHED();
    });
    BENCH_GPU(gpuStreamSynchronize(stream_));
    expect_status("peer read (no mapping of the peer's heap)");
    const int me = me_;
    expect_ends(
        dst_, 0, n, [me, peer](std::size_t k) { return value_of(me, k) + value_of(peer, k); },
        "peer read");
    report_.row("peer-read", "kernel", "read/" + std::to_string(blocks) + "x1024", blocks,
                kBlockThreads, n * sizeof(float), us / iters);
  }

  const Plan &plan_;
  Report &report_;
  int me_ = 0, npes_ = 1;
  std::size_t bytes_ = 0;
  float *src_ = nullptr, *dst_ = nullptr;
  int *status_ = nullptr;
  gpuStream_t stream_{};
  bool shared_gpu_ = false;
};

// The headline figures, as "# summary" lines, and "# target" lines against the targets
// where `targets` (the scripts collect both).
inline std::string us_text(double us) {
  if (us < 0) return "n/a";
  char text[32];
  snprintf(text, sizeof text, "%.2f", us);
  return text;
}
inline std::string size_text(std::size_t b) {
  return b >= kMiB   ? std::to_string(b / kMiB) + " MiB"
         : b >= kKiB ? std::to_string(b / kKiB) + " KiB"
                     : std::to_string(b) + " B";
}
inline void summarize(const Report &r, const std::vector<unsigned> &block_threads, bool targets) {
  const char *impl = r.impl;
  std::string line;
  for (std::size_t b : {std::size_t{8}, kMiB, 16 * kMiB, 256 * kMiB})
    line += " " + size_text(b) + " " +
            us_text(r.us("reduce", "stream", "float_sum_reduce_on_stream", b)) + ";";
  const char *note = r.note.c_str();
  printf("# summary %s sum-reduce on a stream, usec:%s%s\n", impl, line.c_str(), note);
  for (unsigned threads : block_threads) {
    double worst = -1;
    bool all = true;
    for (std::size_t b : coll_sizes(8, 64 * kKiB)) {
      double us = r.us("reduce", "block", "block/" + std::to_string(threads), b);
      all = all && us > 0;
      worst = std::max(worst, us);
    }
    printf(
        "# %s %s block sum-reduce in a kernel, %u threads, 8 B..64 KiB: at most %s us per "
        "call%s%s%s\n",
        targets ? "target" : "summary", impl, threads, us_text(worst).c_str(),
        targets ? " (target <= 10 us): " : "",
        !targets      ? ""
        : !all        ? "NOT met (not every size ran)"
        : worst <= 10 ? "met"
                      : "NOT met",
        note);
  }
  const double read = r.us("peer-read", "kernel", "read/16x1024", kMiB);
  for (unsigned blocks : {8u, 16u}) {
    double us = r.us("reduce", "grid", "grid/" + std::to_string(blocks) + "x1024", kMiB);
    if (us > 0 && read > 0 && targets)
      printf(
          "# target %s grid sum-reduce of 1 MiB, %u blocks: %s us, %.2fx the 16-block read of "
          "the peer's 1 MiB (%s us; target <= ~2x): %s%s\n",
          impl, blocks, us_text(us).c_str(), us / read, us_text(read).c_str(),
          us <= 2 * read ? "met" : "NOT met", note);
  }
  printf("# summary %s alltoall on a stream, usec: 1 KiB %s; 1 MiB %s; 64 MiB %s%s\n", impl,
         us_text(r.us("alltoall", "stream", "alltoallmem_on_stream", kKiB)).c_str(),
         us_text(r.us("alltoall", "stream", "alltoallmem_on_stream", kMiB)).c_str(),
         us_text(r.us("alltoall", "stream", "alltoallmem_on_stream", 64 * kMiB)).c_str(), note);
}

// The whole run for `Lib`, started; the command line: [--csv FILE] [--max BYTES] [--quick]
// [--only reduce,block,grid,alltoall,broadcast,fcollect].
// `block_threads`: the block sizes of the in-kernel block reduce; `targets`: print the issue's
// targets (ishmem's run).
template <class Lib>
void run_all(int argc, char **argv, const std::vector<unsigned> &block_threads, bool targets) {
  Plan plan;
  if (has_flag(argc, argv, "--quick")) plan.make_quick();
  plan.cap(size_arg(argc, argv, "--max", std::size_t{1} << 30));
  for (int i = 1; i + 1 < argc; ++i)
    if (!strcmp(argv[i], "--only")) plan.only = argv[i + 1];
  Report report;
  report.impl = Lib::kImpl;
  report.print = Lib::my_pe() == 0;
  if (!open_output(argc, argv, "gpu-coll", "", Lib::n_pes(), report.print))
    die("--csv/--json", "the output file cannot be written", __FILE__, __LINE__);
  for (int i = 1; i + 1 < argc; ++i)
    if (report.print && !strcmp(argv[i], "--compare-csv")) {
      report.csv = fopen(argv[i + 1], "w");
      if (!report.csv) die("fopen", argv[i + 1], __FILE__, __LINE__);
      fprintf(report.csv, "impl,bench,op,what,blocks,threads,bytes,usec,gbps\n");
    }
  int device = 0, sms = 0;
  gpuDeviceProp prop{};
  BENCH_GPU(gpuGetDevice(&device));
  BENCH_GPU(gpuGetDeviceProperties(&prop, device));
  sms = prop.multiProcessorCount;
  {
    Run<Lib> run(plan, report, (prop.pciDomainID << 16) | (prop.pciBusID << 8) | prop.pciDeviceID);
    if (run.shared_gpu()) report.note = " [PEs 0 and 1 share one GPU]";
    if (report.print)
      printf(
          "# %s collectives, %d PEs, team world (%s, %d SMs, GPU %d)%s%s; columns: impl bench op "
          "what blocks threads bytes usec GB/s\n",
          Lib::kImpl, Lib::n_pes(), prop.name, sms, device,
          has_flag(argc, argv, "--quick") ? ", quick" : "", report.note.c_str());
    if (plan.wanted("reduce")) run.reduce_on_stream();
    if (plan.wanted("block"))
      for (unsigned t : block_threads) run.reduce_block(t);
    if (plan.wanted("grid")) run.reduce_grid({8, 16}, {8, 16, static_cast<unsigned>(sms)});
    if (plan.wanted("alltoall")) run.alltoall();
    if (plan.wanted("broadcast")) run.broadcast();
    if (plan.wanted("fcollect")) run.fcollect();
  }
  if (report.print) summarize(report, block_threads, targets);
  if (report.csv) fclose(report.csv);
}

}  // namespace gpu_coll
