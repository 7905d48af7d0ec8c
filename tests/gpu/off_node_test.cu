// Host-initiated calls on a GPU heap to off-node PEs (the served path: staged through pinned
// host buffers, atomics run as device atomics at the target). Run with every PE its own node
// (ISHMEM_MAX_LOCAL_PES=1) or in nodes of two (=2); the data checks hold in both. Handle form:
// no relocatable device code.
#include <cstdint>
#include <vector>

#include "gpu_test_util.h"

using namespace gpu_test;

namespace {

unsigned char pattern(int pe, std::size_t i) {
  return static_cast<unsigned char>((i * 131 + static_cast<std::size_t>(pe) * 7 + i / 4093) & 0xff);
}

// 8 B to 8 MiB: below, at and across the 1 MiB staging chunk, not all multiples of it.
TEST(GpuOffNode, PutGetBySize) {
  SKIP_WITHOUT_GPU();
  const std::size_t kSizes[] = {8, 4096, (std::size_t{1} << 20) + 8,
                                3 * (std::size_t{1} << 20) + 777, std::size_t{8} << 20};
  const std::size_t max = std::size_t{8} << 20;
  auto *heap = static_cast<unsigned char *>(ishmem_malloc(max + 64));
  auto *staged_src = static_cast<unsigned char *>(ishmem_malloc(max));  // device memory
  ASSERT_NE(heap, nullptr);
  ASSERT_NE(staged_src, nullptr);
  std::vector<unsigned char> mine(max), back(max);
  for (std::size_t bytes : kSizes) {
    for (int from_device = 0; from_device < 2; ++from_device) {
      for (std::size_t i = 0; i < bytes; ++i) mine[i] = pattern(my_pe() + from_device, i + bytes);
      GPU_OK(gpuMemset(heap, 0, max + 64));
      GPU_OK(gpuMemcpy(staged_src, mine.data(), bytes, gpuMemcpyDefault));
      GPU_OK(gpuDeviceSynchronize());
      ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
      const void *src = from_device ? static_cast<const void *>(staged_src) : mine.data();
      ASSERT_EQ(ishmem_putmem(heap, src, bytes, right_pe()), ISHMEM_SUCCESS)
          << ishmemx_last_error();
      ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
      std::vector<unsigned char> got = to_host(heap, bytes + 1);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < bytes; ++i)
        wrong += got[i] != pattern(left_pe() + from_device, i + bytes);
      EXPECT_EQ(wrong, 0u) << bytes << " bytes from PE " << left_pe()
                           << (from_device ? " (device source)" : "");
      EXPECT_EQ(got[bytes], 0) << "the put wrote past its end";
      std::fill(back.begin(), back.end(), 0);
      ASSERT_EQ(ishmem_getmem(back.data(), heap, bytes, right_pe()), ISHMEM_SUCCESS);
      wrong = 0;
      for (std::size_t i = 0; i < bytes; ++i) wrong += back[i] != mine[i];
      EXPECT_EQ(wrong, 0u) << "get of " << bytes << " bytes";
      ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    }
  }
  ishmem_free(staged_src);
  ishmem_free(heap);
}

