// The collectives of node-local teams on a CPU-addressable heap: each PE reads what it needs
// from its peers' mappings and writes only its own dest, so the algorithms are plain data
// movement over peer addresses (the device forms can reuse them).
//
// Each call has a sequence number (Team::calls, the same on every member). A PE's scratch
// holds two slots, used by the parity of seq. A slot starts with one cache line that holds
// the PE's progress word, seq * kPhases + phase, its call record and the first bytes of its
// staging buffer, which continues in the lines after it: a peer that sees the PE arrive has
// its record and a small contribution in the same line transfer. A contribution that fits
// the staging threshold is copied into the slot before the PE arrives, so the readers need
// no second phase. A PE writes slot p again at seq + 2, after it saw every member arrive at
// seq + 1, which each does only once it is done reading seq. Larger contributions are read
// from the peers' source buffers directly, and a final phase keeps every PE in the call
// until all are read.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "bootstrap/stall_watch.h"
#include "common/spin_wait.h"
#include "runtime/collectives.h"

namespace ishmem::detail {
namespace {

constexpr std::uint64_t kPhases = 4;
// broadcast, collect and alltoall stage at most this many bytes per PE (and no more than
// the reductions): above it the copy into the slot costs more than the direct path's
// second meeting (docs/COLLECTIVES.md).
constexpr std::size_t kCopyStagingMax = 2048;

// The head of one slot of a PE's collective scratch (Team::area + kTeamSyncBytes).
struct alignas(16) SlotHead {
  std::atomic<std::uint64_t> progress;  // seq * kPhases + the last phase reached
  std::uint64_t pad;
  CallRecord record;  // then the staging buffer, 16-aligned, from the same cache line on
};
constexpr std::size_t kHeadBytes = sizeof(SlotHead);
static_assert(kHeadBytes == 48, "the slot's head leaves 16 bytes of its first line to staging");

class NodeCall {
 public:
  NodeCall(Runtime &rt, Team &team, const char *fn)
      : team_(team),
        fn_(fn),
        seq_(team.calls),
        n_(static_cast<int>(team.members.size())),
        me_(team.my_index),
        slot_(team.area + kTeamSyncBytes) {
    const std::size_t scratch = rt.config.collective_scratch;
    const std::size_t half = (scratch / 2) & ~std::size_t{63};
    slot_ += (seq_ & 1) * half;
    const std::size_t room = half > kHeadBytes ? half - kHeadBytes : 0;
    limit_ = std::min<std::size_t>(rt.config.reduce_oneshot_max, room);
    copy_limit_ = std::min(limit_, kCopyStagingMax);
  }

  int size() const { return n_; }
  int me() const { return me_; }
  // Reductions of at most this many bytes go through the staging buffers.
  std::size_t limit() const { return limit_; }
  // The same for the contributions of broadcast, collect and alltoall.
  std::size_t copy_limit() const { return copy_limit_; }
  char *staging() const { return slot_ + kHeadBytes; }
  const char *staging_of(int index) const { return peer(staging(), index); }
  // Symmetric `p` on member `index`.
  template <class T>
  T *peer(T *p, int index) const {
    return index == me_ ? p : team_.peer(p, index);
  }

  // Publishes this PE's record, waits for every member's, and throws ISHMEM_ERR_MISMATCH
  // (on every member alike) unless they agree.
  void arrive(const CallRecord &mine) {
    SlotHead *self = head(me_);
    // Back-to-back calls repeat the record of seq - 2: leaving it as it is spares a store to
    // the line the peers are polling (each store can cost them a transfer).
    if (memcmp(&self->record, &mine, sizeof mine) != 0) self->record = mine;
    self->progress.store(seq_ * kPhases, std::memory_order_release);
    wait_all(seq_ * kPhases);
    bool agree = true;
    for (int i = 0; i < n_ && agree; ++i) agree = records_agree(record(i), mine);
    if (agree) return;
    std::vector<CallRecord> all;  // only for the report
    for (int i = 0; i < n_; ++i) all.push_back(record(i));
    compare_records(team_, all.data(), fn_);
  }
  // Member `index`'s record of this call: it stays until that member reaches seq + 2.
  const CallRecord &record(int index) const { return head(index)->record; }
  // Every member has finished the phases before `phase` (1 to kPhases - 1).
  void step(std::uint64_t phase) {
    head(me_)->progress.store(seq_ * kPhases + phase, std::memory_order_release);
    wait_all(seq_ * kPhases + phase);
  }

