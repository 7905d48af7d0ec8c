// The device barriers' deadline (ISHMEM_COLLECTIVE_TIMEOUT, which ctest sets to 1 s here):
// PE 0's kernel waits in ishmem_barrier_all for PEs that come late, gives up with
// ISHMEM_ERR_TIMEOUT after about the deadline, and the barrier sequence stays in step: the
// late PEs pass that barrier when they come, and the next barrier of every PE works. Built
// without ISHMEMX_DEVICE_WAIT_LIMIT, so the deadline is the only way out.
#include <chrono>
#include <cstdlib>
#include <thread>

#include "gpu_test_util.h"

using namespace gpu_test;

namespace {

__global__ void device_barrier(ishmemx_device_handle_t h, int form, int *rc) {
  *rc = form == 0 ? ishmem_barrier_all(h) : ishmem_barrier_all();
}

// Runs one device barrier on this PE and returns its status and the seconds it took.
int timed_device_barrier(int form, double *seconds) {
  DeviceBuffer rc(sizeof(int));
  const auto start = std::chrono::steady_clock::now();
  device_barrier<<<1, 1>>>(handle(), form, rc.as<int>());
  GPU_LAUNCHED();
  *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return to_host(rc.as<int>(), 1)[0];
}

TEST(DeviceBarrierDeadline, GivesUpAndStaysInStep) {
  SKIP_WITHOUT_GPU();
  const char *limit = getenv("ISHMEM_COLLECTIVE_TIMEOUT");
  if (!limit) GTEST_SKIP() << "needs ISHMEM_COLLECTIVE_TIMEOUT";
  const double limit_s = atof(limit);
  for (int form = 0; form < 2; ++form) {
    SCOPED_TRACE(form == 0 ? "handle form" : "no-argument form");
    double waited = 0;
    if (my_pe() == 0) {
      EXPECT_EQ(timed_device_barrier(form, &waited), ISHMEM_ERR_TIMEOUT);
      EXPECT_GE(waited, limit_s);
      EXPECT_LT(waited, limit_s + 10);
    }
    ASSERT_EQ(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);  // the others come late
    if (my_pe() != 0) EXPECT_EQ(timed_device_barrier(form, &waited), ISHMEM_SUCCESS);
    // In step: the next device barrier meets every PE at once.
    EXPECT_EQ(timed_device_barrier(form, &waited), ISHMEM_SUCCESS);
    EXPECT_LT(waited, limit_s);
  }
}

}  // namespace