// Host collectives on ISHMEM_TEAM_WORLD, which spans nodes here: staged through host memory
// and MPI. Every value of every form checked.
TEST(GpuOffNode, CollectivesOnTheWorldTeam) {
  SKIP_WITHOUT_GPU();
  const int n = n_pes(), me = my_pe();
  const std::size_t k = 1000, slots = k * static_cast<std::size_t>(n) * 3;
  int *src = static_cast<int *>(ishmem_malloc(slots * sizeof(int)));
  int *dst = static_cast<int *>(ishmem_malloc(slots * sizeof(int)));
  ASSERT_NE(src, nullptr);
  ASSERT_NE(dst, nullptr);
  std::vector<int> mine(slots);
  for (std::size_t i = 0; i < slots; ++i) mine[i] = me * 100000 + static_cast<int>(i);
  auto reset = [&] {
    GPU_OK(gpuMemcpy(src, mine.data(), slots * sizeof(int), gpuMemcpyDefault));
    GPU_OK(gpuMemset(dst, 0xff, slots * sizeof(int)));  // -1 where nothing was written
    GPU_OK(gpuDeviceSynchronize());
  };
  const ishmem_team_t world = ISHMEM_TEAM_WORLD;
  auto value = [](int pe, std::size_t i) { return pe * 100000 + static_cast<int>(i); };

  reset();
  ASSERT_EQ(ishmem_int_broadcast(world, dst, src, k, n - 1), ISHMEM_SUCCESS)
      << ishmemx_last_error();
  std::vector<int> got = to_host(dst, slots);
  for (std::size_t i = 0; i < k; ++i) ASSERT_EQ(got[i], value(n - 1, i)) << "broadcast " << i;
  EXPECT_EQ(got[k], -1) << "broadcast wrote past its end";

  reset();
  ASSERT_EQ(ishmem_int_fcollect(world, dst, src, k), ISHMEM_SUCCESS) << ishmemx_last_error();
  got = to_host(dst, slots);
  for (int pe = 0; pe < n; ++pe)
    for (std::size_t i = 0; i < k; ++i) ASSERT_EQ(got[pe * k + i], value(pe, i)) << "fcollect";

  reset();  // PE p gives p + 1 elements
  ASSERT_EQ(ishmem_int_collect(world, dst, src, static_cast<std::size_t>(me) + 1), ISHMEM_SUCCESS)
      << ishmemx_last_error();
  got = to_host(dst, slots);
  std::size_t at = 0;
  for (int pe = 0; pe < n; ++pe)
    for (std::size_t i = 0; i <= static_cast<std::size_t>(pe); ++i)
      ASSERT_EQ(got[at++], value(pe, i)) << "collect from PE " << pe;
  EXPECT_EQ(got[at], -1) << "collect wrote past its end";

  reset();  // block j of PE p's source goes to PE j, as block p
  ASSERT_EQ(ishmem_int_alltoall(world, dst, src, k), ISHMEM_SUCCESS) << ishmemx_last_error();
  got = to_host(dst, slots);
  for (int pe = 0; pe < n; ++pe)
    for (std::size_t i = 0; i < k; ++i)
      ASSERT_EQ(got[pe * k + i], value(pe, me * k + i)) << "alltoall block of PE " << pe;

  reset();  // strided: source every 3rd element, dest every 2nd; the gaps keep their -1
  const std::size_t m = 10;
  ASSERT_EQ(ishmem_int_alltoalls(world, dst, src, 2, 3, m), ISHMEM_SUCCESS) << ishmemx_last_error();
  got = to_host(dst, slots);
  for (int pe = 0; pe < n; ++pe)
    for (std::size_t i = 0; i < m; ++i) {
      ASSERT_EQ(got[(pe * m + i) * 2], value(pe, (me * m + i) * 3)) << "alltoalls";
      ASSERT_EQ(got[(pe * m + i) * 2 + 1], -1) << "alltoalls wrote a gap";
    }

  reset();
  ASSERT_EQ(ishmem_int_sum_reduce(world, dst, src, k), ISHMEM_SUCCESS) << ishmemx_last_error();
  got = to_host(dst, slots);
  for (std::size_t i = 0; i < k; ++i) {
    long sum = 0;
    for (int pe = 0; pe < n; ++pe) sum += value(pe, i);
    ASSERT_EQ(got[i], static_cast<int>(sum)) << "sum_reduce " << i;
  }
  reset();  // in place
  ASSERT_EQ(ishmem_int_max_reduce(world, src, src, k), ISHMEM_SUCCESS) << ishmemx_last_error();
  got = to_host(src, k);
  for (std::size_t i = 0; i < k; ++i) ASSERT_EQ(got[i], value(n - 1, i)) << "max_reduce in place";
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(dst);
  ishmem_free(src);
}