 private:
  SlotHead *head(int index) const { return reinterpret_cast<SlotHead *>(peer(slot_, index)); }
  void wait_all(std::uint64_t target) {
    SpinDeadline deadline(fn_);
    auto reached = [&](int j) {
      return head(j)->progress.load(std::memory_order_acquire) >= target;
    };
    for (int i = 0; i < n_; ++i) {
      if (i == me_) continue;
      const SlotHead *peer_head = head(i);
      wait_for([&] { return peer_head->progress.load(std::memory_order_acquire) >= target; },
               [&] {
                 deadline.poll([&](std::vector<int> &pes) {
                   for (int j = 0; j < n_; ++j)
                     if (j != me_ && !reached(j)) pes.push_back(team_.world_pe(j));
                 });
               });
    }
  }

  Team &team_;
  const char *fn_;
  const std::uint64_t seq_;
  const int n_, me_;
  char *slot_;
  std::size_t limit_ = 0, copy_limit_ = 0;
};

void broadcast(NodeCall &c, const CollectiveCall &call) {
  const std::size_t bytes = call.nelems * call.type.size;
  const bool staged = bytes <= c.copy_limit();
  const bool root = c.me() == call.root;
  if (root && staged && bytes) memcpy(c.staging(), call.source, bytes);
  c.arrive(record_of(call));
  const char *from =
      staged ? c.staging_of(call.root) : c.peer(static_cast<const char *>(call.source), call.root);
  if (root) from = static_cast<const char *>(call.source);
  if (bytes && call.dest != from) memcpy(call.dest, from, bytes);
  if (!staged) c.step(1);
}

// collect and fcollect: every member's contribution, in team order.
void collect(NodeCall &c, const CollectiveCall &call) {
  const std::size_t size = call.type.size;
  const std::size_t bytes = call.nelems * size;
  if (bytes && bytes <= c.copy_limit()) memcpy(c.staging(), call.source, bytes);
  c.arrive(record_of(call));
  // The total was checked against the heap for this PE's own part only.
  std::size_t total = 0;
  for (int i = 0; i < c.size(); ++i) total += c.record(i).nelems * size;
  FirstError range;  // the other members' reads of this PE's source still run to the end
  range.attempt([&] { check_collect_room(call, total); });
  bool direct = false;
  char *out = static_cast<char *>(call.dest);
  for (int i = 0; i < c.size(); ++i) {
    const std::size_t b = c.record(i).nelems * size;
    const bool staged = b <= c.copy_limit();
    direct = direct || !staged;
    const char *from = i == c.me() ? static_cast<const char *>(call.source)
                       : staged    ? c.staging_of(i)
                                   : c.peer(static_cast<const char *>(call.source), i);
    if (range.ok() && b) memcpy(out, from, b);
    out += b;
  }
  if (direct) c.step(1);
  range.rethrow();
}

// alltoall and alltoalls: block `me` of every member's source lands in block i of dest.
void alltoall(NodeCall &c, const CollectiveCall &call) {
  const std::size_t size = call.type.size;
  const std::size_t block = call.nelems * size;  // bytes of one block, packed
  const std::ptrdiff_t sst = call.sst * static_cast<std::ptrdiff_t>(size);
  const std::ptrdiff_t dst = call.dst * static_cast<std::ptrdiff_t>(size);
  const std::ptrdiff_t source_block = sst * static_cast<std::ptrdiff_t>(call.nelems);
  const std::ptrdiff_t dest_block = dst * static_cast<std::ptrdiff_t>(call.nelems);
  const bool staged = block * c.size() <= c.copy_limit();
  const char *source = static_cast<const char *>(call.source);
  if (staged)  // packed: block i at i * block
    for (int i = 0; i < c.size(); ++i)
      copy_strided(c.staging() + i * block, size, source + i * source_block, sst, call.nelems,
                   size);
  c.arrive(record_of(call));
  char *dest = static_cast<char *>(call.dest);
  for (int i = 0; i < c.size(); ++i) {
    if (staged)
      copy_strided(dest + i * dest_block, dst, c.staging_of(i) + c.me() * block, size, call.nelems,
                   size);
    else
      copy_strided(dest + i * dest_block, dst, c.peer(source, i) + c.me() * source_block, sst,
                   call.nelems, size);
  }
  if (!staged) c.step(1);
}

// dest[0, count) = the members' `inputs(i)` combined in team order, a block at a time through
// a buffer on the stack (dest may be this PE's source).
template <class Input>
void combine_members(NodeCall &c, const Reduction &r, char *dest, std::size_t count,
                     Input &&inputs) {
  alignas(64) unsigned char acc[4096];
  const std::size_t per_block = sizeof acc / r.type.size;
  for (std::size_t first = 0; first < count; first += per_block) {
    const std::size_t n = std::min(per_block, count - first);
    const std::size_t offset = first * r.type.size;
    memcpy(acc, inputs(0) + offset, n * r.type.size);
    for (int i = 1; i < c.size(); ++i) r.combine(acc, inputs(i) + offset, n);
    memcpy(dest + offset, acc, n * r.type.size);
  }
}

void reduce(NodeCall &c, const CollectiveCall &call) {
  const Reduction &r = *call.reduction;
  const std::size_t size = r.type.size;
  const std::size_t bytes = call.nelems * size;
  const char *source = static_cast<const char *>(call.source);
  char *dest = static_cast<char *>(call.dest);
  if (bytes <= c.limit()) {  // one-shot: every PE combines every member's staged copy
    if (bytes) memcpy(c.staging(), source, bytes);
    c.arrive(record_of(call));
    combine_members(c, r, dest, call.nelems, [&](int i) { return c.staging_of(i); });
    return;
  }
  // Reduce-scatter: member i combines chunk i of every source into its dest; all-gather:
  // each reads the other chunks from their owners' dest. Chunks are whole cache lines.
  c.arrive(record_of(call));
  const std::size_t line = std::max<std::size_t>(1, 64 / size);
  std::size_t chunk = (call.nelems + c.size() - 1) / c.size();
  chunk = (chunk + line - 1) / line * line;
  auto range = [&](int i, std::size_t &first, std::size_t &count) {
    first = std::min(call.nelems, chunk * static_cast<std::size_t>(i));
    count = std::min(call.nelems - first, chunk);
  };
  std::size_t first, count;
  range(c.me(), first, count);
  combine_members(c, r, dest + first * size, count,
                  [&](int i) { return c.peer(source, i) + first * size; });
  c.step(1);
  for (int i = 0; i < c.size(); ++i) {
    range(i, first, count);
    if (i != c.me() && count)
      memcpy(dest + first * size, c.peer(dest, i) + first * size, count * size);
  }
  c.step(2);
}

// The other members learn of this PE's failed checks here; the caller throws its own error.
void rejected(NodeCall &c, const CollectiveCall &call) {
  try {
    c.arrive(record_of(call));
  } catch (const Error &) {
  }
}

template <void (*Algorithm)(NodeCall &, const CollectiveCall &)>
void on_node(Runtime &rt, Team &team, const CollectiveCall &call) {
  NodeCall c(rt, team, call.fn);
  Algorithm(c, call);
}

}  // namespace

const CollectivePath kNodeCollectives = {on_node<broadcast>, on_node<collect>, on_node<alltoall>,
                                         on_node<reduce>, on_node<rejected>};

}  // namespace ishmem::detail
