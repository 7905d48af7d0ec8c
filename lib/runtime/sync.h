// Synchronization of the PEs: completing RMA and barriers. The node barrier itself lives in
// the heap's control segment, which the heap's collective-call check also uses.
#pragma once

#include "common/spin_wait.h"
#include "runtime/runtime.h"

namespace ishmem::detail {

// Completes this PE's outstanding RMA (stores made visible; MPI operations on the heap and
// on static data flushed).
void quiet(Runtime &rt);
// All PEs arrive before any leaves, from the same collective call `op` (ISHMEM_ERR_MISMATCH
// otherwise); no completion of RMA.
void sync_all(Runtime &rt, CollectiveOp op = CollectiveOp::barrier);

}  // namespace ishmem::detail
