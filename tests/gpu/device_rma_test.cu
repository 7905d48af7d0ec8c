// Device RMA: kernels that call the device API, in both forms (no extra argument, through the
// device library; and with a handle), checked from the host after a barrier. Every PE puts
// to and gets from its right neighbour, so with 2 and 4 PEs on one GPU each mapping of a
// peer's heap is exercised.
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "gpu_test_util.h"

using namespace gpu_test;

namespace {

// ---- Typed put/get/p/g for every RMA type with device forms ------------------------------

// A value of T for (pe, i), exact in every type: 1..100.
template <class T>
__host__ __device__ T typed_value(int pe, std::size_t i) {
  return static_cast<T>(1 + (pe * 13 + i * 7) % 100);
}

// Phase 1: put `n` elements and p one more to `peer`. Phase 2: get them back from `peer`
// and g the p'ed one. The handle form or the no-argument form, by `use_handle`.
#define TYPED_KERNELS(T, N)                                                                       \
  __global__ void typed_put_##N(ishmemx_device_handle_t h, bool use_handle, T *sym, const T *src, \
                                std::size_t n, int peer) {                                        \
    if (use_handle) {                                                                             \
      ishmem_##N##_put(h, sym, src, n, peer);                                                     \
      ishmem_##N##_p(h, sym + n, typed_value<T>(ishmem_my_pe(h), 1000), peer);                    \
      ishmem_quiet(h);                                                                            \
    } else {                                                                                      \
      ishmem_##N##_put_nbi(sym, src, n, peer);                                                    \
      ishmem_##N##_p(sym + n, typed_value<T>(ishmem_my_pe(), 1000), peer);                        \
      ishmem_quiet();                                                                             \
    }                                                                                             \
  }                                                                                               \
  __global__ void typed_get_##N(ishmemx_device_handle_t h, bool use_handle, T *dst, const T *sym, \
                                std::size_t n, int peer) {                                        \
    if (use_handle) {                                                                             \
      ishmem_##N##_get_nbi(h, dst, sym, n, peer);                                                 \
      ishmem_quiet(h);                                                                            \
      dst[n] = ishmem_##N##_g(h, sym + n, peer);                                                  \
    } else {                                                                                      \
      ishmem_##N##_get(dst, sym, n, peer);                                                        \
      dst[n] = ishmem_##N##_g(sym + n, peer);                                                     \
    }                                                                                             \
  }                                                                                               \
  TEST(DeviceTyped, N) {                                                                          \
    SKIP_WITHOUT_GPU();                                                                           \
    for (bool use_handle : {false, true}) {                                                       \
      const std::size_t n = 1000;                                                                 \
      T *sym = static_cast<T *>(ishmem_calloc(n + 1, sizeof(T)));                                 \
      ASSERT_NE(sym, nullptr) << ishmemx_last_error();                                            \
      DeviceBuffer src((n + 1) * sizeof(T)), dst((n + 1) * sizeof(T));                            \
      std::vector<T> values(n);                                                                   \
      for (std::size_t i = 0; i < n; ++i) values[i] = typed_value<T>(my_pe(), i);                 \
      to_device(src.as<T>(), values);                                                             \
      ishmemx_device_handle_t h = handle();                                                       \
      typed_put_##N<<<1, 1>>>(h, use_handle, sym, src.as<T>(), n, right_pe());                    \
      GPU_LAUNCHED();                                                                             \
      ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);                                            \
      std::vector<T> got = to_host(sym, n + 1);                                                   \
      ishmem_test::expect_elements(                                                               \
          got.data(), n + 1,                                                                      \
          [](std::size_t i) { return typed_value<T>(left_pe(), i < n ? i : 1000); },              \
          std::string(#N " put+p, handle=") + (use_handle ? "yes" : "no"));                       \
      typed_get_##N<<<1, 1>>>(h, use_handle, dst.as<T>(), sym, n, right_pe());                    \
      GPU_LAUNCHED();                                                                             \
      got = to_host(dst.as<T>(), n + 1);                                                          \
      /* right's heap holds what its left neighbour (this PE) put there */                        \
      ishmem_test::expect_elements(                                                               \
          got.data(), n + 1,                                                                      \
          [](std::size_t i) { return typed_value<T>(my_pe(), i < n ? i : 1000); },                \
          std::string(#N " get+g, handle=") + (use_handle ? "yes" : "no"));                       \
      ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);                                            \
      ASSERT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);                                                \
    }                                                                                             \
  }
ISHMEMX_RMA_DEVICE_TYPES(TYPED_KERNELS)

// ---- Thread, warp and block forms at many sizes and misalignments ------------------------

enum Scope { kThread, kWarp, kBlock };

// Each group (a thread, a warp or a block) moves its own segment: `seg` bytes apart. The
// symmetric side is `dst` for a put, `src` for a get.
template <Scope S, bool NBI, bool GET>
__global__ void scoped_rma(char *dst, const char *src, std::size_t n, std::size_t seg,
                           std::size_t src_off, std::size_t dst_off, int peer) {
  unsigned tid = threadIdx.x;
  std::size_t group = S == kThread ? blockIdx.x * blockDim.x + tid
                      : S == kWarp ? tid / warpSize
                                   : blockIdx.x;
  char *d = dst + group * seg + dst_off;
  const char *s = src + group * seg + src_off;
  if (S == kThread) {
    GET ? (NBI ? ishmem_getmem_nbi(d, s, n, peer) : ishmem_getmem(d, s, n, peer))
        : (NBI ? ishmem_putmem_nbi(d, s, n, peer) : ishmem_putmem(d, s, n, peer));
  } else if (S == kWarp) {
    GET ? (NBI ? ishmemx_getmem_nbi_warp(d, s, n, peer) : ishmemx_getmem_warp(d, s, n, peer))
        : (NBI ? ishmemx_putmem_nbi_warp(d, s, n, peer) : ishmemx_putmem_warp(d, s, n, peer));
  } else {
    GET ? (NBI ? ishmemx_getmem_nbi_block(d, s, n, peer) : ishmemx_getmem_block(d, s, n, peer))
        : (NBI ? ishmemx_putmem_nbi_block(d, s, n, peer) : ishmemx_putmem_block(d, s, n, peer));
  }
  if (NBI) ishmem_quiet();
}

struct Launch {
  unsigned blocks, threads, groups;
};

Launch launch_shape(Scope s, int warp_size) {
  switch (s) {
    case kThread:
      return {1, 3, 3};
    case kWarp:  // 2 full warps and a partial one
      return {1, unsigned(2 * warp_size + 6), 3};
    default:  // block size not a multiple of the warp size
      return {3, 200, 3};
  }
}

template <Scope S, bool NBI>
void run_scoped(bool get, std::size_t n, std::size_t src_off, std::size_t dst_off, int warp_size,
                const char *name) {
  const std::size_t seg = (n + 64 + 63) / 64 * 64;
  const Launch shape = launch_shape(S, warp_size);
  const std::size_t bytes = seg * shape.groups;
  char *sym = static_cast<char *>(ishmem_malloc(bytes));
  ASSERT_NE(sym, nullptr) << ishmemx_last_error();
  DeviceBuffer local(bytes);
  std::vector<unsigned char> guard(bytes, kGuard), mine(bytes);
  for (std::size_t i = 0; i < bytes; ++i) mine[i] = pattern(my_pe(), i);
  const int peer = right_pe();
  std::string what = std::string(name) + (get ? " get" : " put") + (NBI ? "_nbi" : "") +
                     " n=" + std::to_string(n) + " src+" + std::to_string(src_off) + " dst+" +
                     std::to_string(dst_off);
  // The source side holds the pattern of its PE; the destination side guard bytes.
  to_device(reinterpret_cast<unsigned char *>(get ? sym : local.as<char>()), mine);
  to_device(reinterpret_cast<unsigned char *>(get ? local.as<char>() : sym), guard);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  auto kernel = get ? scoped_rma<S, NBI, true> : scoped_rma<S, NBI, false>;
  char *dst = get ? local.as<char>() : sym;
  const char *src = get ? sym : local.as<char>();
  kernel<<<shape.blocks, shape.threads>>>(dst, src, n, seg, src_off, dst_off, peer);
  GPU_LAUNCHED();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  std::vector<unsigned char> got =
      to_host(reinterpret_cast<unsigned char *>(get ? local.as<char>() : sym), bytes);
  const int from = get ? peer : left_pe();  // whose pattern lands here
  std::size_t bad = 0;
  for (std::size_t g = 0; g < shape.groups; ++g)
    for (std::size_t i = 0; i < seg; ++i) {
      std::size_t at = g * seg + i;
      bool inside = i >= dst_off && i < dst_off + n;
      unsigned char want = inside ? pattern(from, g * seg + src_off + (i - dst_off)) : kGuard;
      if (got[at] != want && ++bad <= 3)
        ADD_FAILURE() << "PE " << my_pe() << ": " << what << ": group " << g << " byte " << i
                      << " is " << +got[at] << ", expected " << +want;
    }
  EXPECT_EQ(bad, 0u) << what;
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ASSERT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

int device_warp_size() {
  int device = 0;
  gpuDeviceProp prop{};
  GPU_OK(gpuGetDevice(&device));
  GPU_OK(gpuGetDeviceProperties(&prop, device));
  return prop.warpSize;
}

const std::size_t kSizes[] = {1, 3, 8, 15, 16, 17, 31, 64, 100, 255, 1000, 4096, 4099, 65549};
const std::size_t kOffsets[][2] = {{0, 0}, {1, 1},  {8, 8}, {15, 15}, {0, 1},
                                   {5, 2}, {4, 12}, {7, 0}, {2, 6}};

template <Scope S>
void run_scope_matrix(const char *name) {
  const int warp = device_warp_size();
  for (bool get : {false, true})
    for (std::size_t n : kSizes)
      for (const auto &off : kOffsets) {
        run_scoped<S, false>(get, n, off[0], off[1], warp, name);
        if (off[0] == off[1] || n == 4099) run_scoped<S, true>(get, n, off[0], off[1], warp, name);
        if (::testing::Test::HasFatalFailure()) return;
      }
  // Large copies, aligned and not.
  for (bool get : {false, true}) {
    run_scoped<S, false>(get, (1 << 20) + 5, 0, 0, warp, name);
    run_scoped<S, false>(get, (1 << 20) + 5, 3, 9, warp, name);
  }
}

TEST(DeviceScoped, Thread) {
  SKIP_WITHOUT_GPU();
  run_scope_matrix<kThread>("thread");
}
TEST(DeviceScoped, Warp) {
  SKIP_WITHOUT_GPU();
  run_scope_matrix<kWarp>("warp");
}
TEST(DeviceScoped, Block) {
  SKIP_WITHOUT_GPU();
  run_scope_matrix<kBlock>("block");
}

// ---- One 8-byte word to and from a thread's own memory and a block's shared memory ---------

// The thread forms move one aligned 8-byte word to or from a node-local PE as one load and
// one store; here their ends are a thread's variable and a shared one, not global memory.
__host__ __device__ unsigned long long word_value(int from, int to, int k) {
  return 0x0101010101010101ull * unsigned(1 + from) + (unsigned long long)(to + 1) * 0x10000 + k;
}
__global__ void put_words(ishmemx_device_handle_t h, unsigned long long *sym, int me, int n) {
  __shared__ unsigned long long shared_word;
  for (int pe = 0; pe < n; ++pe) {
    unsigned long long local = word_value(me, pe, 0);
    shared_word = word_value(me, pe, 1);
    ishmem_putmem(sym + me, &local, 8, pe);                   // no-argument form
    ishmem_putmem_nbi(h, sym + n + me, &shared_word, 8, pe);  // handle form
    ishmem_quiet(h);                                          // before shared_word is written again
  }
}
__global__ void get_words(ishmemx_device_handle_t h, const unsigned long long *sym, int me, int n,
                          unsigned long long *out) {
  __shared__ unsigned long long shared_word;
  for (int pe = 0; pe < n; ++pe) {
    unsigned long long local = 0;
    ishmem_getmem(h, &local, sym + me, 8, pe);
    ishmem_getmem_nbi(&shared_word, sym + n + me, 8, pe);
    ishmem_quiet();
    out[2 * pe] = local;
    out[2 * pe + 1] = shared_word;
  }
}

TEST(DeviceOneWord, LocalAndSharedEnds) {
  SKIP_WITHOUT_GPU();
  const int n = n_pes(), me = my_pe();
  auto *sym = static_cast<unsigned long long *>(ishmem_calloc(2 * n, 8));
  ASSERT_NE(sym, nullptr) << ishmemx_last_error();
  DeviceBuffer out(2 * n * 8);
  put_words<<<1, 1>>>(handle(), sym, me, n);
  GPU_LAUNCHED();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  std::vector<unsigned long long> got = to_host(sym, 2 * n);
  for (int k = 0; k < 2 * n; ++k)  // word k % n came from PE k % n, from its local or shared
    EXPECT_EQ(got[k], word_value(k % n, me, k / n)) << "word " << k << " put to PE " << me;
  get_words<<<1, 1>>>(handle(), sym, me, n, out.as<unsigned long long>());
  GPU_LAUNCHED();
  got = to_host(out.as<unsigned long long>(), 2 * n);
  for (int k = 0; k < 2 * n; ++k)  // what this PE put into PE k / 2
    EXPECT_EQ(got[k], word_value(me, k / 2, k % 2)) << "word " << k << " got by PE " << me;
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ASSERT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

// ---- ishmem_ptr, and quiet ordering data before a flag ------------------------------------

__global__ void write_through_ptr(int *sym, int n_pes, int me, unsigned long long *bad) {
  for (int pe = 0; pe < n_pes; ++pe) {
    int *p = static_cast<int *>(ishmem_ptr(sym, pe));
    if (!p) {
      atomicAdd(bad, 1ull);
      continue;
    }
    p[me] = 100 + me;  // slot `me` of every PE's array
  }
  if (ishmem_ptr(sym + (1 << 30), 0) != nullptr) atomicAdd(bad, 1ull);  // outside the heap
}

TEST(DevicePtr, ReachesEveryPe) {
  SKIP_WITHOUT_GPU();
  int *sym = static_cast<int *>(ishmem_calloc(n_pes(), sizeof(int)));
  ASSERT_NE(sym, nullptr);
  EXPECT_EQ(ishmem_ptr(sym, right_pe()), nullptr) << "the CPU cannot address a GPU heap";
  DeviceBuffer bad(sizeof(unsigned long long));
  GPU_OK(gpuMemset(bad.ptr, 0, bad.bytes));
  write_through_ptr<<<1, 1>>>(sym, n_pes(), my_pe(), bad.as<unsigned long long>());
  GPU_LAUNCHED();
  EXPECT_EQ(to_host(bad.as<unsigned long long>(), 1)[0], 0u);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  std::vector<int> got = to_host(sym, n_pes());
  ishmem_test::expect_elements(
      got.data(), got.size(), [](std::size_t i) { return 100 + int(i); },
      "written through ishmem_ptr");
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(sym);
}

// The writer puts data with _nbi, quiets, then raises a flag; the reader, in a kernel of its
// own process that may run beside or between the writer's time slices, waits for the flag
// and must then see all the data. Deadline-bounded: a lost flag fails instead of hanging.
__global__ void writer(long *data, const long *src, std::size_t n, int *flag, int peer) {
  ishmemx_putmem_nbi_block(data, src, n * sizeof(long), peer);
  __syncthreads();
  if (threadIdx.x == 0) {
    ishmem_quiet();
    ishmem_int_p(flag, 1, peer);
  }
}
__global__ void reader(const long *data, std::size_t n, const int *flag, long base,
                       unsigned long long *bad, unsigned long long timeout_cycles) {
  long long start = clock64();
  if (threadIdx.x == 0)
    while (*(const volatile int *)flag == 0)
      if (clock64() - start > (long long)timeout_cycles) {
        atomicAdd(bad, 1ull << 40);  // timed out
        break;
      }
  __syncthreads();
  __threadfence_system();
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x)
    if (((const volatile long *)data)[i] != base + (long)i) atomicAdd(bad, 1ull);
}

TEST(DeviceQuiet, DataBeforeFlag) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = 1 << 18;
  long *data = static_cast<long *>(ishmem_calloc(n, sizeof(long)));
  int *flag = static_cast<int *>(ishmem_calloc(1, sizeof(int)));
  ASSERT_TRUE(data && flag);
  std::vector<long> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = 1000L * my_pe() + static_cast<long>(i);
  DeviceBuffer src(n * sizeof(long)), bad(sizeof(unsigned long long));
  to_device(src.as<long>(), values);
  GPU_OK(gpuMemset(bad.ptr, 0, bad.bytes));
  gpuStream_t rs, ws;
  GPU_OK(gpuStreamCreateWithFlags(&rs, gpuStreamNonBlocking));
  GPU_OK(gpuStreamCreateWithFlags(&ws, gpuStreamNonBlocking));
  // Load both kernels now: with lazy module loading, loading the writer while the reader
  // spins would wait for the reader.
  gpuFuncAttributes attr;
  GPU_OK(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&reader)));
  GPU_OK(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(&writer)));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  writer<<<1, 512, 0, ws>>>(data, src.as<long>(), n, flag, right_pe());
  reader<<<1, 256, 0, rs>>>(data, n, flag, 1000L * left_pe(), bad.as<unsigned long long>(),
                            20ull * 1000 * 1000 * 1000);
  GPU_LAUNCHED();
  unsigned long long b = to_host(bad.as<unsigned long long>(), 1)[0];
  EXPECT_EQ(b >> 40, 0u) << "the flag never arrived";
  EXPECT_EQ(b & ((1ull << 40) - 1), 0u) << "elements not yet there when the flag was";
  (void)gpuStreamDestroy(rs);
  (void)gpuStreamDestroy(ws);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(flag);
  ishmem_free(data);
}

