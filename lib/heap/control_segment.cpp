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
}

void ControlSegment::exchange(const CollectiveRecord &mine, CollectiveRecord *all) {
  block(my_slot_)->records[mine.seq & 1] = mine;
  barrier();  // passes epoch `mine.seq`
  for (int slot = 0; slot < n_slots_; ++slot)
    all[topo_.local_pes[slot]] = block(slot)->records[mine.seq & 1];
}

}  // namespace ishmem::detail
