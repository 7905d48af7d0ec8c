/* Put (default) or get (-DBENCH_GET) latency and bandwidth between 2 PEs.
 *   latency:   put: putmem + quiet per operation;  get: getmem per operation
 *   bandwidth: `window` putmem_nbi (getmem_nbi), then one quiet
 * Source and destination are symmetric. PE 0 initiates; the data is checked after each size. */
#include "bench.h"

#ifdef BENCH_GET
#define OP "get"
#define WHAT "latency: getmem per op; bandwidth: getmem_nbi x window + quiet"
#define LAT_OP(size) b_getmem(dst, src, size, 1)
#define BW_OP(size) b_getmem_nbi(dst, src, size, 1)
#define CHECKED_FIRST_OP(size) B_OK(b_getmem(dst, src, size, 1), "getmem")
#define CHECKER 0 /* the PE whose dst holds the data */
#else
#define OP "put"
#define WHAT "latency: putmem + quiet per op; bandwidth: putmem_nbi x window + quiet"
#define LAT_OP(size) (b_putmem(dst, src, size, 1), b_quiet())
#define BW_OP(size) b_putmem_nbi(dst, src, size, 1)
#define CHECKED_FIRST_OP(size)                 \
  B_OK(b_putmem(dst, src, size, 1), "putmem"); \
  B_OK(b_quiet(), "quiet")
#define CHECKER 1
#endif

int main(int argc, char **argv) {
  bench_opts o = b_options(argc, argv, 1, (size_t)4 << 20, "OSU-style " OP " benchmark, 2 PEs");
  if (o.min_size == 0) o.min_size = 1;
  b_init(2 * o.max_size + ((size_t)1 << 20));
  b_require_two_pes();
  const int me = b_my_pe();
  unsigned char *src = b_malloc_checked(o.max_size);
  unsigned char *dst = b_malloc_checked(o.max_size);
  if (me == 0) b_header(&o, OP, WHAT);

  double lat[99], bw[99];
  for (size_t size = o.min_size; size <= o.max_size; size *= 2) {
    const long ops = b_ops(&o, size);
    const long loops = (ops + o.window - 1) / o.window;
    b_fill(src, size, size);
    memset(dst, 0, size);
    b_local_sync();
    b_barrier_all();
    if (me == 0) {
      CHECKED_FIRST_OP(size);
      for (long i = 0; i < o.warmup; ++i) LAT_OP(size);
      for (int w = 0; w < o.window; ++w) BW_OP(size);
      b_quiet();
    }
    for (int r = 0; r < o.reps; ++r) {
      b_barrier_all();
      if (me == 0) {
        double t0 = b_now_us();
        for (long i = 0; i < ops; ++i) LAT_OP(size);
        lat[r] = (b_now_us() - t0) / ops;
      }
      b_barrier_all();
      if (me == 0) {
        double t0 = b_now_us();
        for (long l = 0; l < loops; ++l) {
          for (int w = 0; w < o.window; ++w) BW_OP(size);
          b_quiet();
        }
        bw[r] = (double)size * o.window * loops / (b_now_us() - t0); /* bytes/us = MB/s */
      }
    }
    b_barrier_all();
    b_local_sync();
    if (me == CHECKER && !b_check(dst, size, size)) {
      fprintf(stderr, "%s %s: wrong data at %zu bytes\n", B_IMPL, OP, size);
      b_abort(3);
    }
    if (me == 0) b_row(&o, OP, size, b_median(lat, o.reps), b_median(bw, o.reps));
    if (size > o.max_size / 2) break; /* no overflow past the largest size */
  }
  b_barrier_all();
  b_free(dst);
  b_free(src);
  b_finalize();
  return 0;
}
