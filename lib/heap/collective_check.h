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
  // Collective over every PE (with several nodes it makes the leaders' communicator).
  CollectiveCheck(const MpiBootstrap &boot, ControlSegment &control);
  ~CollectiveCheck();
  CollectiveCheck(const CollectiveCheck &) = delete;
  CollectiveCheck &operator=(const CollectiveCheck &) = delete;

  // A collective heap call: a full barrier (the control segment's, and with several nodes
  // the nodes' leaders' over MPI) that also compares `op` and its arguments on every PE.
  // Throws ISHMEM_ERR_MISMATCH on every PE unless all agree.
  void check(CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1);
  // A barrier of call `op` (barrier_all, sync_all, finalize). Throws ISHMEM_ERR_MISMATCH on
  // every PE unless all make the same call. The barrier_all hot path.
  void sync(CollectiveOp op) {
    watch_enter(op);
    if (over_mpi_) return across_nodes(CollectiveRecord{static_cast<std::uint64_t>(op), {}});
    if (!control_.barrier(op)) report_node_mismatch(op);
  }

 private:
  // Several nodes: the node's PEs meet in the control segment, its leader (local rank 0)
  // compares the node's call with the other leaders' over MPI and releases the node with the
  // outcome; a difference anywhere sends every PE to compare_over_mpi, which names each call.
  void across_nodes(const CollectiveRecord &mine);
  void compare_over_mpi(const CollectiveRecord &mine);
  [[noreturn]] void report_node_mismatch(CollectiveOp op);
  void compare(const CollectiveRecord &mine, const CollectiveRecord *all);

  const MpiBootstrap &boot_;
  ControlSegment &control_;
  const bool over_mpi_;
  MPI_Comm leaders_ = MPI_COMM_NULL;  // the nodes' local rank 0 (on them only)
};

}  // namespace ishmem::detail
