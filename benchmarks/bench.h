/* Shared by the host benchmarks: one API layer over three implementations, options, timing,
 * medians and OSU-style output. Each benchmark is one C source compiled three times, so ishmem
 * and its peers run identical loops:
 *   (default)      ishmem            b_* -> ishmem_*
 *   -DUSE_OSHMEM   OpenSHMEM (oshcc) b_* -> shmem_*
 *   -DUSE_MPI      MPI one-sided     b_* -> MPI_Put/MPI_Get/MPI_Win_flush on an
 *                                    MPI_Win_allocate window, MPI_Barrier
 * PE 0 initiates and prints; PE 1 is the target. */
#ifndef ISHMEM_BENCH_H
#define ISHMEM_BENCH_H

#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_out.h"

#if defined(USE_OSHMEM)
#include <shmem.h>
#define B_IMPL "oshmem"
#define B_OK(call, what) (call)
static void b_init(size_t heap_bytes) {
  (void)heap_bytes;
  shmem_init();
}
#define b_finalize() shmem_finalize()
#define b_abort(status) shmem_global_exit(status)
#define b_my_pe() shmem_my_pe()
#define b_n_pes() shmem_n_pes()
#define b_malloc(n) shmem_malloc(n)
#define b_free(p) shmem_free(p)
#define b_ptr(p, pe) shmem_ptr(p, pe)
#define b_putmem(d, s, n, pe) shmem_putmem(d, s, n, pe)
#define b_getmem(d, s, n, pe) shmem_getmem(d, s, n, pe)
#define b_putmem_nbi(d, s, n, pe) shmem_putmem_nbi(d, s, n, pe)
#define b_getmem_nbi(d, s, n, pe) shmem_getmem_nbi(d, s, n, pe)
#define b_long_p(d, v, pe) shmem_long_p(d, v, pe)
#define b_long_fetch_add(d, v, pe) shmem_long_atomic_fetch_add(d, v, pe)
#define b_long_compare_swap(d, c, v, pe) shmem_long_atomic_compare_swap(d, c, v, pe)
#define b_long_swap(d, v, pe) shmem_long_atomic_swap(d, v, pe)
#define b_quiet() shmem_quiet()
#define b_barrier_all() shmem_barrier_all()
#define b_local_sync() ((void)0)

#elif defined(USE_MPI)
#include <mpi.h>
#define B_IMPL "mpi"
#define B_OK(call, what) (call)
static MPI_Win b_win;
static char *b_base;
static size_t b_used, b_size;
/* One window for the whole run, locked once (passive target); b_malloc carves it. */
static void b_init(size_t heap_bytes) {
  MPI_Init(NULL, NULL);
  b_size = heap_bytes;
  MPI_Win_allocate((MPI_Aint)heap_bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &b_base, &b_win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, b_win);
}
static void b_finalize(void) {
  MPI_Win_unlock_all(b_win);
  MPI_Win_free(&b_win);
  MPI_Finalize();
}
#define b_abort(status) MPI_Abort(MPI_COMM_WORLD, status)
static int b_my_pe(void) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
static int b_n_pes(void) {
  int n;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}
static void *b_malloc(size_t n) {
  size_t at = (b_used + 4095) & ~(size_t)4095;
  if (at + n > b_size) return NULL;
  b_used = at + n;
  return b_base + at;
}
#define b_free(p) ((void)(p))
#define b_ptr(p, pe) ((void)(p), (void)(pe), (void *)NULL)
#define B_DISP(d) ((MPI_Aint)((const char *)(d)-b_base))
#define b_putmem_nbi(d, s, n, pe) \
  MPI_Put(s, (int)(n), MPI_BYTE, pe, B_DISP(d), (int)(n), MPI_BYTE, b_win)
#define b_getmem_nbi(d, s, n, pe) \
  MPI_Get(d, (int)(n), MPI_BYTE, pe, B_DISP(s), (int)(n), MPI_BYTE, b_win)
#define b_putmem(d, s, n, pe) b_putmem_nbi(d, s, n, pe) /* completed by b_quiet */
#define b_getmem(d, s, n, pe) (b_getmem_nbi(d, s, n, pe), MPI_Win_flush(pe, b_win))
#define b_quiet() MPI_Win_flush_all(b_win)
#define b_barrier_all() MPI_Barrier(MPI_COMM_WORLD)
#define b_local_sync() MPI_Win_sync(b_win) /* before reading the own window directly */

#else
#include <ishmem.h>
#define B_IMPL "ishmem"
/* Checks a status outside the timed loops (inside them the same call runs unchecked). */
#define B_OK(call, what)                                                        \
  do {                                                                          \
    int rc_ = (call);                                                           \
    if (rc_ != ISHMEM_SUCCESS) {                                                \
      fprintf(stderr, "%s failed (%d): %s\n", what, rc_, ishmemx_last_error()); \
      ishmem_global_exit(1);                                                    \
    }                                                                           \
  } while (0)
