// Kernels built with ISHMEMX_DEVICE_NODE_LOCAL (set for this program in CMakeLists.txt): the
// device calls hold no request code for the host proxy. To node-local PEs they move data as
// always; to off-node PEs (split mode) they return ISHMEM_ERR_UNSUPPORTED and touch nothing,
// and ishmem_quiet reports the same when some PE is off-node. Both forms.
#include <cstdlib>

#include "gpu_test_util.h"

using namespace gpu_test;

namespace {

constexpr int kMaxPes = 8;

// PE me writes 100 + me into ints[me] (p) and ints[kMaxPes + me] (putmem) of every PE, adds
// 1 to its counter, reads ints[me] back (g) and records each call's status per PE.
__global__ void every_call(ishmemx_device_handle_t h, int form, int *ints, long long *counter,
                           int *status, int *read_back) {
  const int me = h.my_pe;
  const int value = 100 + me;
  for (int pe = 0; pe < h.n_pes; ++pe) {
    int *s = status + 3 * pe;
    if (form == 0) {
      s[0] = ishmem_int_p(h, ints + me, value, pe);
      s[1] = ishmem_putmem(h, ints + kMaxPes + me, &value, sizeof value, pe);
      s[2] = ishmem_longlong_atomic_add(h, counter, 1, pe);
    } else {
      s[0] = ishmem_int_p(ints + me, value, pe);
      s[1] = ishmem_putmem(ints + kMaxPes + me, &value, sizeof value, pe);
      s[2] = ishmem_longlong_atomic_add(counter, 1, pe);
    }
  }
  status[3 * kMaxPes] = form == 0 ? ishmem_quiet(h) : ishmem_quiet();
  for (int pe = 0; pe < h.n_pes; ++pe)
    read_back[pe] = form == 0 ? ishmem_int_g(h, ints + me, pe) : ishmem_int_g(ints + me, pe);
}

TEST(NodeLocalBuild, NodeLocalPesMoveDataOffNodePesAreRefused) {
  SKIP_WITHOUT_GPU();
  ASSERT_LE(n_pes(), kMaxPes);
  const ishmemx_device_handle_t h = handle();
  if (std::getenv("ISHMEM_TEST_SPLIT")) ASSERT_LT(h.n_local, n_pes()) << "no PE is off-node";
  auto local = [&](int pe) { return pe >= h.first_local_pe && pe < h.first_local_pe + h.n_local; };
  auto *ints = static_cast<int *>(ishmem_malloc(2 * kMaxPes * sizeof(int)));
  auto *counter = static_cast<long long *>(ishmem_malloc(sizeof(long long)));
  ASSERT_NE(ints, nullptr);
  ASSERT_NE(counter, nullptr);
  DeviceBuffer status(sizeof(int) * (3 * kMaxPes + 1)), read_back(sizeof(int) * kMaxPes);
  for (int form = 0; form < 2; ++form) {
    SCOPED_TRACE(form == 0 ? "handle form" : "no-argument form");
    GPU_OK(gpuMemset(ints, 0, 2 * kMaxPes * sizeof(int)));
    GPU_OK(gpuMemset(counter, 0, sizeof(long long)));
    GPU_OK(gpuDeviceSynchronize());
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    every_call<<<1, 1>>>(h, form, ints, counter, status.as<int>(), read_back.as<int>());
    ASSERT_TRUE(GPU_LAUNCHED());
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);

    const std::vector<int> s = to_host(status.as<int>(), 3 * kMaxPes + 1);
    const std::vector<int> got = to_host(ints, 2 * kMaxPes);
    const std::vector<int> back = to_host(read_back.as<int>(), kMaxPes);
    const long long count = to_host(counter, 1)[0];
    long long expected_count = 0;
    for (int pe = 0; pe < n_pes(); ++pe) {
      const int want = local(pe) ? ISHMEM_SUCCESS : ISHMEM_ERR_UNSUPPORTED;
      EXPECT_EQ(s[3 * pe], want) << "p to PE " << pe;
      EXPECT_EQ(s[3 * pe + 1], want) << "putmem to PE " << pe;
      EXPECT_EQ(s[3 * pe + 2], want) << "atomic_add to PE " << pe;
      // What PE `pe` wrote here, and what this PE read back from PE `pe`.
      const int from_pe = local(pe) ? 100 + pe : 0;
      EXPECT_EQ(got[pe], from_pe) << "p from PE " << pe;
      EXPECT_EQ(got[kMaxPes + pe], from_pe) << "putmem from PE " << pe;
      EXPECT_EQ(back[pe], local(pe) ? 100 + my_pe() : 0) << "g from PE " << pe;
      expected_count += local(pe) ? 1 : 0;
    }
    EXPECT_EQ(count, expected_count) << "atomic adds that reached this PE";
    EXPECT_EQ(s[3 * kMaxPes], h.n_local == n_pes() ? ISHMEM_SUCCESS : ISHMEM_ERR_UNSUPPORTED)
        << "quiet";
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(counter);
  ishmem_free(ints);
}

}  // namespace
