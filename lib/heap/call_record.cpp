#include "heap/call_record.h"

#include <map>
#include <vector>

#include "bootstrap/stall_watch.h"

namespace ishmem::detail {
namespace {

// Records that differ never read alike: an op that is no call (a corrupt record) shows its
// number, and the arguments of the calls that take none show when they are not zero.
std::string describe(const CollectiveRecord &r) {
  std::string name = collective_op_name(r.op);
  if (name == "unknown") name = "an unknown call (op " + std::to_string(r.op) + ")";
  if (r.op < static_cast<std::uint64_t>(CollectiveOp::malloc) && r.arg[0] == 0 && r.arg[1] == 0)
    return name;
  return name + "(" + std::to_string(r.arg[0]) + ", " + std::to_string(r.arg[1]) + ")";
}

}  // namespace

std::string disagreement(const CollectiveRecord *all, int n_pes) {
  std::map<std::string, std::vector<int>> calls;  // call text -> PEs
  for (int pe = 0; pe < n_pes; ++pe) calls[describe(all[pe])].push_back(pe);
  std::string msg = "PEs disagree on a collective call:";
  for (const auto &[text, pes] : calls) {
    msg += " PE";
    if (pes.size() > 1) msg += "s";
    for (std::size_t i = 0; i < pes.size() && i < 8; ++i)
      msg += (i ? "," : " ") + std::to_string(pes[i]);
    if (pes.size() > 8) msg += ",... (" + std::to_string(pes.size()) + " PEs)";
    msg += " called " + text + ";";
  }
  msg.pop_back();
  return msg;
}

}  // namespace ishmem::detail
