// The served off-node path (ISHMEM_OFF_NODE=served, lib/runtime/served_off_node.h) over host
// heaps, run with every PE its own node: transfers of several chunks, every atomic of every
// AMO type executed at the target, put-with-signal ordering, and a bad PE. Each PE works on
// the heap of the next PE in a ring, so each word has one writer and exact expected values.
// With ISHMEM_MAX_LOCAL_PES=2, half the targets are node-local.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ishmem.h"
#include "runtime/runtime.h"
#include "runtime/served_off_node.h"

namespace {

int next_pe() {
  return (ishmem_my_pe() + 1) % ishmem_n_pes();
}
int prev_pe() {
  return (ishmem_my_pe() + ishmem_n_pes() - 1) % ishmem_n_pes();
}
unsigned char pattern(int pe, std::size_t i) {
  return static_cast<unsigned char>((i * 131 + static_cast<std::size_t>(pe) * 7 + i / 4093) & 0xff);
}

// The program runs with ISHMEM_OFF_NODE=served: the checks below are the served path's.
TEST(ServedOffNode, IsThePathInUse) {
  ishmem::detail::OffNode *remote = ishmem::detail::runtime().remote;
  ASSERT_NE(remote, nullptr) << "no off-node PEs: run with ISHMEM_MAX_LOCAL_PES";
  EXPECT_NE(dynamic_cast<ishmem::detail::ServedOffNode *>(remote), nullptr);
}

// Sizes around the served path's limits: one byte; either side of 8 KiB, below which a host
// heap's put travels inside its request; one 1 MiB chunk and a bit; and several chunks that
// do not end on a chunk boundary.
TEST(ServedOffNode, PutAndGetInChunks) {
  const std::size_t kSizes[] = {
      1, 8, 8100, 8192, (std::size_t{1} << 20) + 8, 5 * (std::size_t{1} << 20) + 12345};
  const std::size_t max = kSizes[5];
  auto *heap = static_cast<unsigned char *>(ishmem_malloc(max));
  ASSERT_NE(heap, nullptr);
  std::vector<unsigned char> mine(max), back(max);
  for (std::size_t bytes : kSizes) {
    for (std::size_t i = 0; i < bytes; ++i) mine[i] = pattern(ishmem_my_pe(), i + bytes);
    std::fill(heap, heap + max, 0);
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    ASSERT_EQ(ishmem_putmem_nbi(heap, mine.data(), bytes, next_pe()), ISHMEM_SUCCESS);
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);  // completes the put (a flush) first
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < bytes; ++i) wrong += heap[i] != pattern(prev_pe(), i + bytes);
    EXPECT_EQ(wrong, 0u) << bytes << " bytes from PE " << prev_pe();
    EXPECT_EQ(heap[bytes], 0) << "a put of " << bytes << " bytes wrote past its end";
    // The next PE's heap holds this PE's pattern: read it back.
    std::fill(back.begin(), back.end(), 0);
    ASSERT_EQ(ishmem_getmem(back.data(), heap, bytes, next_pe()), ISHMEM_SUCCESS);
    wrong = 0;
    for (std::size_t i = 0; i < bytes; ++i) wrong += back[i] != mine[i];
    EXPECT_EQ(wrong, 0u) << "get of " << bytes << " bytes";
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  }
  ishmem_free(heap);
}

// The data lands before the signal: the target sees the whole block once the signal is set.
TEST(ServedOffNode, PutSignalOrdersDataFirst) {
  const std::size_t bytes = 3 * (std::size_t{1} << 20) + 40;
  auto *data = static_cast<unsigned char *>(ishmem_calloc(bytes, 1));
  auto *sig = static_cast<std::uint64_t *>(ishmem_calloc(1, sizeof(std::uint64_t)));
  ASSERT_NE(data, nullptr);
  ASSERT_NE(sig, nullptr);
  std::vector<unsigned char> mine(bytes);
  for (int round = 1; round <= 3; ++round) {
    for (std::size_t i = 0; i < bytes; ++i) mine[i] = pattern(ishmem_my_pe() + round, i);
    ASSERT_EQ(
        ishmem_putmem_signal_nbi(data, mine.data(), bytes, sig, 1, ISHMEM_SIGNAL_ADD, next_pe()),
        ISHMEM_SUCCESS);
    ishmem_signal_wait_until(sig, ISHMEM_CMP_EQ, static_cast<std::uint64_t>(round));
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < bytes; ++i) wrong += data[i] != pattern(prev_pe() + round, i);
    EXPECT_EQ(wrong, 0u) << "round " << round;
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  }
  ishmem_free(sig);
  ishmem_free(data);
}

// Every PE adds to PE 0's word at once: the target executes each add atomically.
TEST(ServedOffNode, ContendedFetchAddIsExact) {
  auto *word = static_cast<std::uint64_t *>(ishmem_calloc(1, sizeof(std::uint64_t)));
  ASSERT_NE(word, nullptr);
  constexpr int kAdds = 200;
  std::uint64_t last = 0;
  for (int i = 0; i < kAdds; ++i) {
    const std::uint64_t old = ishmem_uint64_atomic_fetch_add(word, 1, 0);
    if (i) {
      EXPECT_GT(old, last);  // one PE's fetches increase
    }
    last = old;
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_uint64_atomic_fetch(word, 0), std::uint64_t(kAdds) * ishmem_n_pes());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(word);
}

