// main() of every multi-process test program: ishmem_init (which initializes MPI), the tests
// on every PE, one verdict agreed by all PEs, ishmem_finalize. PE 0 prints the usual GoogleTest
// report; the other PEs print only their failures, each line tagged with the PE.
#include <gtest/gtest.h>

#include <cstdio>

#include "ishmem.h"

namespace {

class PeFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit PeFailurePrinter(int pe) : pe_(pe) {}
  void OnTestPartResult(const ::testing::TestPartResult &r) override {
    if (!r.failed()) return;
    fprintf(stderr, "[pe %d] %s:%d: Failure\n%s\n", pe_, r.file_name() ? r.file_name() : "?",
            r.line_number(), r.message());
    fflush(stderr);
  }
  void OnTestEnd(const ::testing::TestInfo &t) override {
    if (t.result()->Failed())
      fprintf(stderr, "[pe %d] [  FAILED  ] %s.%s\n", pe_, t.test_suite_name(), t.name());
  }

 private:
  int pe_;
};

}  // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  const int me = ishmem_my_pe();
  if (me != 0) {
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new PeFailurePrinter(me));
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0, failed_pes = 0;
  MPI_Allreduce(&failed, &failed_pes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (me == 0 && failed_pes > 0)
    fprintf(stderr, "%d of %d PEs had failures\n", failed_pes, ishmem_n_pes());
  fflush(stdout);
  fflush(stderr);
  if (ishmem_finalize() != ISHMEM_SUCCESS) {
    fprintf(stderr, "[pe %d] ishmem_finalize failed: %s\n", me, ishmemx_last_error());
    return 1;
  }
  return failed_pes > 0 ? 1 : 0;
}
