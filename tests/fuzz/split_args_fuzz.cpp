// libFuzzer target: the argument rules of the team splits (lib/runtime/split_args.cpp) for
// any arguments and parent sizes. A strided split the rules accept must name only PEs of the
// parent, all distinct; one they refuse must break a rule, checked here in 128-bit arithmetic.
// A 2d split must place every index in its row and its column, at the places it reports, with
// rows and columns inside the parent. Any other outcome and every sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include "runtime/split_args.h"

using namespace ishmem::detail;

namespace {

void require(bool ok, const char *what, long long a, long long b, long long c, long long n) {
  if (!ok) {
    fprintf(stderr, "split args fuzz: %s (%lld, %lld, %lld; parent of %lld)\n", what, a, b, c, n);
    abort();
  }
}

void strided(int start, int stride, int size, int n) {
  const bool accepted = strided_split_problem(start, stride, size, n).empty();
  const __int128 last = static_cast<__int128>(start) + (static_cast<__int128>(size) - 1) * stride;
  const bool valid = size >= 1 && size <= n && start >= 0 && start < n &&
                     (stride != 0 || size == 1) && last >= 0 && last < n;
  require(accepted == valid, accepted ? "accepted a bad split" : "refused a good split", start,
          stride, size, n);
  if (!accepted) return;
  std::set<long long> seen;
  for (int i = 0; i < size; ++i) {
    const long long index = start + static_cast<long long>(i) * stride;
    require(index >= 0 && index < n, "a member outside the parent", start, stride, size, n);
    require(seen.insert(index).second, "a member twice", start, stride, size, n);
  }
}

void split_2d(int n, int xrange, int index) {
  const Split2dPlace place = split_2d_place(n, xrange, index);
  const long long r = place.row_number, c = place.column_number;
  require(c >= 0 && c < static_cast<long long>(place.row.size()) && place.row[c] == index,
          "the index is not in its row at its column", n, xrange, index, n);
  require(r >= 0 && r < static_cast<long long>(place.column.size()) && place.column[r] == index,
          "the index is not in its column at its row", n, xrange, index, n);
  for (int i : place.row) require(i >= 0 && i < n, "a row member outside", n, xrange, i, n);
  for (int i : place.column) require(i >= 0 && i < n, "a column member outside", n, xrange, i, n);
  require(place.row.size() <= static_cast<std::size_t>(xrange), "a row longer than xrange", n,
          xrange, index, n);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::int32_t v[4] = {0, 0, 0, 0};
  std::memcpy(v, data, size < sizeof v ? size : sizeof v);
  // Parents of 1 to 4096 PEs: the members are listed, so larger ones only cost time.
  const int n = 1 + static_cast<int>(static_cast<std::uint32_t>(v[3]) % 4096);
  strided(v[0], v[1], v[2], n);
  if (v[0] >= 1) split_2d(n, v[0], static_cast<int>(static_cast<std::uint32_t>(v[1]) % n));
  return 0;
}
