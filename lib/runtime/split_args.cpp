#include "runtime/split_args.h"

#include <cstdio>

namespace ishmem::detail {

std::string strided_split_problem(int start, int stride, int size, int n) {
  char text[160] = "";
  // 64 bits hold (size - 1) * stride of any two ints (size - 1 too: size may be INT_MIN).
  const long long last = start + (static_cast<long long>(size) - 1) * stride;
  if (size < 1 || size > n)
    snprintf(text, sizeof text, "size %d is outside 1..%d (the parent team's size)", size, n);
  else if (start < 0 || start >= n)
    snprintf(text, sizeof text, "start %d is outside the parent team's PEs 0..%d", start, n - 1);
  else if (stride == 0 && size > 1)
    snprintf(text, sizeof text, "stride 0 with size %d (only a one-PE team may have stride 0)",
             size);
  else if (last < 0 || last >= n)
    snprintf(text, sizeof text,
             "its last PE, start + (size - 1) * stride = %lld, is outside the parent team's PEs "
             "0..%d",
             last, n - 1);
  return text;
}

std::string config_problem(const ishmem_team_config_t *config, long mask, const char *which) {
  char text[160] = "";
  if (mask & ~ISHMEM_TEAM_NUM_CONTEXTS)
    snprintf(text, sizeof text, "%sconfig_mask %#lx has bits other than ISHMEM_TEAM_NUM_CONTEXTS",
             which, mask);
  else if (mask && !config)
    snprintf(text, sizeof text, "%sconfig is NULL but its mask is %#lx", which, mask);
  else if (mask && config->num_contexts < 0)
    snprintf(text, sizeof text, "%sconfig's num_contexts %d is negative", which,
             config->num_contexts);
  return text;
}

Split2dPlace split_2d_place(int n, int xrange, int index) {
  Split2dPlace place;
  const int width = xrange < n ? xrange : n;
  place.row_number = index / width;
  place.column_number = index % width;
  const int row_start = place.row_number * width;
  for (int i = row_start; i < n && i - row_start < width; ++i) place.row.push_back(i);
  for (int i = place.column_number; i < n; i += width) place.column.push_back(i);
  return place;
}

}  // namespace ishmem::detail
