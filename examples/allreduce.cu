// allreduce: one sum reduction over ISHMEM_TEAM_WORLD done three ways, each checked:
//  - host:   ishmem_long_sum_reduce, a blocking call from the CPU;
//  - stream: ishmemx_long_sum_reduce_on_stream, enqueued behind earlier GPU work on a stream so
//            the CPU need not wait for that work before asking for the reduction;
//  - kernel: ishmemx_long_sum_reduce_block, called by every thread of a block inside a kernel,
//            so a kernel can reduce between its own steps without returning to the host.
// With the host backend there is no stream or kernel: the stream form runs at once and the
// "kernel" is the calling thread (a GPU build on a host heap makes the host call there).
//
//   mpirun -np 2 build/examples/allreduce [--elems N]
#include <algorithm>
#include <vector>

#include "example_util.h"

namespace {

// Every thread of the block calls the block form with the same arguments; they share the work.
EXAMPLE_HD void reduce_in_kernel(long *dest, const long *source, size_t n, int *status) {
#ifdef EXAMPLE_DEVICE_FORMS
  const int rc = ishmemx_long_sum_reduce_block(ISHMEM_TEAM_WORLD, dest, source, n);
#else
  const int rc = ishmem_long_sum_reduce(ISHMEM_TEAM_WORLD, dest, source, n);
#endif
  *status = rc;  // the same status in every thread
}

// Element i of PE p's source; the sum over PEs has a closed form to check against.
long source_value(int p, size_t i) {
  return (long)(p + 1) * (long)i + p;
}
long expected_sum(int npes, size_t i) {
  return (long)i * npes * (npes + 1) / 2 + (long)npes * (npes - 1) / 2;
}

// Copies dest back and compares every element; prints one line for the way it was reduced.
bool check(const char *way, const long *dest, size_t n) {
  std::vector<long> got(n);
  example_copy(got.data(), dest, n * sizeof(long));
  const int me = ishmem_my_pe(), npes = ishmem_n_pes();
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != expected_sum(npes, i) && wrong++ < 3)
      printf("allreduce %s: PE %d element %zu is %ld, expected %ld: WRONG\n", way, me, i, got[i],
             expected_sum(npes, i));
  }
  if (me == 0 || wrong)
    printf("allreduce %s: PE %d, sum of %zu longs over %d PEs: %s\n", way, me, n, npes,
           wrong ? "WRONG" : "ok");
  return wrong == 0;
}

}  // namespace

int main(int argc, char **argv) {
  size_t n = 1000;
  for (int i = 1; i + 1 < argc; i += 2)
    if (!strcmp(argv[i], "--elems")) n = strtoull(argv[i + 1], nullptr, 0);
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "allreduce: ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  const int me = ishmem_my_pe();
  if (me == 0) printf("allreduce: %s heap\n", ishmemx_backend_name());

  // Source and results are symmetric: the reduction reads and writes peers' copies.
  long *source = (long *)ishmem_malloc(n * sizeof(long));
  long *dest = (long *)ishmem_malloc(3 * n * sizeof(long));
  EXAMPLE_CHECK("ishmem_malloc", source && dest);
  std::vector<long> init(3 * n, -1);
  for (size_t i = 0; i < n; ++i) init[i] = source_value(me, i);
  example_copy(source, init.data(), n * sizeof(long));
  std::fill(init.begin(), init.end(), -1);  // results start wrong, so a missed write shows
  example_copy(dest, init.data(), 3 * n * sizeof(long));
  EXAMPLE_OK(ishmem_barrier_all());

  bool ok = true;
  EXAMPLE_OK(ishmem_long_sum_reduce(ISHMEM_TEAM_WORLD, dest, source, n));
  ok &= check("host", dest, n);

  // NULL: the default stream. The call returns at once; the result is there after the sync.
  EXAMPLE_OK(ishmemx_long_sum_reduce_on_stream(ISHMEM_TEAM_WORLD, dest + n, source, n, nullptr));
  example_stream_sync();
  ok &= check("stream", dest + n, n);

  int *status = (int *)example_private_alloc(sizeof(int));
  example_run<reduce_in_kernel>(256, dest + 2 * n, (const long *)source, n, status);
  int kernel_status = -1;
  example_copy(&kernel_status, status, sizeof(int));
  EXAMPLE_CHECK("the kernel's ishmemx_long_sum_reduce_block", kernel_status == ISHMEM_SUCCESS);
  ok &= check("kernel", dest + 2 * n, n);

  example_private_free(status);
  ishmem_free(dest);
  ishmem_free(source);
  ishmem_finalize();
  return ok ? 0 : 1;
}
