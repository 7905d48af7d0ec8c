// The agreed-step helper on its own: a step that fails on one PE fails every PE at the same
// point, the failing PE with its own error and the others with what peer_failed throws, given
// the lowest status any PE failed with.
#include <new>
#include <stdexcept>
#include <string>

#include "bootstrap/agreed_step.h"
#include "mpi_test_util.h"

using namespace ishmem::detail;
using namespace ishmem_test;

namespace {

struct Outcome {
  int code = ISHMEM_SUCCESS;
  std::string what;
};

template <class Step>
Outcome run_agreed(Step &&step) {
  try {
    agreed_step(MPI_COMM_WORLD, step, [](int code) { fail(code, "a peer failed"); });
  } catch (const Error &e) {
    return {e.code(), e.what()};
  }
  return {};
}

int my_pe() {
  int pe = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &pe);
  return pe;
}

TEST(AgreedStep, SucceedsWhereEveryPeSucceeds) {
  int runs = 0;
  Outcome got = run_agreed([&] { ++runs; });
  EXPECT_EQ(got.code, ISHMEM_SUCCESS) << got.what;
  EXPECT_EQ(runs, 1);
}

TEST(AgreedStep, OneFailureFailsEveryPe) {
  const bool victim = my_pe() == 0;
  Outcome got = run_agreed([&] {
    if (victim) fail(ISHMEM_ERR_TIMEOUT, "injected step failure");
  });
  EXPECT_EQ(got.code, ISHMEM_ERR_TIMEOUT);
  const char *expected = victim ? "injected step failure" : "a peer failed";
  EXPECT_NE(got.what.find(expected), std::string::npos) << got.what;
}

TEST(AgreedStep, PeersGetTheLowestStatus) {
  // Status codes are negative: the lowest one is reported to PEs whose step succeeded.
  const int pe = my_pe();
  Outcome got = run_agreed([&] {
    if (pe == 0) fail(ISHMEM_ERR_INVALID_ARG, "first failure");
    if (pe == 1) fail(ISHMEM_ERR_INTERNAL, "second failure");
  });
  // With one PE there is no second failure, and the lowest status is the first PE's.
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const int lowest = n > 1 ? ISHMEM_ERR_INTERNAL : ISHMEM_ERR_INVALID_ARG;
  EXPECT_EQ(got.code, pe == 0 ? ISHMEM_ERR_INVALID_ARG : lowest);
  if (pe > 1) {
    EXPECT_NE(got.what.find("a peer failed"), std::string::npos) << got.what;
  }
}

TEST(AgreedStep, OtherExceptionsAreInternalErrors) {
  const bool victim = my_pe() == 0;
  Outcome got = run_agreed([&] {
    if (victim) throw std::runtime_error("not an ishmem error");
  });
  EXPECT_EQ(got.code, ISHMEM_ERR_INTERNAL);
  EXPECT_TRUE(all_true(got.code != ISHMEM_SUCCESS));
}

TEST(AgreedStep, OutOfMemoryStaysOutOfMemory) {
  // As at the C boundary: a failed host allocation is ISHMEM_ERR_NOMEM on the PE it hit, and
  // every other PE fails with that code too.
  const bool victim = my_pe() == 0;
  Outcome got = run_agreed([&] {
    if (victim) throw std::bad_alloc();
  });
  EXPECT_EQ(got.code, ISHMEM_ERR_NOMEM) << got.what;
  if (victim) {
    EXPECT_NE(got.what.find("out of host memory"), std::string::npos) << got.what;
  }
}

}  // namespace