TEST(GpuOffNode, AtomicsOnTheNextPe) {
  SKIP_WITHOUT_GPU();
  auto *w64 = static_cast<std::uint64_t *>(ishmem_calloc(1, sizeof(std::uint64_t)));
  auto *w32 = static_cast<std::int32_t *>(ishmem_calloc(1, sizeof(std::int32_t)));
  auto *wd = static_cast<double *>(ishmem_calloc(1, sizeof(double)));
  ASSERT_NE(w64, nullptr);
  ASSERT_NE(w32, nullptr);
  ASSERT_NE(wd, nullptr);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  const int t = right_pe();
  EXPECT_EQ(ishmem_uint64_atomic_fetch_add(w64, 40, t), 0u) << ishmemx_last_error();
  EXPECT_EQ(ishmem_uint64_atomic_compare_swap(w64, 40, 0xf0f0, t), 40u);
  EXPECT_EQ(ishmem_uint64_atomic_compare_swap(w64, 1, 2, t), 0xf0f0u);
  EXPECT_EQ(ishmem_uint64_atomic_fetch_and(w64, 0xff, t), 0xf0f0u);
  EXPECT_EQ(ishmem_uint64_atomic_fetch_or(w64, 0x0f, t), 0xf0u);
  EXPECT_EQ(ishmem_uint64_atomic_fetch_xor(w64, 0x1, t), 0xffu);
  EXPECT_EQ(ishmem_uint64_atomic_swap(w64, 1ull << 40, t), 0xfeu);
  EXPECT_EQ(ishmem_uint64_atomic_fetch(w64, t), 1ull << 40);
  EXPECT_EQ(ishmem_int32_atomic_fetch_add(w32, -5, t), 0);
  EXPECT_EQ(ishmem_int32_atomic_fetch_inc(w32, t), -5);
  EXPECT_EQ(ishmem_int32_atomic_compare_swap(w32, -4, 77, t), -4);
  EXPECT_EQ(ishmem_double_atomic_swap(wd, 2.5, t), 0.0);
  EXPECT_EQ(ishmem_double_atomic_fetch(wd, t), 2.5);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(to_host(w64, 1)[0], 1ull << 40);
  EXPECT_EQ(to_host(w32, 1)[0], 77);
  EXPECT_EQ(to_host(wd, 1)[0], 2.5);
  ishmem_free(wd);
  ishmem_free(w32);
  ishmem_free(w64);
}

TEST(GpuOffNode, PutSignal) {
  SKIP_WITHOUT_GPU();
  const std::size_t bytes = (std::size_t{2} << 20) + 100;
  auto *data = static_cast<unsigned char *>(ishmem_calloc(bytes, 1));
  auto *sig = static_cast<std::uint64_t *>(ishmem_calloc(1, sizeof(std::uint64_t)));
  ASSERT_NE(data, nullptr);
  ASSERT_NE(sig, nullptr);
  std::vector<unsigned char> mine(bytes);
  for (std::size_t i = 0; i < bytes; ++i) mine[i] = pattern(my_pe(), i);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ASSERT_EQ(ishmem_putmem_signal(data, mine.data(), bytes, sig, 3, ISHMEM_SIGNAL_ADD, right_pe()),
            ISHMEM_SUCCESS)
      << ishmemx_last_error();
  // The signal is set only after the data: once it reads 3, the data must be complete.
  std::uint64_t seen = 0;
  for (int polls = 0; polls < 2000000 && seen != 3; ++polls) seen = to_host(sig, 1)[0];
  EXPECT_EQ(seen, 3u);
  std::vector<unsigned char> got = to_host(data, bytes);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < bytes; ++i) wrong += got[i] != pattern(left_pe(), i);
  EXPECT_EQ(wrong, 0u);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(sig);
  ishmem_free(data);
}

constexpr int kAdds = 20000;

__global__ void add_loop(ishmemx_device_handle_t h, std::uint64_t *word, int pe) {
  for (int i = 0; i < kAdds; ++i) ishmem_uint64_atomic_add(h, word, std::uint64_t{1}, pe);
}

// PEs that map PE 0's heap add with device atomics in a kernel while the others add with host
// atomics through the served path at the same time: the total must be exact.
TEST(GpuOffNode, DeviceAndServedAtomicsOnOneWord) {
  SKIP_WITHOUT_GPU();
  auto *word = static_cast<std::uint64_t *>(ishmem_calloc(1, sizeof(std::uint64_t)));
  ASSERT_NE(word, nullptr);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  const bool local = ishmem_ptr(word, 0) != nullptr;
  if (local) {
    add_loop<<<1, 1>>>(handle(), word, 0);
    EXPECT_TRUE(GPU_LAUNCHED());
  } else {
    for (int i = 0; i < kAdds; ++i) ASSERT_EQ(ishmem_uint64_atomic_add(word, 1, 0), ISHMEM_SUCCESS);
  }
  int locals = local, n_local = 0;
  MPI_Allreduce(&locals, &n_local, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_LT(n_local, n_pes()) << "no PE was off-node: run in split mode (ISHMEM_MAX_LOCAL_PES)";
  EXPECT_EQ(ishmem_uint64_atomic_fetch(word, 0), std::uint64_t(kAdds) * n_pes());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(word);
}

}  // namespace
