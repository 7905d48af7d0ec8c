// The argument rules of the team splits, apart from the collective that applies them, so that
// the fuzz target can try any arguments on any parent size.
#pragma once

#include <string>
#include <vector>

#include "ishmem.h"

namespace ishmem::detail {

// What is wrong with a strided split of a parent team of `n` PEs ("" if nothing): a size
// outside 1..n, a start outside the team, stride 0 with more than one PE, or a last PE
// (start + (size - 1) * stride) outside the team.
std::string strided_split_problem(int start, int stride, int size, int n);
// What is wrong with a team config and its mask ("" if nothing); `which` prefixes the text.
std::string config_problem(const ishmem_team_config_t *config, long mask, const char *which);

// A 2d split of a parent team of `n` PEs into rows of `xrange` (>= 1; one row when it exceeds
// n, and the last row may be short): the parent indices of the row and of the column that
// parent index `index` belongs to, in order, and its place in each.
struct Split2dPlace {
  std::vector<int> row, column;
  int row_number = 0, column_number = 0;  // index is row[column_number] and column[row_number]
};
Split2dPlace split_2d_place(int n, int xrange, int index);

}  // namespace ishmem::detail
