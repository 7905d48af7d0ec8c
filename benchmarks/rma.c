/* Latency and bandwidth between 2 PEs, one operation per build:
 *   put (default)  latency: putmem + quiet per op;  bandwidth: putmem_nbi x window + quiet
 *   -DBENCH_GET    latency: getmem per op;          bandwidth: getmem_nbi x window + quiet
 * The ishmem put build also measures the bandwidth reference, in the same process on the same
 * buffers right after each put measurement: plain memcpy into the peer's buffer at the address
 * ishmem_ptr gives, with a full fence where put has quiet (rows of op "memcpy"). The pairing
 * matters: each process gets its own physical pages, and copy speed differs by up to 10%
 * between two runs of one program on a VM, more than the gap a reference must judge.
 *
 * The window is 64 (--window), fewer where 64 would move more than 16 MiB. Source and
 * destination are symmetric; PE 0 initiates. Noise: each repetition sweeps every size, so a
 * burst of load spoils one repetition of several sizes rather than every repetition of one;
 * each repetition is timed in samples of at most 16 MiB (or all its operations, if fewer), and
 * the median of all samples is reported. The data are checked after every measurement. */
#include "bench.h"

#define SAMPLE_BYTES ((size_t)16 << 20)

#if defined(BENCH_GET)
#define OP "get"
#define WHAT "latency: getmem per op; bandwidth: getmem_nbi x window + quiet"
#define LAT_OP(n) b_getmem(dst, src, n, 1)
#define BW_OP(n) b_getmem_nbi(dst, src, n, 1)
#define BW_DONE() b_quiet()
#define CHECKED_OP(n) B_OK(b_getmem(dst, src, n, 1), "getmem")
#define CHECKER 0 /* the PE whose dst receives the data */
#else
#define OP "put"
#define WHAT "latency: putmem + quiet per op; bandwidth: putmem_nbi x window + quiet"
#define LAT_OP(n)             \
  do {                        \
    b_putmem(dst, src, n, 1); \
    b_quiet();                \
  } while (0)
#define BW_OP(n) b_putmem_nbi(dst, src, n, 1)
#define BW_DONE() b_quiet()
#define CHECKED_OP(n)                         \
  do {                                        \
    B_OK(b_putmem(dst, src, n, 1), "putmem"); \
    B_OK(b_quiet(), "quiet");                 \
  } while (0)
#define CHECKER 1
#if !defined(USE_OSHMEM) && !defined(USE_MPI)
#define WITH_REFERENCE 1
/* The compiler barrier keeps repeated copies of the same bytes from being merged. */
#define COPY(n)                        \
  do {                                 \
    memcpy(peer, src, n);              \
    __asm__ volatile("" ::: "memory"); \
  } while (0)
#define REF_LAT_OP(n)                        \
  do {                                       \
    COPY(n);                                 \
    __atomic_thread_fence(__ATOMIC_SEQ_CST); \
  } while (0)
#define REF_BW_OP(n) COPY(n)
#define REF_BW_DONE() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#endif

/* Times `ops` operations LAT_(size) and `loops` windows of BW_(size) + DONE_(), in samples of
 * `lat_chunk` operations and `bw_chunk` windows; pushes the samples unless warming up (r < 0).
 * A macro, so that every implementation's loop has the calls inline and nothing else. */
#define MEASURE(LAT_, BW_, DONE_, lat_s, bw_s)                                          \
  do {                                                                                  \
    LAT_(size); /* brings the buffers back after the other sizes */                     \
    for (long done = 0, n; done < ops; done += n) {                                     \
      n = ops - done < lat_chunk ? ops - done : lat_chunk;                              \
      double t0 = b_now_us();                                                           \
      for (long i = 0; i < n; ++i) LAT_(size);                                          \
      if (r >= 0) b_push(lat_s, (b_now_us() - t0) / n);                                 \
    }                                                                                   \
    for (long done = 0, n; done < loops; done += n) {                                   \
      n = loops - done < bw_chunk ? loops - done : bw_chunk;                            \
      double t0 = b_now_us();                                                           \
      for (long l = 0; l < n; ++l) {                                                    \
        for (int w = 0; w < window; ++w) BW_(size);                                     \
        DONE_();                                                                        \
      }                                                                                 \
      if (r >= 0) b_push(bw_s, (double)size *window *n / (b_now_us() - t0)); /* MB/s */ \
    }                                                                                   \
  } while (0)

