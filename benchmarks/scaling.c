/* How ishmem's costs grow with the number of node-local PEs: run it at 1, 2, 4, 8 PEs
 * (benchmarks/run-scaling.sh does, and compares the counts). Every PE takes part in every
 * figure; a time is each PE's own, the maximum over PEs is kept, and the median over
 * repetitions is printed. Only the host API is used, so it runs on any backend
 * (ISHMEM_BACKEND decides, as in an application: a GPU build measures GPU heaps).
 *
 *   init_first    ishmem_init, the first in this process (MPI already up)
 *   init          ishmem_init after ishmem_finalize, --reps cycles in this process
 *   finalize      ishmem_finalize in those cycles
 *   barrier       ishmem_barrier_all (--iters per repetition)
 *   reduce8       ishmem_long_sum_reduce of one long over the world (--iters / 10 per
 *                 repetition), its sum checked
 *   malloc_reuse  ishmem_malloc of 2 MiB that fits the committed heap (no growth; --iters / 10
 *                 per repetition, interleaved with the barriers in 10 blocks, so that both
 *                 see the same load and compare)
 *   free_reuse    the ishmem_free that follows it (the memory stays committed)
 *   malloc_grow   ishmem_malloc of 2 MiB that grows the heap by one chunk: create a memfd
 *                 (or GPU allocation), send its fd to every node-local peer, map every
 *                 peer's (--iters / 100 per repetition, at least 5); the heap runs with
 *                 ISHMEM_TRIM_THRESHOLD=0 ISHMEM_TRIM_INTERVAL=0 so that
 *   free_trim     the ishmem_free after it unmaps the chunk again
 *   alltoall_put  every PE puts SIZE bytes to every other PE (putmem_nbi, targets staggered),
 *                 then quiet + barrier_all: time per round, bandwidth per PE
 *                 ((PEs - 1) x SIZE per round); alltoall_put_total: the sum over PEs
 *   cpus          online CPUs of the machine (a count, for the tables: more PEs time-share)
 *   fds_*         open file descriptors of one process (the most over PEs), /proc/self/fd:
 *                 fds_mpi before ishmem_init, fds_init after it, fds_used after the
 *                 measurements above, fds_grown holding 32 blocks that each grew the heap,
 *                 fds_final after the last ishmem_finalize
 * Sizes: the all-to-all runs at 64 KiB, 256 KiB and 1 MiB, filtered by --min-size and
 * --max-size. Data are checked after the all-to-all. */
#include "bench.h" /* first: it defines _GNU_SOURCE */

#include <dirent.h>
#include <unistd.h>

#define GROW_BYTES ((size_t)2 << 20) /* ISHMEM_CHUNK_SIZE's default: one chunk per growth */
#define REUSE_BYTES GROW_BYTES
#define HELD_BLOCKS 32

static bench_opts o;
static int me, npes;
static const char *backend = "?";

static void fail_now(const char *what) {
  fprintf(stderr, "[pe %d] scaling: %s failed: %s\n", me, what, ishmemx_last_error());
  MPI_Abort(MPI_COMM_WORLD, 1);
}
#define CHECK_OK(call, what)                      \
  do {                                            \
    if ((call) != ISHMEM_SUCCESS) fail_now(what); \
  } while (0)

static int count_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') ++n;
  closedir(d);
  return n - 1; /* the directory's own fd */
}

static double max_over_pes(double v) {
  double m = v;
  MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}

/* One row; a negative figure is left empty (CSV) or "-" (table). */
static void row(const char *op, size_t size, double lat_us, double mbps, long count) {
  if (me != 0) return;
  b_out_row(&o, "ishmem", op, size, lat_us, mbps, count);
  if (o.table) {
    printf("  %-18s %4d %10zu ", op, npes, size);
    if (lat_us >= 0)
      printf("%14.3f ", lat_us);
    else
      printf("%14s ", "-");
    if (mbps >= 0)
      printf("%16.1f ", mbps);
    else
      printf("%16s ", "-");
    if (count >= 0)
      printf("%6ld\n", count);
    else
      printf("%6s\n", "-");
  }
  fflush(stdout);
}

static void fds_row(const char *op) {
  row(op, 0, -1, -1, (long)max_over_pes((double)count_fds()));
}

/* ishmem_init timed on every PE from a common start; the slowest PE's time. */
static double timed_init(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = b_now_us();
  if (ishmem_init() != ISHMEM_SUCCESS) fail_now("ishmem_init");
  return max_over_pes(b_now_us() - t0);
}

