// ISHMEM_DEBUG=1: host RMA, atomics, signals and waits check that the data lies inside one
// live allocation (and the PE is in range). ctest runs this program with ISHMEM_DEBUG=1,
// node-local and through MPI, and once without it, where a put to a freed (but still
// committed) block succeeds as before: the checks cost nothing unless asked for.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

bool debug_on() {
  const char *value = getenv("ISHMEM_DEBUG");
  return value && strcmp(value, "1") == 0;
}

bool error_mentions(const std::string &text) {
  return std::string(ishmemx_last_error()).find(text) != std::string::npos;
}

// The debug check's error, naming the operation, the address, the size and the PE.
void expect_not_live(int rc, const char *call, const void *addr, std::size_t bytes, int pe) {
  EXPECT_EQ(rc, ISHMEM_ERR_NOT_SYMMETRIC) << call;
  char text[160];
  snprintf(text, sizeof text, "address %p (+%zu bytes) to PE %d is not inside a live allocation",
           addr, bytes, pe);
  EXPECT_TRUE(error_mentions(text)) << call << ": " << ishmemx_last_error() << "\nwanted: " << text;
}

TEST(Debug, PutToFreedBlock) {
  long *keep = static_cast<long *>(ishmem_calloc(8, sizeof(long)));
  long *freed = static_cast<long *>(ishmem_calloc(8, sizeof(long)));
  ASSERT_TRUE(all_true(keep && freed)) << ishmemx_last_error();
  ASSERT_EQ(ishmem_free(freed), ISHMEM_SUCCESS);  // still committed: under the trim threshold
  EXPECT_EQ(ishmem_addr_accessible(freed, right_pe()), 1);
  const long value = 42;
  const int rc = ishmem_long_p(freed, value, right_pe());
  ishmem_barrier_all();
  if (debug_on()) {
    expect_not_live(rc, "ishmem_long_p", freed, sizeof(long), right_pe());
    EXPECT_TRUE(error_mentions("ishmem_p")) << ishmemx_last_error();
    expect_not_live(ishmem_putmem(freed, &value, sizeof value, right_pe()), "ishmem_putmem", freed,
                    sizeof value, right_pe());
    expect_not_live(ishmem_long_atomic_add(freed, 1, right_pe()), "ishmem_long_atomic_add", freed,
                    sizeof(long), right_pe());
    expect_not_live(
        ishmem_putmem_signal(keep, &value, sizeof value, reinterpret_cast<std::uint64_t *>(freed),
                             1, ISHMEM_SIGNAL_SET, right_pe()),
        "ishmem_putmem_signal", freed, sizeof(std::uint64_t), right_pe());
    EXPECT_EQ(ishmem_long_test(freed, ISHMEM_CMP_EQ, 0), 0);
    EXPECT_TRUE(error_mentions("not inside a live allocation")) << ishmemx_last_error();
    ishmem_barrier_all();
    EXPECT_EQ(freed[0], 0) << "a rejected put wrote";
    EXPECT_EQ(keep[0], 0) << "a rejected put-with-signal moved its data";
  } else {
    EXPECT_EQ(rc, ISHMEM_SUCCESS) << ishmemx_last_error();
    EXPECT_EQ(freed[0], value);
  }
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(keep), ISHMEM_SUCCESS);
}

TEST(Debug, PastTheEndOfALiveBlock) {
  if (!all_true(debug_on())) GTEST_SKIP() << "ISHMEM_DEBUG is not 1";
  // 100 bytes requested: the allocator rounds the block to 128, the check uses the 100.
  char *block = static_cast<char *>(ishmem_calloc(100, 1));
  ASSERT_TRUE(all_true(block != nullptr)) << ishmemx_last_error();
  const char data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const int pe = right_pe();
  expect_not_live(ishmem_putmem(block + 96, data, 8, pe), "ishmem_putmem", block + 96, 8, pe);
  char got[8] = {};
  expect_not_live(ishmem_getmem(got, block + 100, 1, pe), "ishmem_getmem", block + 100, 1, pe);
  // Elements at 90, 94, 98 and 102: the range checked is [90, 103).
  expect_not_live(ishmem_char_iput(block + 90, data, 4, 1, 4, pe), "ishmem_char_iput", block + 90,
                  13, pe);
  ishmem_barrier_all();
  for (int i = 90; i < 100; ++i) EXPECT_EQ(block[i], 0) << "byte " << i << " was written";
  ishmem_barrier_all();  // every PE has looked before any writes below
  // The last bytes of the block are fine.
  EXPECT_EQ(ishmem_putmem(block + 92, data, 8, pe), ISHMEM_SUCCESS) << ishmemx_last_error();
  ishmem_barrier_all();
  EXPECT_EQ(std::memcmp(block + 92, data, 8), 0);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(block), ISHMEM_SUCCESS);
}

TEST(Debug, BadPe) {
  long *sym = static_cast<long *>(ishmem_calloc(1, sizeof(long)));
  ASSERT_TRUE(all_true(sym != nullptr)) << ishmemx_last_error();
  EXPECT_EQ(ishmem_long_p(sym, 1, n_pes()), ISHMEM_ERR_INVALID_PE);
  EXPECT_TRUE(error_mentions("ishmem_p: PE")) << ishmemx_last_error();
  EXPECT_EQ(ishmem_long_atomic_inc(sym, -1), ISHMEM_ERR_INVALID_PE);
  ishmem_barrier_all();
  EXPECT_EQ(*sym, 0);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

// Every kind of call on live data works as without the checks.
TEST(Debug, ValidCallsWork) {
  long *data = static_cast<long *>(ishmem_calloc(5, sizeof(long)));
  std::uint64_t *sig = static_cast<std::uint64_t *>(ishmem_calloc(1, sizeof(std::uint64_t)));
  ASSERT_TRUE(all_true(data && sig)) << ishmemx_last_error();
  const int right = right_pe();
  const long mine[2] = {10L + my_pe(), 20L + my_pe()};
  EXPECT_EQ(ishmem_long_put(data, mine, 2, right), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_EQ(ishmem_long_atomic_add(data + 2, 5, right), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_EQ(ishmem_long_atomic_fetch_inc(data + 3, right), 0) << ishmemx_last_error();
  const long flag = 1;
  EXPECT_EQ(ishmem_putmem_signal(data + 4, &flag, sizeof flag, sig, 7, ISHMEM_SIGNAL_ADD, right),
            ISHMEM_SUCCESS)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_uint64_wait_until(sig, ISHMEM_CMP_EQ, 7), ISHMEM_SUCCESS)
      << ishmemx_last_error();
  ishmem_barrier_all();
  EXPECT_EQ(data[0], 10L + left_pe());
  EXPECT_EQ(data[1], 20L + left_pe());
  EXPECT_EQ(data[2], 5);
  EXPECT_EQ(data[3], 1);
  EXPECT_EQ(data[4], 1);
  long got[2] = {};
  EXPECT_EQ(ishmem_long_get(got, data, 2, right), ISHMEM_SUCCESS);
  EXPECT_EQ(got[0], 10L + my_pe());
  EXPECT_EQ(ishmem_long_g(data + 1, right), 20L + my_pe());
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(sig), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(data), ISHMEM_SUCCESS);
}

}  // namespace
