#include "runtime/sync.h"

namespace ishmem::detail {

void quiet(Runtime &rt) {
  quiet_rma(rt.remote);
}

void sync_all(Runtime &rt) {
  if (rt.multi_node())
    rt.boot->barrier(false);  // every PE of every node
  else
    rt.heap->control().barrier();
}

}  // namespace ishmem::detail
