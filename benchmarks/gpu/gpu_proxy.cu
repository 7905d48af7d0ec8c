// Device calls to off-node PEs through the host proxy, beside host calls of the same run (run
// in split mode: ISHMEM_MAX_LOCAL_PES=1, or ISHMEM_NODE_LOCAL=self, OMPI_MCA_osc=^ucx).
// PE 0 puts to the first PE of the next node, from device memory:
//  - latency: 8-byte ishmem_putmem + ishmem_quiet, in a kernel's one thread and from the host;
//  - bandwidth by size: a run of ishmem_putmem_nbi then one quiet, device and host.
// The other PEs wait in a barrier. Every run's data is checked at the target. Then every PE:
//  - a collective on a team that spans nodes (the world team here), which the device posts to
//    the proxy: an int sum-reduce by one block in a kernel, beside the host call and
//    MPI_Allreduce of host memory, 8 B to 1 MiB, each result checked.
//   usage: mpirun -np 2 ishmem-gpu-bench-proxy [--iters N] [--max-bytes B] [--csv FILE]
//          [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../../lib/backend/gpu/gpu_platform.h"
#include "ishmem.h"
#include "gpu_harness.h"  // the --csv / --json rows
#include "ishmem/device.h"

namespace {

#define CHECK_GPU(call)                                                                      \
  do {                                                                                       \
    gpuError_t rc_ = (call);                                                                 \
    if (rc_ != gpuSuccess) {                                                                 \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, gpuGetErrorString(rc_)); \
      ishmem_global_exit(1);                                                                 \
    }                                                                                        \
  } while (0)

// `reps` puts of `bytes` to `pe`, each completed (quiet_each) or all at the end: the same
// calls in a kernel's one thread and on the host.
__host__ __device__ void put_run(char *dest, const char *src, size_t bytes, int reps, int pe,
                                 bool quiet_each) {
  for (int i = 0; i < reps; ++i) {
    if (quiet_each) {
      ishmem_putmem(dest, src, bytes, pe);
      ishmem_quiet();
    } else {
      ishmem_putmem_nbi(dest, src, bytes, pe);
    }
  }
  ishmem_quiet();
}
__global__ void device_puts(char *dest, const char *src, size_t bytes, int reps, int pe,
                            bool quiet_each) {
  put_run(dest, src, bytes, reps, pe, quiet_each);
}

// `reps` sum-reduces of n ints over the world team by one block; failed calls are counted.
__global__ void device_reduces(ishmemx_device_handle_t h, int *dest, const int *src, size_t n,
                               int reps, int *failures) {
  for (int i = 0; i < reps; ++i)
    if (ishmemx_int_sum_reduce_block(h, ISHMEM_TEAM_WORLD, dest, src, n) != ISHMEM_SUCCESS &&
        threadIdx.x == 0)
      ++*failures;
}

double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Microseconds per put of one run (the best of three: the machine is shared).
template <class Run>
double per_put_us(Run run, int reps) {
  double best = 1e30;
  for (int trial = 0; trial < 3; ++trial) {
    const double t0 = now_us();
    run();
    best = std::min(best, (now_us() - t0) / reps);
  }
  return best;
}

// Each PE contributes pe + 1 + i % 7 to element i: the sum is known.
int contribution(int pe, size_t i) {
  return pe + 1 + static_cast<int>(i % 7);
}
int reduced(int n_pes, size_t i) {
  return n_pes * (n_pes + 1) / 2 + n_pes * static_cast<int>(i % 7);
}

