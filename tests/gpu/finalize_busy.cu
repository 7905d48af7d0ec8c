// ishmem_finalize while a kernel queued before it still writes a large symmetric block: the
// heap is unmapped only after every PE's device work has completed, so finalize succeeds, the
// kernel ends cleanly and the device stays usable. Its own main (finalize is the test); run
// under mpirun at 2 and 4 PEs. Exits 0 when it passes or when no GPU backend is active.
#include <cstdio>
#include <string>

#include "busy_kernels.h"
#include "ishmem.h"

namespace {

int failures = 0;
void check(bool ok, int pe, const char *what, const char *detail) {
  if (ok) return;
  ++failures;
  fprintf(stderr, "[pe %d] FAILED: %s%s%s\n", pe, what, detail ? ": " : "", detail ? detail : "");
}

}  // namespace

int main() {
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "ishmem_init: %s\n", ishmemx_last_error());
    return 1;
  }
  const int me = ishmem_my_pe();
  const char *backend = ishmemx_backend_name();
  if (std::string(backend) != "cuda" && std::string(backend) != "hip") {
    if (me == 0) printf("SKIPPED: no usable GPU (backend %s)\n", backend);
    return ishmem_finalize() == ISHMEM_SUCCESS ? 0 : 1;
  }
  const std::size_t bytes = std::size_t{256} << 20;
  unsigned *big = static_cast<unsigned *>(ishmem_malloc(bytes));
  check(big != nullptr, me, "ishmem_malloc", ishmemx_last_error());
  unsigned *rounds = nullptr;
  gpuEvent_t done{};
  check(gpuMalloc(reinterpret_cast<void **>(&rounds), sizeof(unsigned)) == gpuSuccess, me,
        "gpuMalloc", nullptr);
  check(gpuEventCreate(&done) == gpuSuccess, me, "gpuEventCreate", nullptr);
  check(ishmem_barrier_all() == ISHMEM_SUCCESS, me, "ishmem_barrier_all", nullptr);
  busy::keep_writing<<<busy::kGrid, busy::kBlock>>>(big, bytes / sizeof(unsigned), busy::kCycles,
                                                    me, rounds);
  check(gpuEventRecord(done, 0) == gpuSuccess, me, "gpuEventRecord", nullptr);
  const int rc = ishmem_finalize();
  check(rc == ISHMEM_SUCCESS, me, "ishmem_finalize", rc ? ishmemx_last_error() : nullptr);
  gpuError_t query = gpuEventQuery(done);
  check(query == gpuSuccess, me, "the kernel had not ended when ishmem_finalize returned",
        gpuGetErrorString(query));
  gpuError_t sync = gpuDeviceSynchronize();
  check(sync == gpuSuccess, me, "the kernel", gpuGetErrorString(sync));
  unsigned host_rounds = 0;
  check(gpuMemcpy(&host_rounds, rounds, sizeof host_rounds, gpuMemcpyDeviceToHost) == gpuSuccess &&
            host_rounds > 0,
        me, "the kernel ran no round", nullptr);
  (void)gpuEventDestroy(done);
  (void)gpuFree(rounds);
  if (failures == 0 && me == 0) printf("PASSED: finalize waited for the kernel\n");
  return failures ? 1 : 0;
}
