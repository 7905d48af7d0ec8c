/* Collective latency by size on any number of PEs, OSU style: every PE calls the collective
 * back to back, --iters times per repetition (halved per size doubling past 8 KiB); the time
 * per call is each PE's own, the slowest PE's is kept, and the median over --reps
 * repetitions is printed. One source for three implementations (see bench.h):
 *
 *   op             ishmem (team: WORLD)          OSHMEM (Open MPI 4.1: 1.4 API) MPI
 *   barrier_all    ishmem_barrier_all            shmem_barrier_all              MPI_Barrier
 *   sync           ishmem_team_sync              shmem_sync_all                 MPI_Barrier
 *   reduce_long    ishmem_long_sum_reduce        shmem_long_sum_to_all          MPI_Allreduce
 *   reduce_double  ishmem_double_sum_reduce      shmem_double_sum_to_all        MPI_Allreduce
 *   broadcast      ishmem_broadcastmem (root 0)  shmem_broadcast64              MPI_Bcast
 *   fcollect       ishmem_fcollectmem            shmem_fcollect64               MPI_Allgather
 *   alltoall       ishmem_alltoallmem            shmem_alltoall64               MPI_Alltoall
 *
 * Sizes are bytes per PE: the reduced array, the broadcast block, each PE's block of fcollect
 * and alltoall (whose buffers hold PEs x size). Bandwidth (MB/s) is the bytes each PE ends up
 * with per call: size for reduce and broadcast, PEs x size for fcollect and alltoall.
 * Buffers are symmetric (MPI: plain memory; its collectives need no window). OSHMEM's pSync
 * arrays alternate between two, so back-to-back calls never share one. After the timed
 * calls of each size the destination is cleared, one more call runs, and every element is
 * checked: a wrong result on any PE is reported on stderr, that size's figure is left out, and
 * the program ends with status 3 after the others. --op NAME[,NAME...] picks ops. */
#include "bench.h"

static int me, npes;

#if defined(USE_OSHMEM)
static long *c_psync[2];
static void *c_pwrk[2];
static int c_turn;
/* The other pSync (and its pWrk) than the previous call's. */
static long *c_next_psync(void **wrk) {
  c_turn ^= 1;
  if (wrk) *wrk = c_pwrk[c_turn];
  return c_psync[c_turn];
}
#define C_PE_SET 0, 0, npes
#define c_sync() shmem_sync_all()
static void c_sum_long(long *d, const long *s, size_t n) {
  void *wrk;
  long *psync = c_next_psync(&wrk);
  shmem_long_sum_to_all(d, s, (int)n, C_PE_SET, (long *)wrk, psync);
}
static void c_sum_double(double *d, const double *s, size_t n) {
  void *wrk;
  long *psync = c_next_psync(&wrk);
  shmem_double_sum_to_all(d, s, (int)n, C_PE_SET, (double *)wrk, psync);
}
#define c_broadcast(d, s, n, root) \
  shmem_broadcast64(d, s, (n) / 8, root, C_PE_SET, c_next_psync(NULL))
#define c_fcollect(d, s, n) shmem_fcollect64(d, s, (n) / 8, C_PE_SET, c_next_psync(NULL))
#define c_alltoall(d, s, n) shmem_alltoall64(d, s, (n) / 8, C_PE_SET, c_next_psync(NULL))
#define c_alloc(n) b_malloc_checked(n)
#define c_free(p) b_free(p)
/* pWrk: max(nreduce / 2 + 1, SHMEM_REDUCE_MIN_WRKDATA_SIZE) elements of 8 bytes. */
static void c_setup(size_t max_reduce_bytes) {
  const size_t wrk = (max_reduce_bytes / 16 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE) * 8;
  for (int k = 0; k < 2; ++k) {
    c_psync[k] = (long *)b_malloc_checked(SHMEM_SYNC_SIZE * sizeof(long));
    for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) c_psync[k][i] = SHMEM_SYNC_VALUE;
    c_pwrk[k] = b_malloc_checked(wrk);
  }
  shmem_barrier_all(); /* every pSync is initialized before any collective uses it */
}

#elif defined(USE_MPI)
#define c_sync() MPI_Barrier(MPI_COMM_WORLD)
#define c_sum_long(d, s, n) MPI_Allreduce(s, d, (int)(n), MPI_LONG, MPI_SUM, MPI_COMM_WORLD)
#define c_sum_double(d, s, n) MPI_Allreduce(s, d, (int)(n), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD)
/* One buffer: the root sends from its source, the others receive into their destination. */
#define c_broadcast(d, s, n, root) \
  MPI_Bcast(me == (root) ? (void *)(s) : (void *)(d), (int)(n), MPI_BYTE, root, MPI_COMM_WORLD)