/* These benchmarks touch the heap with the CPU: they ask for the host heap unless told
 * otherwise (a GPU build would pick GPU memory). A program that never touches the heap
 * (B_ANY_BACKEND) runs on the backend ISHMEM_BACKEND names. */
static void b_init(size_t heap_bytes) {
  (void)heap_bytes;
  setenv("ISHMEM_BACKEND", "host", 0);
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "ishmem_init: %s\n", ishmemx_last_error());
    exit(1);
  }
#ifdef B_ANY_BACKEND
  if (ishmem_my_pe() == 0) fprintf(stderr, "backend: %s\n", ishmemx_backend_name());
#else
  if (strcmp(ishmemx_backend_name(), "host") != 0) {
    if (ishmem_my_pe() == 0)
      fprintf(stderr, "host benchmarks need ISHMEM_BACKEND=host (not %s)\n",
              ishmemx_backend_name());
    ishmem_global_exit(2);
  }
#endif
}
#define b_finalize() ishmem_finalize()
#define b_abort(status) ishmem_global_exit(status)
#define b_my_pe() ishmem_my_pe()
#define b_n_pes() ishmem_n_pes()
#define b_malloc(n) ishmem_malloc(n)
#define b_free(p) ishmem_free(p)
#define b_ptr(p, pe) ishmem_ptr(p, pe)
#define b_putmem(d, s, n, pe) ishmem_putmem(d, s, n, pe)
#define b_getmem(d, s, n, pe) ishmem_getmem(d, s, n, pe)
#define b_putmem_nbi(d, s, n, pe) ishmem_putmem_nbi(d, s, n, pe)
#define b_getmem_nbi(d, s, n, pe) ishmem_getmem_nbi(d, s, n, pe)
#define b_long_p(d, v, pe) ishmem_long_p(d, v, pe)
#define b_long_fetch_add(d, v, pe) ishmem_long_atomic_fetch_add(d, v, pe)
#define b_long_compare_swap(d, c, v, pe) ishmem_long_atomic_compare_swap(d, c, v, pe)
#define b_long_swap(d, v, pe) ishmem_long_atomic_swap(d, v, pe)
/* OpenSHMEM 1.5's put-with-signal (Open MPI 4.1's OSHMEM implements 1.4 and lacks it). */
#define B_HAS_SIGNAL 1
#define b_putmem_signal(d, s, n, sig, v, pe) \
  ishmem_putmem_signal(d, s, n, sig, v, ISHMEM_SIGNAL_SET, pe)
#define b_signal_wait_ge(sig, v) ishmem_signal_wait_until(sig, ISHMEM_CMP_GE, v)
#define b_quiet() ishmem_quiet()
#define b_barrier_all() ishmem_barrier_all()
#define b_local_sync() ((void)0)
#endif

/* ---- Options ------------------------------------------------------------------------- */

typedef struct {
  long iters;      /* operations per repetition at sizes up to 8 KiB (halved per doubling) */
  long warmup;     /* untimed operations before each size */
  int reps;        /* timed repetitions; the median is reported */
  int window;      /* non-blocking operations between two quiets in bandwidth loops */
  size_t min_size; /* size range, powers of two */
  size_t max_size;
  const char *csv_path; /* --csv FILE, --json FILE (bench_out.h; "-" is stdout) */
  const char *json_path;
  int table;        /* the human-readable table on stdout (unless rows go there) */
  const char *name; /* the program without its implementation: put, collectives, ... */
  const char *impl; /* B_IMPL */
  int out_open;     /* b_writers opened (by PE 0, at its first header or row) */
  int pes;          /* the PE count, taken when the writers open */
} bench_opts;

static size_t b_parse_size(const char *s) {
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end == 'K' || *end == 'k') v <<= 10;
  if (*end == 'M' || *end == 'm') v <<= 20;
  if (*end == 'G' || *end == 'g') v <<= 30;
  return (size_t)v;
}

static void b_usage(const char *prog, const char *what) {
  fprintf(stderr,
          "usage: %s [--csv FILE] [--json FILE] [--iters N] [--warmup N] [--reps N] [--window N]\n"
          "          [--min-size BYTES] [--max-size BYTES] [--quick]\n"
          "%s\nSizes take K/M/G suffixes. --quick: --iters 2000 --reps 5 --warmup 100.\n"
          "--csv/--json FILE: the rows as CSV / JSON (FILE - : on stdout, instead of the table).\n",
          prog, what);
}

