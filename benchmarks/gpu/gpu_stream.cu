// Host-initiated RMA on GPU heaps, PE 0 to PE 1: ishmemx_putmem_on_stream beside
// cudaMemcpyAsync/hipMemcpyAsync between the same buffers on the same stream, 8 B to 1 GiB;
// the blocking host ishmem_putmem through the copy engine; and barriers, on a stream and on
// the host.
//   usage: mpirun -np 2 ishmem-gpu-bench-stream [--max BYTES]
#include <chrono>

#include "gpu_bench.h"

using namespace gpu_bench;

int main(int argc, char **argv) {
  if (!start("ishmem-gpu-bench-stream")) return 0;
  const std::size_t max_bytes = size_arg(argc, argv, "--max", std::size_t{1} << 30);
  const int me = ishmem_my_pe();
  open_output_or_exit(argc, argv, "gpu-stream");
  char *sym = static_cast<char *>(ishmem_malloc(max_bytes));
  if (!sym) die("ishmem_malloc", ishmemx_last_error(), __FILE__, __LINE__);
  char *local = nullptr;
  BENCH_GPU(gpuMalloc(&local, max_bytes));
  fill_pattern(local, max_bytes, me + 3);
  gpuStream_t s;
  BENCH_GPU(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  BENCH_ISHMEM(ishmem_barrier_all());

  if (me == 0) {
    char *remote = peer_address(sym, 1);
    printf("# ishmem-gpu-bench-stream: PE 0 -> PE 1\n");
    printf("%-26s %12s %12s %10s\n", "what", "bytes", "usec", "GB/s");
    for (std::size_t bytes : bench_sizes(max_bytes)) {
      auto put_on_stream = [](char *dst, const char *src, std::size_t n, gpuStream_t st) {
        BENCH_ISHMEM(ishmemx_putmem_on_stream(dst, src, n, 1, st));
      };
      auto [put, ce] = time_stream_put(put_on_stream, sym, remote, local, bytes, s);
      printf("%-26s %12zu %12.2f %10.2f\n", "putmem_on_stream", bytes, put, gb_per_s(bytes, put));
      printf("%-26s %12zu %12.2f %10.2f\n", "memcpy_async", bytes, ce, gb_per_s(bytes, ce));
      write_row("ishmem", "put_on_stream", bytes, put);
      write_row("copy_engine", "put_on_stream", bytes, ce);
      fflush(stdout);
    }
    BENCH_GPU(gpuStreamSynchronize(s));
    expect_copied(local, remote, 64, "the peer does not hold the source's bytes");
    // Blocking host put through the library's copy path, wall clock.
    for (std::size_t bytes : {std::size_t{8}, std::size_t{1} << 20}) {
      std::vector<char> src(bytes, 5);
      const int n = 200;
      for (int i = 0; i < 10; ++i) BENCH_ISHMEM(ishmem_putmem(sym, src.data(), bytes, 1));
      auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < n; ++i) BENCH_ISHMEM(ishmem_putmem(sym, src.data(), bytes, 1));
      double us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
          n;
      printf("%-26s %12zu %12.2f %10.2f\n", "host ishmem_putmem", bytes, us, gb_per_s(bytes, us));
      write_row("ishmem", "host_putmem", bytes, us);
    }
  }
  BENCH_ISHMEM(ishmem_barrier_all());

  // Barriers: every PE takes part.
  const int rounds = 200;
  for (int i = 0; i < 10; ++i) BENCH_ISHMEM(ishmemx_barrier_all_on_stream(s));
  BENCH_GPU(gpuStreamSynchronize(s));
  BENCH_ISHMEM(ishmem_barrier_all());
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds; ++i) BENCH_ISHMEM(ishmemx_barrier_all_on_stream(s));
  BENCH_GPU(gpuStreamSynchronize(s));
  double stream_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
      rounds;
  BENCH_ISHMEM(ishmem_barrier_all());
  t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < rounds; ++i) BENCH_ISHMEM(ishmem_barrier_all());
  double host_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
      rounds;
  if (me == 0) {
    write_row("ishmem", "barrier_all_on_stream", 0, stream_us);
    write_row("ishmem", "barrier_all", 0, host_us);
  }
  if (me == 0)
    printf(
        "# summary barrier: barrier_all_on_stream %.2f us, host ishmem_barrier_all %.2f us "
        "(%d PEs)\n",
        stream_us, host_us, ishmem_n_pes());

  BENCH_ISHMEM(ishmem_barrier_all());
  BENCH_GPU(gpuStreamDestroy(s));
  BENCH_GPU(gpuFree(local));
  BENCH_ISHMEM(ishmem_free(sym));
  BENCH_ISHMEM(ishmem_finalize());
  return 0;
}