/* An 8-byte sum-reduce over the world, checked: every PE adds its PE number + 1. */
static void bench_reduce8(void) {
  long *src = b_malloc_checked(2 * sizeof(long)), *dest = src + 1;
  const long ops = o.iters / 10 < 1 ? 1 : o.iters / 10;
  const long want = (long)npes * (npes + 1) / 2;
  double t[99];
  *src = me + 1;
  for (long i = 0; i < o.warmup; ++i)
    CHECK_OK(ishmem_long_sum_reduce(ISHMEM_TEAM_WORLD, dest, src, 1), "sum_reduce");
  for (int r = 0; r < o.reps; ++r) {
    ishmem_barrier_all();
    double t0 = b_now_us();
    for (long i = 0; i < ops; ++i)
      CHECK_OK(ishmem_long_sum_reduce(ISHMEM_TEAM_WORLD, dest, src, 1), "sum_reduce");
    t[r] = max_over_pes((b_now_us() - t0) / ops);
    if (*dest != want) fail_now("sum_reduce: wrong sum");
  }
  row("reduce8", 8, b_median(t, o.reps), -1, -1);
  b_free(src);
}

/* Barrier and reused malloc, interleaved in blocks within each repetition so that both see the
 * same load (with more PEs than cores, or other work on the machine, that load varies). */
static void bench_barrier_reuse(void) {
  enum { BLOCKS = 10 };
  const long barriers = o.iters / BLOCKS < 1 ? 1 : o.iters / BLOCKS;
  const long pairs = o.iters / (10 * BLOCKS) < 1 ? 1 : o.iters / (10 * BLOCKS);
  double tb[99], tm[99], tf[99];
  b_free(b_malloc_checked(REUSE_BYTES)); /* commits it: later ones reuse it */
  for (long i = 0; i < o.warmup; ++i) ishmem_barrier_all();
  for (int r = 0; r < o.reps; ++r) {
    double sum_b = 0, sum_m = 0, sum_f = 0;
    for (int k = 0; k < BLOCKS; ++k) {
      ishmem_barrier_all();
      double t0 = b_now_us();
      for (long i = 0; i < barriers; ++i) ishmem_barrier_all();
      sum_b += b_now_us() - t0;
      for (long i = 0; i < pairs; ++i) {
        t0 = b_now_us();
        void *p = ishmem_malloc(REUSE_BYTES);
        double t1 = b_now_us();
        if (!p) fail_now("ishmem_malloc");
        CHECK_OK(ishmem_free(p), "ishmem_free");
        sum_m += t1 - t0;
        sum_f += b_now_us() - t1;
      }
    }
    tb[r] = max_over_pes(sum_b / (BLOCKS * barriers));
    tm[r] = max_over_pes(sum_m / (BLOCKS * pairs));
    tf[r] = max_over_pes(sum_f / (BLOCKS * pairs));
  }
  row("barrier", 0, b_median(tb, o.reps), -1, -1);
  row("malloc_reuse", REUSE_BYTES, b_median(tm, o.reps), -1, -1);
  row("free_reuse", REUSE_BYTES, b_median(tf, o.reps), -1, -1);
}

/* Growing malloc + trimming free, timed apart; ops per repetition. */
static void bench_grow(long ops) {
  double tm[99], tf[99];
  b_free(b_malloc_checked(GROW_BYTES));
  for (int r = 0; r < o.reps; ++r) {
    double sum_m = 0, sum_f = 0;
    ishmem_barrier_all();
    for (long i = 0; i < ops; ++i) {
      double t0 = b_now_us();
      void *p = ishmem_malloc(GROW_BYTES);
      double t1 = b_now_us();
      if (!p) fail_now("ishmem_malloc");
      CHECK_OK(ishmem_free(p), "ishmem_free");
      sum_m += t1 - t0;
      sum_f += b_now_us() - t1;
    }
    tm[r] = max_over_pes(sum_m / ops);
    tf[r] = max_over_pes(sum_f / ops);
  }
  row("malloc_grow", GROW_BYTES, b_median(tm, o.reps), -1, -1);
  row("free_trim", GROW_BYTES, b_median(tf, o.reps), -1, -1);
}

