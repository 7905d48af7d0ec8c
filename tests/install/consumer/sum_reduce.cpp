// A C++ program built outside the source tree against the installed ishmem: each PE writes
// its PE number with ishmem_long_p into every PE's slot of a symmetric array (the slot's
// index is the writer's PE), then each PE checks the sum after a barrier. Exit status 0 only
// if every value arrived.
#include <ishmem.h>

#include <cstdio>
#include <vector>

int main() {
  if (ishmem_init() != ISHMEM_SUCCESS) {
    std::fprintf(stderr, "sum_reduce: ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  const int me = ishmem_my_pe(), npes = ishmem_n_pes();
  auto *slots = static_cast<long *>(ishmem_calloc(static_cast<size_t>(npes), sizeof(long)));
  bool bad = slots == nullptr;
  for (int pe = 0; !bad && pe < npes; ++pe)
    bad |= ishmem_long_p(slots + me, 7L + me, pe) != ISHMEM_SUCCESS;
  bad |= ishmem_barrier_all() != ISHMEM_SUCCESS;
  long sum = 0, expected = 0;
  for (int pe = 0; !bad && pe < npes; ++pe) {
    sum += slots[pe];
    expected += 7L + pe;
  }
  if (!bad && sum != expected) {
    std::fprintf(stderr, "sum_reduce: pe %d: sum %ld, expected %ld\n", me, sum, expected);
    bad = true;
  }
  std::printf("sum_reduce (C++): pe %d of %d: %s\n", me, npes, bad ? "FAILED" : "ok");
  ishmem_free(slots);
  ishmem_finalize();
  return bad ? 1 : 0;
}
