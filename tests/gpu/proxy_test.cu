// Device calls to off-node PEs through the host proxy (docs/MULTI_NODE.md): run in split mode
// (ISHMEM_MAX_LOCAL_PES, or ISHMEM_NODE_LOCAL=self), where each PE targets a PE of another
// "node". RMA in every group form, g/p, every atomic family, put-with-signal against a device
// wait, fence and quiet ordering, the device barrier, ishmem_ptr, and a full ring (run with
// ISHMEM_PROXY_RING=8): every value is checked, every count exact.
#include <cstdlib>
#include <numeric>

#include "gpu_test_util.h"

using namespace gpu_test;

namespace {

// A PE of another node: the same slot in the next node group.
__host__ __device__ int far_pe(int me, int n_pes, int n_local) {
  return (me + n_local) % n_pes;
}

// Skips where no PE is off-node unless the run is meant to be split (then it fails).
#define SKIP_WITHOUT_OFF_NODE(h)                                                   \
  do {                                                                             \
    SKIP_WITHOUT_GPU();                                                            \
    if ((h).n_local == (h).n_pes) {                                                \
      ASSERT_EQ(std::getenv("ISHMEM_TEST_SPLIT"), nullptr) << "no PE is off-node"; \
      GTEST_SKIP() << "every PE is node-local";                                    \
    }                                                                              \
  } while (0)

constexpr std::size_t kBig = 65536 + 5;  // block form, by address (odd size: a tail)

// Puts in every form to the far PE (handle form), then quiet.
__global__ void put_forms(ishmemx_device_handle_t h, char *sym, const char *src, long *words) {
  const int to = far_pe(h.my_pe, h.n_pes, h.n_local);
  ishmemx_putmem_block(h, sym, src, kBig, to);
  if (threadIdx.x < 32) ishmemx_putmem_nbi_warp(h, sym + kBig, src, 1000, to);
  if (threadIdx.x == 0) {
    long local[3] = {h.my_pe + 10L, h.my_pe + 20L, h.my_pe + 30L};  // thread-local: by pieces
    ishmem_long_put(h, words, local, 3, to);
    ishmem_long_p(h, words + 3, h.my_pe + 40L, to);
    ishmem_putmem_nbi(h, words + 4, src, 8, to);
    ishmem_quiet(h);
  }
}

// Gets in every form from the far PE (no-argument form).
__global__ void get_forms(char *dst, const char *sym, const long *words, long *out, int from) {
  ishmemx_getmem_block(dst, sym, kBig, from);
  if (threadIdx.x < 32) ishmemx_getmem_warp(dst + kBig, sym + kBig, 1000, from);
  if (threadIdx.x == 0) {
    long local[3];
    ishmem_long_get(local, words, 3, from);
    out[0] = local[0] + local[1] + local[2];
    out[1] = ishmem_long_g(words + 3, from);
    ishmem_getmem_nbi(out + 2, words + 4, 8, from);
    ishmem_quiet();
  }
}

TEST(DeviceProxy, RmaForms) {
  const ishmemx_device_handle_t h = handle();
  SKIP_WITHOUT_OFF_NODE(h);
  const int to = far_pe(my_pe(), n_pes(), h.n_local);
  int from = 0;  // the PE whose far PE is this one
  while (far_pe(from, n_pes(), h.n_local) != my_pe()) ++from;
  const std::size_t bytes = kBig + 1000;
  char *sym = static_cast<char *>(ishmem_calloc(bytes, 1));
  long *words = static_cast<long *>(ishmem_calloc(5, sizeof(long)));
  ASSERT_TRUE(sym && words);
  DeviceBuffer src(bytes), dst(bytes), out(3 * sizeof(long));
  std::vector<unsigned char> mine(bytes);
  for (std::size_t i = 0; i < bytes; ++i) mine[i] = pattern(my_pe(), i);
  to_device(src.as<unsigned char>(), mine);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  put_forms<<<1, 256>>>(h, sym, src.as<char>(), words);
  ASSERT_TRUE(GPU_LAUNCHED());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  std::vector<unsigned char> got = to_host(reinterpret_cast<unsigned char *>(sym), bytes);
  ishmem_test::expect_elements(
      got.data(), kBig, [&](std::size_t i) { return pattern(from, i); }, "block put");
  ishmem_test::expect_elements(
      got.data() + kBig, 1000, [&](std::size_t i) { return pattern(from, i); }, "warp put_nbi");
  std::vector<long> w = to_host(words, 5);
  EXPECT_EQ(w[0], from + 10);
  EXPECT_EQ(w[1], from + 20);
  EXPECT_EQ(w[2], from + 30);
  EXPECT_EQ(w[3], from + 40);
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(reinterpret_cast<unsigned char *>(&w[4])[i], pattern(from, i));
  get_forms<<<1, 256>>>(dst.as<char>(), sym, words, out.as<long>(), to);
  ASSERT_TRUE(GPU_LAUNCHED());
  got = to_host(dst.as<unsigned char>(), bytes);
  // The far PE's heap holds what this PE put there.
  ishmem_test::expect_elements(
      got.data(), bytes, [&](std::size_t i) { return pattern(my_pe(), i < kBig ? i : i - kBig); },
      "block and warp get");
  std::vector<long> o = to_host(out.as<long>(), 3);
  EXPECT_EQ(o[0], 3L * my_pe() + 60);
  EXPECT_EQ(o[1], my_pe() + 40L);
  EXPECT_EQ(std::memcmp(&o[2], mine.data(), 8), 0);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(words);
  ishmem_free(sym);
}

// Every atomic family on the far PE: a warp's threads count, each fetch seen once. (Few: on
// a GPU heap the target runs each off-node atomic as a device atomic, and on the one GPU of
// the test machine that waits for the GPU's time slicing between the PEs' kernels.)
constexpr int kAmoThreads = 32;
struct AmoWords {
  long count, updates, swapped;
  int set_word;
  unsigned bits;
  float real;
};
__global__ void atomics(ishmemx_device_handle_t h, AmoWords *w, long *fetched_sum, int *results) {
  const int to = far_pe(h.my_pe, h.n_pes, h.n_local);
  const long seen = ishmem_long_atomic_fetch_add(h, &w->count, 1, to);
  atomicAdd((unsigned long long *)fetched_sum, (unsigned long long)seen);
  ishmem_long_atomic_inc(h, &w->updates, to);
  ishmem_long_atomic_add(h, &w->updates, 2, to);
  ishmem_uint_atomic_or(h, &w->bits, 1u << (threadIdx.x % 32), to);
  __syncthreads(); /* every thread's requests are posted before thread 0's quiet */
  if (threadIdx.x == 0) {
    ishmem_quiet(h);
    ishmem_int_atomic_set(h, &w->set_word, 7, to);
    results[0] = ishmem_int_atomic_fetch(h, &w->set_word, to);
    results[1] = ishmem_int_atomic_compare_swap(h, &w->set_word, 7, 9, to);
    results[2] = ishmem_int_atomic_compare_swap(h, &w->set_word, 7, 11, to);  // fails: 9
    results[3] = (int)ishmem_float_atomic_swap(h, &w->real, 2.5f, to);
    results[4] = (int)ishmem_uint_atomic_fetch_and(h, &w->bits, 0xffu, to);
    results[5] = (int)ishmem_uint_atomic_fetch_xor(h, &w->bits, 0x0fu, to);
    results[6] = (int)ishmem_long_atomic_swap(h, &w->swapped, 5, to);
    ishmem_quiet(h);
  }
}

TEST(DeviceProxy, Atomics) {
  const ishmemx_device_handle_t h = handle();
  SKIP_WITHOUT_OFF_NODE(h);
  AmoWords *w = static_cast<AmoWords *>(ishmem_calloc(1, sizeof(AmoWords)));
  ASSERT_NE(w, nullptr);
  AmoWords init{};
  init.real = 1.0f;
  init.swapped = -1;
  GPU_OK(gpuMemcpy(w, &init, sizeof init, gpuMemcpyDefault));
  DeviceBuffer sum(sizeof(long)), results(7 * sizeof(int));
  GPU_OK(gpuMemset(sum.ptr, 0, sizeof(long)));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  atomics<<<1, kAmoThreads>>>(h, w, sum.as<long>(), results.as<int>());
  ASSERT_TRUE(GPU_LAUNCHED());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  const AmoWords got = to_host(w, 1)[0];
  EXPECT_EQ(got.count, kAmoThreads);
  EXPECT_EQ(got.updates, kAmoThreads * 3);
  EXPECT_EQ(to_host(sum.as<long>(), 1)[0], (kAmoThreads - 1L) * kAmoThreads / 2)
      << "each fetch_add saw its own count";
  EXPECT_EQ(got.set_word, 9);
  EXPECT_EQ(got.real, 2.5f);
  EXPECT_EQ(got.bits, 0xf0u);
  EXPECT_EQ(got.swapped, 5);
  std::vector<int> r = to_host(results.as<int>(), 7);
  EXPECT_EQ(r[0], 7);
  EXPECT_EQ(r[1], 7);
  EXPECT_EQ(r[2], 9);
  EXPECT_EQ(r[3], 1);
  EXPECT_EQ(r[4], -1);  // 0xffffffff as an int
  EXPECT_EQ(r[5], 0xff);
  EXPECT_EQ(r[6], -1);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(w);
}

// put-with-signal to the far PE, fence- and quiet-ordered flags, and waits on both: the data
// is there once the signal or flag is seen. Then a device barrier.
// Round r uses its own 12 KiB of `data` (zero before), so a byte seen is that round's.
__global__ void signals(char *all, const char *src, uint64_t *sig, long *flags, long *seen,
                        int rounds, int to) {
  const int me = ishmem_my_pe();
  for (int r = 1; r <= rounds; ++r) {
    char *data = all + (size_t)(r - 1) * 3 * 4096;
    ishmemx_putmem_signal_block(data, src, 4096, sig, 1, ISHMEM_SIGNAL_ADD, to);
    if (threadIdx.x == 0) {
      ishmem_signal_wait_until(sig, ISHMEM_CMP_GE, (uint64_t)r);
      seen[0] += *(volatile char *)&data[4095] != 0 && *(volatile char *)&data[0] != 0;
      ishmem_putmem_nbi(data + 4096, src, 4096, to);
      ishmem_fence();
      ishmem_long_p(flags, r, to);
      ishmem_long_wait_until(flags, ISHMEM_CMP_GE, (long)r);
      seen[1] += *(volatile char *)&data[4096 + 4095] != 0;
      ishmem_putmem_nbi(data + 8192, src, 4096, to);
      ishmem_quiet();
      ishmem_long_p(flags + 1, r, to);
      ishmem_long_wait_until(flags + 1, ISHMEM_CMP_GE, (long)r);
      seen[2] += *(volatile char *)&data[8192 + 4095] != 0;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    ishmem_long_p(flags + 2, me + 1, to);
    seen[3] = ishmem_barrier_all();
    seen[4] = *(volatile long *)&flags[2]; /* the far PE's p, done before its barrier */
    seen[5] = ishmem_ptr(all, to) == 0 && ishmem_ptr(all, me) == all;
  }
}

TEST(DeviceProxy, SignalsFenceQuietBarrier) {
  const ishmemx_device_handle_t h = handle();
  SKIP_WITHOUT_OFF_NODE(h);
  int from = 0;
  while (far_pe(from, n_pes(), h.n_local) != my_pe()) ++from;
  const int rounds = 6;
  char *data = static_cast<char *>(ishmem_calloc(rounds * 3 * 4096, 1));
  uint64_t *sig = static_cast<uint64_t *>(ishmem_calloc(1, sizeof(uint64_t)));
  long *flags = static_cast<long *>(ishmem_calloc(3, sizeof(long)));
  ASSERT_TRUE(data && sig && flags);
  DeviceBuffer src(4096), seen(6 * sizeof(long));
  std::vector<unsigned char> mine(4096);
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = pattern(my_pe(), i);
  to_device(src.as<unsigned char>(), mine);
  GPU_OK(gpuMemset(seen.ptr, 0, 6 * sizeof(long)));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  signals<<<1, 128>>>(data, src.as<char>(), sig, flags, seen.as<long>(), rounds,
                      far_pe(my_pe(), n_pes(), h.n_local));
  ASSERT_TRUE(GPU_LAUNCHED());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  std::vector<long> s = to_host(seen.as<long>(), 6);
  EXPECT_EQ(s[0], rounds) << "data seen with its signal";
  EXPECT_EQ(s[1], rounds) << "data seen with the flag after fence";
  EXPECT_EQ(s[2], rounds) << "data seen with the flag after quiet";
  EXPECT_EQ(s[3], ISHMEM_SUCCESS) << "device barrier";
  EXPECT_EQ(s[4], from + 1) << "the far PE's p before its barrier";
  EXPECT_EQ(s[5], 1) << "ishmem_ptr: NULL off-node, the address on this PE";
  EXPECT_EQ(to_host(sig, 1)[0], static_cast<uint64_t>(rounds));
  std::vector<unsigned char> got =
      to_host(reinterpret_cast<unsigned char *>(data), rounds * 3 * 4096);
  ishmem_test::expect_elements(
      got.data(), got.size(), [&](std::size_t i) { return pattern(from, i % 4096); },
      "put_signal, fenced and quieted puts");
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(flags);
  ishmem_free(sig);
  ishmem_free(data);
}

// Many more requests than slots (run with ISHMEM_PROXY_RING=8): none lost. Each thread puts
// `per_thread` values with p; block 0's threads also add to a counter.
__global__ void flood(ishmemx_device_handle_t h, long *count, int *slots, int per_thread) {
  const int to = far_pe(h.my_pe, h.n_pes, h.n_local);
  const int id = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
  if (blockIdx.x == 0) ishmem_long_atomic_add(h, count, id + 1, to);
  for (int i = 0; i < per_thread; ++i)
    ishmem_int_p(h, slots + i * n + id, (i * n + id) * 3 + 1, to);
}

TEST(DeviceProxy, FullRingLosesNothing) {
  const ishmemx_device_handle_t h = handle();
  SKIP_WITHOUT_OFF_NODE(h);
  const int blocks = 4, threads = 128, per_thread = 2, n = blocks * threads * per_thread;
  long *count = static_cast<long *>(ishmem_calloc(1, sizeof(long)));
  int *slots = static_cast<int *>(ishmem_calloc(n, sizeof(int)));
  ASSERT_TRUE(count && slots);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  flood<<<blocks, threads>>>(h, count, slots, per_thread);
  ASSERT_TRUE(GPU_LAUNCHED());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(to_host(count, 1)[0], static_cast<long>(threads) * (threads + 1) / 2);
  std::vector<int> got = to_host(slots, n);
  ishmem_test::expect_elements(
      got.data(), n, [](std::size_t i) { return static_cast<int>(i * 3 + 1); }, "p per thread");
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(slots);
  ishmem_free(count);
}

}  // namespace
