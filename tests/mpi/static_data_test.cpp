// Symmetric static data: the program's global and static variables as targets of RMA, atomics,
// put-with-signal and waits, on this PE and on its peers (docs/STATIC_DATA.md). Checks inside
// loops are EXPECTs: a fatal ASSERT would leave this PE's peers waiting for it.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "ishmem.h"
#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

constexpr int kWords = 64;
// Data (initialized) and bss (zero) variables; file-static ones too.
long g_data[kWords] = {1, 2, 3};
long g_bss[kWords];
static int s_ints[kWords];
double g_doubles[8];
long g_counter;
long g_cas_counter;
unsigned long g_bits;
uint64_t g_sig;
uint64_t g_sig2;
long g_flag;
char g_bytes[256];
thread_local long t_local;  // thread-local storage is not symmetric

long pattern(int pe, int i) {
  return 1000L * (pe + 1) + i;
}

void barrier() {
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS) << ishmemx_last_error();
}

TEST(StaticData, PutGetToEveryPe) {
  const int me = my_pe(), n = n_pes();
  long mine[kWords];
  for (int i = 0; i < kWords; ++i) mine[i] = pattern(me, i);
  // g_bss[j * 8 ... j * 8 + 7] of every PE gets PE j's words (8 * n <= kWords for n <= 8).
  for (int pe = 0; pe < n; ++pe)
    EXPECT_EQ(ishmem_long_put(&g_bss[me * 8], mine, 8, pe), ISHMEM_SUCCESS) << ishmemx_last_error();
  // Bytes, nbi, sized and p forms into the right neighbour.
  EXPECT_EQ(ishmem_putmem(g_bytes, mine, 8 * sizeof(long), right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_put32_nbi(s_ints, mine, 4, right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_double_p(&g_doubles[1], me + 0.5, right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
  barrier();
  for (int pe = 0; pe < n; ++pe)
    expect_elements(
        &g_bss[pe * 8], 8, [pe](std::size_t i) { return pattern(pe, static_cast<int>(i)); },
        "long_put from PE " + std::to_string(pe));
  long bytes[8];
  memcpy(bytes, g_bytes, sizeof bytes);
  expect_elements(
      bytes, 8, [](std::size_t i) { return pattern(left_pe(), static_cast<int>(i)); }, "putmem");
  EXPECT_EQ(memcmp(s_ints, std::vector<long>{pattern(left_pe(), 0), pattern(left_pe(), 1)}.data(),
                   4 * sizeof(int)),
            0)
      << "put32_nbi";
  EXPECT_EQ(g_doubles[1], left_pe() + 0.5);

  // Gets: every PE's g_bss block from its owner, a g and a getmem_nbi from the right.
  std::vector<long> got(8);
  for (int pe = 0; pe < n; ++pe) {
    EXPECT_EQ(ishmem_long_get(got.data(), &g_bss[pe * 8], 8, pe), ISHMEM_SUCCESS);
    expect_elements(
        got.data(), 8, [pe](std::size_t i) { return pattern(pe, static_cast<int>(i)); },
        "long_get of PE " + std::to_string(pe));
  }
  EXPECT_EQ(ishmem_double_g(&g_doubles[1], right_pe()), me + 0.5);
  EXPECT_EQ(ishmem_long_g(&g_data[2], right_pe()), 3);  // initialized data, never written
  long from_right[8] = {};
  EXPECT_EQ(ishmem_getmem_nbi(from_right, g_bytes, sizeof from_right, right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
  expect_elements(
      from_right, 8, [me](std::size_t i) { return pattern(me, static_cast<int>(i)); },
      "getmem_nbi");
  barrier();
}

TEST(StaticData, StridedAndHeapToStatic) {
  const int me = my_pe();
  long *heap = static_cast<long *>(ishmem_calloc(kWords, sizeof(long)));
  ASSERT_TRUE(all_true(heap != nullptr));
  long src[kWords];
  for (int i = 0; i < kWords; ++i) src[i] = pattern(me, i);
  // Every third element of g_data (from 8 on) on the right gets src[0], src[2], ...
  EXPECT_EQ(ishmem_long_iput(&g_data[8], src, 3, 2, 10, right_pe()), ISHMEM_SUCCESS);
  // The heap's copy on the right, filled from a static source (the local side is any memory).
  memcpy(g_bss, src, sizeof src);
  EXPECT_EQ(ishmem_long_put(heap, g_bss, kWords, right_pe()), ISHMEM_SUCCESS);
  barrier();
  for (int k = 0; k < 10; ++k) EXPECT_EQ(g_data[8 + 3 * k], pattern(left_pe(), 2 * k)) << k;
  EXPECT_EQ(g_data[9], 0);
  expect_elements(
      heap, kWords, [](std::size_t i) { return pattern(left_pe(), static_cast<int>(i)); },
      "heap from a static source");
  long back[20] = {};
  EXPECT_EQ(ishmem_long_iget(back, &g_data[8], 2, 3, 10, right_pe()), ISHMEM_SUCCESS);
  for (int k = 0; k < 10; ++k) EXPECT_EQ(back[2 * k], pattern(me, 2 * k)) << k;
  barrier();
  ishmem_free(heap);
}

// Every AMO kind on the right neighbour's static variables, then a check of the results.
TEST(StaticData, EveryAtomicKind) {
  const int right = right_pe(), me = my_pe();
  barrier();
  EXPECT_EQ(ishmem_long_atomic_set(&g_data[20], 5, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_atomic_fetch(&g_data[20], right), 5);
  EXPECT_EQ(ishmem_long_atomic_swap(&g_data[20], 7, right), 5);
  EXPECT_EQ(ishmem_long_atomic_compare_swap(&g_data[20], 6, 9, right), 7) << "no swap";
  EXPECT_EQ(ishmem_long_atomic_compare_swap(&g_data[20], 7, 9, right), 7) << "swap";
  EXPECT_EQ(ishmem_long_atomic_fetch_inc(&g_data[20], right), 9);
  EXPECT_EQ(ishmem_long_atomic_inc(&g_data[20], right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_atomic_fetch_add(&g_data[20], 10, right), 11);
  EXPECT_EQ(ishmem_long_atomic_add(&g_data[20], 100, right), ISHMEM_SUCCESS);
  long fetched = 0;
  EXPECT_EQ(ishmem_long_atomic_fetch_add_nbi(&fetched, &g_data[20], 1, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
  EXPECT_EQ(fetched, 121);
  EXPECT_EQ(ishmem_double_atomic_set(&g_doubles[3], 2.5, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_double_atomic_swap(&g_doubles[3], 4.5, right), 2.5);
  EXPECT_EQ(ishmem_ulong_atomic_set(&g_bits, 0xf0f0ul, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ulong_atomic_fetch_and(&g_bits, 0xff00ul, right), 0xf0f0ul);
  EXPECT_EQ(ishmem_ulong_atomic_or(&g_bits, 0x000ful, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ulong_atomic_fetch_xor(&g_bits, 0x1001ul, right), 0xf00ful);
  EXPECT_EQ(ishmem_int_atomic_fetch_inc(&s_ints[40], me), 0) << "this PE's own copy";
  EXPECT_EQ(ishmem_int_atomic_compare_swap(&s_ints[40], 1, me + 50, me), 1) << "own, swap";
  barrier();
  EXPECT_EQ(g_data[20], 122);
  EXPECT_EQ(g_doubles[3], 4.5);
  EXPECT_EQ(g_bits, 0xe00eul);
  EXPECT_EQ(s_ints[40], me + 50);
  barrier();
}

// Every PE adds to PE 0's static counters, PE 0 included: fetch_add on one, a compare-and-swap
// loop on the other. The totals are exact and every fetched value was seen once.
TEST(StaticData, ContendedCountersOnPeZero) {
  const int n = n_pes(), rounds = 150;
  if (my_pe() == 0) g_counter = g_cas_counter = 0;
  barrier();
  long long fetched_sum = 0;
  long last = -1;
  for (int r = 0; r < rounds; ++r) {
    const long old = ishmem_long_atomic_fetch_add(&g_counter, 1, 0);
    EXPECT_GT(old, last) << "fetch_add went back";
    last = old;
    fetched_sum += old;
    long seen = ishmem_long_atomic_fetch(&g_cas_counter, 0), prev;
    while ((prev = ishmem_long_atomic_compare_swap(&g_cas_counter, seen, seen + 1, 0)) != seen)
      seen = prev;
  }
  barrier();
  const long total = static_cast<long>(n) * rounds;
  if (my_pe() == 0) {
    EXPECT_EQ(g_counter, total);
    EXPECT_EQ(g_cas_counter, total);
  }
  EXPECT_EQ(ishmem_long_atomic_fetch(&g_counter, 0), total);
  long long all_sum = 0;
  for (long long s : allgather(fetched_sum)) all_sum += s;
  EXPECT_EQ(all_sum, static_cast<long long>(total) * (total - 1) / 2) << "a value fetched twice";
  barrier();
}

// Rounds of put-with-signal to the right neighbour: static data with a static signal, heap
// data with a static signal, static data with a heap signal. The receiver waits for each
// round's signal and must then see that round's data.
TEST(StaticData, PutWithSignal) {
  const int me = my_pe(), rounds = 40;
  long *heap_data = static_cast<long *>(ishmem_calloc(8, sizeof(long)));
  uint64_t *heap_sig = static_cast<uint64_t *>(ishmem_calloc(1, sizeof(uint64_t)));
  ASSERT_TRUE(all_true(heap_data && heap_sig));
  g_sig = g_sig2 = 0;
  barrier();
  long stale = 0;
  for (int r = 1; r <= rounds; ++r) {
    long out[8];
    for (int i = 0; i < 8; ++i) out[i] = pattern(me, i) * r;
    // A signal that was never sent would be waited for forever: stop at a failed call (where
    // every PE fails alike, e.g. without an MPI window, none is left waiting).
    ASSERT_EQ(ishmem_long_put_signal(&g_data[40], out, 8, &g_sig, r, ISHMEM_SIGNAL_SET, right_pe()),
              ISHMEM_SUCCESS)
        << ishmemx_last_error();
    ASSERT_EQ(
        ishmem_long_put_signal_nbi(heap_data, out, 8, &g_sig2, 1, ISHMEM_SIGNAL_ADD, right_pe()),
        ISHMEM_SUCCESS);
    ASSERT_EQ(ishmem_putmem_signal(&g_bss[48], out, sizeof out, heap_sig, r, ISHMEM_SIGNAL_SET,
                                   right_pe()),
              ISHMEM_SUCCESS);
    const long want = pattern(left_pe(), 7) * r;
    EXPECT_GE(ishmem_signal_wait_until(&g_sig, ISHMEM_CMP_GE, r), static_cast<uint64_t>(r));
    stale += g_data[47] < want;
    EXPECT_GE(ishmem_signal_wait_until(&g_sig2, ISHMEM_CMP_GE, r), static_cast<uint64_t>(r));
    stale += heap_data[7] < want;
    EXPECT_GE(ishmem_signal_wait_until(heap_sig, ISHMEM_CMP_GE, r), static_cast<uint64_t>(r));
    stale += g_bss[55] < want;
    EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);  // the nbi source is reused next round
  }
  EXPECT_EQ(stale, 0) << "data older than its signal";
  EXPECT_EQ(ishmem_signal_fetch(&g_sig2), static_cast<uint64_t>(rounds));
  barrier();
  ishmem_free(heap_sig);
  ishmem_free(heap_data);
}

// The left neighbour raises this PE's static flag; this PE waits for it, and test sees it.
TEST(StaticData, WaitAndTestOnStaticVariables) {
  const int me = my_pe();
  g_flag = 0;
  s_ints[60] = s_ints[61] = 0;
  barrier();
  EXPECT_EQ(ishmem_long_test(&g_flag, ISHMEM_CMP_EQ, 1), 0);
  barrier();  // every PE has tested before any flag is raised
  EXPECT_EQ(ishmem_long_atomic_set(&g_flag, 1, right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_wait_until(&g_flag, ISHMEM_CMP_EQ, 1), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_test(&g_flag, ISHMEM_CMP_EQ, 1), 1);
  // Entry 1 arrives by a put; wait for some, then all of the pair.
  EXPECT_EQ(ishmem_int_p(&s_ints[61], me + 1, right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_int_atomic_add(&s_ints[60], 2, right_pe()), ISHMEM_SUCCESS);
  std::size_t idx[2];
  EXPECT_GE(ishmem_int_wait_until_some(&s_ints[60], 2, idx, nullptr, ISHMEM_CMP_GT, 0), 1u);
  const int want[2] = {2, left_pe() + 1};
  EXPECT_EQ(ishmem_int_wait_until_all_vector(&s_ints[60], 2, nullptr, ISHMEM_CMP_EQ, want),
            ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_int_test_all_vector(&s_ints[60], 2, nullptr, ISHMEM_CMP_EQ, want), 1);
  barrier();
}

TEST(StaticData, AccessibleAndPtr) {
  const int me = my_pe();
  for (int pe = 0; pe < n_pes(); ++pe) {
    EXPECT_EQ(ishmem_addr_accessible(&g_counter, pe), 1) << pe;
    EXPECT_EQ(ishmem_addr_accessible(&s_ints[3], pe), 1) << pe;
    EXPECT_EQ(ishmem_ptr(&g_data[0], pe), pe == me ? static_cast<void *>(g_data) : nullptr) << pe;
  }
  long on_stack = 0;
  EXPECT_EQ(ishmem_addr_accessible(&on_stack, me), 0);
  EXPECT_EQ(ishmem_addr_accessible(&t_local, me), 0);
  EXPECT_EQ(ishmem_ptr(&on_stack, me), nullptr);
}

// Memory outside the heap and the static data is still refused: the stack, malloc, TLS.
TEST(StaticData, NonSymmetricLocalMemoryIsRejected) {
  long on_stack = 0;
  std::unique_ptr<long> on_malloc(new long(0));
  const long value = 1;
  for (long *p : {&on_stack, on_malloc.get(), &t_local}) {
    EXPECT_EQ(ishmem_long_p(p, 1, right_pe()), ISHMEM_ERR_NOT_SYMMETRIC);
    EXPECT_EQ(ishmem_long_put(p, &value, 1, my_pe()), ISHMEM_ERR_NOT_SYMMETRIC);
    EXPECT_EQ(ishmem_long_atomic_add(p, 1, right_pe()), ISHMEM_ERR_NOT_SYMMETRIC);
    EXPECT_EQ(ishmem_long_wait_until(p, ISHMEM_CMP_EQ, 0), ISHMEM_ERR_NOT_SYMMETRIC);
  }
  EXPECT_EQ(on_stack, 0);
  // A static range that runs past the data's end is refused too, in words about static data.
  EXPECT_EQ(ishmem_putmem(g_bytes, &value, SIZE_MAX / 2, right_pe()), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_NE(std::string(ishmemx_last_error())
                .find("starts in the program's static data but runs "
                      "past the end of its segment"),
            std::string::npos)
      << ishmemx_last_error();
  // A misaligned static word.
  EXPECT_EQ(ishmem_long_atomic_add(reinterpret_cast<long *>(g_bytes + 1), 1, right_pe()),
            ISHMEM_ERR_INVALID_ARG);
  barrier();
}

}  // namespace