#define c_fcollect(d, s, n) \
  MPI_Allgather(s, (int)(n), MPI_BYTE, d, (int)(n), MPI_BYTE, MPI_COMM_WORLD)
#define c_alltoall(d, s, n) \
  MPI_Alltoall(s, (int)(n), MPI_BYTE, d, (int)(n), MPI_BYTE, MPI_COMM_WORLD)
static void *c_alloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) b_abort(1);
  return p;
}
#define c_free(p) free(p)
#define c_setup(max_reduce_bytes) ((void)(max_reduce_bytes))

#else
#define c_sync() ishmem_team_sync(ISHMEM_TEAM_WORLD)
#define c_sum_long(d, s, n) ishmem_long_sum_reduce(ISHMEM_TEAM_WORLD, d, s, n)
#define c_sum_double(d, s, n) ishmem_double_sum_reduce(ISHMEM_TEAM_WORLD, d, s, n)
#define c_broadcast(d, s, n, root) ishmem_broadcastmem(ISHMEM_TEAM_WORLD, d, s, n, root)
#define c_fcollect(d, s, n) ishmem_fcollectmem(ISHMEM_TEAM_WORLD, d, s, n)
#define c_alltoall(d, s, n) ishmem_alltoallmem(ISHMEM_TEAM_WORLD, d, s, n)
#define c_alloc(n) b_malloc_checked(n)
#define c_free(p) b_free(p)
#define c_setup(max_reduce_bytes) ((void)(max_reduce_bytes))
#endif

enum {
  OP_BARRIER_ALL,
  OP_SYNC,
  OP_REDUCE_LONG,
  OP_REDUCE_DOUBLE,
  OP_BROADCAST,
  OP_FCOLLECT,
  OP_ALLTOALL,
  OP_COUNT
};
static const char *const op_names[OP_COUNT] = {
    "barrier_all", "sync", "reduce_long", "reduce_double", "broadcast", "fcollect", "alltoall"};

static bench_opts o;
static int wrong_results;        /* sizes whose checked call gave a wrong result on some PE */
static unsigned char *src, *dst; /* PEs x max_size each */
static double *times;            /* symmetric: PE 0 gathers every PE's time here */

/* One call of `op` at `size` bytes per PE. Broadcast's root is PE 0. */
static void run_op(int op, size_t size) {
  switch (op) {
    case OP_BARRIER_ALL:
      b_barrier_all();
      break;
    case OP_SYNC:
      c_sync();
      break;
    case OP_REDUCE_LONG:
      c_sum_long((long *)dst, (const long *)src, size / 8);
      break;
    case OP_REDUCE_DOUBLE:
      c_sum_double((double *)dst, (const double *)src, size / 8);
      break;
    case OP_BROADCAST:
      c_broadcast(dst, src, size, 0);
      break;
    case OP_FCOLLECT:
      c_fcollect(dst, src, size);
      break;
    case OP_ALLTOALL:
      c_alltoall(dst, src, size);
      break;
  }
}

/* The slowest PE's figure: each PE puts its own into PE 0's array. */
static double max_over_pes(double mine) {
  b_putmem(times + me, &mine, sizeof mine, 0);
  b_quiet();
  b_barrier_all();
  b_local_sync();
  double m = mine;
  if (me == 0)
    for (int pe = 0; pe < npes; ++pe) m = times[pe] > m ? times[pe] : m;
  b_barrier_all(); /* PE 0 has read before anyone writes again */
  return m;
}

/* Source values: element i of PE p's block for PE q (alltoall) or of its array. Integers
 * below 2^24, so double sums are exact. */
static long value(int p, size_t i, int q) {
  return (long)((p + 1) * 1000 + q * 100 + i % 97);
}

static void fill_source(int op, size_t size) {
  const size_t blocks = op == OP_ALLTOALL ? (size_t)npes : 1;
  for (size_t q = 0; q < blocks; ++q)
    for (size_t i = 0; i < size / 8; ++i) {
      long v = value(me, i, (int)q);
      if (op == OP_REDUCE_DOUBLE)
        ((double *)src)[q * size / 8 + i] = (double)v;
      else
        ((long *)src)[q * size / 8 + i] = v;
    }
}

/* The element of the result expected at index i. */
static double expected(int op, size_t size, size_t i) {
  const size_t n = size / 8;
  if (op == OP_REDUCE_LONG || op == OP_REDUCE_DOUBLE) {
    double sum = 0;
    for (int p = 0; p < npes; ++p) sum += (double)value(p, i, 0);
    return sum;
  }
  if (op == OP_BROADCAST) return (double)value(0, i, 0);
  /* fcollect, alltoall: block p is from PE p (alltoall: PE p's block for me) */
  return (double)value((int)(i / n), i % n, op == OP_ALLTOALL ? me : 0);
}

