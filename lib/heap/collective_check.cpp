#include "heap/collective_check.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"

namespace ishmem::detail {
namespace {

std::string describe(const CollectiveRecord &r) {
  const char *name = collective_op_name(r.op);
  if (r.op < static_cast<std::uint64_t>(CollectiveOp::malloc)) return name;  // no arguments
  char buf[128];
  snprintf(buf, sizeof buf, "%s(%llu, %llu)", name, static_cast<unsigned long long>(r.arg[0]),
           static_cast<unsigned long long>(r.arg[1]));
  return buf;
}

// The message every PE reports when the records of one call differ.
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

// Up to 16 PEs the records stay on the stack: a check runs in every allocation.
class Records {
 public:
  explicit Records(int n_pes) {
    if (n_pes > 16) large_.resize(n_pes);
  }
  CollectiveRecord *data() { return large_.empty() ? small_ : large_.data(); }

 private:
  CollectiveRecord small_[16];
  std::vector<CollectiveRecord> large_;
};

}  // namespace

void CollectiveCheck::check(CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1) {
  watch_enter(op);
  const CollectiveRecord mine{static_cast<std::uint64_t>(op), {arg0, arg1}};
  if (over_mpi_) return compare_over_mpi(mine);
  Records all(boot_.topology().n_pes);
  control_.exchange(mine, all.data());
  compare(mine, all.data());
}

void CollectiveCheck::compare_over_mpi(const CollectiveRecord &mine) {
  Records all(boot_.topology().n_pes);
  boot_.allgather(&mine, all.data(), sizeof mine, false);
  compare(mine, all.data());
}

void CollectiveCheck::report_node_mismatch(CollectiveOp op) {
  const CollectiveRecord mine{static_cast<std::uint64_t>(op), {}};
  Records all(boot_.topology().n_pes);
  control_.last_records(all.data());
  compare(mine, all.data());
  fail(ISHMEM_ERR_INTERNAL, "%s: the node barrier saw different calls that agree",
       collective_op_name(mine.op));
}

void CollectiveCheck::compare(const CollectiveRecord &mine, const CollectiveRecord *all) {
  const int n_pes = boot_.topology().n_pes;
  for (const CollectiveRecord *r = all; r != all + n_pes; ++r)
    if (r->op != mine.op || r->arg[0] != mine.arg[0] || r->arg[1] != mine.arg[1])
      fail(ISHMEM_ERR_MISMATCH, "%s: %s", collective_op_name(mine.op),
           disagreement(all, n_pes).c_str());
}

}  // namespace ishmem::detail
