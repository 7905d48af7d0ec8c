/* Off-node RMA from the host beside raw MPI one-sided calls, in the same run between the same
 * two ranks. Run it in split mode, so that the peer is reached through MPI:
 *   ISHMEM_MAX_LOCAL_PES=1 OMPI_MCA_osc=^ucx mpirun -np 2 ishmem-bench-offnode
 * Four operations, interleaved at every size of every repetition:
 *   ishmem put  latency: putmem + quiet;           bandwidth: putmem_nbi x window + quiet
 *   MPI put     latency: MPI_Put + MPI_Win_flush;  bandwidth: MPI_Put x window + MPI_Win_flush
 *   ishmem get  latency: getmem;                   bandwidth: getmem_nbi x window + quiet
 *   MPI get     latency: MPI_Get + MPI_Win_flush;  bandwidth: MPI_Get x window + MPI_Win_flush
 * The raw window is made as ishmem's heap window is (MPI_Win_create_dynamic, one attached
 * buffer, MPI_Win_lock_all), so both go through the same MPI component. Samples and medians as
 * in rma.c: each timed sample moves at most 16 MiB; the data are checked after every
 * measurement. Output: one row per size with both figures and ishmem / MPI. */
#include "bench.h"

#define SAMPLE_BYTES ((size_t)16 << 20)

enum { ISHMEM_PUT, MPI_PUT, ISHMEM_GET, MPI_GET, N_OPS };
/* Rows of CSV output are all "ishmem" rows (run-host.sh keeps a program's own rows only); the
 * op names the raw MPI ones. */
static const char *const op_name[N_OPS] = {"offnode_put", "offnode_mpi_put", "offnode_get",
                                           "offnode_mpi_get"};

/* The symmetric buffers, and the raw window: [0, max) is put's target, [max, 2 max) get's
 * source, at the peer's `raw_base`. */
static unsigned char *src, *dst, *raw;
static MPI_Win win;
static MPI_Aint raw_base[2];
static size_t max_size;
static const int peer = 1;

static void mpi_ok(int rc, const char *what) {
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "offnode: %s failed (%d)\n", what, rc);
    ishmem_global_exit(1);
  }
}

static void start(int op, size_t n) {
  switch (op) {
    case ISHMEM_PUT:
      ishmem_putmem_nbi(dst, src, n, peer);
      break;
    case MPI_PUT:
      MPI_Put(src, (int)n, MPI_BYTE, peer, raw_base[peer], (int)n, MPI_BYTE, win);
      break;
    case ISHMEM_GET:
      ishmem_getmem_nbi(dst, src, n, peer);
      break;
    default:
      MPI_Get(dst, (int)n, MPI_BYTE, peer, raw_base[peer] + (MPI_Aint)max_size, (int)n, MPI_BYTE,
              win);
  }
}

static void complete(int op) {
  if (op == ISHMEM_PUT || op == ISHMEM_GET)
    ishmem_quiet();
  else
    MPI_Win_flush(peer, win);
}

/* One latency operation: the blocking call as a program writes it. */
static void once(int op, size_t n) {
  if (op == ISHMEM_PUT) {
    ishmem_putmem(dst, src, n, peer);
    ishmem_quiet();
  } else if (op == ISHMEM_GET) {
    ishmem_getmem(dst, src, n, peer);
  } else {
    start(op, n);
    complete(op);
  }
}

/* Where `op` delivers on the checking PE (1 for puts, 0 for gets), and that PE. */
static unsigned char *target_of(int op) {
  return op == ISHMEM_PUT ? dst : op == MPI_PUT ? raw : dst;
}
static int checker_of(int op) {
  return op == ISHMEM_PUT || op == MPI_PUT ? 1 : 0;
}

static void measure(int op, size_t size, const b_plan *p, b_samples *lat, b_samples *bw,
                    int record) {
  once(op, size); /* brings the buffers back after the other sizes */
  for (long done = 0, n; done < p->ops; done += n) {
    n = p->ops - done < p->lat_chunk ? p->ops - done : p->lat_chunk;
    double t0 = b_now_us();
    for (long i = 0; i < n; ++i) once(op, size);
    if (record) b_push(lat, (b_now_us() - t0) / n);
  }
  for (long done = 0, n; done < p->loops; done += n) {
    n = p->loops - done < p->bw_chunk ? p->loops - done : p->bw_chunk;
    double t0 = b_now_us();
    for (long l = 0; l < n; ++l) {
      for (int w = 0; w < p->window; ++w) start(op, size);
      complete(op);
    }
    if (record) b_push(bw, (double)size * p->window * n / (b_now_us() - t0)); /* MB/s */
  }
}

static double ratio(double a, double b) {
  return a > 0 && b > 0 ? a / b : -1;
}