/* Index of the first wrong element of the result, or -1; *got and *want describe it. */
static long check_result(int op, size_t size, double *got, double *want) {
  size_t n = size / 8;
  if (op == OP_FCOLLECT || op == OP_ALLTOALL) n *= (size_t)npes;
  if (op == OP_BROADCAST && me == 0) n = 0; /* OSHMEM 1.4 and MPI leave the root's alone */
  for (size_t i = 0; i < n; ++i) {
    *got = op == OP_REDUCE_DOUBLE ? ((double *)dst)[i] : (double)((long *)dst)[i];
    *want = expected(op, size, i);
    if (*got != *want) return (long)i;
  }
  return -1;
}

static void bench_op(int op, size_t size) {
  b_progress(&o, size, op + 1, OP_COUNT); /* step: the operation */
  const long ops = b_ops(&o, size);
  const long warmup = o.warmup < ops ? o.warmup : ops;
  fill_source(op, size);
  for (long i = 0; i < warmup; ++i) run_op(op, size);
  double lat[99];
  for (int r = 0; r < o.reps; ++r) {
    b_barrier_all();
    double t0 = b_now_us();
    for (long i = 0; i < ops; ++i) run_op(op, size);
    lat[r] = max_over_pes((b_now_us() - t0) / ops);
  }
  if (size > 0) { /* one more call on a cleared destination, checked */
    memset(dst, 0, size * (size_t)npes);
    b_barrier_all();
    run_op(op, size);
    b_barrier_all();
    double got, want;
    long bad = check_result(op, size, &got, &want);
    if (bad >= 0)
      fprintf(stderr, "[pe %d] %s %s, %zu bytes: element %ld is %.0f, not %.0f\n", me, B_IMPL,
              op_names[op], size, bad, got, want);
    if (max_over_pes(bad >= 0 ? 1 : 0) > 0) { /* no figure for a wrong result */
      ++wrong_results;
      return;
    }
  }
  const double t = b_median(lat, o.reps);
  const double out = op == OP_FCOLLECT || op == OP_ALLTOALL ? (double)size * npes : (double)size;
  if (me != 0) return;
  if (o.table) printf("  %-13s", op_names[op]); /* b_row's table has no op column */
  b_row(&o, op_names[op], size, t, size > 0 ? out / t : -1);
}

/* Takes --op LIST out of argv (bench.h's parser knows the common options only). */
static int pick_ops(int *argc, char **argv, int *selected) {
  int n = 0, all = 1;
  for (int i = 0; i < *argc; ++i) {
    if (strcmp(argv[i], "--op") || i + 1 >= *argc) {
      argv[n++] = argv[i];
      continue;
    }
    all = 0;
    for (char *name = strtok(argv[++i], ","); name; name = strtok(NULL, ",")) {
      int k = 0;
      while (k < OP_COUNT && strcmp(name, op_names[k])) ++k;
      if (k == OP_COUNT) return -1;
      selected[k] = 1;
    }
  }
  for (int k = 0; all && k < OP_COUNT; ++k) selected[k] = 1;
  *argc = n;
  return 0;
}

int main(int argc, char **argv) {
  int selected[OP_COUNT] = {0};
  const char *what =
      "OSU-style collectives on any number of PEs: --op barrier_all,sync,reduce_long,"
      "reduce_double,broadcast,fcollect,alltoall (default all)";
  if (pick_ops(&argc, argv, selected) != 0) {
    b_usage(argv[0], what);
    return 2;
  }
  o = b_options(argc, argv, 8, (size_t)4 << 20, what);
  if (o.min_size < 8) o.min_size = 8; /* whole 8-byte elements */
  b_init((size_t)1 << 20);
  me = b_my_pe();
  npes = b_n_pes();
  c_setup(o.max_size);
  src = (unsigned char *)c_alloc(o.max_size * (size_t)npes);
  dst = (unsigned char *)c_alloc(o.max_size * (size_t)npes);
  times = (double *)b_malloc_checked((size_t)npes * sizeof(double));
  if (me == 0) {
    b_out(&o);
    if (o.table) {
      printf(
          "# %s collectives on %d PEs: time per call (us), slowest PE, median over %d "
          "repetitions\n# %-13s %10s %14s %16s\n",
          B_IMPL, npes, o.reps, "op", "size(B)", "latency(us)", "bandwidth(MB/s)");
    }
    fflush(stdout);
  }
  b_barrier_all();
  for (int op = 0; op < OP_COUNT; ++op) {
    if (!selected[op]) continue;
    if (op == OP_BARRIER_ALL || op == OP_SYNC) {
      bench_op(op, 0);
      continue;
    }
    for (size_t size = o.min_size; size <= o.max_size; size *= 2) bench_op(op, size);
  }
  b_barrier_all();
  c_free(dst);
  c_free(src);
  b_free(times);
  b_finalize();
  return wrong_results ? 3 : 0;
}
