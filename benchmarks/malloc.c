/* Collective malloc + free latency on 2 PEs for 1 KiB, 1 MiB, 64 MiB, 256 MiB and 1 GiB
 * (filtered by --min-size/--max-size): both PEs loop; PE 0's time per malloc + free pair. Each
 * repetition sweeps the sizes, each after --warmup untimed pairs; the median over repetitions
 * is reported. Sizes the heap cannot hold (ISHMEM_SYMMETRIC_SIZE; the runners set 2G) are left
 * out with a note. The program never touches the memory, so it runs on any backend:
 * ISHMEM_BACKEND=gpu measures the GPU heap. */
#define B_ANY_BACKEND 1
#include "bench.h"

#define N_SIZES 5

int main(int argc, char **argv) {
  bench_opts o = b_options(argc, argv, (size_t)1 << 10, (size_t)1 << 30,
                           "OSU-style malloc + free benchmark, 2 PEs");
  b_init((size_t)1 << 20);
  b_require_two_pes();
  const int me = b_my_pe();
  if (me == 0) b_header(&o, "malloc", "latency: malloc + free per op (both PEs loop)");
  const size_t sizes[N_SIZES] = {(size_t)1 << 10, (size_t)1 << 20, (size_t)64 << 20,
                                 (size_t)256 << 20, (size_t)1 << 30};
  const long ops = o.iters / 10 < 10 ? 10 : o.iters / 10;
  int fits[N_SIZES];
  double lat[N_SIZES][99];
  for (int r = -1; r < o.reps; ++r) { /* r = -1: the warm-up sweep, not recorded */
    for (int k = 0; k < N_SIZES; ++k) {
      const size_t size = sizes[k];
      if (size < o.min_size || size > o.max_size) continue;
      b_progress(&o, size, (r + 1) * N_SIZES + k + 1, (o.reps + 1) * N_SIZES);
      if (r < 0) {
        /* The first call may grow the heap; NULL on every PE where the heap is too small. */
        void *first = b_malloc(size);
        fits[k] = first != NULL;
        if (!fits[k]) {
          if (me == 0) fprintf(stderr, "malloc: %zu bytes do not fit the heap; left out\n", size);
          continue;
        }
        b_free(first);
        for (long i = 0; i < o.warmup; ++i) b_free(b_malloc(size));
        continue;
      }
      if (!fits[k]) continue;
      /* Untimed: the heap may have released this size's memory while a smaller size ran (the
       * trim policy returns memory unused for ISHMEM_TRIM_INTERVAL calls); regrowing it, and
       * releasing the previous size's, is not the steady state measured here. */
      for (long i = 0; i < o.warmup; ++i) b_free(b_malloc(size));
      b_barrier_all();
      double t0 = b_now_us();
      for (long i = 0; i < ops; ++i) b_free(b_malloc(size));
      lat[k][r] = (b_now_us() - t0) / ops;
    }
  }
  double median[N_SIZES];
  for (int k = 0; k < N_SIZES; ++k) {
    median[k] = -1;
    if (sizes[k] < o.min_size || sizes[k] > o.max_size || !fits[k]) continue;
    median[k] = b_median(lat[k], o.reps);
    if (me == 0) b_row(&o, "malloc", sizes[k], median[k], -1);
  }
  /* The heap's goal: malloc + free of any size costs at most twice that of 1 MiB. */
  if (me == 0 && o.table && median[1] > 0) {
    int worst = 1;
    for (int k = 2; k < N_SIZES; ++k)
      if (median[k] > median[worst]) worst = k;
    printf(
        "# summary malloc + free: 1 MiB %.2f us; slowest larger size %zu B %.2f us, %.2fx "
        "1 MiB (goal <= 2x)\n",
        median[1], sizes[worst], median[worst], median[worst] / median[1]);
  }
  b_barrier_all();
  b_finalize();
  return 0;
}
