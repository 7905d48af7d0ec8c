// The active sets the tests of the deprecated calls run over, for the number of PEs of the
// run: every PE, every other PE (stride 2), and subsets that leave PE 0 out (whose PEs do not
// call at all). Each test loops over them in the same order on every PE and skips the sets
// without this PE, so the sets' calls never wait for each other.
#pragma once

#include <string>
#include <vector>

#include "mpi_test_util.h"

namespace ishmem_test {

struct ActiveSetUnderTest {
  int start, log_stride, size;
  int index;  // this PE's index in the set, -1 when it is not a member
  std::string name;

  int member(int i) const { return start + (i << log_stride); }
};

inline std::vector<ActiveSetUnderTest> active_sets() {
  const int n = n_pes();
  std::vector<ActiveSetUnderTest> sets = {{0, 0, n, -1, "every PE"},
                                          {0, 1, (n + 1) / 2, -1, "stride 2 from PE 0"}};
  if (n >= 2) sets.push_back({1, 0, n - 1, -1, "PEs 1 and up"});
  if (n >= 4) sets.push_back({1, 1, 2, -1, "PEs 1 and 3"});
  for (ActiveSetUnderTest &s : sets)
    for (int i = 0; i < s.size; ++i)
      if (s.member(i) == my_pe()) s.index = i;
  return sets;
}

}  // namespace ishmem_test
