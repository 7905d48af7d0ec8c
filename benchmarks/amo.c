/* Atomic and signal latency on 2 PEs (ishmem and OSHMEM; MPI has no peer program here).
 *   fetch_add, compare_swap, swap: PE 0 runs the atomic on a word of PE 1 and waits for its
 *     result; latency per op.
 *   signal_pingpong (ishmem only): PE 0 and PE 1 bounce put-with-signal of SIZE bytes, each
 *     waiting for the other's signal; one-way latency = round trip / 2. Size 0 is the pure
 *     signal. Data is checked at the end. */
#include "bench.h"

static double atomic_latency(const bench_opts *o, volatile long *word, int which) {
  const int me = b_my_pe();
  double lat[99];
  for (int r = -1; r < o->reps; ++r) { /* r = -1 is the warm-up */
    const long ops = r < 0 ? o->warmup : o->iters;
    b_barrier_all();
    double t0 = b_now_us();
    long sink = 0;
    if (me == 0) {
      for (long i = 0; i < ops; ++i) {
        if (which == 0) sink += b_long_fetch_add((long *)word, 1, 1);
        if (which == 1) sink += b_long_compare_swap((long *)word, i, i + 1, 1);
        if (which == 2) sink += b_long_swap((long *)word, i, 1);
      }
    }
    if (r >= 0) lat[r] = (b_now_us() - t0) / (double)ops;
    if (sink == -42) printf("%ld\n", sink); /* keeps the results alive */
  }
  b_barrier_all();
  return b_median(lat, o->reps);
}

#ifdef B_HAS_SIGNAL
static double signal_pingpong(const bench_opts *o, unsigned char *buf, unsigned char *src,
                              uint64_t *sig, size_t size, uint64_t *seq) {
  const int me = b_my_pe(), peer = 1 - me;
  double lat[99];
  for (int r = -1; r < o->reps; ++r) {
    const long ops = r < 0 ? o->warmup : b_ops(o, size);
    b_barrier_all();
    double t0 = b_now_us();
    for (long i = 0; i < ops; ++i) {
      ++*seq;
      if (me == 0) {
        b_putmem_signal(buf, src, size, sig, *seq, peer);
        b_signal_wait_ge(sig, *seq);
      } else {
        b_signal_wait_ge(sig, *seq);
        b_putmem_signal(buf, src, size, sig, *seq, peer);
      }
    }
    if (r >= 0) lat[r] = (b_now_us() - t0) / (2.0 * ops);
  }
  return b_median(lat, o->reps);
}
#endif

int main(int argc, char **argv) {
  bench_opts o = b_options(argc, argv, 0, 1 << 20, "atomic and signal latency, 2 PEs");
  b_init((size_t)8 << 20);
  b_require_two_pes();
  const int me = b_my_pe();
  volatile long *word = b_malloc_checked(sizeof(long));
  *word = 0;
  static const char *names[] = {"fetch_add", "compare_swap", "swap"};
  if (me == 0) b_header(&o, "atomics", "latency per atomic on the other PE's word");
  for (int which = 0; which < 3; ++which) {
    *word = 0;
    double lat = atomic_latency(&o, word, which);
    if (me == 0) b_row(&o, names[which], sizeof(long), lat, -1);
    /* Every fetch_add arrived exactly once. */
    if (which == 0 && me == 1 && *word != o.warmup + (long)o.reps * o.iters) {
      fprintf(stderr, "fetch_add: PE 1's word is %ld, expected %ld\n", *word,
              o.warmup + (long)o.reps * o.iters);
      b_abort(3);
    }
    b_barrier_all();
  }
#ifdef B_HAS_SIGNAL
  unsigned char *buf = b_malloc_checked(o.max_size ? o.max_size : 1);
  unsigned char *src = malloc(o.max_size ? o.max_size : 1);
  uint64_t *sig = b_malloc_checked(sizeof(uint64_t));
  *sig = 0;
  uint64_t seq = 0;
  b_fill(src, o.max_size);
  b_barrier_all();
  if (me == 0) b_header(&o, "signal_pingpong", "one-way latency: putmem_signal, wait on signal");
  size_t last = 0;
  for (size_t size = 0; size <= o.max_size; size = size ? size * 4 : 8) {
    double lat = signal_pingpong(&o, buf, src, sig, size, &seq);
    if (me == 0) b_row(&o, "signal_pingpong", size, lat, -1);
    last = size;
  }
  b_barrier_all();
  if (!b_check(buf, last)) {
    fprintf(stderr, "signal_pingpong: PE %d received wrong data\n", me);
    b_abort(4);
  }
  b_free(sig);
  b_free(buf);
  free(src);
#endif
  b_free((void *)word);
  b_finalize();
  return 0;
}
