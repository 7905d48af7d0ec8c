// Host-side calls on GPU heaps: blocking host RMA through the copy engine, the stream-ordered
// calls, heap growth while a kernel runs on an earlier allocation, and placement.
#include <sched.h>

#include <algorithm>
#include <cstdlib>

#include "gpu_test_util.h"
#include "runtime/runtime.h"

using namespace gpu_test;

namespace {

TEST(HostRmaOnGpuHeap, PutGetPG) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = (1 << 20) + 3;
  char *sym = static_cast<char *>(ishmem_calloc(n, 1));
  ASSERT_NE(sym, nullptr) << ishmemx_last_error();
  std::vector<unsigned char> zero = to_host(reinterpret_cast<unsigned char *>(sym), n);
  EXPECT_EQ(std::count(zero.begin(), zero.end(), 0), static_cast<long>(n)) << "calloc zeroes";
  std::vector<unsigned char> mine(n), got(n);
  for (std::size_t i = 0; i < n; ++i) mine[i] = pattern(my_pe(), i);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ASSERT_EQ(ishmem_putmem(sym, mine.data(), n, right_pe()), ISHMEM_SUCCESS) << ishmemx_last_error();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ASSERT_EQ(ishmem_getmem(got.data(), sym, n, my_pe()), ISHMEM_SUCCESS);
  ishmem_test::expect_elements(
      got.data(), n, [](std::size_t i) { return pattern(left_pe(), i); },
      "host put into a GPU heap");
  ASSERT_EQ(ishmem_getmem(got.data(), sym, n, right_pe()), ISHMEM_SUCCESS);
  ishmem_test::expect_elements(
      got.data(), n, [](std::size_t i) { return pattern(my_pe(), i); }, "host get from a GPU heap");
  int *word = static_cast<int *>(ishmem_malloc(sizeof(int)));
  ASSERT_NE(word, nullptr);
  EXPECT_EQ(ishmem_int_p(word, 7 + my_pe(), right_pe()), ISHMEM_SUCCESS);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_int_g(word, my_pe()), 7 + left_pe());
  EXPECT_EQ(ishmem_int_g(word, right_pe()), 7 + my_pe());
  // realloc keeps the contents on the GPU heap too.
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  char *grown = static_cast<char *>(ishmem_realloc(sym, 3 * n));
  ASSERT_NE(grown, nullptr) << ishmemx_last_error();
  ASSERT_EQ(ishmem_getmem(got.data(), grown, n, my_pe()), ISHMEM_SUCCESS);
  ishmem_test::expect_elements(
      got.data(), n, [](std::size_t i) { return pattern(left_pe(), i); },
      "realloc kept the contents");
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(word);
  ishmem_free(grown);
}

__global__ void fill(char *dst, std::size_t n, int pe) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (std::size_t)gridDim.x * blockDim.x)
    dst[i] = (char)(1 + (pe * 37 + i * 11 + i / 251) % 251);
}

TEST(OnStream, PutBarrierGet) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = (4 << 20) + 1;
  char *sym = static_cast<char *>(ishmem_malloc(n));
  ASSERT_NE(sym, nullptr);
  DeviceBuffer src(n), back(n);
  std::vector<unsigned char> host_src(n);
  for (std::size_t i = 0; i < n; ++i) host_src[i] = pattern(my_pe() + 10, i);
  gpuStream_t s;
  GPU_OK(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  // The kernel that writes the source and the put are ordered by the stream alone.
  fill<<<64, 256, 0, s>>>(src.as<char>(), n, my_pe());
  GPU_OK(gpuGetLastError());
  EXPECT_EQ(ishmemx_putmem_on_stream(sym, src.ptr, n, right_pe(), s), ISHMEM_SUCCESS)
      << ishmemx_last_error();
  EXPECT_EQ(ishmemx_quiet_on_stream(s), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_barrier_all_on_stream(s), ISHMEM_SUCCESS) << ishmemx_last_error();
  // After the stream barrier every PE's put has landed: read it back from both sides.
  EXPECT_EQ(ishmemx_getmem_on_stream(back.ptr, sym, n, my_pe(), s), ISHMEM_SUCCESS);
  GPU_OK(gpuStreamSynchronize(s));
  std::vector<unsigned char> got = to_host(back.as<unsigned char>(), n);
  ishmem_test::expect_elements(
      got.data(), n, [](std::size_t i) { return pattern(left_pe(), i); },
      "put on stream, after barrier on stream");
  // Host memory as the source, and a second barrier round on the same stream.
  EXPECT_EQ(ishmemx_barrier_all_on_stream(s), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_putmem_on_stream(sym, host_src.data(), n, right_pe(), s), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_barrier_all_on_stream(s), ISHMEM_SUCCESS);
  std::vector<unsigned char> host_back(n);
  EXPECT_EQ(ishmemx_getmem_on_stream(host_back.data(), sym, n, right_pe(), s), ISHMEM_SUCCESS);
  GPU_OK(gpuStreamSynchronize(s));
  ishmem_test::expect_elements(
      host_back.data(), n, [](std::size_t i) { return pattern(my_pe() + 10, i); },
      "host buffer put on stream, got from the right PE");
  // Errors are reported at once, not on the stream.
  EXPECT_EQ(ishmemx_putmem_on_stream(sym, src.ptr, n, n_pes(), s), ISHMEM_ERR_INVALID_PE);
  EXPECT_EQ(ishmemx_putmem_on_stream(src.ptr, src.ptr, n, 0, s), ISHMEM_ERR_NOT_SYMMETRIC);
  (void)gpuStreamDestroy(s);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(sym);
}

