// The check every collective call runs: a barrier that also compares the call and its
// arguments across every PE, so that PEs that diverged fail together, with one message that
// names every PE's call, instead of corrupting the heap or pairing a barrier with an
// allocation. Every collective call is checked where it happens, so one mistake fails that
// call alone: later calls that agree work.
#pragma once

#include <cstdint>

#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/stall_watch.h"
#include "heap/control_segment.h"

namespace ishmem::detail {

class CollectiveCheck {
 public:
  CollectiveCheck(const MpiBootstrap &boot, ControlSegment &control)
      : boot_(boot), control_(control), over_mpi_(boot.topology().n_nodes > 1) {}

  // A collective heap call: a full barrier (over MPI with PEs on other nodes, else the
  // control segment's) that also compares `op` and its arguments on every PE. Throws
  // ISHMEM_ERR_MISMATCH on every PE unless all agree.
  void check(CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1);
  // A barrier of call `op` (barrier_all, sync_all, finalize). Throws ISHMEM_ERR_MISMATCH on
  // every PE unless all make the same call. The barrier_all hot path.
  void sync(CollectiveOp op) {
    watch_enter(op);
    if (over_mpi_) return compare_over_mpi(CollectiveRecord{static_cast<std::uint64_t>(op), {}});
    if (!control_.barrier(op)) report_node_mismatch(op);
  }

 private:
  void compare_over_mpi(const CollectiveRecord &mine);
  [[noreturn]] void report_node_mismatch(CollectiveOp op);
  void compare(const CollectiveRecord &mine, const CollectiveRecord *all);

  const MpiBootstrap &boot_;
  ControlSegment &control_;
  const bool over_mpi_;
};

}  // namespace ishmem::detail
