// The device library's request code for device calls to off-node PEs (ishmem/detail/proxy.h):
// relocatable device code calls these two functions instead of inlining the requests. nvcc
// compiles this file alone within 32 registers (lib/gpu_library.cmake): a callee's registers
// count against every calling kernel, and 32 is what a kernel of two 1024-thread blocks per
// multiprocessor (__launch_bounds__(1024, 2)) has. The rare full ring or long wait spills a
// little to local memory instead. The callers pass their ISHMEMX_DEVICE_WAIT_LIMIT, which
// this file's own compilation does not see.
#define ISHMEMI_PROXY_LIBRARY 1
#include "ishmem/device.h"

namespace ishmemi {

__device__ __noinline__ int library_proxy_call(const ishmemx_heap_map_t *map, ProxyRequest r,
                                               unsigned long long *fetched,
                                               unsigned long long deadline, long long wait_limit) {
  return proxy_call(map, r, fetched, deadline, wait_limit);
}

__device__ __noinline__ int library_proxy_rma_large(const ishmemx_heap_map_t *map, bool is_put,
                                                    bool nbi, void *sym, void *local, size_t n,
                                                    int pe, long long wait_limit) {
  return proxy_rma_large(map, is_put, nbi, sym, local, n, pe, wait_limit);
}

}  // namespace ishmemi