// Proxied collectives against the host call and MPI_Allreduce, every PE; microseconds per
// call of the slowest PE, the best of three runs.
void reduce_bench(const ishmemx_device_handle_t &h, int iters) {
  const int me = ishmem_my_pe(), n_pes = ishmem_n_pes();
  const size_t max_n = (1u << 20) / sizeof(int);
  int *dest = static_cast<int *>(ishmem_malloc(max_n * sizeof(int)));
  int *src = static_cast<int *>(ishmem_malloc(max_n * sizeof(int)));
  int *failures = nullptr;
  CHECK_GPU(gpuMalloc(&failures, sizeof(int)));
  CHECK_GPU(gpuMemset(failures, 0, sizeof(int)));
  std::vector<int> mine(max_n), got(max_n), mpi_out(max_n);
  for (size_t i = 0; i < max_n; ++i) mine[i] = contribution(me, i);
  CHECK_GPU(gpuMemcpy(src, mine.data(), max_n * sizeof(int), gpuMemcpyHostToDevice));
  auto timed = [&](auto run, int reps) {
    double best = 1e30;
    for (int trial = 0; trial < 3; ++trial) {
      ishmem_barrier_all();
      const double t0 = now_us();
      run(reps);
      double us = (now_us() - t0) / reps;
      MPI_Allreduce(MPI_IN_PLACE, &us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      best = std::min(best, us);
    }
    return best;
  };
  auto check = [&](const char *what, const int *out, size_t n, bool on_gpu) {
    if (on_gpu) {
      CHECK_GPU(gpuMemcpy(got.data(), out, n * sizeof(int), gpuMemcpyDeviceToHost));
      out = got.data();
    }
    for (size_t i = 0; i < n; ++i)
      if (out[i] != reduced(n_pes, i)) {
        fprintf(stderr, "[ishmem pe %d] proxy bench: %s of %zu ints: element %zu is %d, not %d\n",
                me, what, n, i, out[i], reduced(n_pes, i));
        ishmem_global_exit(1);
      }
  };
  if (me == 0)
    printf(
        "# proxied collective: int sum-reduce over the world team (%d PEs, spanning nodes), "
        "usec per call (slowest PE, best of 3)\n%10s %12s %12s %14s\n",
        n_pes, "bytes", "device", "host", "MPI_Allreduce");
  std::string summary;
  for (size_t n : {size_t(2), size_t(256), size_t(16384), max_n}) {  // 8 B to 1 MiB
    const int reps = static_cast<int>(
        std::max<size_t>(4, std::min<size_t>(iters / 20, (16u << 20) / (n * sizeof(int)))));
    CHECK_GPU(gpuMemset(dest, 0, n * sizeof(int)));
    const double dev = timed(
        [&](int r) {
          device_reduces<<<1, 256>>>(h, dest, src, n, r, failures);
          CHECK_GPU(gpuGetLastError());
          CHECK_GPU(gpuDeviceSynchronize());
        },
        reps);
    int failed = 0;
    CHECK_GPU(gpuMemcpy(&failed, failures, sizeof(int), gpuMemcpyDeviceToHost));
    if (failed) {
      fprintf(stderr, "[ishmem pe %d] proxy bench: %d device sum-reduces failed\n", me, failed);
      ishmem_global_exit(1);
    }
    check("device sum-reduce", dest, n, true);
    CHECK_GPU(gpuMemset(dest, 0, n * sizeof(int)));
    const double host = timed(
        [&](int r) {
          for (int i = 0; i < r; ++i)
            if (ishmem_int_sum_reduce(ISHMEM_TEAM_WORLD, dest, src, n) != ISHMEM_SUCCESS) {
              fprintf(stderr, "[ishmem pe %d] proxy bench: host sum-reduce failed\n", me);
              ishmem_global_exit(1);
            }
        },
        reps);
    check("host sum-reduce", dest, n, true);
    const double mpi = timed(
        [&](int r) {
          for (int i = 0; i < r; ++i)
            MPI_Allreduce(mine.data(), mpi_out.data(), static_cast<int>(n), MPI_INT, MPI_SUM,
                          MPI_COMM_WORLD);
        },
        reps);
    check("MPI_Allreduce", mpi_out.data(), n, false);
    if (me == 0) {
      printf("%10zu %12.2f %12.2f %14.2f\n", n * sizeof(int), dev, host, mpi);
      gpu_bench::write_row("ishmem_device", "sum_reduce", n * sizeof(int), dev);
      gpu_bench::write_row("ishmem_host", "sum_reduce", n * sizeof(int), host);
      gpu_bench::write_row("mpi", "allreduce", n * sizeof(int), mpi);
      char part[128];
      snprintf(part, sizeof part, "%s%zu B %.1f / %.1f / %.1f", summary.empty() ? "" : "; ",
               n * sizeof(int), dev, host, mpi);
      summary += part;
    }
  }
  if (me == 0)
    printf(
        "# summary proxied collective: int sum-reduce, world team spanning nodes, usec per call, "
        "device / host / MPI_Allreduce: %s\n",
        summary.c_str());
  CHECK_GPU(gpuFree(failures));
  ishmem_free(src);
  ishmem_free(dest);
}

}  // namespace

