#include "heap/control_segment.h"

#include <new>

#include "bootstrap/agreed_step.h"

namespace ishmem::detail {
namespace {

constexpr std::size_t kControlBytes = 64 * 1024;

}  // namespace

ControlSegment::ControlSegment(PeerMesh &mesh, const MpiBootstrap &boot)
    : topo_(boot.topology()), my_slot_(topo_.local_rank), n_slots_(topo_.n_local) {
  agreed_setup_step(boot.world(), "reserving the control segment", [&] {
    backend_ = make_host_backend();
    segment_ = std::make_unique<SymmetricHeap>(*backend_, mesh, boot, kControlBytes, kControlBytes);
  });
  segment_->commit(kControlBytes);  // agrees on its outcome itself
  window_ = segment_->window();
  stride_ = segment_->stride();
  new (block(my_slot_)) ControlBlock{};
  watch_board(&block(0)->activity, stride_);
}

ControlSegment::~ControlSegment() {
  watch_board(nullptr, 0);
}

void ControlSegment::exchange(const CollectiveRecord &mine, CollectiveRecord *all) {
  block(my_slot_)->records[(epoch_ + 1) & 1] = mine;  // the next barrier's parity
  barrier(static_cast<CollectiveOp>(mine.op));
  last_records(all);
}

void ControlSegment::last_records(CollectiveRecord *all) const {
  for (int slot = 0; slot < n_slots_; ++slot) {
    const ControlBlock *peer = block(slot);
    const std::uint64_t op = peer->call[epoch_ & 1].load(std::memory_order_relaxed);
    // Heap calls (malloc and those after it in CollectiveOp) publish their arguments.
    const bool heap_call = op >= static_cast<std::uint64_t>(CollectiveOp::malloc);
    all[topo_.local_pes[slot]] = heap_call ? peer->records[epoch_ & 1] : CollectiveRecord{op, {}};
  }
}

void ControlSegment::late_pes(std::uint64_t epoch, std::vector<int> &pes) const {
  for (int slot = 0; slot < n_slots_; ++slot)
    if (block(slot)->barrier_epoch.load(std::memory_order_acquire) < epoch)
      pes.push_back(topo_.local_pes[slot]);
}

}  // namespace ishmem::detail
