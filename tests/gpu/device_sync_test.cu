// Device synchronization: atomics for every AMO type (both forms), contention on one word, a
// compare-and-swap lock, signal ping-pong with data checks, every wait/test call for every
// type, a message-passing litmus test, device barriers mixed with stream barriers, the
// stream-ordered signal calls, and waits that give up. Built with ISHMEMX_DEVICE_WAIT_LIMIT,
// so a lost signal or a barrier that never completes fails the test instead of hanging it.
//
// Several PEs share one GPU here: their kernels are time-sliced, so a kernel waiting for
// another PE's kernel waits for the GPU to switch (milliseconds). Tests that need real
// concurrency also run between blocks of one kernel (a PE signalling itself through the same
// calls).
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>

#include "gpu_test_util.h"

using namespace gpu_test;

namespace {

// Calls the handle form or the no-argument form of the same call.
#define CALL(use_handle, fn, ...) ((use_handle) ? fn(h, __VA_ARGS__) : fn(__VA_ARGS__))

// Loads the kernel now: with lazy loading, loading one while another PE's kernel (or another
// of ours) spins can wait for the spinner.
template <class K>
void preload(K kernel) {
  gpuFuncAttributes attr;
  GPU_OK(gpuFuncGetAttributes(&attr, reinterpret_cast<const void *>(kernel)));
}

std::vector<unsigned long long> run_results(std::size_t n, const DeviceBuffer &buf) {
  return to_host(buf.as<unsigned long long>(), n);
}

// Busy-waits `cycles` clocks.
__device__ void spin_cycles(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// ---- Atomics of every type, both forms -----------------------------------------------------
// Each PE runs a fixed sequence on a word of its right neighbour's heap (one word per form)
// and records what each fetching call returned; the neighbour's word ends at a known value.

const unsigned long long kStdExpected[] = {0, 8, 10, 20, 20, 9, 9, 10, 11, 12, 13};
const unsigned long long kStdFinal = 13;

#define AMO_STANDARD_KERNEL(T, N)                                                       \
  __global__ void amo_standard_##N(ishmemx_device_handle_t h, bool use_handle, T *w,    \
                                   unsigned long long *out, int pe) {                   \
    T r[11];                                                                            \
    r[0] = CALL(use_handle, ishmem_##N##_atomic_fetch_add, w, (T)5, pe);                \
    CALL(use_handle, ishmem_##N##_atomic_add, w, (T)3, pe);                             \
    r[1] = CALL(use_handle, ishmem_##N##_atomic_fetch_inc, w, pe);                      \
    CALL(use_handle, ishmem_##N##_atomic_inc, w, pe);                                   \
    r[2] = CALL(use_handle, ishmem_##N##_atomic_compare_swap, w, (T)10, (T)20, pe);     \
    r[3] = CALL(use_handle, ishmem_##N##_atomic_compare_swap, w, (T)10, (T)30, pe);     \
    r[4] = CALL(use_handle, ishmem_##N##_atomic_swap, w, (T)7, pe);                     \
    CALL(use_handle, ishmem_##N##_atomic_set, w, (T)9, pe);                             \
    r[5] = CALL(use_handle, ishmem_##N##_atomic_fetch, w, pe);                          \
    CALL(use_handle, ishmem_##N##_atomic_fetch_add_nbi, &r[6], w, (T)1, pe);            \
    CALL(use_handle, ishmem_##N##_atomic_fetch_inc_nbi, &r[7], w, pe);                  \
    CALL(use_handle, ishmem_##N##_atomic_compare_swap_nbi, &r[8], w, (T)11, (T)12, pe); \
    CALL(use_handle, ishmem_##N##_atomic_swap_nbi, &r[9], w, (T)13, pe);                \
    CALL(use_handle, ishmem_##N##_atomic_fetch_nbi, &r[10], w, pe);                     \
    use_handle ? ishmem_quiet(h) : ishmem_quiet();                                      \
    for (int i = 0; i < 11; ++i) out[i] = (unsigned long long)r[i];                     \
  }

const unsigned long long kBitExpected[] = {0xF0, 0x3C, 0x1C0, 0x1C0, 0xC0, 0xC1};
const unsigned long long kBitFinal = 0;

#define AMO_BITWISE_KERNEL(T, N)                                                    \
  __global__ void amo_bitwise_##N(ishmemx_device_handle_t h, bool use_handle, T *w, \
                                  unsigned long long *out, int pe) {                \
    T r[6];                                                                         \
    CALL(use_handle, ishmem_##N##_atomic_set, w, (T)0xF0, pe);                      \
    r[0] = CALL(use_handle, ishmem_##N##_atomic_fetch_or, w, (T)0x0F, pe);          \
    CALL(use_handle, ishmem_##N##_atomic_and, w, (T)0x3C, pe);                      \
    r[1] = CALL(use_handle, ishmem_##N##_atomic_fetch_xor, w, (T)0xFF, pe);         \
    CALL(use_handle, ishmem_##N##_atomic_or, w, (T)0x100, pe);                      \
    CALL(use_handle, ishmem_##N##_atomic_xor, w, (T)0x3, pe);                       \
    r[2] = CALL(use_handle, ishmem_##N##_atomic_fetch_and, w, (T)0x1F0, pe);        \
    CALL(use_handle, ishmem_##N##_atomic_fetch_and_nbi, &r[3], w, (T)0x0C0, pe);    \
    CALL(use_handle, ishmem_##N##_atomic_fetch_or_nbi, &r[4], w, (T)1, pe);         \
    CALL(use_handle, ishmem_##N##_atomic_fetch_xor_nbi, &r[5], w, (T)0xC1, pe);     \
    use_handle ? ishmem_quiet(h) : ishmem_quiet();                                  \
    for (int i = 0; i < 6; ++i) out[i] = (unsigned long long)r[i];                  \
  }

// Extended types (float, double): fetch, set, swap. Values exact in both.
const double kExtExpected[] = {1.5, 1.5, 2.5, 3.25};
const double kExtFinal = 3.25;

#define AMO_EXTENDED_KERNEL(T, N)                                                                 \
  __global__ void amo_extended_##N(ishmemx_device_handle_t h, bool use_handle, T *w, double *out, \
                                   int pe) {                                                      \
    T r[4];                                                                                       \
    CALL(use_handle, ishmem_##N##_atomic_set, w, (T)1.5, pe);                                     \
    r[0] = CALL(use_handle, ishmem_##N##_atomic_fetch, w, pe);                                    \
    r[1] = CALL(use_handle, ishmem_##N##_atomic_swap, w, (T)2.5, pe);                             \
    CALL(use_handle, ishmem_##N##_atomic_swap_nbi, &r[2], w, (T)3.25, pe);                        \
    CALL(use_handle, ishmem_##N##_atomic_fetch_nbi, &r[3], w, pe);                                \
    use_handle ? ishmem_quiet(h) : ishmem_quiet();                                                \
    for (int i = 0; i < 4; ++i) out[i] = (double)r[i];                                            \
  }

// Runs `launch(use_handle, word on the right PE, results)` for both forms and checks the
// results and the final value of the word the left PE worked on.
template <class T, class R, class Launch>
void check_amo_sequence(const char *what, const R *expected, std::size_t n, R final_value,
                        Launch &&launch) {
  T *w = static_cast<T *>(ishmem_calloc(2, sizeof(T)));
  ASSERT_NE(w, nullptr) << ishmemx_last_error();
  DeviceBuffer out(2 * 16 * sizeof(R));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  for (int form = 0; form < 2; ++form) {
    launch(form == 1, w + form, out.as<R>() + 16 * form);
    GPU_LAUNCHED();
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  std::vector<R> got = to_host(out.as<R>(), 32);
  std::vector<T> words = to_host(w, 2);
  for (int form = 0; form < 2; ++form) {
    std::string name = std::string(what) + (form ? " (handle)" : " (no argument)");
    ishmem_test::expect_elements(
        got.data() + 16 * form, n, [&](std::size_t i) { return expected[i]; }, name + " results");
    EXPECT_EQ(static_cast<R>(words[form]), final_value) << name << ": final value";
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ASSERT_EQ(ishmem_free(w), ISHMEM_SUCCESS);
}

#define AMO_STANDARD_TEST(T, N)                                                        \
  AMO_STANDARD_KERNEL(T, N)                                                            \
  TEST(DeviceAmoStandard, N) {                                                         \
    SKIP_WITHOUT_GPU();                                                                \
    ishmemx_device_handle_t h = handle();                                              \
    check_amo_sequence<T, unsigned long long>(                                         \
        #N, kStdExpected, 11, kStdFinal, [&](bool hf, T *w, unsigned long long *out) { \
          amo_standard_##N<<<1, 1>>>(h, hf, w, out, right_pe());                       \
        });                                                                            \
  }
ISHMEMX_AMO_STANDARD_TYPES(AMO_STANDARD_TEST)

#define AMO_BITWISE_TEST(T, N)                                                        \
  AMO_BITWISE_KERNEL(T, N)                                                            \
  TEST(DeviceAmoBitwise, N) {                                                         \
    SKIP_WITHOUT_GPU();                                                               \
    ishmemx_device_handle_t h = handle();                                             \
    check_amo_sequence<T, unsigned long long>(                                        \
        #N, kBitExpected, 6, kBitFinal, [&](bool hf, T *w, unsigned long long *out) { \
          amo_bitwise_##N<<<1, 1>>>(h, hf, w, out, right_pe());                       \
        });                                                                           \
  }
ISHMEMX_AMO_BITWISE_TYPES(AMO_BITWISE_TEST)

#define AMO_EXTENDED_TEST(T, N)                                                            \
  AMO_EXTENDED_KERNEL(T, N)                                                                \
  TEST(DeviceAmoExtended, N) {                                                             \
    SKIP_WITHOUT_GPU();                                                                    \
    ishmemx_device_handle_t h = handle();                                                  \
    check_amo_sequence<T, double>(#N, kExtExpected, 4, kExtFinal,                          \
                                  [&](bool hf, T *w, double *out) {                        \
                                    amo_extended_##N<<<1, 1>>>(h, hf, w, out, right_pe()); \
                                  });                                                      \
  }
ISHMEMX_AMO_EXTENDED_ONLY_TYPES(AMO_EXTENDED_TEST)

// ---- Contention: every thread of every PE adds 1 to one word --------------------------------

constexpr int kContendBlocks = 8, kContendThreads = 128, kContendIters = 64;

__global__ void contend_u64(unsigned long long *counter, int pe, unsigned long long *fetched_sum) {
  unsigned long long sum = 0;
  for (int i = 0; i < kContendIters; ++i)
    sum += ishmem_ulonglong_atomic_fetch_add(counter, 1ull, pe);
  atomicAdd(fetched_sum, sum);
}
__global__ void contend_int(ishmemx_device_handle_t h, int *counter, int pe) {
  for (int i = 0; i < kContendIters; ++i) {
    if (i & 1)
      ishmem_int_atomic_inc(h, counter, pe);
    else
      ishmem_int_atomic_add(counter, 1, pe);
  }
}

TEST(DeviceAmoContention, FetchAddExactTotal) {
  SKIP_WITHOUT_GPU();
  auto *c64 = static_cast<unsigned long long *>(ishmem_calloc(1, sizeof(unsigned long long)));
  int *c32 = static_cast<int *>(ishmem_calloc(1, sizeof(int)));
  ASSERT_TRUE(c64 && c32);
  DeviceBuffer sum(sizeof(unsigned long long));
  GPU_OK(gpuMemset(sum.ptr, 0, sum.bytes));
  ishmemx_device_handle_t h = handle();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  contend_u64<<<kContendBlocks, kContendThreads>>>(c64, 0, sum.as<unsigned long long>());
  contend_int<<<kContendBlocks, kContendThreads>>>(h, c32, n_pes() - 1);
  GPU_LAUNCHED();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  const long long per_pe = 1LL * kContendBlocks * kContendThreads * kContendIters;
  const long long total = per_pe * n_pes();
  if (my_pe() == 0) EXPECT_EQ(static_cast<long long>(to_host(c64, 1)[0]), total);
  if (my_pe() == n_pes() - 1) EXPECT_EQ(static_cast<long long>(to_host(c32, 1)[0]), total);
  // Every fetched value is distinct: together they are 0 .. total-1.
  std::vector<long long> sums =
      ishmem_test::allgather(static_cast<long long>(to_host(sum.as<unsigned long long>(), 1)[0]));
  EXPECT_EQ(std::accumulate(sums.begin(), sums.end(), 0LL), total * (total - 1) / 2);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(c32);
  ishmem_free(c64);
}

// ---- A compare-and-swap lock guarding a plain read-modify-write ------------------------------

constexpr int kLockBlocks = 4, kLockIters = 100;

__global__ void locked_increments(ishmemx_device_handle_t h, int *lock, long long *counter,
                                  unsigned long long *timeouts) {
  if (threadIdx.x != 0) return;
  const bool hf = blockIdx.x & 1;  // half the blocks use each form
  for (int i = 0; i < kLockIters; ++i) {
    long long start = clock64();
    while (CALL(hf, ishmem_int_atomic_compare_swap, lock, 0, 1, 0) != 0) {
      spin_cycles(400);
      if (clock64() - start > 10000000000LL) {
        atomicAdd(timeouts, 1ull);
        return;
      }
    }
    hf ? ishmem_fence(h) : ishmem_fence();  // acquire: the reads below follow the lock
    long long v = CALL(hf, ishmem_longlong_g, counter, 0);
    CALL(hf, ishmem_longlong_p, counter, v + 1, 0);
    hf ? ishmem_quiet(h) : ishmem_quiet();  // release: the write is complete before the unlock
    CALL(hf, ishmem_int_atomic_set, lock, 0, 0);
  }
}

TEST(DeviceAmoContention, CompareSwapLock) {
  SKIP_WITHOUT_GPU();
  int *lock = static_cast<int *>(ishmem_calloc(1, sizeof(int)));
  auto *counter = static_cast<long long *>(ishmem_calloc(1, sizeof(long long)));
  ASSERT_TRUE(lock && counter);
  DeviceBuffer timeouts(sizeof(unsigned long long));
  GPU_OK(gpuMemset(timeouts.ptr, 0, timeouts.bytes));
  preload(locked_increments);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  locked_increments<<<kLockBlocks, 32>>>(handle(), lock, counter,
                                         timeouts.as<unsigned long long>());
  GPU_LAUNCHED();
  EXPECT_EQ(to_host(timeouts.as<unsigned long long>(), 1)[0], 0u) << "the lock was never free";
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (my_pe() == 0) {
    EXPECT_EQ(to_host(counter, 1)[0], 1LL * n_pes() * kLockBlocks * kLockIters)
        << "increments lost: the lock let two holders in";
    EXPECT_EQ(to_host(lock, 1)[0], 0);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(counter);
  ishmem_free(lock);
}

// ---- Signal ping-pong with data checks ------------------------------------------------------
// Two parties exchange `bytes` of data per round with put-with-signal and check what they
// receive. Across PEs (one block per PE, partner = the paired PE) or inside one kernel (two
// blocks of one PE, signalling the PE itself through the same calls). Rounds rotate through
// the block, warp and thread forms, SET and ADD, blocking and _nbi.

__device__ unsigned char round_byte(int party, int round, std::size_t i) {
  return static_cast<unsigned char>(1 + (party * 53 + round * 29 + i * 7) % 251);
}

__global__ void signal_pingpong(ishmemx_device_handle_t h, char *buf, char *src, std::size_t bytes,
                                uint64_t *sig, int rounds, int peer, bool self,
                                unsigned long long *bad) {
  // Party index: which signal and buffer this side receives into.
  const int me = self ? blockIdx.x : 0, other = self ? 1 - me : 0;
  const int my_id = self ? me : ishmem_my_pe(), other_id = self ? other : peer;
  const bool starter = self ? me == 0 : ishmem_my_pe() < peer;
  char *my_src = src + me * bytes;
  char *inbox = buf + me * bytes, *outbox = buf + other * bytes;  // symmetric
  uint64_t *my_sig = sig + me, *their_sig = sig + other;
  const int target = self ? ishmem_my_pe() : peer;
  for (int r = 1; r <= rounds; ++r) {
    for (int turn = 0; turn < 2; ++turn) {
      if ((turn == 0) == starter) {
        for (std::size_t i = threadIdx.x; i < bytes; i += blockDim.x)
          my_src[i] = round_byte(my_id, r, i);
        // The op changes every 4 rounds, so that each form below runs with both.
        const int op = (r & 4) ? ISHMEM_SIGNAL_ADD : ISHMEM_SIGNAL_SET;
        const uint64_t value = (r & 4) ? 1 : r;  // either way the signal becomes r
        switch (r % 4) {
          case 0:
            ishmemx_putmem_signal_block(outbox, my_src, bytes, their_sig, value, op, target);
            break;
          case 1:
            if (threadIdx.x < warpSize)
              ishmemx_putmem_signal_nbi_warp(h, outbox, my_src, bytes, their_sig, value, op,
                                             target);
            break;
          case 2:
            __syncthreads();
            if (threadIdx.x == 0)
              ishmem_putmem_signal(h, outbox, my_src, bytes, their_sig, value, op, target);
            break;
          default:
            ishmemx_putmem_signal_nbi_block(h, outbox, my_src, bytes, their_sig, value, op, target);
            if (threadIdx.x == 0) ishmem_quiet();
        }
        __syncthreads();
      } else {
        if (threadIdx.x == 0) {
          uint64_t seen = (r & 2) ? ishmem_signal_wait_until(my_sig, ISHMEM_CMP_GE, r)
                                  : ishmem_signal_wait_until(h, my_sig, ISHMEM_CMP_EQ, r);
          if (seen != (uint64_t)r) atomicAdd(bad, 1ull << 40);  // lost or wrong signal
        }
        // After a lost signal the partner is gone too: stop rather than wait again.
        if (__syncthreads_or(threadIdx.x == 0 && (*(volatile unsigned long long *)bad >> 40)))
          return;
        for (std::size_t i = threadIdx.x; i < bytes; i += blockDim.x)
          if ((unsigned char)inbox[i] != round_byte(other_id, r, i)) atomicAdd(bad, 1ull);
        __syncthreads();
      }
    }
  }
  if (threadIdx.x == 0 && ishmem_signal_fetch(my_sig) != (uint64_t)rounds)
    atomicAdd(bad, 1ull << 50);
}

void run_pingpong(bool self, std::size_t bytes, int rounds) {
  char *buf = static_cast<char *>(ishmem_calloc(2, bytes));
  auto *sig = static_cast<uint64_t *>(ishmem_calloc(2, sizeof(uint64_t)));
  ASSERT_TRUE(buf && sig);
  DeviceBuffer src(2 * bytes), bad(sizeof(unsigned long long));
  GPU_OK(gpuMemset(bad.ptr, 0, bad.bytes));
  preload(signal_pingpong);
  // Pairs (0,1), (2,3), ...; an odd PE out sits the cross-PE test out.
  const int me = my_pe(), peer = me ^ 1;
  const bool plays = self || peer < n_pes();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (plays) {
    signal_pingpong<<<self ? 2 : 1, 256>>>(handle(), buf, src.as<char>(), bytes, sig, rounds, peer,
                                           self, bad.as<unsigned long long>());
    GPU_LAUNCHED();
  }
  unsigned long long b = to_host(bad.as<unsigned long long>(), 1)[0];
  EXPECT_EQ(b, 0u) << (self ? "blocks of one kernel" : "two PEs") << ", " << bytes
                   << " bytes: stale bytes " << (b & ((1ull << 40) - 1)) << ", bad signals "
                   << ((b >> 40) & 1023) << ", bad final signal " << (b >> 50);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(sig);
  ishmem_free(buf);
}

TEST(DeviceSignal, PingPongAcrossPes) {
  SKIP_WITHOUT_GPU();
  run_pingpong(false, 4099, 40);  // each turn waits for the GPU to switch processes
  run_pingpong(false, 8, 40);     // the thread form's one-word path to another PE
}
TEST(DeviceSignal, PingPongInsideOneKernel) {
  SKIP_WITHOUT_GPU();
  run_pingpong(true, 8, 2000);
  run_pingpong(true, 65541, 200);
}

// ---- Every wait and test call, for every point-to-point type --------------------------------
// Part 1 (block 0, on values already in place) checks what each call returns; part 2 waits for
// values that block 1 of the same kernel stores later, through atomics on this PE. An _any
// call may return any satisfied index (which one depends on the calls before it: AnyIsFair),
// so part 1 records the first of them for any of them.

const unsigned long long kNone = ~0ull;
// What part 1 records, in order (kNone: SIZE_MAX; indices follow the _some counts).
const unsigned long long kWaitExpected[] = {
    1, 0, 1, 0, 1, 0,  // test: EQ, NE, GT, GE, LT, LE
    1, 0, 1,           // test_all
    kNone, 3,          // test_any
    4, 1, 3, 4, 5,     // test_some and its indices
    1, 0,              // test_all_vector
    1,                 // test_any_vector
    2, 3, 5,           // test_some_vector and its indices
    0, 0,              // wait_until, wait_until_all
    4,                 // wait_until_any
    2, 0, 1,           // wait_until_some and its indices
    0,                 // wait_until_all_vector
    1,                 // wait_until_any_vector
    1, 0,              // wait_until_some_vector and its index
    kNone, 0,          // every entry excluded: wait_until_any, wait_until_some
    // part 2
    4, 0, 1, 3};  // waited any, waited all, test_all after it, signal seen
constexpr int kWaitResults = sizeof(kWaitExpected) / sizeof(kWaitExpected[0]);

// SET and ADD name the setter's calls (stems): the atomics, or for the 2-byte types, which
// have no atomics, ishmem_TYPE_p (its entries start at 0, so adding 1 stores 1).
#define WAIT_KERNEL(T, N) WAIT_KERNEL_SET(T, N, N##_atomic_set, N##_atomic_add)
#define WAIT_KERNEL_SET(T, N, SET, ADD)                                                            \
  __global__ void wait_calls_##N(                                                                  \
      ishmemx_device_handle_t h, bool use_handle, T *iv, T *iv2, uint64_t *sig, const int *status, \
      const int *excluded, const T *cv, const T *cv2, size_t *idx, unsigned long long *out) {      \
    const bool hf = use_handle;                                                                    \
    if (threadIdx.x != 0) return;                                                                  \
    if (blockIdx.x == 1) { /* part 2's setter */                                                   \
      const int me = ishmem_my_pe(h);                                                              \
      spin_cycles(40000);                                                                          \
      CALL(hf, ishmem_##SET, iv2 + 4, (T)7, me);                                                   \
      spin_cycles(40000);                                                                          \
      for (int i = 0; i < 6; ++i)                                                                  \
        if (i != 4) CALL(hf, ishmem_##ADD, iv2 + i, (T)1, me);                                     \
      for (int i = 0; i < 3; ++i) {                                                                \
        spin_cycles(20000);                                                                        \
        CALL(hf, ishmem_putmem_signal, iv2 + 6, iv2 + 6, 0, sig, 1, ISHMEM_SIGNAL_ADD, me);        \
      }                                                                                            \
      return;                                                                                      \
    }                                                                                              \
    int k = 0;                                                                                     \
    auto put = [&](unsigned long long v) { out[k++] = v; };                                        \
    auto put_any = [&](size_t got, unsigned satisfied, size_t first) {                             \
      put(got < 32 && ((satisfied >> got) & 1) ? first : got);                                     \
    };                                                                                             \
    auto put_idx = [&](size_t count) {                                                             \
      put(count);                                                                                  \
      for (size_t i = 0; i < count; ++i) put(idx[i]);                                              \
    };                                                                                             \
    put(CALL(hf, ishmem_##N##_test, iv + 0, ISHMEM_CMP_EQ, (T)1));                                 \
    put(CALL(hf, ishmem_##N##_test, iv + 0, ISHMEM_CMP_NE, (T)1));                                 \
    put(CALL(hf, ishmem_##N##_test, iv + 1, ISHMEM_CMP_GT, (T)1));                                 \
    put(CALL(hf, ishmem_##N##_test, iv + 1, ISHMEM_CMP_GE, (T)3));                                 \
    put(CALL(hf, ishmem_##N##_test, iv + 1, ISHMEM_CMP_LT, (T)3));                                 \
    put(CALL(hf, ishmem_##N##_test, iv + 1, ISHMEM_CMP_LE, (T)1));                                 \
    put(CALL(hf, ishmem_##N##_test_all, iv, 6, status, ISHMEM_CMP_GT, (T)0));                      \
    put(CALL(hf, ishmem_##N##_test_all, iv, 6, status, ISHMEM_CMP_GT, (T)1));                      \
    put(CALL(hf, ishmem_##N##_test_all, iv, 6, status, ISHMEM_CMP_LE, (T)6));                      \
    put(CALL(hf, ishmem_##N##_test_any, iv, 6, status, ISHMEM_CMP_EQ, (T)3));                      \
    put_any(CALL(hf, ishmem_##N##_test_any, iv, 6, status, ISHMEM_CMP_GE, (T)4), 0x38, 3);         \
    put_idx(CALL(hf, ishmem_##N##_test_some, iv, 6, idx, status, ISHMEM_CMP_GE, (T)2));            \
    put(CALL(hf, ishmem_##N##_test_all_vector, iv, 6, status, ISHMEM_CMP_EQ, cv));                 \
    put(CALL(hf, ishmem_##N##_test_all_vector, iv, 6, status, ISHMEM_CMP_EQ, cv2));                \
    put_any(CALL(hf, ishmem_##N##_test_any_vector, iv, 6, status, ISHMEM_CMP_EQ, cv2), 0x12, 1);   \
    put_idx(CALL(hf, ishmem_##N##_test_some_vector, iv, 6, idx, status, ISHMEM_CMP_LT, cv2));      \
    put(CALL(hf, ishmem_##N##_wait_until, iv + 3, ISHMEM_CMP_EQ, (T)4));                           \
    put(CALL(hf, ishmem_##N##_wait_until_all, iv, 6, status, ISHMEM_CMP_GE, (T)1));                \
    put_any(CALL(hf, ishmem_##N##_wait_until_any, iv, 6, status, ISHMEM_CMP_GT, (T)4), 0x30, 4);   \
    put_idx(CALL(hf, ishmem_##N##_wait_until_some, iv, 6, idx, status, ISHMEM_CMP_LE, (T)2));      \
    put(CALL(hf, ishmem_##N##_wait_until_all_vector, iv, 6, status, ISHMEM_CMP_EQ, cv));           \
    put_any(CALL(hf, ishmem_##N##_wait_until_any_vector, iv, 6, status, ISHMEM_CMP_EQ, cv2), 0x12, \
            1);                                                                                    \
    put_idx(                                                                                       \
        CALL(hf, ishmem_##N##_wait_until_some_vector, iv, 6, idx, status, ISHMEM_CMP_GT, cv2));    \
    put(CALL(hf, ishmem_##N##_wait_until_any, iv, 6, excluded, ISHMEM_CMP_EQ, (T)1));              \
    put(CALL(hf, ishmem_##N##_wait_until_some, iv, 6, idx, excluded, ISHMEM_CMP_EQ, (T)1));        \
    /* part 2: values that arrive while we wait */                                                 \
    put(CALL(hf, ishmem_##N##_wait_until_any, iv2, 6, nullptr, ISHMEM_CMP_EQ, (T)7));              \
    put(CALL(hf, ishmem_##N##_wait_until_all, iv2, 6, nullptr, ISHMEM_CMP_GE, (T)1));              \
    put(CALL(hf, ishmem_##N##_test_all, iv2, 6, nullptr, ISHMEM_CMP_GE, (T)1));                    \
    put(CALL(hf, ishmem_signal_wait_until, sig, ISHMEM_CMP_EQ, 3));                                \
  }                                                                                                \
  TEST(DeviceWaitTest, N) {                                                                        \
    SKIP_WITHOUT_GPU();                                                                            \
    run_wait_calls<T>(#N, wait_calls_##N);                                                         \
  }

template <class T, class Kernel>
void run_wait_calls(const char *name, Kernel kernel) {
  // 6 entries in place, 8 for part 2 (6 waited on, one a dummy put source), the signal.
  T *iv = static_cast<T *>(ishmem_calloc(16, sizeof(T)));
  auto *sig = static_cast<uint64_t *>(ishmem_calloc(2, sizeof(uint64_t)));
  ASSERT_TRUE(iv && sig);
  DeviceBuffer status(6 * sizeof(int)), excluded(6 * sizeof(int)), cv(6 * sizeof(T)),
      cv2(6 * sizeof(T)), idx(8 * sizeof(size_t)), out(64 * sizeof(unsigned long long));
  to_device(status.as<int>(), std::vector<int>{0, 0, 1, 0, 0, 0});
  to_device(excluded.as<int>(), std::vector<int>(6, 1));
  to_device(cv.as<T>(), std::vector<T>{1, 2, 99, 4, 5, 6});
  to_device(cv2.as<T>(), std::vector<T>{0, 2, 0, 5, 5, 7});
  preload(kernel);
  ishmemx_device_handle_t h = handle();
  for (int form = 0; form < 2; ++form) {
    to_device(iv, std::vector<T>{1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    GPU_OK(gpuMemset(sig, 0, 2 * sizeof(uint64_t)));
    GPU_OK(gpuMemset(out.ptr, 0xff, out.bytes));
    kernel<<<2, 32>>>(h, form == 1, iv, iv + 6, sig, status.as<int>(), excluded.as<int>(),
                      cv.as<T>(), cv2.as<T>(), idx.as<size_t>(), out.as<unsigned long long>());
    GPU_LAUNCHED();
    std::vector<unsigned long long> got = run_results(kWaitResults, out);
    ishmem_test::expect_elements(
        got.data(), kWaitResults, [](std::size_t i) { return kWaitExpected[i]; },
        std::string(name) + (form ? " (handle)" : " (no argument)"));
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(sig);
  ishmem_free(iv);
}

ISHMEMX_AMO_STANDARD_TYPES(WAIT_KERNEL)
WAIT_KERNEL_SET(short, short, short_p, short_p)
WAIT_KERNEL_SET(unsigned short, ushort, ushort_p, ushort_p)

// ---- A series of _any calls returns every satisfied index -----------------------------------
// Entries 0, 2, 3 and 5 hold, 3 is excluded: each call starts after the index the thread was
// given last, so the calls return 0, 2, 5, 0, 2, 5, ... from wherever the last one left off.
// Threads 0 and 32 of the block run the series at once, each with its own start.

constexpr int kAnyCalls = 12;

__global__ void any_series(ishmemx_device_handle_t h, bool use_handle, long *flags,
                           const int *status, const long *ones, unsigned long long *out) {
  const bool hf = use_handle;
  if (threadIdx.x % 32 != 0) return;
  unsigned long long *mine = out + (threadIdx.x / 32) * kAnyCalls;
  for (int round = 0; round < kAnyCalls / 4; ++round) {
    mine[4 * round] = CALL(hf, ishmem_long_test_any, flags, 6, status, ISHMEM_CMP_EQ, 1L);
    mine[4 * round + 1] = CALL(hf, ishmem_long_wait_until_any, flags, 6, status, ISHMEM_CMP_EQ, 1L);
    mine[4 * round + 2] =
        CALL(hf, ishmem_long_test_any_vector, flags, 6, status, ISHMEM_CMP_EQ, ones);
    mine[4 * round + 3] =
        CALL(hf, ishmem_long_wait_until_any_vector, flags, 6, status, ISHMEM_CMP_GE, ones);
  }
}

TEST(DeviceWaitTest, AnyIsFair) {
  SKIP_WITHOUT_GPU();
  long *flags = static_cast<long *>(ishmem_calloc(6, sizeof(long)));
  ASSERT_NE(flags, nullptr);
  DeviceBuffer status(6 * sizeof(int)), ones(6 * sizeof(long)),
      out(2 * kAnyCalls * sizeof(unsigned long long));
  to_device(flags, std::vector<long>{1, 0, 1, 1, 0, 1});
  to_device(status.as<int>(), std::vector<int>{0, 0, 0, 1, 0, 0});
  to_device(ones.as<long>(), std::vector<long>(6, 1));
  preload(any_series);
  ishmemx_device_handle_t h = handle();
  const std::vector<unsigned long long> cycle = {0, 2, 5};
  for (int form = 0; form < 2; ++form) {
    any_series<<<1, 64>>>(h, form == 1, flags, status.as<int>(), ones.as<long>(),
                          out.as<unsigned long long>());
    GPU_LAUNCHED();
    const std::vector<unsigned long long> got = run_results(2 * kAnyCalls, out);
    for (int thread = 0; thread < 2; ++thread) {
      SCOPED_TRACE("form " + std::to_string(form) + ", thread " + std::to_string(32 * thread));
      const unsigned long long *mine = got.data() + thread * kAnyCalls;
      const auto at = std::find(cycle.begin(), cycle.end(), mine[0]);
      ASSERT_NE(at, cycle.end()) << mine[0];
      std::size_t k = static_cast<std::size_t>(at - cycle.begin());
      for (int i = 0; i < kAnyCalls; ++i, ++k)
        EXPECT_EQ(mine[i], cycle[k % cycle.size()]) << "call " << i;
    }
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(flags);
}

// ---- Message-passing litmus: put data, fence, put flag; the flag's reader sees the data -----
// Producers write round r's four words, then raise the flag to r + 1, 100k rounds, never
// waiting for the consumer; consumers read the flag (acquire) and check every round up to it.
// Channels: fence + p and put-with-signal, each to the right PE (the reader runs when the GPU
// switches to it) and to this PE itself (the reader runs beside the writer, in another block).

constexpr int kLitmusRounds = 100000;

__device__ unsigned long long litmus_word(int from_pe, int channel, int round, int k) {
  return (static_cast<unsigned long long>(from_pe + 1) << 48) ^
         (static_cast<unsigned long long>(channel + 1) << 40) ^ (4ull * round + k + 1);
}

struct LitmusChannel {
  unsigned long long *data;  // symmetric: 4 words per round
  uint64_t *flag;            // symmetric
};

__global__ void litmus(LitmusChannel fence_ch, LitmusChannel signal_ch, int right, int left,
                       unsigned long long *stale, unsigned long long *timeouts) {
  if (threadIdx.x != 0) return;
  const int me = ishmem_my_pe();
  const int role = blockIdx.x;       // 0-3 produce, 4-7 consume
  const bool use_signal = role & 1;  // which channel
  const bool to_self = role & 2;     // whose heap
  const LitmusChannel &ch = use_signal ? signal_ch : fence_ch;
  const int channel = (use_signal ? 1 : 0) + (to_self ? 2 : 0);
  // Channels to self and to the right PE use separate halves of each buffer.
  unsigned long long *data = ch.data + (to_self ? 4ull * kLitmusRounds : 0);
  uint64_t *flag = ch.flag + (to_self ? 1 : 0);
  if (role < 4) {
    const int pe = to_self ? me : right;
    for (int r = 0; r < kLitmusRounds; ++r) {
      unsigned long long v[4];
      for (int k = 0; k < 4; ++k) v[k] = litmus_word(me, channel, r, k);
      if (use_signal) {
        ishmem_putmem_signal(data + 4 * r, v, sizeof v, flag, r + 1, ISHMEM_SIGNAL_SET, pe);
      } else {
        ishmem_putmem(data + 4 * r, v, sizeof v, pe);
        ishmem_fence();
        ishmem_uint64_p(flag, r + 1, pe);
      }
    }
  } else {
    const int from = to_self ? me : left;
    uint64_t seen = 0;
    while (seen < kLitmusRounds) {
      if (ishmem_uint64_wait_until(flag, ISHMEM_CMP_GT, seen) != ISHMEM_SUCCESS) {
        atomicAdd(timeouts, 1ull);
        return;
      }
      uint64_t now = ishmem_signal_fetch(flag);
      for (uint64_t r = seen; r < now; ++r)
        for (int k = 0; k < 4; ++k)
          if (data[4 * r + k] != litmus_word(from, channel, (int)r, k)) atomicAdd(stale, 1ull);
      seen = now;
    }
  }
}

TEST(DeviceOrdering, MessagePassingLitmus) {
  SKIP_WITHOUT_GPU();
  const std::size_t words = 2 * 4 * static_cast<std::size_t>(kLitmusRounds);
  LitmusChannel fence_ch{static_cast<unsigned long long *>(ishmem_calloc(words, 8)),
                         static_cast<uint64_t *>(ishmem_calloc(2, 8))};
  LitmusChannel signal_ch{static_cast<unsigned long long *>(ishmem_calloc(words, 8)),
                          static_cast<uint64_t *>(ishmem_calloc(2, 8))};
  ASSERT_TRUE(fence_ch.data && fence_ch.flag && signal_ch.data && signal_ch.flag);
  DeviceBuffer stale(8), timeouts(8);
  GPU_OK(gpuMemset(stale.ptr, 0, 8));
  GPU_OK(gpuMemset(timeouts.ptr, 0, 8));
  preload(litmus);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  litmus<<<8, 32>>>(fence_ch, signal_ch, right_pe(), left_pe(), stale.as<unsigned long long>(),
                    timeouts.as<unsigned long long>());
  GPU_LAUNCHED();
  EXPECT_EQ(to_host(timeouts.as<unsigned long long>(), 1)[0], 0u) << "a flag stopped advancing";
  EXPECT_EQ(to_host(stale.as<unsigned long long>(), 1)[0], 0u)
      << "words read stale after their flag (of " << 4 * 4 * kLitmusRounds << " checked)";
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(signal_ch.flag);
  ishmem_free(signal_ch.data);
  ishmem_free(fence_ch.flag);
  ishmem_free(fence_ch.data);
}

// ---- Barriers: device barriers of every form, meeting each other and stream barriers --------
// Round r: every PE puts r * 1000 + its PE number into its right neighbour's slot r, passes a
// barrier, and checks slot r holds its left neighbour's value. Device PEs do all rounds in
// one kernel (rotating ishmem_barrier_all, ishmemx_barrier_all_block, quiet +
// ishmem_sync_all, and the handle form); stream PEs enqueue a put, ishmemx_barrier_all_on_stream
// and a check kernel per round.

constexpr int kBarrierRounds = 8;

__device__ void check_slot(const int *slots, int r, int want, unsigned long long *bad) {
  if (ishmem_int_atomic_fetch(slots + r, ishmem_my_pe()) != want) atomicAdd(bad, 1ull);
}

__global__ void device_barrier_rounds(ishmemx_device_handle_t h, int *slots, int rounds, int right,
                                      int left, unsigned long long *bad) {
  const int me = ishmem_my_pe();
  for (int r = 1; r <= rounds; ++r) {
    if (threadIdx.x == 0) ishmem_int_p(slots + r, r * 1000 + me, right);
    int rc = ISHMEM_SUCCESS;
    switch (r % 4) {
      case 0:
        if (threadIdx.x == 0) rc = ishmem_barrier_all();
        break;
      case 1:
        rc = ishmemx_barrier_all_block();
        break;
      case 2:  // sync_all completes no puts: quiet first
        if (threadIdx.x == 0) {
          ishmem_quiet(h);
          rc = ishmem_sync_all(h);
        }
        break;
      default:
        if (threadIdx.x == 0) ishmem_quiet();
        rc = ishmemx_sync_all_block(h);
        break;
    }
    if (__syncthreads_or(rc != ISHMEM_SUCCESS)) {  // the sequences no longer match: stop
      if (threadIdx.x == 0) atomicAdd(bad, 1ull << 32);
      return;
    }
    if (threadIdx.x == 0) check_slot(slots, r, r * 1000 + left, bad);
    __syncthreads();
  }
}

__global__ void stream_check(const int *slots, int r, int want, unsigned long long *bad) {
  check_slot(slots, r, want, bad);
}

// Device PEs are those with `device_pe(pe)`; the others use the stream calls.
template <class DevicePe>
void run_barrier_rounds(int rounds, DevicePe device_pe, const char *what) {
  int *slots = static_cast<int *>(ishmem_calloc(2 * rounds + 2, sizeof(int)));
  ASSERT_NE(slots, nullptr);
  DeviceBuffer src((2 * rounds + 2) * sizeof(int)), bad(sizeof(unsigned long long));
  GPU_OK(gpuMemset(bad.ptr, 0, bad.bytes));
  std::vector<int> values(2 * rounds + 2);
  for (int r = 0; r < static_cast<int>(values.size()); ++r) values[r] = r * 1000 + my_pe();
  to_device(src.as<int>(), values);
  gpuStream_t s;
  GPU_OK(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  preload(device_barrier_rounds);
  preload(stream_check);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (device_pe(my_pe())) {
    device_barrier_rounds<<<1, 64, 0, s>>>(handle(), slots, rounds, right_pe(), left_pe(),
                                           bad.as<unsigned long long>());
    GPU_OK(gpuGetLastError());
  } else {
    for (int r = 1; r <= rounds; ++r) {
      EXPECT_EQ(ishmemx_putmem_on_stream(slots + r, src.as<int>() + r, sizeof(int), right_pe(), s),
                ISHMEM_SUCCESS);
      EXPECT_EQ(ishmemx_barrier_all_on_stream(s), ISHMEM_SUCCESS);
      stream_check<<<1, 1, 0, s>>>(slots, r, r * 1000 + left_pe(), bad.as<unsigned long long>());
      GPU_OK(gpuGetLastError());
    }
  }
  GPU_OK(gpuStreamSynchronize(s));
  unsigned long long b = to_host(bad.as<unsigned long long>(), 1)[0];
  EXPECT_EQ(b, 0u) << what << ": " << (b & 0xffffffffu) << " slots not written before the barrier, "
                   << (b >> 32) << " barriers timed out";
  // The host barrier after them, and the sequences still agree: one more round of each kind.
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  GPU_OK(gpuStreamDestroy(s));
  ishmem_free(slots);
}

TEST(DeviceBarrier, MixedHostDevice) {
  SKIP_WITHOUT_GPU();
  // Even PEs in kernels, odd PEs on streams; then the other way round; then all on streams.
  run_barrier_rounds(
      kBarrierRounds, [](int pe) { return pe % 2 == 0; }, "even PEs on the device");
  run_barrier_rounds(
      kBarrierRounds, [](int pe) { return pe % 2 == 1; }, "odd PEs on the device");
  run_barrier_rounds(
      4, [](int) { return false; }, "every PE on a stream");
}

TEST(DeviceBarrier, AllOnDevice) {
  SKIP_WITHOUT_GPU();
  // Every PE's kernel waits for the others': the GPU switches between them each round.
  run_barrier_rounds(
      4, [](int) { return true; }, "every PE on the device");
}

// ---- Stream-ordered put-with-signal and signal wait -----------------------------------------

__global__ void check_bytes(const char *buf, std::size_t n, int from, int round,
                            unsigned long long *bad) {
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x)
    if ((unsigned char)buf[i] != round_byte(from, round, i)) atomicAdd(bad, 1ull);
}
__global__ void fill_bytes(char *buf, std::size_t n, int from, int round) {
  for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) buf[i] = round_byte(from, round, i);
}

TEST(DeviceSignal, OnStream) {
  SKIP_WITHOUT_GPU();
  const std::size_t n = 100003;
  const int rounds = 3;
  char *buf = static_cast<char *>(ishmem_calloc(rounds, n));
  auto *sig = static_cast<uint64_t *>(ishmem_calloc(1, sizeof(uint64_t)));
  ASSERT_TRUE(buf && sig);
  DeviceBuffer src(rounds * n), bad(sizeof(unsigned long long));
  GPU_OK(gpuMemset(bad.ptr, 0, bad.bytes));
  gpuStream_t s;
  GPU_OK(gpuStreamCreateWithFlags(&s, gpuStreamNonBlocking));
  preload(check_bytes);
  for (int r = 0; r < rounds; ++r)
    fill_bytes<<<1, 256, 0, s>>>(src.as<char>() + r * n, n, my_pe(), r);
  GPU_OK(gpuStreamSynchronize(s));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  for (int r = 0; r < rounds; ++r) {
    const int op = r == 1 ? ISHMEM_SIGNAL_SET : ISHMEM_SIGNAL_ADD;
    EXPECT_EQ(ishmemx_putmem_signal_on_stream(buf + r * n, src.as<char>() + r * n, n, sig,
                                              r == 1 ? 2 : 1, op, right_pe(), s),
              ISHMEM_SUCCESS)
        << ishmemx_last_error();
    EXPECT_EQ(ishmemx_signal_wait_until_on_stream(sig, ISHMEM_CMP_GE, r + 1, s), ISHMEM_SUCCESS);
    check_bytes<<<1, 256, 0, s>>>(buf + r * n, n, left_pe(), r, bad.as<unsigned long long>());
  }
  GPU_OK(gpuStreamSynchronize(s));
  EXPECT_EQ(to_host(bad.as<unsigned long long>(), 1)[0], 0u);
  // Errors are reported at once, nothing enqueued.
  EXPECT_EQ(ishmemx_putmem_signal_on_stream(buf, src.ptr, 8, sig, 1, 7, right_pe(), s),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmemx_signal_wait_until_on_stream(sig, 0, 1, s), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmemx_signal_wait_until_on_stream(sig + (1 << 30), ISHMEM_CMP_EQ, 1, s),
            ISHMEM_ERR_NOT_SYMMETRIC);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(to_host(sig, 1)[0], static_cast<uint64_t>(rounds));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  GPU_OK(gpuStreamDestroy(s));
  ishmem_free(sig);
  ishmem_free(buf);
}

// ---- ISHMEMX_DEVICE_WAIT_LIMIT --------------------------------------------------------------
// This program is built with a wait limit of 10^10 clocks: each kind of wait on a value that
// never comes gives up after it, with the result that says it was not satisfied.

constexpr long long kWaitLimit = ISHMEMX_DEVICE_WAIT_LIMIT;

__global__ void waits_that_give_up(uint64_t *sig, int *ivars, size_t *indices,
                                   unsigned long long *result, long long *elapsed) {
  const long long start = clock64();
  unsigned long long r = 0;
  switch (blockIdx.x) {
    case 0:
      r = ishmem_signal_wait_until(sig, ISHMEM_CMP_GE, 1);
      break;
    case 1:
      r = (unsigned)ishmem_int_wait_until(ivars, ISHMEM_CMP_EQ, 1);
      break;
    case 2:
      r = (unsigned)ishmem_int_wait_until_all(ivars, 2, nullptr, ISHMEM_CMP_EQ, 1);
      break;
    case 3:
      r = ishmem_int_wait_until_any(ivars, 2, nullptr, ISHMEM_CMP_EQ, 1);
      break;
    default:
      r = ishmem_int_wait_until_some(ivars, 2, indices, nullptr, ISHMEM_CMP_EQ, 1);
      break;
  }
  result[blockIdx.x] = r;
  elapsed[blockIdx.x] = clock64() - start;
}

TEST(DeviceWaitLimit, WaitsGiveUpWithTheirNotSatisfiedResult) {
  SKIP_WITHOUT_GPU();
  auto *sig = static_cast<uint64_t *>(ishmem_calloc(1, sizeof(uint64_t)));
  int *ivars = static_cast<int *>(ishmem_calloc(2, sizeof(int)));
  ASSERT_TRUE(sig && ivars);
  constexpr int kWaits = 5;
  DeviceBuffer indices(2 * sizeof(size_t)), result(kWaits * sizeof(unsigned long long)),
      elapsed(kWaits * sizeof(long long));
  waits_that_give_up<<<kWaits, 1>>>(sig, ivars, indices.as<size_t>(),
                                    result.as<unsigned long long>(), elapsed.as<long long>());
  ASSERT_TRUE(GPU_LAUNCHED());
  const std::vector<unsigned long long> got = to_host(result.as<unsigned long long>(), kWaits);
  const unsigned long long timeout = static_cast<unsigned>(ISHMEM_ERR_TIMEOUT);
  const unsigned long long expected[kWaits] = {0, timeout, timeout, SIZE_MAX, 0};
  const char *names[kWaits] = {"signal_wait_until", "int_wait_until", "int_wait_until_all",
                               "int_wait_until_any", "int_wait_until_some"};
  const std::vector<long long> took = to_host(elapsed.as<long long>(), kWaits);
  for (int w = 0; w < kWaits; ++w) {
    EXPECT_EQ(got[w], expected[w]) << names[w];
    EXPECT_GE(took[w], kWaitLimit) << names[w] << " gave up before the limit";
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(ivars);
  ishmem_free(sig);
}

}  // namespace
