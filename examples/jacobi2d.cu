// jacobi2d: a 2D Jacobi stencil (each cell becomes the mean of its four neighbours) on a grid
// split by rows across PEs, written twice:
//  - ishmem: the whole iteration loop is one kernel. After each sweep the kernel sends its edge
//    rows into the neighbours' halo rows with ishmem_putmem_signal_nbi and waits for theirs on
//    the signals: no return to the host and no message matching between iterations;
//  - MPI: a kernel per sweep, then the halo rows go through MPI_Sendrecv, staged through host
//    memory on GPUs (the MPI need not be GPU-aware).
// Both must give the same field; PE 0 also computes it alone as a reference. It prints the
// checksums (sum and sum of squares) and the time of each version.
//
//   mpirun -np 2 build/examples/jacobi2d [--nx COLUMNS] [--ny ROWS] [--iters N]
//
// The top edge is held at 1, the other edges at 0; every cell starts at 0.
#include <cmath>
#include <vector>

#include "example_util.h"  // ishmem.h brings mpi.h, without the C++ bindings

namespace {

// One sweep: rows 1..rows of dst from src (rows 0 and rows+1 are halos, columns 0 and nx-1 the
// fixed edges), shared by the threads of the block.
EXAMPLE_HD void sweep(double *dst, const double *src, int rows, int nx) {
  const size_t width = nx - 2, cells = (size_t)rows * width;
  for (size_t k = example_thread(); k < cells; k += example_threads()) {
    const size_t i = (1 + k / width) * nx + 1 + k % width;
    dst[i] = 0.25 * (src[i - nx] + src[i + nx] + src[i - 1] + src[i + 1]);
  }
}

// The ishmem version's kernel. Buffers and signals are symmetric; a signal per halo row and per
// buffer, so that a fast neighbour's next row, which goes to the other buffer, cannot be taken
// for this one. up/down are -1 at the grid's edges.
struct JacobiArgs {
  double *buf[2];
  uint64_t *sig;  // [buffer][0: top halo from up, 1: bottom halo from down]
  int rows, nx, iters, up, down, up_rows;
};
EXAMPLE_HD void jacobi_ishmem(JacobiArgs a) {
  const size_t row_bytes = a.nx * sizeof(double);
  for (int it = 0; it < a.iters; ++it) {
    const int b = (it + 1) % 2;
    double *dst = a.buf[b];
    sweep(dst, a.buf[it % 2], a.rows, a.nx);
    example_block_sync();  // the edge rows are complete before they are sent
    if (example_thread() == 0) {
      const uint64_t step = it + 1;
      if (a.up >= 0)
        ishmem_putmem_signal_nbi(dst + (size_t)(a.up_rows + 1) * a.nx, dst + a.nx, row_bytes,
                                 a.sig + 2 * b + 1, step, ISHMEM_SIGNAL_SET, a.up);
      if (a.down >= 0)
        ishmem_putmem_signal_nbi(dst, dst + (size_t)a.rows * a.nx, row_bytes, a.sig + 2 * b, step,
                                 ISHMEM_SIGNAL_SET, a.down);
      if (a.up >= 0) ishmem_signal_wait_until(a.sig + 2 * b, ISHMEM_CMP_GE, step);
      if (a.down >= 0) ishmem_signal_wait_until(a.sig + 2 * b + 1, ISHMEM_CMP_GE, step);
      ishmem_quiet();  // the rows sent are out before the next sweep of this buffer rewrites them
    }
    example_block_sync();  // the halos arrived before any thread reads them
  }
}

int rows_of(int pe, int npes, int ny) {
  return ny / npes + (pe < ny % npes ? 1 : 0);
}

// The global sum and sum of squares of the interior of `field` (rows x nx, with halos).
void checksum(const double *field, int rows, int nx, double out[2]) {
  double local[2] = {0, 0};
  for (int r = 1; r <= rows; ++r)
    for (int c = 1; c < nx - 1; ++c) {
      const double v = field[(size_t)r * nx + c];
      local[0] += v;
      local[1] += v * v;
    }
  if (MPI_Allreduce(local, out, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS) {
    fprintf(stderr, "jacobi2d: MPI_Allreduce failed\n");
    ishmem_global_exit(1);
  }
}

// A field of rows + 2 rows on the host: zero, with the top halo at 1 on the first PE.
std::vector<double> initial_field(int rows, int nx, bool top_edge) {
  std::vector<double> f((size_t)(rows + 2) * nx, 0.0);
  if (top_edge)
    for (int c = 0; c < nx; ++c) f[c] = 1.0;
  return f;
}

double now() {
  return MPI_Wtime();
}

#define MPI_OK(call) EXAMPLE_CHECK(#call, (call) == MPI_SUCCESS)

}  // namespace

int main(int argc, char **argv) {
  int nx = 128, ny = 128, iters = 200;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--nx")) nx = atoi(argv[i + 1]);
    if (!strcmp(argv[i], "--ny")) ny = atoi(argv[i + 1]);
    if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
  }
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "jacobi2d: ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  const int me = ishmem_my_pe(), npes = ishmem_n_pes();
  if (nx < 3 || ny < npes || iters < 1) {
    if (me == 0) fprintf(stderr, "jacobi2d: need --nx >= 3, --ny >= PEs, --iters >= 1\n");
    ishmem_finalize();
    return 2;
  }
  const int rows = rows_of(me, npes, ny);
  const int up = me > 0 ? me - 1 : -1, down = me + 1 < npes ? me + 1 : -1;
  const size_t bytes = (size_t)(rows + 2) * nx * sizeof(double);
  const std::vector<double> init = initial_field(rows, nx, up < 0);
  std::vector<double> result(init.size());

