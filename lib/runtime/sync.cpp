#include "runtime/sync.h"

#include <sched.h>

#include <cstdio>
#include <map>

#include "common/error.h"

namespace ishmem::detail {

void yield_cpu() {
  sched_yield();
}

void quiet(Runtime &rt) {
  // Stores to mapped peer memory are ordinary stores: a full fence makes them visible before
  // anything this PE does next (see docs/MEMORY_MODEL.md).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (rt.remote) rt.remote->flush_all();
}

namespace {

void sync_node(Runtime &rt) {
  const Topology &topo = rt.boot->topology();
  const std::uint64_t epoch = ++rt.barrier_epoch;
  rt.control_block(topo.local_rank)->barrier_epoch.store(epoch, std::memory_order_release);
  for (int slot = 0; slot < topo.n_local; ++slot) {
    if (slot == topo.local_rank) continue;
    const std::atomic<std::uint64_t> &peer = rt.control_block(slot)->barrier_epoch;
    wait_for([&] { return peer.load(std::memory_order_acquire) >= epoch; });
  }
}

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

}  // namespace

void sync_all(Runtime &rt) {
  if (rt.multi_node())
    rt.boot->barrier(false);  // every PE of every node
  else
    sync_node(rt);
}

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

std::string agree(Runtime &rt, CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1) {
  const Topology &topo = rt.boot->topology();
  // A record is stamped with the barrier epoch it is published for and lives in the buffer
  // of that epoch's parity. Every PE that runs agree() at epoch e reads the same records: a
  // peer that passes epoch e in a plain barrier leaves a stale stamp (a mismatch for all who
  // read it), and no peer can write that buffer again before everyone has left epoch e+1.
  const bool over_mpi = rt.multi_node();
  const std::uint64_t seq = over_mpi ? ++rt.collective_seq : rt.barrier_epoch + 1;
  CollectiveRecord mine{seq, static_cast<std::uint64_t>(op), {arg0, arg1}, rt.history};
  // Up to 16 PEs the records stay on the stack: agree() runs in every allocation.
  CollectiveRecord small[16];
  std::vector<CollectiveRecord> large;
  CollectiveRecord *all = small;
  if (topo.n_pes > 16) {
    large.resize(topo.n_pes);
    all = large.data();
  }
  quiet(rt);
  if (over_mpi) {
    rt.boot->allgather(&mine, all, sizeof mine, false);
  } else {
    rt.control_block(topo.local_rank)->records[seq & 1] = mine;
    sync_node(rt);  // passes epoch `seq`
    for (int slot = 0; slot < topo.n_local; ++slot)
      all[topo.local_pes[slot]] = rt.control_block(slot)->records[seq & 1];
  }
  // Every PE folds the same records into its history, so a mismatch is reported once and
  // later calls still agree.
  std::uint64_t next = rt.history;
  for (const CollectiveRecord *r = all; r != all + topo.n_pes; ++r)
    next = mix(mix(mix(mix(next, r->op), r->arg[0]), r->arg[1]), r->history);
  rt.history = next;

  bool same = true;
  for (const CollectiveRecord *r = all; r != all + topo.n_pes; ++r)
    same = same && r->seq == mine.seq && r->op == mine.op && r->arg[0] == mine.arg[0] &&
           r->arg[1] == mine.arg[1] && r->history == all[0].history;
  if (same) return "";

  std::map<std::string, std::vector<int>> calls;  // call text -> PEs
  for (int pe = 0; pe < topo.n_pes; ++pe) {
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

}  // namespace ishmem::detail
