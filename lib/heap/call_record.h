// What PEs compare in a collective heap or barrier call (CollectiveCheck): the call and its
// arguments, one record per PE, and the message that names every PE's call when they differ.
// Apart from the check itself so that the fuzz target can feed it any records a peer (or a
// corrupted control segment) could hold.
#pragma once

#include <cstdint>
#include <string>

namespace ishmem::detail {

struct CollectiveRecord {
  std::uint64_t op;      // which call (CollectiveOp); any value may arrive from a peer
  std::uint64_t arg[2];  // its arguments
};

inline bool same_record(const CollectiveRecord &a, const CollectiveRecord &b) {
  return a.op == b.op && a.arg[0] == b.arg[0] && a.arg[1] == b.arg[1];
}

// "PEs disagree on a collective call: PEs 0,2 called ishmem_malloc(64, 0); PE 1 called ..."
// for the `n_pes` records of `all`: each distinct call once, with up to 8 of its PEs.
std::string disagreement(const CollectiveRecord *all, int n_pes);

}  // namespace ishmem::detail
