/* Part of bench.h (included by it, after the implementation layer and the options): timing,
 * medians, the human-readable table and the machine-readable rows of bench_out.h. */
#ifndef ISHMEM_BENCH_REPORT_H
#define ISHMEM_BENCH_REPORT_H

/* ---- Timing and output ------------------------------------------------------------------ */

static double b_now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

static int b_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double b_median(double *v, long n) {
  if (n <= 0) return -1;
  qsort(v, (size_t)n, sizeof *v, b_cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Timed samples of one figure, gathered over every repetition; the median is reported. */
typedef struct {
  double *v;
  long n, cap;
} b_samples;

static void b_push(b_samples *s, double x) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 64;
    s->v = (double *)realloc(s->v, (size_t)s->cap * sizeof(double));
    if (!s->v) abort();
  }
  s->v[s->n++] = x;
}

/* Static, not in bench_opts: closed at exit (a JSON array on stdout ends there), after main's
 * locals are gone. */
static bench_out b_writers;
static void b_close_out(void) {
  bench_out_close(&b_writers);
}

/* The machine-readable writers (PE 0): opened at the first header or row. */
static void b_out(bench_opts *o) {
  if (o->out_open || (!o->csv_path && !o->json_path)) return;
  o->out_open = 1;
  o->pes = b_n_pes();
#if !defined(USE_OSHMEM) && !defined(USE_MPI)
  const char *backend = ishmemx_backend_name();
#else
  const char *backend = "";
#endif
  if (bench_out_open(&b_writers, o->name, backend, o->csv_path, o->json_path) != 0) b_abort(2);
  atexit(b_close_out);
}

/* Progress on PE 0's terminal before step `done` of `total` (the size sweep of every
 * repetition); nothing when stderr is not a terminal. */
static void b_progress(bench_opts *o, size_t size, int done, int total) {
  if (b_my_pe() != 0 || !bench_out_on_terminal()) return;
  b_out(o);
  bench_out progress_only = {0};
  const bench_out *out = o->out_open ? &b_writers : &progress_only;
  if (!o->out_open) progress_only.benchmark = o->name, progress_only.progress = 1;
  bench_out_progress(out, o->impl, size, done, total);
}

/* `what` describes the loops in one line; printed as a comment above the table. */
static void b_header(bench_opts *o, const char *op, const char *what) {
  b_out(o);
  if (o->table) {
    printf("# %s %s: %s\n# %d PEs, PE 0 -> PE 1; medians over %d repetitions\n", B_IMPL, op, what,
           b_n_pes(), o->reps);
    printf("# %10s %14s %16s\n", "size(B)", "latency(us)", "bandwidth(MB/s)");
  }
  fflush(stdout);
}

/* One row of `impl` (the program's own, or a reference it measures beside it) to the
 * machine-readable writers; count < 0 and detail NULL where there are none. */
static void b_out_row(bench_opts *o, const char *impl, const char *op, size_t size, double lat_us,
                      double mbps, long count) {
  b_out(o);
  if (!o->out_open) return;
  if (b_writers.progress) fputs("\r\033[K", stderr); /* the row's line, not the progress */
  bench_row r = {impl, op, size, lat_us, mbps, o->pes, count, NULL};
  bench_out_row(&b_writers, &r);
}

/* A negative figure is printed as "-" in the table (empty or null in CSV / JSON). */
static void b_row(bench_opts *o, const char *op, size_t size, double lat_us, double mbps) {
  b_out_row(o, B_IMPL, op, size, lat_us, mbps, -1);
  if (o->table && bench_out_on_terminal()) fputs("\r\033[K", stderr); /* the progress line */
  if (o->table) {
    printf("  %10zu ", size);
    if (lat_us >= 0)
      printf("%14.4f ", lat_us);
    else
      printf("%14s ", "-");
    if (mbps >= 0)
      printf("%16.1f\n", mbps);
    else
      printf("%16s\n", "-");
  }
  fflush(stdout); /* OSHMEM may crash in shmem_finalize: figures must be out before it */
}

#endif /* ISHMEM_BENCH_REPORT_H */
