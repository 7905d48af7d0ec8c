// Device work queued before a collective heap call that unmaps or moves memory: the call
// returns only once that work, on this PE and on its peers, has completed. Kernels keep
// writing a large symmetric block for about a fifth of a second, on the default stream or
// through the device put into a peer's copy, while ishmem_free, ishmemx_heap_trim or
// ishmem_realloc runs; the calls succeed, the kernels end cleanly, realloc's copy holds
// their last writes, and later calls work. Before the fix the memory was unmapped under the
// kernels ("an illegal memory access was encountered") and the context was lost.
// ctest runs the program twice: with ISHMEM_TRIM_INTERVAL=0 ISHMEM_TRIM_THRESHOLD=0 (every
// free unmaps) and with the defaults (a free keeps the memory; ishmemx_heap_trim unmaps).
#include "common/config.h"
#include "gpu_test_util.h"
#include "runtime/runtime.h"

using namespace gpu_test;

namespace {

constexpr std::size_t kBig = std::size_t{256} << 20;
constexpr long long kBusyCycles = 400ll * 1000 * 1000;  // about 0.2 s at 2 GHz
constexpr int kGrid = 128, kBlock = 512;

__host__ __device__ unsigned final_word(int pe, std::size_t i) {
  return 0x9e3779b9u * static_cast<unsigned>(i + 1) + static_cast<unsigned>(pe);
}

// Writes rounds into `data` for about `cycles` clocks (each block by its own clock), then the
// final pattern of `pe`; block 0 records its rounds.
__global__ void keep_writing(unsigned *data, std::size_t n, long long cycles, int pe,
                             unsigned *rounds) {
  __shared__ int stop;
  const long long start = clock64();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned r = 0;
  for (;;) {
    if (threadIdx.x == 0) stop = clock64() - start >= cycles;
    __syncthreads();
    if (stop) break;
    ++r;
    for (std::size_t i = first; i < n; i += stride) data[i] = r;
    __syncthreads();
  }
  for (std::size_t i = first; i < n; i += stride) data[i] = final_word(pe, i);
  if (blockIdx.x == 0 && threadIdx.x == 0) *rounds = r;
}

// Puts `noise` into `peer`'s copy of `sym`, block by block, for about `cycles` clocks, then
// `last`, and completes the puts; block 0 records its rounds.
__global__ void keep_putting(char *sym, const char *noise, const char *last, std::size_t n,
                             int peer, long long cycles, unsigned *rounds) {
  __shared__ int stop;
  const long long start = clock64();
  const std::size_t part = n / gridDim.x;
  const std::size_t off = part * blockIdx.x;
  unsigned r = 0;
  for (;;) {
    if (threadIdx.x == 0) stop = clock64() - start >= cycles;
    __syncthreads();
    if (stop) break;
    ++r;
    ishmemx_putmem_block(sym + off, noise + off, part, peer);
  }
  ishmemx_putmem_block(sym + off, last + off, part, peer);
  ishmem_quiet();
  if (blockIdx.x == 0 && threadIdx.x == 0) *rounds = r;
}

__global__ void fill_final(unsigned *dst, std::size_t n, int pe) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    dst[i] = final_word(pe, i);
}

bool frees_unmap() {
  const ishmem::detail::Config c = ishmem::detail::load_config();
  return c.trim_threshold == 0 && c.trim_interval <= 1;
}
std::size_t committed() {
  return ishmem::detail::g_rt->heap->committed();
}

// Whether the work before `done` had completed: no waiting here.
bool completed(gpuEvent_t done) {
  return GPU_OK(gpuEventQuery(done));
}

