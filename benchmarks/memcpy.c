/* The bandwidth reference: plain memcpy from PE 0's symmetric buffer into PE 1's, through the
 * address that ishmem_ptr (shmem_ptr) gives, with the same loops as the put benchmark:
 *   latency: memcpy + full fence per op; bandwidth: memcpy x window + full fence.
 * Prints no rows where the peer's heap is not load/store accessible (a GPU heap). */
#include "bench.h"

/* The compiler barrier keeps repeated copies of the same bytes from being merged. */
#define COPY(d, s, n)                  \
  do {                                 \
    memcpy(d, s, n);                   \
    __asm__ volatile("" ::: "memory"); \
  } while (0)

int main(int argc, char **argv) {
  bench_opts o = b_options(argc, argv, 1, (size_t)4 << 20, "memcpy reference benchmark, 2 PEs");
  if (o.min_size == 0) o.min_size = 1;
  b_init(2 * o.max_size + ((size_t)1 << 20));
  b_require_two_pes();
  const int me = b_my_pe();
  unsigned char *src = b_malloc_checked(o.max_size);
  unsigned char *dst = b_malloc_checked(o.max_size);
  /* Each PE asks for the other's copy, so both see the same accessibility. */
  unsigned char *peer = b_ptr(dst, 1 - me);
  if (me == 0)
    b_header(&o, "memcpy", "latency: memcpy + fence per op; bandwidth: memcpy x window + fence");
  if (me == 0 && !peer && !o.csv) printf("# the peer's heap is not load/store accessible here\n");

  double lat[99], bw[99];
  for (size_t size = o.min_size; peer && size <= o.max_size; size *= 2) {
    const long ops = b_ops(&o, size);
    const long loops = (ops + o.window - 1) / o.window;
    b_fill(src, size, size);
    memset(dst, 0, size);
    b_barrier_all();
    if (me == 0) {
      for (long i = 0; i < o.warmup; ++i) COPY(peer, src, size);
      __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    for (int r = 0; r < o.reps; ++r) {
      b_barrier_all();
      if (me == 0) {
        double t0 = b_now_us();
        for (long i = 0; i < ops; ++i) {
          COPY(peer, src, size);
          __atomic_thread_fence(__ATOMIC_SEQ_CST);
        }
        lat[r] = (b_now_us() - t0) / ops;
      }
      b_barrier_all();
      if (me == 0) {
        double t0 = b_now_us();
        for (long l = 0; l < loops; ++l) {
          for (int w = 0; w < o.window; ++w) COPY(peer, src, size);
          __atomic_thread_fence(__ATOMIC_SEQ_CST);
        }
        bw[r] = (double)size * o.window * loops / (b_now_us() - t0);
      }
    }
    b_barrier_all();
    if (me == 1 && !b_check(dst, size, size)) {
      fprintf(stderr, "%s memcpy: wrong data at %zu bytes\n", B_IMPL, size);
      b_abort(3);
    }
    if (me == 0) b_row(&o, "memcpy", size, b_median(lat, o.reps), b_median(bw, o.reps));
    if (size > o.max_size / 2) break;
  }
  b_barrier_all();
  b_free(dst);
  b_free(src);
  b_finalize();
  return 0;
}
