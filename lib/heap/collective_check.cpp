#include "heap/collective_check.h"

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "common/error.h"

namespace ishmem::detail {
namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

std::string describe(const CollectiveRecord &r) {
  char buf[128];
  snprintf(buf, sizeof buf, "%s(%llu, %llu)", collective_op_name(r.op),
           static_cast<unsigned long long>(r.arg[0]), static_cast<unsigned long long>(r.arg[1]));
  return buf;
}

// The message every PE reports when the records of one call differ.
std::string disagreement(const CollectiveRecord *all, int n_pes, const CollectiveRecord &mine) {
  std::map<std::string, std::vector<int>> calls;  // call text -> PEs
  for (int pe = 0; pe < n_pes; ++pe) {
    std::string text = describe(all[pe]);
    if (all[pe].seq != mine.seq)
      text = "something else at that point (a barrier, or a different number of calls)";
    else if (all[pe].history != all[0].history)
      text += " after a different call history";
    calls[text].push_back(pe);
  }
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

}  // namespace

const char *collective_op_name(std::uint64_t op) {
  switch (static_cast<CollectiveOp>(op)) {
    case CollectiveOp::malloc:
      return "ishmem_malloc";
    case CollectiveOp::calloc:
      return "ishmem_calloc";
    case CollectiveOp::free:
      return "ishmem_free";
    case CollectiveOp::realloc:
      return "ishmem_realloc";
    case CollectiveOp::trim:
      return "ishmemx_heap_trim";
  }
  return "unknown";
}

void CollectiveCheck::check(CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1) {
  const Topology &topo = boot_.topology();
  // A record is stamped with the barrier epoch it is published for and lives in the buffer
  // of that epoch's parity. Every PE that runs check() at epoch e reads the same records: a
  // peer that passes epoch e in a plain barrier leaves a stale stamp (a mismatch for all who
  // read it), and no peer can write that buffer again before everyone has left epoch e+1.
  const bool over_mpi = topo.n_nodes > 1;
  const std::uint64_t seq = over_mpi ? ++seq_ : control_.next_epoch();
  CollectiveRecord mine{seq, static_cast<std::uint64_t>(op), {arg0, arg1}, history_};
  // Up to 16 PEs the records stay on the stack: check() runs in every allocation.
  CollectiveRecord small[16];
  std::vector<CollectiveRecord> large;
  CollectiveRecord *all = small;
  if (topo.n_pes > 16) {
    large.resize(topo.n_pes);
    all = large.data();
  }
  if (over_mpi)
    boot_.allgather(&mine, all, sizeof mine, false);
  else
    control_.exchange(mine, all);
  // Every PE folds the same records into its history, so a mismatch is reported once and
  // later calls still agree.
  std::uint64_t next = history_;
  for (const CollectiveRecord *r = all; r != all + topo.n_pes; ++r)
    next = mix(mix(mix(mix(next, r->op), r->arg[0]), r->arg[1]), r->history);
  history_ = next;

  bool same = true;
  for (const CollectiveRecord *r = all; r != all + topo.n_pes; ++r)
    same = same && r->seq == mine.seq && r->op == mine.op && r->arg[0] == mine.arg[0] &&
           r->arg[1] == mine.arg[1] && r->history == all[0].history;
  if (!same)
    fail(ISHMEM_ERR_MISMATCH, "%s: %s", collective_op_name(static_cast<std::uint64_t>(op)),
         disagreement(all, topo.n_pes, mine).c_str());
}

}  // namespace ishmem::detail
