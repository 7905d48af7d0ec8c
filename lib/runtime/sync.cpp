#include "runtime/sync.h"

namespace ishmem::detail {

void quiet(Runtime &rt) {
  quiet_rma(rt.remote);
  rt.statics->flush_all();
}

void sync_all(Runtime &rt, CollectiveOp op) {
  rt.heap->collectives().sync(op);
}

}  // namespace ishmem::detail
