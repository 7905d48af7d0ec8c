// The device side of ISHMEM_DEBUG=1 and of the committed-size range. ctest runs this program
// with ISHMEM_DEBUG=1: valid calls of both forms work and see the right data; ishmem_ptr is
// NULL past the committed heap. The DISABLED_ tests each make one bad call, which must print
// what it was and where and stop the kernel: ctest runs each on its own, through
// expect_kernel_stop.sh, which wants that message and a non-zero exit.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "gpu_test_util.h"

using namespace gpu_test;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// Every PE puts, p's, adds and signals to its right neighbour; `form` 0 is the handle form,
// 1 the no-argument form. data: 4 longs; sig: one word.
__global__ void valid_calls(ishmemx_device_handle_t h, int form, long *data, const long *src,
                            std::uint64_t *sig, int peer) {
  if (form == 0) {
    ishmem_long_put(h, data, src, 2, peer);
    ishmem_long_p(h, data + 2, src[0] + 1, peer);
    ishmem_long_atomic_add(h, data + 3, 5, peer);
    ishmem_quiet(h);
    ishmem_putmem_signal(h, data, src, 0, sig, 1, ISHMEM_SIGNAL_ADD, peer);
  } else {
    ishmem_long_put(data, src, 2, peer);
    ishmem_long_p(data + 2, src[0] + 1, peer);
    ishmem_long_atomic_add(data + 3, 5, peer);
    ishmem_quiet();
    ishmem_putmem_signal(data, src, 0, sig, 1, ISHMEM_SIGNAL_ADD, peer);
  }
}

// ishmem_ptr on the device for `n` addresses, in both forms.
__global__ void device_ptrs(ishmemx_device_handle_t h, void *const *addrs, int n, int pe,
                            void **out) {
  for (int i = 0; i < n; ++i) {
    out[2 * i] = ishmem_ptr(h, addrs[i], pe);
    out[2 * i + 1] = ishmem_ptr(addrs[i], pe);
  }
}

TEST(DeviceDebug, ValidCallsWork) {
  SKIP_WITHOUT_GPU();
  const ishmemx_device_handle_t h = handle();
  ASSERT_EQ(h.debug, 1) << "run with ISHMEM_DEBUG=1";
  long *data = static_cast<long *>(ishmem_calloc(4, sizeof(long)));
  auto *sig = static_cast<std::uint64_t *>(ishmem_calloc(1, sizeof(std::uint64_t)));
  ASSERT_TRUE(data && sig) << ishmemx_last_error();
  DeviceBuffer src(2 * sizeof(long));
  to_device(src.as<long>(), std::vector<long>{100L + my_pe(), 200L + my_pe()});
  for (int form = 0; form < 2; ++form) {
    SCOPED_TRACE(form == 0 ? "handle form" : "no-argument form");
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    valid_calls<<<1, 1>>>(h, form, data, src.as<long>(), sig, right_pe());
    GPU_LAUNCHED();
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    const std::vector<long> got = to_host(data, 4);
    EXPECT_EQ(got[0], 100L + left_pe());
    EXPECT_EQ(got[1], 200L + left_pe());
    EXPECT_EQ(got[2], 101L + left_pe());
    EXPECT_EQ(got[3], 5L * (form + 1));
    EXPECT_EQ(to_host(sig, 1)[0], std::uint64_t(form + 1));
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(sig), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(data), ISHMEM_SUCCESS);
}

// The device ishmem_ptr follows the committed size after growth and trim, in both forms, with
// a handle taken before either.
TEST(DeviceDebug, PtrIsNullPastTheCommittedHeap) {
  SKIP_WITHOUT_GPU();
  const ishmemx_device_handle_t h = handle();
  ASSERT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS);
  char *keep = static_cast<char *>(ishmem_malloc(64));
  char *big = static_cast<char *>(ishmem_malloc(8 * kMiB));
  ASSERT_TRUE(keep && big) << ishmemx_last_error();
  char *inside = big + 6 * kMiB;  // past the first chunk (ISHMEM_CHUNK_SIZE is 2M)
  DeviceBuffer addrs(sizeof(void *)), out(2 * sizeof(void *));
  to_device(addrs.as<void *>(), std::vector<void *>{inside});
  device_ptrs<<<1, 1>>>(h, addrs.as<void *const>(), 1, my_pe(), out.as<void *>());
  GPU_LAUNCHED();
  std::vector<void *> got = to_host(out.as<void *>(), 2);
  EXPECT_EQ(got[0], inside) << "handle form, committed";
  EXPECT_EQ(got[1], inside) << "no-argument form, committed";
  EXPECT_EQ(ishmem_free(big), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS);
  device_ptrs<<<1, 1>>>(h, addrs.as<void *const>(), 1, my_pe(), out.as<void *>());
  GPU_LAUNCHED();
  got = to_host(out.as<void *>(), 2);
  EXPECT_EQ(got[0], nullptr) << "handle form, trimmed";
  EXPECT_EQ(got[1], nullptr) << "no-argument form, trimmed";
  EXPECT_EQ(ishmem_free(keep), ISHMEM_SUCCESS);
}

// ---- One bad call each; the kernel must stop --------------------------------------------

// Only block 1's thread 3 calls, so that the message must name them.
__global__ void bad_call(ishmemx_device_handle_t h, int which, long *target, int pe) {
  if (blockIdx.x != 1 || threadIdx.x != 3) return;
  long value = 1;
  if (which == 0) ishmem_putmem(h, target, &value, sizeof value, pe);
  if (which == 1) ishmem_long_p(target, value, pe);
  if (which == 2) ishmem_long_atomic_inc(h, target, pe);
}

// Runs bad_call on every PE; a kernel that returns is a failure. The kernel's stop leaves the
// GPU context unusable, so the PE leaves at once, with a non-zero status.
void expect_stop(int which, bool freed_target, int pe) {
  SKIP_WITHOUT_GPU();
  const ishmemx_device_handle_t h = handle();
  ASSERT_EQ(h.debug, 1) << "run with ISHMEM_DEBUG=1";
  long *keep = static_cast<long *>(ishmem_calloc(1, sizeof(long)));
  long *freed = static_cast<long *>(ishmem_calloc(1, sizeof(long)));
  ASSERT_TRUE(keep && freed) << ishmemx_last_error();
  ASSERT_EQ(ishmem_free(freed), ISHMEM_SUCCESS);
  bad_call<<<2, 32>>>(h, which, freed_target ? freed : keep, pe);
  const gpuError_t launched = gpuGetLastError();
  const gpuError_t done = gpuDeviceSynchronize();
  fprintf(stderr, "[pe %d] kernel: launch %s, end %s\n", my_pe(), gpuGetErrorString(launched),
          gpuGetErrorString(done));
  fflush(stdout);
  fflush(stderr);
  if (launched != gpuSuccess || done != gpuSuccess) _Exit(3);
  ADD_FAILURE() << "the kernel ran to its end";
}

TEST(DeviceDebug, DISABLED_PutToFreedBlockStops) {
  expect_stop(0, true, right_pe());
}
TEST(DeviceDebug, DISABLED_NoArgPToFreedBlockStops) {
  expect_stop(1, true, right_pe());
}
TEST(DeviceDebug, DISABLED_AtomicToBadPeStops) {
  expect_stop(2, false, n_pes());
}

}  // namespace