// ---- A heap larger than 4 GiB ----------------------------------------------------------------
// Run by gpu_rma_heap5g_np4 (ISHMEM_SYMMETRIC_SIZE=5G, ISHMEM_TEST_HEAP_STRIDE=8 GiB): the
// slots are 8 GiB apart, so the translation adds twice the slot distance to an address's high
// word, and a block reaches past 4 GiB inside its slot. The copies straddle that point.

__global__ void move_across_4gib(ishmemx_device_handle_t h, bool use_handle, bool get, char *sym,
                                 char *local, std::size_t n, int peer) {
  if (use_handle) {
    if (get)
      ishmemx_getmem_block(h, local, sym, n, peer);
    else
      ishmemx_putmem_block(h, sym, local, n, peer);
    if (threadIdx.x == 0) ishmem_quiet(h);
  } else {
    if (get)
      ishmemx_getmem_block(local, sym, n, peer);
    else
      ishmemx_putmem_block(sym, local, n, peer);
    if (threadIdx.x == 0) ishmem_quiet();
  }
}

TEST(DeviceLargeHeap, SlotsEightGiBApart) {
  SKIP_WITHOUT_GPU();
  const char *stride = std::getenv("ISHMEM_TEST_HEAP_STRIDE");
  if (!stride) GTEST_SKIP() << "run by gpu_rma_heap5g_np4, with a heap larger than 4 GiB";
  const ishmemx_device_handle_t h = handle();
  ASSERT_EQ(h.stride, std::strtoull(stride, nullptr, 10));
  const std::size_t four_gib = std::size_t{1} << 32, n = 1 << 17, at = four_gib - n / 2;
  char *block = static_cast<char *>(ishmem_malloc(at + n));
  ASSERT_NE(block, nullptr) << ishmemx_last_error();
  std::vector<unsigned char> mine(n);
  for (std::size_t i = 0; i < n; ++i) mine[i] = pattern(my_pe(), i);
  DeviceBuffer local(n);
  for (bool use_handle : {false, true}) {
    SCOPED_TRACE(use_handle ? "handle form" : "no-argument form");
    // Put this PE's bytes into the right neighbour's copy; find the left one's in this copy.
    to_device(local.as<unsigned char>(), mine);
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    move_across_4gib<<<1, 256>>>(h, use_handle, false, block + at, local.as<char>(), n, right_pe());
    ASSERT_TRUE(GPU_LAUNCHED());
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    std::vector<unsigned char> got = to_host(reinterpret_cast<unsigned char *>(block + at), n);
    const int left = left_pe();
    ishmem_test::expect_elements(
        got.data(), n, [left](std::size_t i) { return pattern(left, i); }, "put across 4 GiB");
    // Get the right neighbour's copy, which holds this PE's bytes.
    GPU_OK(gpuMemset(local.ptr, 0, n));
    move_across_4gib<<<1, 256>>>(h, use_handle, true, block + at, local.as<char>(), n, right_pe());
    ASSERT_TRUE(GPU_LAUNCHED());
    got = to_host(local.as<unsigned char>(), n);
    const int me = my_pe();
    ishmem_test::expect_elements(
        got.data(), n, [me](std::size_t i) { return pattern(me, i); }, "get across 4 GiB");
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  }
  ishmem_free(block);
}

}  // namespace