static void bench_alltoall(void) {
  if (npes < 2) return; /* nobody to put to */
  const size_t sizes[3] = {(size_t)64 << 10, (size_t)256 << 10, (size_t)1 << 20};
  for (int k = 0; k < 3; ++k) {
    const size_t size = sizes[k];
    if (size < o.min_size || size > o.max_size) continue;
    /* Every PE moves (PEs - 1) x size per round: as many rounds as b_ops gives operations. */
    long rounds = b_ops(&o, size) / (npes - 1);
    if (rounds < 3) rounds = 3;
    unsigned char *host = (unsigned char *)malloc(size * (size_t)npes);
    char *src = (char *)b_malloc_checked(size);
    char *dst = (char *)b_malloc_checked(size * (size_t)npes); /* slot j: from PE j */
    if (!host) fail_now("malloc");
    /* Through the API, not the CPU: a GPU heap is not CPU-addressable. */
    b_fill(host, size);
    CHECK_OK(ishmem_putmem(src, host, size, me), "putmem (fill)");
    memset(host, 0, size * (size_t)npes);
    CHECK_OK(ishmem_putmem(dst, host, size * (size_t)npes, me), "putmem (clear)");
    CHECK_OK(ishmem_barrier_all(), "barrier_all");
    double lat[99];
    for (int r = -1; r < o.reps; ++r) { /* r = -1: warm-up */
      ishmem_barrier_all();
      double t0 = b_now_us();
      for (long i = 0; i < (r < 0 ? 1 : rounds); ++i) {
        for (int j = 1; j < npes; ++j)
          ishmem_putmem_nbi(dst + (size_t)me * size, src, size, (me + j) % npes);
        ishmem_quiet();
        ishmem_barrier_all();
      }
      if (r >= 0) lat[r] = max_over_pes((b_now_us() - t0) / rounds);
    }
    CHECK_OK(ishmem_getmem(host, dst, size * (size_t)npes, me), "getmem (check)");
    int bad = -1;
    for (int j = 0; j < npes; ++j)
      if (j != me && !b_check(host + (size_t)j * size, size)) bad = j;
    if (bad >= 0) {
      fprintf(stderr, "[pe %d] scaling: wrong data from PE %d at %zu bytes\n", me, bad, size);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    const double t = b_median(lat, o.reps);
    const double per_pe = (double)(npes - 1) * (double)size / t; /* bytes/us = MB/s */
    row("alltoall_put", size, t, per_pe, -1);
    row("alltoall_put_total", size, t, per_pe * npes, -1);
    CHECK_OK(ishmem_free(dst), "ishmem_free");
    CHECK_OK(ishmem_free(src), "ishmem_free");
    free(host);
  }
}

int main(int argc, char **argv) {
  (void)b_init; /* bench.h's init forces the host backend: this program takes any */
  o = b_options(argc, argv, (size_t)64 << 10, (size_t)1 << 20,
                "Scaling with node-local PEs: init, malloc (reused, growing), fds, "
                "all-to-all put, barrier; any PE count");
  /* MPI first, so that ishmem can be finalized and initialized again in this process; at the
   * level that the served off-node path needs between nodes. */
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &npes);
  MPI_Comm node;
  int n_local = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, me, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &n_local);
  MPI_Comm_free(&node);
  cpu_set_t cpus;
  int n_cpus = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : -1;
  const double fds_mpi = max_over_pes((double)count_fds());
  const long grow_ops = o.iters / 100 < 5 ? 5 : o.iters / 100;

  const double init_first = timed_init();
  backend = ishmemx_backend_name();
  if (me == 0) {
    b_out(&o);
    if (o.table) {
      printf(
          "# ishmem scaling, %s backend: %d PEs, %d node-local, %ld online cpus (%d in PE 0's "
          "affinity)\n# times: slowest PE, median over %d repetitions; counts: most over "
          "PEs\n",
          backend, npes, n_local, sysconf(_SC_NPROCESSORS_ONLN), n_cpus, o.reps);
      printf("# %-18s %4s %10s %14s %16s %6s\n", "op", "pes", "size(B)", "latency(us)",
             "bandwidth(MB/s)", "count");
    }
    fflush(stdout);
  }
  row("fds_mpi", 0, -1, -1, (long)fds_mpi);
  row("cpus", 0, -1, -1, sysconf(_SC_NPROCESSORS_ONLN)); /* PEs beyond it time-share cores */
  row("init_first", 0, init_first, -1, -1);
  fds_row("fds_init");

  bench_barrier_reuse();
  bench_reduce8();
  bench_alltoall();
  fds_row("fds_used");

  /* Re-initialization, timed. */
  double init[99], fin[99];
  for (int r = 0; r < o.reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = b_now_us();
    CHECK_OK(ishmem_finalize(), "ishmem_finalize");
    fin[r] = max_over_pes(b_now_us() - t0);
    init[r] = timed_init();
  }
  row("init", 0, b_median(init, o.reps), -1, -1);
  row("finalize", 0, b_median(fin, o.reps), -1, -1);

  /* Growth: a heap that returns every freed chunk, so that every malloc grows it again. */
  CHECK_OK(ishmem_finalize(), "ishmem_finalize");
  setenv("ISHMEM_TRIM_THRESHOLD", "0", 1);
  setenv("ISHMEM_TRIM_INTERVAL", "0", 1);
  timed_init();
  bench_grow(grow_ops);
  void *held[HELD_BLOCKS];
  for (int i = 0; i < HELD_BLOCKS; ++i) held[i] = b_malloc_checked(GROW_BYTES);
  fds_row("fds_grown");
  for (int i = HELD_BLOCKS - 1; i >= 0; --i) CHECK_OK(ishmem_free(held[i]), "ishmem_free");
  CHECK_OK(ishmem_finalize(), "ishmem_finalize");
  fds_row("fds_final");
  MPI_Finalize();
  return 0;
}
