// Kernels built with ISHMEMX_DEVICE_NODE_LOCAL (set for this program in CMakeLists.txt): the
// device calls hold no request code for the host proxy. To node-local PEs they move data as
// always; to off-node PEs (split mode) they return ISHMEM_ERR_UNSUPPORTED and touch nothing,
// and ishmem_quiet reports the same when some PE is off-node. Both forms; then a block's put
// (every thread's status), a fetching _nbi atomic, put-with-signal and fence, handle form.
#include <cstdint>
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

constexpr int kBlock = 64;

// Handle form, one block of kBlock threads: to every PE, the block puts its kBlock ints into
// dest[kBlock * me ...] (each thread records the call's status), then thread 0 adds 1 to
// counter with a fetching _nbi atomic and puts its int with a signal (add 1).
__global__ void group_and_signal(ishmemx_device_handle_t h, const int *src, int *dest,
                                 long long *counter, uint64_t *sig, int *status,
                                 long long *fetched) {
  const int me = h.my_pe;
  for (int pe = 0; pe < h.n_pes; ++pe) {
    int *s = status + (kBlock + 2) * pe;
    s[threadIdx.x] = ishmemx_putmem_block(h, dest + kBlock * me, src, kBlock * sizeof(int), pe);
    if (threadIdx.x == 0) {
      s[kBlock] = ishmem_longlong_atomic_fetch_add_nbi(h, fetched + pe, counter, 1, pe);
      s[kBlock + 1] = ishmem_putmem_signal(h, dest + kBlock * kMaxPes + me, src, sizeof(int), sig,
                                           1, ISHMEM_SIGNAL_ADD, pe);
    }
  }
  if (threadIdx.x == 0) status[(kBlock + 2) * kMaxPes] = ishmem_fence(h);
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

TEST(NodeLocalBuild, GroupCallsFetchingNbiAtomicsAndSignals) {
  SKIP_WITHOUT_GPU();
  ASSERT_LE(n_pes(), kMaxPes);
  const ishmemx_device_handle_t h = handle();
  if (std::getenv("ISHMEM_TEST_SPLIT")) ASSERT_LT(h.n_local, n_pes()) << "no PE is off-node";
  auto local = [&](int pe) { return pe >= h.first_local_pe && pe < h.first_local_pe + h.n_local; };
  const std::size_t dest_ints = kBlock * kMaxPes + kMaxPes;
  auto *dest = static_cast<int *>(ishmem_calloc(dest_ints, sizeof(int)));
  auto *counter = static_cast<long long *>(ishmem_calloc(1, sizeof(long long)));
  auto *sig = static_cast<uint64_t *>(ishmem_calloc(1, sizeof(uint64_t)));
  ASSERT_NE(dest, nullptr);
  ASSERT_NE(counter, nullptr);
  ASSERT_NE(sig, nullptr);
  DeviceBuffer src(kBlock * sizeof(int)), status(sizeof(int) * ((kBlock + 2) * kMaxPes + 1)),
      fetched(sizeof(long long) * kMaxPes);
  to_device(src.as<int>(), std::vector<int>(kBlock, 100 + my_pe()));
  GPU_OK(gpuMemset(fetched.ptr, 0xff, fetched.bytes));
  GPU_OK(gpuDeviceSynchronize());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  group_and_signal<<<1, kBlock>>>(h, src.as<int>(), dest, counter, sig, status.as<int>(),
                                  fetched.as<long long>());
  ASSERT_TRUE(GPU_LAUNCHED());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);

  const std::vector<int> s = to_host(status.as<int>(), (kBlock + 2) * kMaxPes + 1);
  const std::vector<int> got = to_host(dest, dest_ints);
  const std::vector<long long> old = to_host(fetched.as<long long>(), kMaxPes);
  int n_local = 0;
  for (int pe = 0; pe < n_pes(); ++pe) {
    const int want = local(pe) ? ISHMEM_SUCCESS : ISHMEM_ERR_UNSUPPORTED;
    const int *sp = s.data() + (kBlock + 2) * pe;
    for (int t = 0; t < kBlock; ++t) EXPECT_EQ(sp[t], want) << "putmem_block to PE " << pe;
    EXPECT_EQ(sp[kBlock], want) << "atomic_fetch_add_nbi to PE " << pe;
    EXPECT_EQ(sp[kBlock + 1], want) << "putmem_signal to PE " << pe;
    if (!local(pe)) EXPECT_EQ(old[pe], 0) << "the value fetched from off-node PE " << pe;
    const int from_pe = local(pe) ? 100 + pe : 0;
    for (int i = 0; i < kBlock; ++i)
      EXPECT_EQ(got[kBlock * pe + i], from_pe) << "putmem_block from PE " << pe << " at " << i;
    EXPECT_EQ(got[kBlock * kMaxPes + pe], from_pe) << "putmem_signal from PE " << pe;
    n_local += local(pe) ? 1 : 0;
  }
  EXPECT_EQ(to_host(counter, 1)[0], n_local) << "fetch_add_nbi that reached this PE";
  EXPECT_EQ(to_host(sig, 1)[0], static_cast<uint64_t>(n_local)) << "signals that reached it";
  EXPECT_EQ(s[(kBlock + 2) * kMaxPes],
            h.n_local == n_pes() ? ISHMEM_SUCCESS : ISHMEM_ERR_UNSUPPORTED)
      << "fence";
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(sig);
  ishmem_free(counter);
  ishmem_free(dest);
}

}  // namespace
