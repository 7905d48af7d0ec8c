// The rules of the collectives: argument errors, aliasing, and mismatched calls, which fail
// on every PE with ISHMEM_ERR_MISMATCH (node-local teams always; teams reached through MPI
// under ISHMEM_DEBUG=1) and leave the team usable.
#include <cstdlib>
#include <cstring>
#include <string>

#include "collectives_util.h"
#include "mpi_test_util.h"

namespace ishmem_test {
namespace {

bool mismatches_detected() {
  const char *debug = getenv("ISHMEM_DEBUG");
  return one_node() || (debug && strcmp(debug, "1") == 0);
}

struct Ints {
  explicit Ints(std::size_t n) {
    source = static_cast<int *>(ishmem_calloc(n, sizeof(int)));
    dest = static_cast<int *>(ishmem_calloc(n, sizeof(int)));
  }
  ~Ints() {
    ishmem_free(dest);
    ishmem_free(source);
  }
  int *source, *dest;
};

// After a failed call, the team still works.
void expect_team_works(Ints &b) {
  for (int i = 0; i < 4; ++i) b.source[i] = my_pe() + i;
  ASSERT_EQ(ishmem_int_sum_reduce(ISHMEM_TEAM_WORLD, b.dest, b.source, 4), ISHMEM_SUCCESS)
      << ishmemx_last_error();
  const int n = n_pes();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b.dest[i], n * (n - 1) / 2 + n * i);
}

TEST(CollectiveRules, BadArgumentsFailOnEveryPe) {
  Ints b(64);
  const int n = n_pes();
  EXPECT_EQ(ishmem_int_broadcast(ISHMEM_TEAM_WORLD, b.dest, b.source, 4, n),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_NE(std::string(ishmemx_last_error()).find("PE_root"), std::string::npos)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_int_broadcast(ISHMEM_TEAM_WORLD, b.dest, b.source, 4, -1),
            ISHMEM_ERR_INVALID_ARG);
  // Overlap: never for the data movers; a reduction only exactly in place.
  EXPECT_EQ(ishmem_int_fcollect(ISHMEM_TEAM_WORLD, b.source, b.source, 2), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_int_alltoall(ISHMEM_TEAM_WORLD, b.dest + 1, b.dest, 2), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_int_sum_reduce(ISHMEM_TEAM_WORLD, b.dest + 1, b.dest, 4),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_NE(std::string(ishmemx_last_error()).find("overlap"), std::string::npos);
  // Not symmetric, past the heap, bad strides.
  int local[4] = {};
  EXPECT_EQ(ishmem_int_sum_reduce(ISHMEM_TEAM_WORLD, b.dest, local, 4), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(ishmem_int_fcollect(ISHMEM_TEAM_WORLD, local, b.source, 1), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(ishmem_int_alltoalls(ISHMEM_TEAM_WORLD, b.dest, b.source, 0, 1, 1),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_int_sum_reduce(ISHMEM_TEAM_WORLD, b.dest, b.source, SIZE_MAX / 2),
            ISHMEM_ERR_INVALID_ARG);
  // No team: fails at once, on this PE alone.
  EXPECT_EQ(ishmem_int_sum_reduce(ISHMEM_TEAM_INVALID, b.dest, b.source, 4),
            ISHMEM_ERR_INVALID_ARG);
  expect_team_works(b);
}

TEST(CollectiveRules, MismatchedSizesFailOnEveryPe) {
  if (!mismatches_detected()) GTEST_SKIP() << "MPI teams check calls under ISHMEM_DEBUG=1";
  if (n_pes() < 2) GTEST_SKIP() << "needs two PEs";
  Ints b(64);
  for (std::size_t n : {2u, 40u}) {  // one-shot and reduce-scatter sizes
    const std::size_t mine = my_pe() == 0 ? n : n + 1;
    EXPECT_EQ(ishmem_int_sum_reduce(ISHMEM_TEAM_WORLD, b.dest, b.source, mine),
              ISHMEM_ERR_MISMATCH);
    EXPECT_NE(std::string(ishmemx_last_error()).find("different collective calls"),
              std::string::npos)
        << ishmemx_last_error();
  }
  expect_team_works(b);
}

TEST(CollectiveRules, MismatchedCallsAndRootsFailOnEveryPe) {
  if (!mismatches_detected()) GTEST_SKIP() << "MPI teams check calls under ISHMEM_DEBUG=1";
  if (n_pes() < 2) GTEST_SKIP() << "needs two PEs";
  Ints b(64);
  int rc = my_pe() % 2 ? ishmem_int_broadcast(ISHMEM_TEAM_WORLD, b.dest, b.source, 4, 0)
                       : ishmem_int_sum_reduce(ISHMEM_TEAM_WORLD, b.dest, b.source, 4);
  EXPECT_EQ(rc, ISHMEM_ERR_MISMATCH) << ishmemx_last_error();
  rc = ishmem_int_broadcast(ISHMEM_TEAM_WORLD, b.dest, b.source, 4, my_pe() % 2);
  EXPECT_EQ(rc, ISHMEM_ERR_MISMATCH) << ishmemx_last_error();
  EXPECT_NE(std::string(ishmemx_last_error()).find("root"), std::string::npos);
  // The same size in bytes but another type, or another operation.
  rc = my_pe() % 2 ? ishmem_int_max_reduce(ISHMEM_TEAM_WORLD, b.dest, b.source, 4)
                   : ishmem_int_sum_reduce(ISHMEM_TEAM_WORLD, b.dest, b.source, 4);
  EXPECT_EQ(rc, ISHMEM_ERR_MISMATCH) << ishmemx_last_error();
  rc = my_pe() % 2 ? ishmem_float_sum_reduce(ISHMEM_TEAM_WORLD, reinterpret_cast<float *>(b.dest),
                                             reinterpret_cast<float *>(b.source), 4)
                   : ishmem_int_sum_reduce(ISHMEM_TEAM_WORLD, b.dest, b.source, 4);
  EXPECT_EQ(rc, ISHMEM_ERR_MISMATCH) << ishmemx_last_error();
  expect_team_works(b);
}

// One PE's arguments are bad: it gets its own error, the others a mismatch naming it.
TEST(CollectiveRules, OnePeRejectingFailsEveryPe) {
  if (!mismatches_detected()) GTEST_SKIP() << "MPI teams check calls under ISHMEM_DEBUG=1";
  Ints b(64);
  int local[4] = {};
  const bool bad = my_pe() == n_pes() - 1;
  int rc = ishmem_int_sum_reduce(ISHMEM_TEAM_WORLD, b.dest, bad ? local : b.source, 4);
  EXPECT_EQ(rc, bad ? ISHMEM_ERR_NOT_SYMMETRIC : ISHMEM_ERR_MISMATCH) << ishmemx_last_error();
  if (!bad) {
    EXPECT_NE(std::string(ishmemx_last_error()).find("rejected"), std::string::npos)
        << ishmemx_last_error();
  }
  expect_team_works(b);
}

}  // namespace
}  // namespace ishmem_test
