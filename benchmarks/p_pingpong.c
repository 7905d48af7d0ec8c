/* long_p ping-pong, one-way latency: PE 0 writes n into PE 1's flag with long_p and spins on
 * its own flag until PE 1 writes n back. The flag is read with volatile loads (yielding now
 * and then, so 2 PEs on 2 cores progress); one-way latency = round trip / 2. */
#include "bench.h"

int main(int argc, char **argv) {
  bench_opts o = b_options(argc, argv, 8, 8, "long_p ping-pong benchmark, 2 PEs");
  b_init((size_t)1 << 20);
  b_require_two_pes();
  const int me = b_my_pe(), peer = 1 - me;
  volatile long *flag = b_malloc_checked(sizeof(long));
  *flag = 0;
  b_barrier_all();
  if (me == 0) b_header(&o, "p_pingpong", "one-way latency: long_p, then spin on a local flag");
  long seq = 0;
  double lat[99];
  for (int r = -1; r < o.reps; ++r) { /* r = -1 is the warm-up */
    const long ops = r < 0 ? o.warmup : o.iters;
    b_barrier_all();
    double t0 = b_now_us();
    for (long i = 0; i < ops; ++i) {
      ++seq;
      if (me == 0) {
        b_long_p((long *)flag, seq, peer);
        b_wait_eq(flag, seq);
      } else {
        b_wait_eq(flag, seq);
        b_long_p((long *)flag, seq, peer);
      }
    }
    if (r >= 0) lat[r] = (b_now_us() - t0) / (2.0 * ops);
  }
  if (me == 0) b_row(&o, "p_pingpong", sizeof(long), b_median(lat, o.reps), -1);
  b_barrier_all();
  b_free((void *)flag);
  b_finalize();
  return 0;
}
