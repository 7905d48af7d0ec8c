// Device work queued before a collective heap call that unmaps or moves memory: the call
// returns only once that work, on this PE and on its peers, has completed. Kernels keep
// writing a large symmetric block for about a fifth of a second, on the default stream or
// through the device put into a peer's copy, while ishmem_free, ishmemx_heap_trim or
// ishmem_realloc runs; the calls succeed, the kernels end cleanly, realloc's copy holds
// their last writes, and later calls work. Before the fix the memory was unmapped under the
// kernels ("an illegal memory access was encountered") and the context was lost.
// ctest runs the program twice: with ISHMEM_TRIM_INTERVAL=0 ISHMEM_TRIM_THRESHOLD=0 (every
// free unmaps) and with the defaults (a free keeps the memory; ishmemx_heap_trim unmaps).
#include <memory>

#include "busy_kernels.h"
#include "common/config.h"
#include "gpu_test_util.h"
#include "runtime/runtime.h"

using namespace gpu_test;
using busy::final_word;

namespace {

constexpr std::size_t kBig = std::size_t{256} << 20;

// Puts `noise` into `peer`'s copy of `sym`, block by block, for about `cycles` clocks, then
// `last`, and completes the puts; block 0 records its rounds.
__global__ void keep_putting(char *sym, const char *noise, const char *last, std::size_t n,
                             int peer, long long cycles, unsigned *rounds) {
  const long long start = clock64();
  const std::size_t part = n / gridDim.x;
  const std::size_t off = part * blockIdx.x;
  unsigned r = 0;
  while (!busy::time_is_up(start, cycles)) {
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

// One busy kernel of this PE and the event after it. Every PE starts its kernel after a
// barrier, so that the peers' kernels run too when the call under test begins.
class Busy {
 public:
  Busy() : rounds_(sizeof(unsigned)) { GPU_OK(gpuEventCreate(&done_)); }
  ~Busy() {
    (void)gpuEventDestroy(done_);
    if (stream_) (void)gpuStreamDestroy(stream_);
  }
  // This PE writes `n` words at `data`, on the default stream.
  void write(unsigned *data, std::size_t n) {
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    busy::keep_writing<<<busy::kGrid, busy::kBlock>>>(data, n, busy::kCycles, my_pe(), rounds());
    GPU_OK(gpuEventRecord(done_, 0));
  }
  // This PE puts noise, then its final words, into the right neighbour's copy of `sym`
  // (`n` bytes), on a stream of its own.
  void put_right(char *sym, std::size_t n) {
    // Freed after the kernel has ended (gpuFree would wait for it).
    noise_ = std::make_unique<DeviceBuffer>(n);
    last_ = std::make_unique<DeviceBuffer>(n);
    GPU_OK(gpuMemset(noise_->ptr, 0x5a, n));
    fill_final<<<busy::kGrid, busy::kBlock>>>(last_->as<unsigned>(), n / sizeof(unsigned), my_pe());
    GPU_OK(gpuDeviceSynchronize());
    GPU_OK(gpuStreamCreateWithFlags(&stream_, gpuStreamNonBlocking));
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    keep_putting<<<busy::kGrid, busy::kBlock, 0, stream_>>>(
        sym, noise_->as<char>(), last_->as<char>(), n, right_pe(), busy::kCycles, rounds());
    GPU_OK(gpuEventRecord(done_, stream_));
  }
  void start(char *sym, std::size_t n, bool peer) {
    if (peer)
      put_right(sym, n);
    else
      write(reinterpret_cast<unsigned *>(sym), n / sizeof(unsigned));
  }
  // Whether the kernel had ended when the call under test returned: no waiting here.
  bool ended() const { return GPU_OK(gpuEventQuery(done_)); }
  // After the call: the kernel ended without error, and the heap still works (a block is
  // allocated, written by the left neighbour, read back).
  void expect_heap_works() {
    EXPECT_TRUE(GPU_OK(gpuGetLastError()) && GPU_OK(gpuDeviceSynchronize()));
    EXPECT_GT(to_host(rounds(), 1)[0], 0u) << "the kernel never ran a round";
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

 private:
  unsigned *rounds() const { return rounds_.as<unsigned>(); }
  DeviceBuffer rounds_;
  gpuEvent_t done_{};
  gpuStream_t stream_ = nullptr;
  std::unique_ptr<DeviceBuffer> noise_, last_;  // the sources of put_right
};

// ishmem_free unmaps the block while a kernel writes it: this PE's on the default stream
// (`peer` false), or every PE's puts into its right neighbour's copy.
void free_while_written(bool peer) {
  char *big = static_cast<char *>(ishmem_malloc(kBig));
  ASSERT_NE(big, nullptr) << ishmemx_last_error();
  const std::size_t before = committed();
  Busy busy;
  busy.start(big, kBig, peer);
  EXPECT_EQ(ishmem_free(big), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_TRUE(busy.ended()) << "ishmem_free returned before the kernel ended";
  EXPECT_LT(committed(), before) << "the free unmapped nothing; the test proves nothing";
  busy.expect_heap_works();
}

TEST(QueuedWork, FreeWaitsForThisPesKernel) {
  SKIP_WITHOUT_GPU();
  if (!ishmem_test::all_true(frees_unmap())) GTEST_SKIP() << "frees keep memory in this run";
  free_while_written(false);
}

TEST(QueuedWork, FreeWaitsForPeersPuts) {
  SKIP_WITHOUT_GPU();
  if (!ishmem_test::all_true(frees_unmap())) GTEST_SKIP() << "frees keep memory in this run";
  free_while_written(true);
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
  busy.write(big, kBig / sizeof(unsigned));
  EXPECT_EQ(ishmem_free(big), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_EQ(committed(), before) << "the free unmapped";
  EXPECT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_TRUE(busy.ended()) << "ishmemx_heap_trim returned before the kernel ended";
  EXPECT_LT(committed(), before) << "the trim unmapped nothing; the test proves nothing";
  busy.expect_heap_works();
}

// realloc moves the block (another one follows it) while a kernel writes it: this PE's on
// the default stream (`peer` false) or the left neighbour's puts. The copy holds their last
// writes.
void realloc_after_writes(bool peer) {
  const std::size_t n = kBig / 4;
  char *old = static_cast<char *>(ishmem_malloc(n));
  void *after = ishmem_malloc(64);
  ASSERT_TRUE(old && after) << ishmemx_last_error();
  Busy busy;
  busy.start(old, n, peer);
  char *moved = static_cast<char *>(ishmem_realloc(old, 2 * n));
  ASSERT_NE(moved, nullptr) << ishmemx_last_error();
  EXPECT_NE(moved, old);
  EXPECT_TRUE(busy.ended()) << "ishmem_realloc returned before the kernel ended";
  std::vector<unsigned> got = to_host(reinterpret_cast<unsigned *>(moved), n / sizeof(unsigned));
  const int writer = peer ? left_pe() : my_pe();
  ishmem_test::expect_elements(
      got.data(), got.size(), [writer](std::size_t i) { return final_word(writer, i); },
      "realloc's copy of the kernel's last writes");
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(moved), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(after), ISHMEM_SUCCESS);
  busy.expect_heap_works();
}

TEST(QueuedWork, ReallocCopiesAfterThisPesKernel) {
  SKIP_WITHOUT_GPU();
  realloc_after_writes(false);
}

TEST(QueuedWork, ReallocCopiesAfterPeersPuts) {
  SKIP_WITHOUT_GPU();
  realloc_after_writes(true);
}

}  // namespace