TEST(ServedOffNode, BadPeIsRefused) {
  int *x = static_cast<int *>(ishmem_malloc(sizeof(int)));
  ASSERT_NE(x, nullptr);
  int v = 1;
  EXPECT_EQ(ishmem_putmem(x, &v, sizeof v, ishmem_n_pes()), ISHMEM_ERR_INVALID_PE);
  EXPECT_EQ(ishmem_int_atomic_fetch_add(x, 1, -1), 0);
  EXPECT_NE(std::string(ishmemx_last_error()).find("PE -1"), std::string::npos)
      << ishmemx_last_error();
  ishmem_free(x);
}

// Each family on the next PE's word, checked by the values fetched and the value left.
template <class T>
T *fresh_word() {
  T *x = static_cast<T *>(ishmem_calloc(1, sizeof(T)));
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  return x;
}
template <class T>
void finish_word(T *x, T expected) {
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(*x, expected);
  ishmem_free(x);
}

#define ISHMEMI_TEST_EXTENDED(T, N)                                           \
  TEST(ServedOffNodeAmo, Extended_##N) {                                      \
    T *x = fresh_word<T>();                                                   \
    const int t = next_pe();                                                  \
    T f{};                                                                    \
    EXPECT_EQ(ishmem_##N##_atomic_set(x, (T)5, t), ISHMEM_SUCCESS);           \
    EXPECT_EQ(ishmem_##N##_atomic_fetch(x, t), (T)5);                         \
    EXPECT_EQ(ishmem_##N##_atomic_swap(x, (T)9, t), (T)5);                    \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_nbi(&f, x, t), ISHMEM_SUCCESS);       \
    ishmem_quiet();                                                           \
    EXPECT_EQ(f, (T)9);                                                       \
    EXPECT_EQ(ishmem_##N##_atomic_swap_nbi(&f, x, (T)11, t), ISHMEM_SUCCESS); \
    ishmem_quiet();                                                           \
    EXPECT_EQ(f, (T)9);                                                       \
    finish_word<T>(x, (T)11);                                                 \
  }
#define ISHMEMI_TEST_STANDARD(T, N)                                             \
  TEST(ServedOffNodeAmo, Standard_##N) {                                        \
    T *x = fresh_word<T>();                                                     \
    const int t = next_pe();                                                    \
    T f{};                                                                      \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_add(x, (T)40, t), (T)0);                \
    EXPECT_EQ(ishmem_##N##_atomic_compare_swap(x, (T)40, (T)41, t), (T)40);     \
    EXPECT_EQ(ishmem_##N##_atomic_compare_swap(x, (T)7, (T)99, t), (T)41);      \
    EXPECT_EQ(ishmem_##N##_atomic_compare_swap_nbi(&f, x, (T)41, (T)42, t), 0); \
    ishmem_quiet();                                                             \
    EXPECT_EQ(f, (T)41);                                                        \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_inc(x, t), (T)42);                      \
    EXPECT_EQ(ishmem_##N##_atomic_inc(x, t), ISHMEM_SUCCESS);                   \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_inc_nbi(&f, x, t), ISHMEM_SUCCESS);     \
    ishmem_quiet();                                                             \
    EXPECT_EQ(f, (T)44);                                                        \
    EXPECT_EQ(ishmem_##N##_atomic_add(x, (T)3, t), ISHMEM_SUCCESS);             \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_add_nbi(&f, x, (T)-3 + (T)5, t), 0);    \
    ishmem_quiet();                                                             \
    EXPECT_EQ(f, (T)48);                                                        \
    finish_word<T>(x, (T)50);                                                   \
  }
#define ISHMEMI_TEST_BITWISE(T, N)                                                   \
  TEST(ServedOffNodeAmo, Bitwise_##N) {                                              \
    T *x = fresh_word<T>();                                                          \
    const int t = next_pe();                                                         \
    T f{};                                                                           \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_or(x, (T)0x2d, t), (T)0);                    \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_and(x, (T)0x3c, t), (T)0x2d);                \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_xor(x, (T)0x05, t), (T)0x2c);                \
    EXPECT_EQ(ishmem_##N##_atomic_or(x, (T)0x100, t), ISHMEM_SUCCESS);               \
    EXPECT_EQ(ishmem_##N##_atomic_and(x, (T)0x1f0, t), ISHMEM_SUCCESS);              \
    EXPECT_EQ(ishmem_##N##_atomic_xor(x, (T)0x011, t), ISHMEM_SUCCESS);              \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_and_nbi(&f, x, (T)0xff, t), ISHMEM_SUCCESS); \
    ishmem_quiet();                                                                  \
    EXPECT_EQ(f, (T)0x131);                                                          \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_or_nbi(&f, x, (T)0x2, t), ISHMEM_SUCCESS);   \
    ishmem_quiet();                                                                  \
    EXPECT_EQ(f, (T)0x31);                                                           \
    EXPECT_EQ(ishmem_##N##_atomic_fetch_xor_nbi(&f, x, (T)0x30, t), ISHMEM_SUCCESS); \
    ishmem_quiet();                                                                  \
    EXPECT_EQ(f, (T)0x33);                                                           \
    finish_word<T>(x, (T)0x03);                                                      \
  }
ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_TEST_EXTENDED)
ISHMEMX_AMO_EXTENDED_ONLY_TYPES(ISHMEMI_TEST_EXTENDED)
ISHMEMX_AMO_STANDARD_TYPES(ISHMEMI_TEST_STANDARD)
ISHMEMX_AMO_BITWISE_TYPES(ISHMEMI_TEST_BITWISE)

}  // namespace
