// The control segment: a page of host shared memory per node-local PE, mapped by every local
// peer, in which the node barrier and the collective-call check meet. The runtime's barrier
// and the heap's agreement check both use it, so it lives here, below both.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "backend/backend.h"
#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/peer_mesh.h"
#include "common/spin_wait.h"
#include "heap/symmetric_heap.h"

namespace ishmem::detail {

// One PE's record of a collective heap call, as its peers read it.
struct CollectiveRecord {
  std::uint64_t seq;      // collective call number
  std::uint64_t op;       // which call
  std::uint64_t arg[2];   // its arguments
  std::uint64_t history;  // hash of every earlier collective call on this PE
};

// One PE's part of the control segment.
struct alignas(64) ControlBlock {
  std::atomic<std::uint64_t> barrier_epoch;
  char pad[56];
  CollectiveRecord records[2];  // double-buffered by seq parity
};

class ControlSegment {
 public:
  // Collective over every PE (a part of ishmem_init); on failure every PE throws.
  ControlSegment(PeerMesh &mesh, const MpiBootstrap &boot);
  ControlSegment(const ControlSegment &) = delete;
  ControlSegment &operator=(const ControlSegment &) = delete;

  // Node barrier: every node-local PE arrives before any leaves. The barrier_all hot path.
  void barrier() {
    const std::uint64_t epoch = ++epoch_;
    block(my_slot_)->barrier_epoch.store(epoch, std::memory_order_release);
    for (int slot = 0; slot < n_slots_; ++slot) {
      if (slot == my_slot_) continue;
      const std::atomic<std::uint64_t> &peer = block(slot)->barrier_epoch;
      wait_for([&] { return peer.load(std::memory_order_acquire) >= epoch; });
    }
  }
  // The epoch the next barrier passes.
  std::uint64_t next_epoch() const { return epoch_ + 1; }
  // Publishes `mine` (whose seq is next_epoch()) for the node's PEs, runs the next barrier,
  // and stores every node-local PE's record in all[pe].
  void exchange(const CollectiveRecord &mine, CollectiveRecord *all);

 private:
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
