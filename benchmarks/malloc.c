/* Collective malloc + free latency on 2 PEs for 1 KiB, 1 MiB and 64 MiB (filtered by
 * --min-size/--max-size): both PEs loop; PE 0's time per malloc + free pair. Each repetition
 * sweeps the sizes; the median over repetitions is reported. */
#include "bench.h"

int main(int argc, char **argv) {
  bench_opts o = b_options(argc, argv, (size_t)1 << 10, (size_t)64 << 20,
                           "OSU-style malloc + free benchmark, 2 PEs");
  b_init((size_t)1 << 20);
  b_require_two_pes();
  const int me = b_my_pe();
  if (me == 0) b_header(&o, "malloc", "latency: malloc + free per op (both PEs loop)");
  const size_t sizes[3] = {(size_t)1 << 10, (size_t)1 << 20, (size_t)64 << 20};
  const long ops = o.iters / 10 < 10 ? 10 : o.iters / 10;
  double lat[3][99];
  for (int r = -1; r < o.reps; ++r) { /* r = -1: the warm-up sweep, not recorded */
    for (int k = 0; k < 3; ++k) {
      const size_t size = sizes[k];
      if (size < o.min_size || size > o.max_size) continue;
      if (r < 0) {
        b_free(b_malloc_checked(size)); /* the first call may grow the heap */
        for (long i = 0; i < o.warmup; ++i) b_free(b_malloc(size));
        continue;
      }
      b_barrier_all();
      double t0 = b_now_us();
      for (long i = 0; i < ops; ++i) b_free(b_malloc(size));
      lat[k][r] = (b_now_us() - t0) / ops;
    }
  }
  for (int k = 0; k < 3; ++k)
    if (me == 0 && sizes[k] >= o.min_size && sizes[k] <= o.max_size)
      b_row(&o, "malloc", sizes[k], b_median(lat[k], o.reps), -1);
  b_barrier_all();
  b_finalize();
  return 0;
}
