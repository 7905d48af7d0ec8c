// The names of the collective calls that PEs compare and report (stall_watch.h), apart from
// the watch itself so that the checks of the call records can be built alone (the fuzz target).
#include "bootstrap/stall_watch.h"

namespace ishmem::detail {

const char *collective_op_name(std::uint64_t op) {
  switch (static_cast<CollectiveOp>(op)) {
    case CollectiveOp::none:
      break;
    case CollectiveOp::init:
      return "ishmem_init";
    case CollectiveOp::barrier:
      return "ishmem_barrier_all";
    case CollectiveOp::finalize:
      return "ishmem_finalize";
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

}  // namespace ishmem::detail