// After the call under test: the kernel ended without error, and the heap still works (a
// block is allocated, written by the right neighbour, read back).
void expect_heap_works(const unsigned *rounds) {
  EXPECT_TRUE(GPU_OK(gpuGetLastError()) && GPU_OK(gpuDeviceSynchronize()));
  EXPECT_GT(to_host(rounds, 1)[0], 0u) << "the kernel never ran a round";
  const std::size_t n = 1 << 20;
  unsigned *p = static_cast<unsigned *>(ishmem_malloc(n * sizeof(unsigned)));
  ASSERT_NE(p, nullptr) << ishmemx_last_error();
  std::vector<unsigned> mine(n), got(n);
  for (std::size_t i = 0; i < n; ++i) mine[i] = final_word(my_pe(), i);
  EXPECT_EQ(ishmem_putmem(p, mine.data(), n * sizeof(unsigned), right_pe()), ISHMEM_SUCCESS)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_getmem(got.data(), p, n * sizeof(unsigned), my_pe()), ISHMEM_SUCCESS);
  ishmem_test::expect_elements(
      got.data(), n, [](std::size_t i) { return final_word(left_pe(), i); }, "after the call");
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(p), ISHMEM_SUCCESS);
}

struct Busy {
  Busy() : rounds(sizeof(unsigned)) { GPU_OK(gpuEventCreate(&done)); }
  ~Busy() { (void)gpuEventDestroy(done); }
  DeviceBuffer rounds;
  gpuEvent_t done{};
};