  // ishmem. Every PE allocates the largest share (symmetric sizes agree); the signals start 0.
  const size_t max_bytes = (size_t)(rows_of(0, npes, ny) + 2) * nx * sizeof(double);
  JacobiArgs a{};
  a.buf[0] = (double *)ishmem_malloc(max_bytes);
  a.buf[1] = (double *)ishmem_malloc(max_bytes);
  a.sig = (uint64_t *)ishmem_calloc(4, sizeof(uint64_t));
  EXAMPLE_CHECK("ishmem_malloc", a.buf[0] && a.buf[1] && a.sig);
  example_copy(a.buf[0], init.data(), bytes);
  example_copy(a.buf[1], init.data(), bytes);
  a.rows = rows, a.nx = nx, a.iters = iters, a.up = up, a.down = down;
  a.up_rows = up >= 0 ? rows_of(up, npes, ny) : 0;
  EXAMPLE_OK(ishmem_barrier_all());
  double t0 = now();
  example_run<jacobi_ishmem>(256, a);
  EXAMPLE_OK(ishmem_barrier_all());
  const double ishmem_s = now() - t0;
  example_copy(result.data(), a.buf[iters % 2], bytes);
  double sum_ishmem[2];
  checksum(result.data(), rows, nx, sum_ishmem);

  // MPI, on private buffers; halo rows staged through host memory.
  double *buf[2] = {(double *)example_private_alloc(bytes), (double *)example_private_alloc(bytes)};
  example_copy(buf[0], init.data(), bytes);
  example_copy(buf[1], init.data(), bytes);
  std::vector<double> send(2 * (size_t)nx), recv(2 * (size_t)nx);
  const int mpi_up = up >= 0 ? up : MPI_PROC_NULL, mpi_down = down >= 0 ? down : MPI_PROC_NULL;
  MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
  t0 = now();
  for (int it = 0; it < iters; ++it) {
    double *dst = buf[(it + 1) % 2];
    example_run<sweep>(256, dst, (const double *)buf[it % 2], rows, nx);
    example_copy(send.data(), dst + nx, nx * sizeof(double));
    example_copy(send.data() + nx, dst + (size_t)rows * nx, nx * sizeof(double));
    MPI_OK(MPI_Sendrecv(send.data(), nx, MPI_DOUBLE, mpi_up, 0, recv.data() + nx, nx, MPI_DOUBLE,
                        mpi_down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    MPI_OK(MPI_Sendrecv(send.data() + nx, nx, MPI_DOUBLE, mpi_down, 1, recv.data(), nx, MPI_DOUBLE,
                        mpi_up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    if (up >= 0) example_copy(dst, recv.data(), nx * sizeof(double));
    if (down >= 0)
      example_copy(dst + (size_t)(rows + 1) * nx, recv.data() + nx, nx * sizeof(double));
  }
  MPI_OK(MPI_Barrier(MPI_COMM_WORLD));
  const double mpi_s = now() - t0;
  example_copy(result.data(), buf[iters % 2], bytes);
  double sum_mpi[2];
  checksum(result.data(), rows, nx, sum_mpi);

  // The same field computed by one PE alone, on the host.
  bool ok = true;
  if (me == 0) {
    std::vector<double> f[2] = {initial_field(ny, nx, true), initial_field(ny, nx, true)};
    for (int it = 0; it < iters; ++it) sweep(f[(it + 1) % 2].data(), f[it % 2].data(), ny, nx);
    double ref[2] = {0, 0};
    for (int r = 1; r <= ny; ++r)
      for (int c = 1; c < nx - 1; ++c) {
        const double v = f[iters % 2][(size_t)r * nx + c];
        ref[0] += v;
        ref[1] += v * v;
      }
    // ishmem and MPI run the same sweeps on the same device and sum alike: exactly equal. One
    // PE alone adds the partial sums in another order: a tight tolerance.
    auto close = [](double x, double y) { return std::fabs(x - y) <= 1e-12 * std::fabs(y); };
    const bool agree = sum_ishmem[0] == sum_mpi[0] && sum_ishmem[1] == sum_mpi[1];
    const bool match = close(sum_ishmem[0], ref[0]) && close(sum_ishmem[1], ref[1]);
    ok = agree && match;
    printf("jacobi2d: %d x %d cells, %d iterations, %d PEs, %s heap\n", ny, nx, iters, npes,
           ishmemx_backend_name());
    printf("  ishmem (put-with-signal): sum %.15g, sum of squares %.15g, %.3f ms\n", sum_ishmem[0],
           sum_ishmem[1], ishmem_s * 1e3);
    printf("  MPI (Sendrecv):           sum %.15g, sum of squares %.15g, %.3f ms\n", sum_mpi[0],
           sum_mpi[1], mpi_s * 1e3);
    printf("  one PE alone:             sum %.15g, sum of squares %.15g\n", ref[0], ref[1]);
    printf("jacobi2d: %s\n", ok      ? "ok"
                             : agree ? "WRONG: both differ from one PE alone"
                                     : "WRONG: ishmem and MPI differ");
  }
  // Every PE exits with PE 0's verdict.
  int verdict = ok ? 1 : 0;
  MPI_OK(MPI_Bcast(&verdict, 1, MPI_INT, 0, MPI_COMM_WORLD));

  example_private_free(buf[0]);
  example_private_free(buf[1]);
  ishmem_free(a.sig);
  ishmem_free(a.buf[1]);
  ishmem_free(a.buf[0]);
  ishmem_finalize();
  return verdict ? 0 : 1;
}