static bench_opts b_options(int argc, char **argv, size_t min_size, size_t max_size,
                            const char *what) {
  bench_opts o;
  memset(&o, 0, sizeof o);
  o.iters = 10000, o.warmup = 200, o.reps = 5, o.window = 64;
  o.min_size = min_size, o.max_size = max_size;
  o.impl = B_IMPL;
  /* ishmem-bench-put, mpi-bench-put, oshmem-bench-put: all "put" */
  const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
  o.name = strstr(base, "bench-") ? strstr(base, "bench-") + 6 : base;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (v && !strcmp(a, "--csv")) {
      o.csv_path = v, ++i;
    } else if (v && !strcmp(a, "--json")) {
      o.json_path = v, ++i;
    } else if (!strcmp(a, "--quick")) {
      o.iters = 2000, o.reps = 5, o.warmup = 100;
    } else if (v && !strcmp(a, "--iters")) {
      o.iters = atol(v), ++i;
    } else if (v && !strcmp(a, "--warmup")) {
      o.warmup = atol(v), ++i;
    } else if (v && !strcmp(a, "--reps")) {
      o.reps = atoi(v), ++i;
    } else if (v && !strcmp(a, "--window")) {
      o.window = atoi(v), ++i;
    } else if (v && !strcmp(a, "--min-size")) {
      o.min_size = b_parse_size(v), ++i;
    } else if (v && !strcmp(a, "--max-size")) {
      o.max_size = b_parse_size(v), ++i;
    } else {
      b_usage(argv[0], what);
      exit(strcmp(a, "--help") && strcmp(a, "-h") ? 2 : 0);
    }
  }
  /* "--csv --quick", the old spelling, would write a file named --quick */
  const int bad_path = (o.csv_path && o.csv_path[0] == '-' && o.csv_path[1]) ||
                       (o.json_path && o.json_path[0] == '-' && o.json_path[1]);
  if (bad_path || o.iters < 1 || o.reps < 1 || o.reps > 99 || o.window < 1 || o.warmup < 0 ||
      o.min_size > o.max_size) {
    b_usage(argv[0], what);
    exit(2);
  }
  o.table =
      !(o.csv_path && !strcmp(o.csv_path, "-")) && !(o.json_path && !strcmp(o.json_path, "-"));
  return o;
}

/* Operations per repetition at `size`: o->iters up to 8 KiB, then halved per doubling. */
static long b_ops(const bench_opts *o, size_t size) {
  long n = o->iters;
  for (size_t s = 8192; s < size && n > 10; s <<= 1) n /= 2;
  return n < 10 ? 10 : n;
}

/* The sizes of a sweep: o->min_size doubling up to o->max_size (at most 63). */
static int b_n_sizes(const bench_opts *o) {
  int n = 0;
  for (size_t s = o->min_size; s <= o->max_size && n < 63; s *= 2) ++n;
  return n;
}

/* One size's counts in repetition `r` (r < 0: the warm-up sweep, few operations). A window and
 * a timed sample move at most `sample_bytes`: short samples, so that a preempted one is an
 * outlier that the median drops. */
typedef struct {
  long ops;       /* latency operations */
  int window;     /* non-blocking operations per completion */
  long loops;     /* bandwidth windows, about ops operations in all */
  long lat_chunk; /* operations per latency sample */
  long bw_chunk;  /* windows per bandwidth sample */
} b_plan;

static b_plan b_plan_size(const bench_opts *o, size_t size, int r, size_t sample_bytes) {
  b_plan p;
  p.ops = b_ops(o, size);
  if (r < 0) p.ops = (o->warmup < p.ops ? o->warmup : p.ops) + 1;
  const long fit = (long)(sample_bytes / size) > 0 ? (long)(sample_bytes / size) : 1;
  p.window = fit < o->window ? (int)fit : o->window;
  p.loops = (p.ops + p.window - 1) / p.window;
  p.lat_chunk = fit < p.ops ? fit : p.ops;
  p.bw_chunk = fit / p.window > 1 ? fit / p.window : 1;
  return p;
}

#include "bench_report.h" /* timing, medians, the table and the --csv / --json rows */

/* ---- Helpers ------------------------------------------------------------------------------ */

static inline void b_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

/* Spins on a volatile load until *flag == value; yields now and then so that two PEs sharing
 * a core still progress. */
static inline void b_wait_eq(volatile long *flag, long value) {
  for (int spin = 0; *flag != value; ++spin) {
    if (spin < 1000) {
      b_cpu_relax();
    } else {
      sched_yield();
      spin = 0;
    }
  }
}

static void *b_malloc_checked(size_t n) {
  void *p = b_malloc(n);
  if (!p) {
    fprintf(stderr, "%s: symmetric allocation of %zu bytes failed\n", B_IMPL, n);
    b_abort(1);
  }
  return p;
}

/* A fixed byte pattern. Destinations are cleared before every measurement, and the pattern is
 * non-zero at every probed offset, so stale data cannot pass the check. */
static void b_fill(unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)(i * 7 + 1);
}

static int b_check(const unsigned char *p, size_t n) {
  if (n == 0) return 1;
  size_t probe[3] = {0, n / 2, n - 1};
  for (int k = 0; k < 3; ++k)
    if (p[probe[k]] != (unsigned char)(probe[k] * 7 + 1)) return 0;
  return 1;
}

static void b_require_two_pes(void) {
  if (b_n_pes() != 2) {
    if (b_my_pe() == 0) fprintf(stderr, "%s: run with exactly 2 PEs\n", B_IMPL);
    b_abort(2);
  }
}

#endif /* ISHMEM_BENCH_H */
