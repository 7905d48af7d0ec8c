#include "runtime/sync.h"

#include "runtime/gpu_runtime.h"

namespace ishmem::detail {

void quiet(Runtime &rt) {
  device_proxy_drain();  // requests of finished kernels: executed, then flushed below
  quiet_rma(rt.remote);
  rt.statics->flush_all();
}

void sync_all(Runtime &rt, CollectiveOp op) {
  rt.heap->collectives().sync(op);
}

}  // namespace ishmem::detail