int main(int argc, char **argv) {
  int iters = 2000;
  size_t max_bytes = 4u << 20;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
    if (!strcmp(argv[i], "--max-bytes")) max_bytes = strtoull(argv[i + 1], nullptr, 0);
  }
  if (ishmem_init() != ISHMEM_SUCCESS) return 1;
  ishmemx_device_handle_t h{};
  ishmemx_get_device_handle(&h);
  const int me = ishmem_my_pe();
  const std::string backend = ishmemx_backend_name();
  if (h.n_local == h.n_pes || (backend != "cuda" && backend != "hip")) {
    if (me == 0)
      printf("proxy bench: needs a GPU heap and off-node PEs (backend %s, %d of %d PEs local)\n",
             backend.c_str(), h.n_local, h.n_pes);
    ishmem_finalize();
    return 0;
  }
  if (!gpu_bench::open_output(argc, argv, "gpu-proxy", backend.c_str(), h.n_pes, me == 0)) {
    fprintf(stderr, "[ishmem pe %d] proxy bench: the --csv/--json file cannot be written\n", me);
    ishmem_global_exit(1);
  }
  const int far = h.n_local % h.n_pes;  // PE 0's far PE: the first of the next node
  char *dest = static_cast<char *>(ishmem_malloc(max_bytes));
  char *src = nullptr;
  CHECK_GPU(gpuMalloc(&src, max_bytes));
  std::vector<char> pattern(max_bytes);
  for (size_t i = 0; i < max_bytes; ++i) pattern[i] = static_cast<char>(1 + i % 251);
  CHECK_GPU(gpuMemcpy(src, pattern.data(), max_bytes, gpuMemcpyHostToDevice));
  const char *interval = getenv("ISHMEM_PROGRESS_INTERVAL");
  if (me == 0) {
    printf(
        "# device calls to off-node PEs: PE 0 -> PE %d, %d PEs, %d per node, proxy poll "
        "interval %s us\n",
        far, h.n_pes, h.n_local, interval ? interval : "20");
    auto device_run = [&](size_t bytes, int reps, bool quiet_each) {
      device_puts<<<1, 1>>>(dest, src, bytes, reps, far, quiet_each);
      CHECK_GPU(gpuGetLastError());
      CHECK_GPU(gpuDeviceSynchronize());
    };
    auto host_run = [&](size_t bytes, int reps, bool quiet_each) {
      put_run(dest, src, bytes, reps, far, quiet_each);
    };
    device_run(8, 100, true);  // warm-up
    host_run(8, 100, true);
    const double dev = per_put_us([&] { device_run(8, iters, true); }, iters);
    const double host = per_put_us([&] { host_run(8, iters, true); }, iters);
    printf("latency 8 B put+quiet: device %.2f us, host %.2f us, ratio %.2f\n", dev, host,
           dev / host);
    const double interval_us = interval ? atof(interval) : 20.0;
    const double goal = 2 * host + interval_us;
    printf(
        "# target proxy: device 8 B put+quiet %.2f us vs 2 x host %.2f us + poll interval %.0f "
        "us = %.2f us: %s\n",
        dev, host, interval_us, goal, dev <= goal ? "met" : "NOT met");
    gpu_bench::write_row("ishmem_device", "put_quiet", 8, dev);
    gpu_bench::write_row("ishmem_host", "put_quiet", 8, host);
    printf("%10s %14s %14s\n", "bytes", "device MB/s", "host MB/s");
    for (size_t bytes = 8; bytes <= max_bytes; bytes *= 4) {
      const int reps = (int)std::max<size_t>(4, std::min<size_t>(500, (64u << 20) / bytes));
      const double d = per_put_us([&] { device_run(bytes, reps, false); }, reps);
      const double o = per_put_us([&] { host_run(bytes, reps, false); }, reps);
      printf("%10zu %14.1f %14.1f\n", bytes, bytes / d, bytes / o);
      gpu_bench::write_row("ishmem_device", "put", bytes, d);
      gpu_bench::write_row("ishmem_host", "put", bytes, o);
    }
    fflush(stdout);
  }
  ishmem_barrier_all();
  // Every put carried the source's first bytes: check them at the target.
  if (me == far) {
    std::vector<char> got(std::min<size_t>(max_bytes, 1 << 20));
    CHECK_GPU(gpuMemcpy(got.data(), dest, got.size(), gpuMemcpyDeviceToHost));
    if (memcmp(got.data(), pattern.data(), got.size()) != 0) {
      fprintf(stderr, "proxy bench: the data at PE %d is wrong\n", me);
      ishmem_global_exit(1);
    }
  }
  ishmem_barrier_all();
  reduce_bench(h, iters);
  CHECK_GPU(gpuFree(src));
  ishmem_free(dest);
  ishmem_finalize();
  return 0;
}