// Runs for about `cycles` GPU clocks, writing a running count into `data`; then records how
// many rounds it made. Thread 0 decides when to stop, so every thread leaves together.
__global__ void busy(unsigned *data, std::size_t n, unsigned long long cycles, unsigned *rounds) {
  __shared__ int stop;
  long long start = clock64();
  unsigned r = 0;
  for (;;) {
    if (threadIdx.x == 0) stop = clock64() - start >= (long long)cycles;
    __syncthreads();
    if (stop) break;
    ++r;
    for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) data[i] = r;
    __syncthreads();
  }
  if (threadIdx.x == 0) *rounds = r;
}

__global__ void put_block(char *sym, const char *src, std::size_t n, int peer) {
  ishmemx_putmem_block(sym, src, n, peer);
}

TEST(HeapGrowth, WhileKernelRuns) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = 1 << 16;
  unsigned *early = static_cast<unsigned *>(ishmem_calloc(n, sizeof(unsigned)));
  ASSERT_NE(early, nullptr);
  auto *rt = ishmem::detail::g_rt;
  const std::size_t committed_before = rt->heap->committed();
  DeviceBuffer rounds(sizeof(unsigned));
  gpuStream_t s1, s2;
  GPU_OK(gpuStreamCreateWithFlags(&s1, gpuStreamNonBlocking));
  GPU_OK(gpuStreamCreateWithFlags(&s2, gpuStreamNonBlocking));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  // About a fifth of a second of work on the early allocation...
  busy<<<1, 256, 0, s1>>>(early, n, 400ull * 1000 * 1000, rounds.as<unsigned>());
  GPU_OK(gpuGetLastError());
  // ...while the heap grows by new chunks (collective) and a kernel uses the new block.
  const std::size_t big = 96u << 20;
  char *late = static_cast<char *>(ishmem_malloc(big));
  ASSERT_NE(late, nullptr) << ishmemx_last_error();
  EXPECT_GT(rt->heap->committed(), committed_before) << "the heap grew";
  EXPECT_TRUE(ishmem_test::all_equal(late - reinterpret_cast<char *>(early)))
      << "the new block has the same offset on every PE";
  DeviceBuffer src(big);
  fill<<<256, 256, 0, s2>>>(src.as<char>(), big, my_pe());
  put_block<<<1, 1024, 0, s2>>>(late, src.as<char>(), big, right_pe());
  GPU_OK(gpuGetLastError());
  GPU_OK(gpuStreamSynchronize(s2));
  GPU_OK(gpuStreamSynchronize(s1));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  unsigned r = to_host(rounds.as<unsigned>(), 1)[0];
  EXPECT_GT(r, 0u);
  std::vector<unsigned> e = to_host(early, n);
  ishmem_test::expect_elements(
      e.data(), n, [r](std::size_t) { return r; }, "the early kernel's last round");
  std::vector<unsigned char> got = to_host(reinterpret_cast<unsigned char *>(late), big);
  ishmem_test::expect_elements(
      got.data(), big, [](std::size_t i) { return pattern(left_pe(), i); },
      "put into the new block");
  (void)gpuStreamDestroy(s1);
  (void)gpuStreamDestroy(s2);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(late);
  ishmem_free(early);
}

TEST(Placement, DeviceAndCpus) {
  SKIP_WITHOUT_GPU();
  const auto *rt = ishmem::detail::g_rt;
  std::string where = rt->backend->placement();
  EXPECT_EQ(where.rfind("GPU ", 0), 0u) << where;
  EXPECT_NE(where.find("cpus "), std::string::npos) << where;
  int count = 0, device = -1;
  GPU_OK(gpuGetDeviceCount(&count));
  GPU_OK(gpuGetDevice(&device));
  const char *forced = getenv("ISHMEM_DEVICE");
  int want = forced && atoi(forced) >= 0 ? atoi(forced) : rt->boot->topology().local_rank % count;
  EXPECT_EQ(device, want) << "device chosen by node-local rank (or ISHMEM_DEVICE)";
  EXPECT_NE(where.find("GPU " + std::to_string(want) + " ("), std::string::npos) << where;
  const char *bind = getenv("ISHMEM_BIND");
  if (!(bind && std::string(bind) == "none") && where.find("not bound") == std::string::npos) {
    cpu_set_t set;
    CPU_ZERO(&set);
    ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
    EXPECT_GT(CPU_COUNT(&set), 0);
  }
  if (my_pe() == 0) printf("[ placement ] PE 0: %s\n", where.c_str());
}

}  // namespace