int main(int argc, char **argv) {
  bench_opts o = b_options(argc, argv, 8, (size_t)4 << 20,
                           "off-node put and get beside MPI_Put/MPI_Get + MPI_Win_flush, 2 PEs");
  if (o.min_size == 0) o.min_size = 1;
  max_size = o.max_size;
  b_init(2 * max_size + ((size_t)1 << 20));
  b_require_two_pes();
  const int me = b_my_pe();
  src = b_malloc_checked(max_size);
  dst = b_malloc_checked(max_size);
  b_fill(src, max_size);
  /* The raw window: ishmem_init started MPI, and its ranks in MPI_COMM_WORLD are the PEs. */
  raw = malloc(2 * max_size);
  if (!raw) b_abort(1);
  memset(raw, 0, max_size);
  b_fill(raw + max_size, max_size);
  MPI_Aint mine;
  mpi_ok(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win), "MPI_Win_create_dynamic");
  mpi_ok(MPI_Win_attach(win, raw, (MPI_Aint)(2 * max_size)), "MPI_Win_attach");
  mpi_ok(MPI_Get_address(raw, &mine), "MPI_Get_address");
  mpi_ok(MPI_Allgather(&mine, 1, MPI_AINT, raw_base, 1, MPI_AINT, MPI_COMM_WORLD), "MPI_Allgather");
  mpi_ok(MPI_Win_lock_all(MPI_MODE_NOCHECK, win), "MPI_Win_lock_all");

  const int n_sizes = b_n_sizes(&o);
  b_samples *lat = calloc((size_t)(n_sizes * N_OPS), sizeof(b_samples));
  b_samples *bw = calloc((size_t)(n_sizes * N_OPS), sizeof(b_samples));
  for (int r = -1; r < o.reps; ++r) { /* r = -1: the warm-up sweep, not recorded */
    size_t size = o.min_size;
    for (int k = 0; k < n_sizes; ++k, size *= 2) {
      b_progress(&o, size, (r + 1) * n_sizes + k + 1, (o.reps + 1) * n_sizes);
      const b_plan plan = b_plan_size(&o, size, r, SAMPLE_BYTES);
      for (int op = 0; op < N_OPS; ++op) {
        memset(target_of(op), 0, size);
        MPI_Win_sync(win);
        b_barrier_all();
        if (me == 0) measure(op, size, &plan, &lat[k * N_OPS + op], &bw[k * N_OPS + op], r >= 0);
        b_barrier_all();
        MPI_Win_sync(win);
        if (me == checker_of(op) && !b_check(target_of(op), size)) {
          fprintf(stderr, "offnode %s: wrong data at %zu bytes\n", op_name[op], size);
          b_abort(3);
        }
      }
    }
  }
  if (me == 0) {
    b_out(&o);
    if (o.table) {
      printf(
          "# off-node RMA, 2 PEs, PE 0 -> PE 1; medians over %d repetitions; ratio = "
          "ishmem / MPI\n",
          o.reps);
      printf("# %9s %10s %10s %6s %10s %10s %6s %12s %12s %6s %12s %12s %6s\n", "size(B)",
             "put(us)", "MPI(us)", "ratio", "get(us)", "MPI(us)", "ratio", "put(MB/s)", "MPI(MB/s)",
             "ratio", "get(MB/s)", "MPI(MB/s)", "ratio");
    }
    size_t size = o.min_size;
    for (int k = 0; k < n_sizes; ++k, size *= 2) {
      double l[N_OPS], b[N_OPS];
      for (int op = 0; op < N_OPS; ++op) {
        l[op] = b_median(lat[k * N_OPS + op].v, lat[k * N_OPS + op].n);
        b[op] = b_median(bw[k * N_OPS + op].v, bw[k * N_OPS + op].n);
      }
      for (int op = 0; op < N_OPS; ++op)
        b_out_row(&o, "ishmem", op_name[op], size, l[op], b[op], -1);
      if (o.table) {
        printf(
            "  %9zu %10.3f %10.3f %6.2f %10.3f %10.3f %6.2f %12.1f %12.1f %6.2f %12.1f %12.1f "
            "%6.2f\n",
            size, l[0], l[1], ratio(l[0], l[1]), l[2], l[3], ratio(l[2], l[3]), b[0], b[1],
            ratio(b[0], b[1]), b[2], b[3], ratio(b[2], b[3]));
      }
    }
    fflush(stdout);
  }
  for (int i = 0; i < n_sizes * N_OPS; ++i) {
    free(lat[i].v);
    free(bw[i].v);
  }
  free(lat);
  free(bw);
  b_barrier_all();
  mpi_ok(MPI_Win_unlock_all(win), "MPI_Win_unlock_all");
  mpi_ok(MPI_Win_detach(win, raw), "MPI_Win_detach");
  mpi_ok(MPI_Win_free(&win), "MPI_Win_free");
  free(raw);
  b_free(dst);
  b_free(src);
  b_finalize();
  return 0;
}