// This PE's kernel, on the default stream, writes the block that ishmem_free unmaps.
TEST(QueuedWork, FreeWaitsForThisPesKernel) {
  SKIP_WITHOUT_GPU();
  if (!ishmem_test::all_true(frees_unmap())) GTEST_SKIP() << "frees keep memory in this run";
  unsigned *big = static_cast<unsigned *>(ishmem_malloc(kBig));
  ASSERT_NE(big, nullptr) << ishmemx_last_error();
  const std::size_t before = committed();
  Busy busy;
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  keep_writing<<<kGrid, kBlock>>>(big, kBig / sizeof(unsigned), kBusyCycles, my_pe(),
                                  busy.rounds.as<unsigned>());
  GPU_OK(gpuEventRecord(busy.done, 0));
  EXPECT_EQ(ishmem_free(big), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_TRUE(completed(busy.done)) << "ishmem_free returned before the kernel ended";
  EXPECT_LT(committed(), before) << "the free unmapped nothing; the test proves nothing";
  expect_heap_works(busy.rounds.as<unsigned>());
}

// A peer's kernel puts into this PE's copy of the block (and this PE's kernel into its right
// neighbour's) while every PE frees it.
TEST(QueuedWork, FreeWaitsForPeersPuts) {
  SKIP_WITHOUT_GPU();
  if (!ishmem_test::all_true(frees_unmap())) GTEST_SKIP() << "frees keep memory in this run";
  char *big = static_cast<char *>(ishmem_malloc(kBig));
  ASSERT_NE(big, nullptr) << ishmemx_last_error();
  const std::size_t before = committed();
  DeviceBuffer noise(kBig), last(kBig);
  GPU_OK(gpuMemset(noise.ptr, 0x5a, kBig));
  GPU_OK(gpuMemset(last.ptr, 0x33, kBig));
  GPU_OK(gpuDeviceSynchronize());
  Busy busy;
  gpuStream_t s;
  GPU_OK(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  keep_putting<<<kGrid, kBlock, 0, s>>>(big, noise.as<char>(), last.as<char>(), kBig, right_pe(),
                                        kBusyCycles, busy.rounds.as<unsigned>());
  GPU_OK(gpuEventRecord(busy.done, s));
  EXPECT_EQ(ishmem_free(big), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_TRUE(completed(busy.done)) << "ishmem_free returned before the kernel ended";
  EXPECT_LT(committed(), before) << "the free unmapped nothing; the test proves nothing";
  expect_heap_works(busy.rounds.as<unsigned>());
  (void)gpuStreamDestroy(s);
}

// With the defaults a free keeps the memory and returns at once; ishmemx_heap_trim, which
// unmaps it, waits for the kernel queued before the free.
TEST(QueuedWork, TrimWaitsForKernelQueuedBeforeTheFree) {
  SKIP_WITHOUT_GPU();
  if (!ishmem_test::all_true(!frees_unmap())) GTEST_SKIP() << "frees unmap in this run";
  unsigned *big = static_cast<unsigned *>(ishmem_malloc(kBig));
  ASSERT_NE(big, nullptr) << ishmemx_last_error();
  const std::size_t before = committed();
  Busy busy;
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  keep_writing<<<kGrid, kBlock>>>(big, kBig / sizeof(unsigned), kBusyCycles, my_pe(),
                                  busy.rounds.as<unsigned>());
  GPU_OK(gpuEventRecord(busy.done, 0));
  EXPECT_EQ(ishmem_free(big), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_EQ(committed(), before) << "the free unmapped";
  EXPECT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_TRUE(completed(busy.done)) << "ishmemx_heap_trim returned before the kernel ended";
  EXPECT_LT(committed(), before) << "the trim unmapped nothing; the test proves nothing";
  expect_heap_works(busy.rounds.as<unsigned>());
}

// realloc moves the block (another one follows it): its copy holds the last writes of the
// kernel that was still running on the default stream.
TEST(QueuedWork, ReallocCopiesAfterThisPesKernel) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = kBig / sizeof(unsigned) / 4;
  unsigned *old = static_cast<unsigned *>(ishmem_malloc(n * sizeof(unsigned)));
  void *after = ishmem_malloc(64);
  ASSERT_TRUE(old && after) << ishmemx_last_error();
  Busy busy;
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  keep_writing<<<kGrid, kBlock>>>(old, n, kBusyCycles, my_pe(), busy.rounds.as<unsigned>());
  GPU_OK(gpuEventRecord(busy.done, 0));
  unsigned *moved = static_cast<unsigned *>(ishmem_realloc(old, 2 * n * sizeof(unsigned)));
  ASSERT_NE(moved, nullptr) << ishmemx_last_error();
  EXPECT_NE(moved, old);
  EXPECT_TRUE(completed(busy.done)) << "ishmem_realloc returned before the kernel ended";
  std::vector<unsigned> got = to_host(moved, n);
  ishmem_test::expect_elements(
      got.data(), n, [](std::size_t i) { return final_word(my_pe(), i); },
      "realloc's copy of the kernel's last writes");
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(moved), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(after), ISHMEM_SUCCESS);
  expect_heap_works(busy.rounds.as<unsigned>());
}

// The left neighbour's kernel puts into this PE's copy while every PE reallocs: the copy
// holds its last puts.
TEST(QueuedWork, ReallocCopiesAfterPeersPuts) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = kBig / 4;
  char *old = static_cast<char *>(ishmem_malloc(n));
  void *after = ishmem_malloc(64);
  ASSERT_TRUE(old && after) << ishmemx_last_error();
  DeviceBuffer noise(n), last(n);
  GPU_OK(gpuMemset(noise.ptr, 0x5a, n));
  fill_final<<<kGrid, kBlock>>>(last.as<unsigned>(), n / sizeof(unsigned), my_pe());
  GPU_OK(gpuDeviceSynchronize());
  Busy busy;
  gpuStream_t s;
  GPU_OK(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  keep_putting<<<kGrid, kBlock, 0, s>>>(old, noise.as<char>(), last.as<char>(), n, right_pe(),
                                        kBusyCycles, busy.rounds.as<unsigned>());
  GPU_OK(gpuEventRecord(busy.done, s));
  char *moved = static_cast<char *>(ishmem_realloc(old, 2 * n));
  ASSERT_NE(moved, nullptr) << ishmemx_last_error();
  EXPECT_TRUE(completed(busy.done)) << "ishmem_realloc returned before the kernel ended";
  std::vector<unsigned> got = to_host(reinterpret_cast<unsigned *>(moved), n / sizeof(unsigned));
  ishmem_test::expect_elements(
      got.data(), got.size(), [](std::size_t i) { return final_word(left_pe(), i); },
      "realloc's copy of the left neighbour's last puts");
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(moved), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(after), ISHMEM_SUCCESS);
  expect_heap_works(busy.rounds.as<unsigned>());
  (void)gpuStreamDestroy(s);
}

}  // namespace