int main(int argc, char **argv) {
  bench_opts o = b_options(argc, argv, 1, (size_t)4 << 20, "OSU-style " OP " benchmark, 2 PEs");
  if (o.min_size == 0) o.min_size = 1;
  b_init(2 * o.max_size + ((size_t)1 << 20));
  b_require_two_pes();
  const int me = b_my_pe();
  unsigned char *src = b_malloc_checked(o.max_size);
  unsigned char *dst = b_malloc_checked(o.max_size);
#ifdef WITH_REFERENCE
  /* Both PEs ask, so both see the same answer. An off-node peer (another node, or another
   * group in split mode) has no memcpy reference: put alone is measured. */
  unsigned char *peer = b_ptr(dst, 1 - me);
  if (!peer && me == 0 && o.table)
    printf("# the peer is off-node: no memcpy reference (ishmem_ptr gives NULL)\n");
#endif
  b_fill(src, o.max_size);
  if (me == 0) b_header(&o, OP, WHAT);

  const int n_sizes = b_n_sizes(&o);
  b_samples *lat = calloc((size_t)n_sizes, sizeof(b_samples));
  b_samples *bw = calloc((size_t)n_sizes, sizeof(b_samples));
  b_samples *ref_lat = calloc((size_t)n_sizes, sizeof(b_samples));
  b_samples *ref_bw = calloc((size_t)n_sizes, sizeof(b_samples));
  for (int r = -1; r < o.reps; ++r) { /* r = -1: the warm-up sweep, not recorded */
    size_t size = o.min_size;
    for (int k = 0; k < n_sizes; ++k, size *= 2) {
      b_progress(&o, size, (r + 1) * n_sizes + k + 1, (o.reps + 1) * n_sizes);
      const b_plan p = b_plan_size(&o, size, r, SAMPLE_BYTES);
      const long ops = p.ops, loops = p.loops, lat_chunk = p.lat_chunk, bw_chunk = p.bw_chunk;
      const int window = p.window;
      memset(dst, 0, size);
      b_local_sync();
      b_barrier_all();
      if (me == 0) {
        if (r < 0 && k == 0) CHECKED_OP(size);
        MEASURE(LAT_OP, BW_OP, BW_DONE, &lat[k], &bw[k]);
      }
      b_barrier_all();
      b_local_sync();
      if (me == CHECKER && !b_check(dst, size)) {
        fprintf(stderr, "%s %s: wrong data at %zu bytes\n", B_IMPL, OP, size);
        b_abort(3);
      }
#ifdef WITH_REFERENCE
      if (!peer) continue;
      /* The same start as put's: a cleared destination, last written by PE 1. */
      memset(dst, 0, size);
      b_barrier_all();
      if (me == 0) MEASURE(REF_LAT_OP, REF_BW_OP, REF_BW_DONE, &ref_lat[k], &ref_bw[k]);
      b_barrier_all();
      if (me == 1 && !b_check(dst, size)) {
        fprintf(stderr, "%s memcpy: wrong data at %zu bytes\n", B_IMPL, size);
        b_abort(3);
      }
#endif
    }
  }
  size_t size = o.min_size;
  for (int k = 0; k < n_sizes; ++k, size *= 2)
    if (me == 0) b_row(&o, OP, size, b_median(lat[k].v, lat[k].n), b_median(bw[k].v, bw[k].n));
#ifdef WITH_REFERENCE
  if (me == 0 && o.table && peer)
    printf("# reference, same process and buffers: memcpy to ishmem_ptr\n");
  size = o.min_size;
  for (int k = 0; k < n_sizes && peer; ++k, size *= 2)
    if (me == 0)
      b_row(&o, "memcpy", size, b_median(ref_lat[k].v, ref_lat[k].n),
            b_median(ref_bw[k].v, ref_bw[k].n));
#endif
  for (int k = 0; k < n_sizes; ++k) {
    free(lat[k].v);
    free(bw[k].v);
    free(ref_lat[k].v);
    free(ref_bw[k].v);
  }
  free(lat);
  free(bw);
  free(ref_lat);
  free(ref_bw);
  b_barrier_all();
  b_free(dst);
  b_free(src);
  b_finalize();
  return 0;
}
