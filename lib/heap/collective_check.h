// The check every collective heap call runs before it changes the heap: a barrier that also
// compares the call and its arguments across every PE, together with the history of earlier
// collective calls, so that PEs that diverged fail together instead of corrupting the heap.
#pragma once

#include <cstdint>

#include "bootstrap/mpi_bootstrap.h"
#include "heap/control_segment.h"

namespace ishmem::detail {

enum class CollectiveOp : std::uint64_t { malloc = 1, calloc, free, realloc, trim };
const char *collective_op_name(std::uint64_t op);

class CollectiveCheck {
 public:
  CollectiveCheck(const MpiBootstrap &boot, ControlSegment &control)
      : boot_(boot), control_(control) {}

  // A full barrier (over MPI with PEs on other nodes, else the control segment's) that also
  // compares `op` and its arguments on every PE. Throws ISHMEM_ERR_MISMATCH on every PE,
  // with the same text naming the PEs and their calls, unless all agree.
  void check(CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1);

 private:
  const MpiBootstrap &boot_;
  ControlSegment &control_;
  std::uint64_t seq_ = 0;  // collective call number, over MPI
  std::uint64_t history_ = 0;
};

}  // namespace ishmem::detail
