// The control segment: a page of host shared memory per node-local PE, mapped by every local
// peer, in which the node barrier and the collective-call check meet. The runtime's barrier
// and the heap's agreement check both use it, so it lives here, below both.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "backend/backend.h"
#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/peer_mesh.h"
#include "bootstrap/stall_watch.h"
#include "heap/call_record.h"
#include "common/spin_wait.h"
#include "heap/symmetric_heap.h"

namespace ishmem::detail {

// One PE's record of a collective call, as its peers read it.

// One PE's part of the control segment. The barrier's words share one cache line, which a
// barrier has in cache once it sees the peer arrive.
struct alignas(64) ControlBlock {
  std::atomic<std::uint64_t> barrier_epoch;
  // The collective call (CollectiveOp) this PE made at the epochs of each parity: a peer
  // passing epoch e cannot reach e + 2, and write this parity again, before every PE has left e.
  std::atomic<std::uint64_t> call[2];
  ActivityWord activity;  // the last collective call this PE entered (bootstrap/stall_watch.h)
  char pad[32];
  CollectiveRecord records[2];  // a collective heap call's record, by epoch parity
};

class ControlSegment {
 public:
  // Collective over every PE (a part of ishmem_init); on failure every PE throws.
  ControlSegment(PeerMesh &mesh, const MpiBootstrap &boot);
  ~ControlSegment();
  ControlSegment(const ControlSegment &) = delete;
  ControlSegment &operator=(const ControlSegment &) = delete;

  // Node barrier of collective call `op`: every node-local PE arrives before any leaves.
  // Returns whether every PE arrived from the same call. The barrier_all hot path.
  bool barrier(CollectiveOp op) {
    const std::uint64_t epoch = ++epoch_;
    ControlBlock *me = block(my_slot_);
    me->call[epoch & 1].store(static_cast<std::uint64_t>(op), std::memory_order_relaxed);
    me->barrier_epoch.store(epoch, std::memory_order_release);
    SpinDeadline deadline("the node barrier");
    bool same = true;
    for (int slot = 0; slot < n_slots_; ++slot) {
      if (slot == my_slot_) continue;
      const ControlBlock *peer = block(slot);
      wait_for([&] { return peer->barrier_epoch.load(std::memory_order_acquire) >= epoch; },
               [&] { deadline.poll([&](std::vector<int> &pes) { late_pes(epoch, pes); }); });
      same = same && peer->call[epoch & 1].load(std::memory_order_relaxed) ==
                         static_cast<std::uint64_t>(op);
    }
    return same;
  }
  // Publishes `mine` for the node's PEs, runs the barrier of call mine.op, and stores every
  // node-local PE's record of that barrier in all[pe].
  void exchange(const CollectiveRecord &mine, CollectiveRecord *all);
  // Every node-local PE's record of the last barrier, in all[pe]: its published record for a
  // collective heap call, else the call alone.
  void last_records(CollectiveRecord *all) const;

 private:
  // The PEs that have not yet arrived at `epoch`.
  void late_pes(std::uint64_t epoch, std::vector<int> &pes) const;
  ControlBlock *block(int slot) const {
    return reinterpret_cast<ControlBlock *>(window_ + stride_ * static_cast<std::size_t>(slot));
  }

  std::unique_ptr<Backend> backend_;  // host memory, whatever the heap's backend
  std::unique_ptr<SymmetricHeap> segment_;
  const Topology &topo_;
  char *window_ = nullptr;
  std::size_t stride_ = 0;
  int my_slot_;
  int n_slots_;
  std::uint64_t epoch_ = 0;
};

}  // namespace ishmem::detail
