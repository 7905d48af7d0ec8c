// wait_until and test on 2-byte variables (short, unsigned short; OpenSHMEM 1.5 Table 9), on
// the heap and in static data: the left neighbour stores the values this PE waits for.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "ishmem.h"
#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

constexpr std::size_t kN = 4;
short g_shorts[kN];
unsigned short g_ushorts[kN];

// Every form, for type T (name N) on `ivars` (kN entries, zero, this PE's): the left neighbour
// sets entry 1 to 0x7ffe and entry 3 to `big`, a value whose upper byte is set, so that a
// scan reading one byte, or four, would misjudge it.
#define P2P_SHORT_FORMS(T, N)                                                                    \
  void run_##N(T *ivars, T big, const std::string &where) {                                      \
    SCOPED_TRACE(where);                                                                         \
    const T hi = static_cast<T>(0x7ffe);                                                         \
    const int status[kN] = {0, 0, 1, 0};                                                         \
    std::size_t idx[kN];                                                                         \
    EXPECT_EQ(ishmem_##N##_test(&ivars[1], ISHMEM_CMP_EQ, hi), 0);                               \
    EXPECT_EQ(ishmem_##N##_test_any(ivars, kN, status, ISHMEM_CMP_NE, 0), SIZE_MAX);             \
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);                                             \
    EXPECT_EQ(ishmem_##N##_p(&ivars[1], hi, right_pe()), ISHMEM_SUCCESS);                        \
    EXPECT_EQ(ishmem_##N##_p(&ivars[3], big, right_pe()), ISHMEM_SUCCESS);                       \
    EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);                                                   \
    EXPECT_EQ(ishmem_##N##_wait_until(&ivars[3], ISHMEM_CMP_EQ, big), ISHMEM_SUCCESS);           \
    EXPECT_EQ(ishmem_##N##_wait_until(&ivars[1], ISHMEM_CMP_GE, hi), ISHMEM_SUCCESS);            \
    EXPECT_EQ(ishmem_##N##_wait_until_all(ivars, kN, status, ISHMEM_CMP_NE, 1), ISHMEM_SUCCESS); \
    EXPECT_EQ(ishmem_##N##_wait_until_any(ivars, kN, status, ISHMEM_CMP_EQ, big), 3u);           \
    EXPECT_EQ(ishmem_##N##_wait_until_some(ivars, kN, idx, status, ISHMEM_CMP_NE, 0), 2u);       \
    EXPECT_EQ(idx[0], 1u);                                                                       \
    EXPECT_EQ(idx[1], 3u);                                                                       \
    const T want[kN] = {0, hi, 9, big};                                                          \
    EXPECT_EQ(ishmem_##N##_wait_until_all_vector(ivars, kN, status, ISHMEM_CMP_EQ, want),        \
              ISHMEM_SUCCESS);                                                                   \
    EXPECT_EQ(ishmem_##N##_wait_until_any_vector(ivars, kN, status, ISHMEM_CMP_EQ, want), 0u);   \
    EXPECT_EQ(ishmem_##N##_wait_until_some_vector(ivars, kN, idx, nullptr, ISHMEM_CMP_EQ, want), \
              3u);                                                                               \
    EXPECT_EQ(ishmem_##N##_test(&ivars[3], ISHMEM_CMP_EQ, big), 1);                              \
    EXPECT_EQ(ishmem_##N##_test(&ivars[3], ISHMEM_CMP_LT, big), 0);                              \
    EXPECT_EQ(ishmem_##N##_test_all(ivars, kN, status, ISHMEM_CMP_EQ, 0), 0);                    \
    EXPECT_EQ(ishmem_##N##_test_all_vector(ivars, kN, nullptr, ISHMEM_CMP_EQ, want), 0);         \
    EXPECT_EQ(ishmem_##N##_test_any(ivars, kN, status, ISHMEM_CMP_GT, hi),                       \
              big > hi ? 3u : SIZE_MAX);                                                         \
    EXPECT_EQ(ishmem_##N##_test_some(ivars, kN, idx, nullptr, ISHMEM_CMP_EQ, 0), 2u);            \
    EXPECT_EQ(ishmem_##N##_test_any_vector(ivars, kN, nullptr, ISHMEM_CMP_NE, want), 2u);        \
    EXPECT_EQ(ishmem_##N##_test_some_vector(ivars, kN, idx, status, ISHMEM_CMP_LE, want), 3u);   \
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);                                             \
  }
P2P_SHORT_FORMS(short, short)
P2P_SHORT_FORMS(unsigned short, ushort)
#undef P2P_SHORT_FORMS

TEST(P2PShort, ShortOnHeapAndStatic) {
  auto *heap = static_cast<short *>(ishmem_calloc(kN, sizeof(short)));
  ASSERT_TRUE(all_true(heap != nullptr));
  run_short(heap, static_cast<short>(-0x7f00), "heap");  // negative: 0x8100
  run_short(g_shorts, static_cast<short>(-2), "static");
  ishmem_free(heap);
}

TEST(P2PShort, UnsignedShortOnHeapAndStatic) {
  auto *heap = static_cast<unsigned short *>(ishmem_calloc(kN, sizeof(unsigned short)));
  ASSERT_TRUE(all_true(heap != nullptr));
  run_ushort(heap, static_cast<unsigned short>(0xff01), "heap");
  run_ushort(g_ushorts, static_cast<unsigned short>(0xfffe), "static");
  ishmem_free(heap);
}

}  // namespace
