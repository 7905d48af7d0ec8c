/* barrier_all latency on 2 PEs (MPI: MPI_Barrier): the time per barrier as seen by PE 0. */
#include "bench.h"

int main(int argc, char **argv) {
  bench_opts o = b_options(argc, argv, 0, 0, "OSU-style barrier_all benchmark, 2 PEs");
  b_init((size_t)1 << 20);
  b_require_two_pes();
  const int me = b_my_pe();
  if (me == 0) b_header(&o, "barrier", "latency: barrier_all per op (both PEs loop)");
  B_OK(b_barrier_all(), "barrier_all");
  for (long i = 0; i < o.warmup; ++i) b_barrier_all();
  double lat[99];
  for (int r = 0; r < o.reps; ++r) {
    b_barrier_all();
    double t0 = b_now_us();
    for (long i = 0; i < o.iters; ++i) b_barrier_all();
    lat[r] = (b_now_us() - t0) / o.iters;
  }
  if (me == 0) b_row(&o, "barrier", 0, b_median(lat, o.reps), -1);
  b_barrier_all();
  b_finalize();
  return 0;
}
