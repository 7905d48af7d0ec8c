// Every group call, in both forms, in kernels of 1024-thread blocks whose body is a loop of
// the call and a quiet: each kernel must launch without launch bounds (its register count
// allows 1024 threads; on NVIDIA at most 64 registers per thread) and move its data. Every
// kernel's register count is printed ("registers: ..."): docs/DEVICE_API.md lists them.
// Kernels bounded to two 1024-thread blocks per multiprocessor (32 registers) that make calls
// which can reach the proxy must build, launch and move their data too: in relocatable device
// code those calls call the device library's request code, whose registers count against them.
#include "gpu_test_util.h"

using namespace gpu_test;

namespace {

enum Scope { kThread, kWarp, kBlock };
enum Op { kPut, kPutNbi, kGet, kGetNbi, kSignal, kSignalNbi };

constexpr unsigned kThreads = 1024, kBlocks = 2, kIters = 2;

// Bytes each group moves; groups start `seg` apart. Odd sizes: head, body and tail all run.
__host__ __device__ constexpr std::size_t segment(Scope s) {
  return s == kThread ? 40 : s == kWarp ? 4099 : (1 << 17) + 13;
}

// The call of `Op` at scope `S`; `h` is used when HANDLE (else the no-argument form).
template <Scope S, Op O, bool HANDLE>
__device__ void call(const ishmemx_device_handle_t &h, char *d, const char *s, std::size_t n,
                     uint64_t *sig, int pe) {
#define ISHMEM_WIDE_CALL(name, ...) (HANDLE ? name(h, __VA_ARGS__) : name(__VA_ARGS__))
#define ISHMEM_WIDE_GROUP(base, ...)                                   \
  (S == kThread ? ISHMEM_WIDE_CALL(ishmem_##base, __VA_ARGS__)         \
   : S == kWarp ? ISHMEM_WIDE_CALL(ishmemx_##base##_warp, __VA_ARGS__) \
                : ISHMEM_WIDE_CALL(ishmemx_##base##_block, __VA_ARGS__))
  switch (O) {
    case kPut:
      ISHMEM_WIDE_GROUP(putmem, d, s, n, pe);
      break;
    case kPutNbi:
      ISHMEM_WIDE_GROUP(putmem_nbi, d, s, n, pe);
      break;
    case kGet:
      ISHMEM_WIDE_GROUP(getmem, d, s, n, pe);
      break;
    case kGetNbi:
      ISHMEM_WIDE_GROUP(getmem_nbi, d, s, n, pe);
      break;
    case kSignal:
      ISHMEM_WIDE_GROUP(putmem_signal, d, s, n, sig, 1, ISHMEM_SIGNAL_ADD, pe);
      break;
    case kSignalNbi:
      ISHMEM_WIDE_GROUP(putmem_signal_nbi, d, s, n, sig, 1, ISHMEM_SIGNAL_ADD, pe);
      break;
  }
#undef ISHMEM_WIDE_GROUP
#undef ISHMEM_WIDE_CALL
}

template <Scope S, Op O, bool HANDLE>
__global__ void wide(ishmemx_device_handle_t h, char *dst, const char *src, uint64_t *sig, int pe) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  const std::size_t group = S == kThread ? tid : S == kWarp ? tid / warpSize : blockIdx.x;
  const std::size_t seg = segment(S);
  for (unsigned i = 0; i < kIters; ++i)
    call<S, O, HANDLE>(h, dst + group * seg, src + group * seg, seg, sig + group, pe);
  HANDLE ? ishmem_quiet(h) : ishmem_quiet();
}

// One thread puts a value, then every thread of the block takes part in the barrier; after
// it, the value the left PE put must be here.
template <bool SYNC, bool HANDLE>
__global__ void wide_barrier(ishmemx_device_handle_t h, int *sym, int me, int left, int right,
                             int *bad) {
  for (unsigned i = 0; i < kIters; ++i) {
    if (threadIdx.x == 0) {
      HANDLE ? ishmem_int_p(h, sym + i, me * 100 + int(i), right)
             : ishmem_int_p(sym + i, me * 100 + int(i), right);
      if (SYNC) HANDLE ? ishmem_quiet(h) : ishmem_quiet();
    }
    int rc = SYNC ? (HANDLE ? ishmemx_sync_all_block(h) : ishmemx_sync_all_block())
                  : (HANDLE ? ishmemx_barrier_all_block(h) : ishmemx_barrier_all_block());
    if (threadIdx.x == 0 &&
        (rc != ISHMEM_SUCCESS || ((volatile int *)sym)[i] != left * 100 + int(i)))
      atomicAdd(bad, 1);
  }
}

// Checks that `kernel` can launch 1024-thread blocks and prints its register count.
template <class Kernel>
bool fits(Kernel kernel, const std::string &name) {
  gpuFuncAttributes attr{};
  if (!GPU_OK(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(kernel)))) return false;
  if (my_pe() == 0) std::printf("registers: %-28s %3d\n", name.c_str(), attr.numRegs);
  EXPECT_GE(attr.maxThreadsPerBlock, int(kThreads)) << name << ": " << attr.numRegs << " registers";
#if !defined(__HIP_PLATFORM_AMD__)
  EXPECT_LE(attr.numRegs, 64) << name;
#endif
  return attr.maxThreadsPerBlock >= int(kThreads);
}

const char *scope_name(Scope s) {
  return s == kThread ? "thread" : s == kWarp ? "warp" : "block";
}
const char *op_name(Op o) {
  static const char *names[] = {"putmem",     "putmem_nbi",    "getmem",
                                "getmem_nbi", "putmem_signal", "putmem_signal_nbi"};
  return names[o];
}

template <Scope S, Op O, bool HANDLE>
void run_wide() {
  const std::string name =
      std::string(op_name(O)) + "_" + scope_name(S) + (HANDLE ? " (handle)" : "");
  if (!fits(wide<S, O, HANDLE>, name)) return;
  const bool get = O == kGet || O == kGetNbi;
  const std::size_t groups = S == kThread ? kBlocks * kThreads
                             : S == kWarp ? kBlocks * kThreads / 32
                                          : kBlocks;  // warps of 32 (AMD: 64, half of them used)
  const std::size_t bytes = groups * segment(S);
  char *sym = static_cast<char *>(ishmem_malloc(bytes));
  uint64_t *sig = static_cast<uint64_t *>(ishmem_calloc(groups, sizeof(uint64_t)));
  ASSERT_TRUE(sym && sig) << ishmemx_last_error();
  DeviceBuffer local(bytes);
  std::vector<unsigned char> mine(bytes), guard(bytes, kGuard);
  for (std::size_t i = 0; i < bytes; ++i) mine[i] = pattern(my_pe(), i);
  char *dst = get ? local.as<char>() : sym;
  const char *src = get ? sym : local.as<char>();
  to_device(reinterpret_cast<unsigned char *>(const_cast<char *>(src)), mine);
  to_device(reinterpret_cast<unsigned char *>(dst), guard);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  const int peer = right_pe();
  wide<S, O, HANDLE><<<kBlocks, kThreads>>>(handle(), dst, src, sig, peer);
  GPU_LAUNCHED();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  const int from = get ? peer : left_pe();
  int device = 0;
  gpuDeviceProp prop{};
  GPU_OK(gpuGetDevice(&device));
  GPU_OK(gpuGetDeviceProperties(&prop, device));
  const std::size_t used = S == kWarp ? kBlocks * kThreads / prop.warpSize : groups;
  std::vector<unsigned char> got = to_host(reinterpret_cast<unsigned char *>(dst), bytes);
  ishmem_test::expect_elements(
      got.data(), used * segment(S), [&](std::size_t i) { return pattern(from, i); }, name.c_str());
  if (O == kSignal || O == kSignalNbi) {
    std::vector<uint64_t> seen = to_host(sig, groups);
    for (std::size_t g = 0; g < used; ++g)
      EXPECT_EQ(seen[g], uint64_t(kIters)) << name << ": signal of group " << g;
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(sig);
  ishmem_free(sym);
}

template <Scope S, bool HANDLE>
void run_scope() {
  run_wide<S, kPut, HANDLE>();
  run_wide<S, kPutNbi, HANDLE>();
  run_wide<S, kGet, HANDLE>();
  run_wide<S, kGetNbi, HANDLE>();
  run_wide<S, kSignal, HANDLE>();
  run_wide<S, kSignalNbi, HANDLE>();
}

TEST(WideBlocks, ThreadCalls) {
  SKIP_WITHOUT_GPU();
  run_scope<kThread, false>();
  run_scope<kThread, true>();
}
TEST(WideBlocks, WarpCalls) {
  SKIP_WITHOUT_GPU();
  run_scope<kWarp, false>();
  run_scope<kWarp, true>();
}
TEST(WideBlocks, BlockCalls) {
  SKIP_WITHOUT_GPU();
  run_scope<kBlock, false>();
  run_scope<kBlock, true>();
}

template <bool SYNC, bool HANDLE>
void run_barrier() {
  const std::string name =
      std::string(SYNC ? "sync_all_block" : "barrier_all_block") + (HANDLE ? " (handle)" : "");
  if (!fits(wide_barrier<SYNC, HANDLE>, name)) return;
  int *sym = static_cast<int *>(ishmem_calloc(kIters, sizeof(int)));
  ASSERT_NE(sym, nullptr) << ishmemx_last_error();
  DeviceBuffer bad(sizeof(int));
  GPU_OK(gpuMemset(bad.ptr, 0, sizeof(int)));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  wide_barrier<SYNC, HANDLE>
      <<<1, kThreads>>>(handle(), sym, my_pe(), left_pe(), right_pe(), bad.as<int>());
  GPU_LAUNCHED();
  EXPECT_EQ(to_host(bad.as<int>(), 1)[0], 0) << name << ": a value put before it was missing";
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(sym);
}

TEST(WideBlocks, Barriers) {
  SKIP_WITHOUT_GPU();
  run_barrier<false, false>();
  run_barrier<false, true>();
  run_barrier<true, false>();
  run_barrier<true, true>();
}

// Bounded to 32 registers: every thread puts a value and adds to a counter on the right PE;
// each block puts a slice of the source; then quiet.
constexpr unsigned kSlice = 4096;
template <bool HANDLE>
__global__ void __launch_bounds__(kThreads, 2)
    bounded(ishmemx_device_handle_t h, int *values, int *counter, char *dst, const char *src,
            int me, int pe) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  char *d = dst + blockIdx.x * kSlice;
  const char *s = src + blockIdx.x * kSlice;
  if (HANDLE) {
    ishmem_int_p(h, values + tid, me * 10000 + int(tid), pe);
    ishmem_int_atomic_add(h, counter, 1, pe);
    ishmemx_putmem_nbi_block(h, d, s, kSlice, pe);
    ishmem_quiet(h);
  } else {
    ishmem_int_p(values + tid, me * 10000 + int(tid), pe);
    ishmem_int_atomic_add(counter, 1, pe);
    ishmemx_putmem_nbi_block(d, s, kSlice, pe);
    ishmem_quiet();
  }
}

template <bool HANDLE>
void run_bounded() {
  const std::string name = std::string("bounded to 32") + (HANDLE ? " (handle)" : "");
  if (!fits(bounded<HANDLE>, name)) return;
  const std::size_t n = kBlocks * kThreads, bytes = kBlocks * kSlice;
  int *values = static_cast<int *>(ishmem_calloc(n + 1, sizeof(int)));
  char *dst = static_cast<char *>(ishmem_malloc(bytes));
  ASSERT_TRUE(values && dst) << ishmemx_last_error();
  DeviceBuffer src(bytes);
  std::vector<unsigned char> mine(bytes), guard(bytes, kGuard);
  for (std::size_t i = 0; i < bytes; ++i) mine[i] = pattern(my_pe(), i);
  to_device(src.as<unsigned char>(), mine);
  to_device(reinterpret_cast<unsigned char *>(dst), guard);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  bounded<HANDLE><<<kBlocks, kThreads>>>(handle(), values, values + n, dst, src.as<char>(), my_pe(),
                                         right_pe());
  GPU_LAUNCHED();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  const int from = left_pe();
  std::vector<int> got = to_host(values, n + 1);
  ishmem_test::expect_elements(
      got.data(), n, [&](std::size_t i) { return from * 10000 + int(i); }, name.c_str());
  EXPECT_EQ(got[n], int(n)) << name << ": the counter";
  std::vector<unsigned char> data = to_host(reinterpret_cast<unsigned char *>(dst), bytes);
  ishmem_test::expect_elements(
      data.data(), bytes, [&](std::size_t i) { return pattern(from, i); }, name.c_str());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(dst);
  ishmem_free(values);
}

TEST(WideBlocks, BoundedTo32Registers) {
  SKIP_WITHOUT_GPU();
  run_bounded<false>();
  run_bounded<true>();
}

}  // namespace
