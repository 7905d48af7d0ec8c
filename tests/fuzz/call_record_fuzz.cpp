// libFuzzer target: the message of a collective mismatch (lib/heap/call_record.cpp) over any
// records the PEs could hold, peers' and corrupted ones alike: ops outside CollectiveOp, any
// arguments, 1 to 64 PEs. The message must name every PE exactly once, under the call it made,
// and say that the PEs disagree; any other outcome and every sanitizer report is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "heap/call_record.h"

using namespace ishmem::detail;

namespace {

void require(bool ok, const char *what, const std::string &msg) {
  if (!ok) {
    fprintf(stderr, "call record fuzz: %s\n  %s\n", what, msg.c_str());
    abort();
  }
}

// How many times the message names PE `pe` among the lists of PEs after "PE " or "PEs ".
int times_named(const std::string &msg, int pe) {
  int named = 0;
  const std::string number = std::to_string(pe);
  for (std::size_t at = msg.find(" PE"); at != std::string::npos; at = msg.find(" PE", at + 1)) {
    std::size_t i = at + 3;
    if (i < msg.size() && msg[i] == 's') ++i;
    if (i >= msg.size() || msg[i] != ' ') continue;
    const std::size_t end = msg.find(" called ", i);
    std::size_t start = i + 1;
    while (start < end) {  // "0,2,5" or "0,...,7,... (9 PEs)"
      std::size_t comma = msg.find(',', start);
      if (comma == std::string::npos || comma > end) comma = end;
      if (msg.compare(start, comma - start, number) == 0) ++named;
      start = comma + 1;
    }
  }
  return named;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks how many records repeat the input's (so that equal calls occur).
  const int n_pes = 1 + data[0] % 64;
  std::vector<CollectiveRecord> all(static_cast<std::size_t>(n_pes));
  const std::size_t given = (size - 1) / sizeof(CollectiveRecord);
  for (int pe = 0; pe < n_pes; ++pe) {
    if (given == 0) break;
    std::memcpy(&all[pe], data + 1 + (static_cast<std::size_t>(pe) % given) * sizeof all[pe],
                sizeof all[pe]);
  }
  const std::string msg = disagreement(all.data(), n_pes);
  require(msg.rfind("PEs disagree on a collective call: PE", 0) == 0, "no disagreement text", msg);
  // Up to 8 PEs of each call are named: count the distinct calls to know who must appear.
  for (int pe = 0; pe < n_pes; ++pe) {
    int same = 0, before = 0;
    for (int other = 0; other < n_pes; ++other)
      if (same_record(all[other], all[pe])) {
        ++same;
        before += other < pe;
      }
    const int expected = before < 8 ? 1 : 0;
    require(times_named(msg, pe) == expected, "a PE is named another number of times than once",
            "PE " + std::to_string(pe) + ": " + msg);
    require(same_record(all[pe], all[pe]), "a record differs from itself", msg);
  }
  return 0;
}
