// The HIP part of the vendor shim; included by vendor.h. HIP's runtime exposes the
// virtual-memory calls itself, so there is no driver table to resolve; on a machine without
// an AMD GPU, hipGetDeviceCount reports none and the runtime takes the host backend.
#pragma once

#include <string>

namespace ishmem::detail::vendor {

#define ISHMEMI_VMM_PREFIX "hip"
#define ISHMEMI_VMM_CALL(driver, name) hip##name

// The heap's allocation type. Uncached (fine-grained) memory keeps system-scope atomics and
// signals coherent between GPUs while kernels run; HIP 5.2's virtual-memory API offers only
// the default (coarse-grained) type. docs/MEMORY_MODEL.md says what each build guarantees.
#ifdef ISHMEMI_HIP_UNCACHED_HEAP
constexpr hipMemAllocationType kHeapAllocationType = hipMemAllocationTypeUncached;
#else
constexpr hipMemAllocationType kHeapAllocationType = hipMemAllocationTypePinned;
#endif

class Driver {
 public:
  // Nothing to resolve, and HIP 5.x has no attribute for virtual memory support: asking for
  // the granularity of an fd-exportable allocation (the backend's next step) is the test.
  // Allocations name the device by its ordinal.
  int open(int device) { return device; }

  std::string text(hipError_t rc) const { return runtime_text(rc); }
};

struct HostCall {
  void (*fn)(void *);
  void *arg;
};

inline void run_host_call(hipStream_t, hipError_t, void *data) {
  HostCall *call = static_cast<HostCall *>(data);
  call->fn(call->arg);
  delete call;
}

// Ticks per second of wall_clock64() (s_memrealtime), the device timer of the barriers'
// deadline: 100 MHz on the gfx9 GPUs (HIP 5.2 has no attribute that reports it).
inline double timer_hz(int) {
  return 1e8;
}

inline void launch_host_func(gpuStream_t stream, void (*fn)(void *), void *arg) {
  // hipLaunchHostFunc is declared by HIP 5.2 but not in its library: the older stream
  // callback does the same (it runs after the stream's earlier work; later work waits).
  auto *call = new HostCall{fn, arg};
  hipError_t rc = hipStreamAddCallback(stream, run_host_call, call, 0);
  if (rc != hipSuccess) {
    delete call;
    fail_call("hipStreamAddCallback", runtime_text(rc), __FILE__, __LINE__);
  }
}

}  // namespace ishmem::detail::vendor
