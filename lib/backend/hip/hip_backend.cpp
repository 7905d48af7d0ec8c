// HIP backend: chunks are hipMemCreate allocations exportable as POSIX fds (DMA-BUF fds on
// ROCm), mapped with hipMemMap into a hipMemAddressReserve window. On a machine without an
// AMD GPU, hipGetDeviceCount reports none: make_gpu_backend says why and the runtime takes
// the host backend. This is the twin of lib/backend/cuda/cuda_backend.cpp: same structure,
// only the vendor calls differ (HIP's runtime exposes the virtual-memory calls itself, so
// there is no driver table to resolve).
#include <hip/hip_runtime_api.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>

#include "backend/gpu/gpu_backend.h"
#include "common/config.h"
#include "common/error.h"
#include "backend/gpu/placement.h"

namespace ishmem::detail {
namespace {

[[noreturn]] void fail_hip(hipError_t rc, const char *call, const char *file, int line) {
  fail(ISHMEM_ERR_BACKEND, "%s failed: %s (%s) at %s:%d", call, hipGetErrorString(rc),
       hipGetErrorName(rc), file, line);
}

#define ISHMEMI_HIP(call)                                                                  \
  do {                                                                                     \
    hipError_t ishmemi_hip_rc = (call);                                                    \
    if (ishmemi_hip_rc != hipSuccess) fail_hip(ishmemi_hip_rc, #call, __FILE__, __LINE__); \
  } while (0)

// The heap's allocation type. Uncached (fine-grained) memory keeps system-scope atomics and
// signals coherent between GPUs while kernels run; HIP 5.2's virtual-memory API offers only
// the default (coarse-grained) type. docs/MEMORY_MODEL.md says what each build guarantees.
#ifdef ISHMEMI_HIP_UNCACHED_HEAP
constexpr hipMemAllocationType kHeapAllocationType = hipMemAllocationTypeUncached;
#else
constexpr hipMemAllocationType kHeapAllocationType = hipMemAllocationTypePinned;
#endif

hipMemGenericAllocationHandle_t to_hip(ChunkHandle h) {
  return reinterpret_cast<hipMemGenericAllocationHandle_t>(static_cast<std::uintptr_t>(h));
}
ChunkHandle to_chunk(hipMemGenericAllocationHandle_t h) {
  return static_cast<ChunkHandle>(reinterpret_cast<std::uintptr_t>(h));
}

struct HostCall {
  void (*fn)(void *);
  void *arg;
};
void run_host_call(hipStream_t, hipError_t, void *data) {
  HostCall *call = static_cast<HostCall *>(data);
  call->fn(call->arg);
  delete call;
}

class HipBackend final : public GpuBackend {
 public:
  HipBackend(int device, std::size_t granularity, std::string bus_id, CpuPlacement cpus)
      : device_(device),
        granularity_(granularity),
        bus_id_(std::move(bus_id)),
        cpus_(std::move(cpus)) {
    prop_.type = kHeapAllocationType;
    prop_.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
    prop_.location.type = hipMemLocationTypeDevice;
    prop_.location.id = device;
    access_.location = prop_.location;
    access_.flags = hipMemAccessFlagsProtReadWrite;
    ISHMEMI_HIP(hipStreamCreateWithFlags(&stream_, hipStreamNonBlocking));
  }
  ~HipBackend() override {
    if (stream_) (void)hipStreamDestroy(stream_);
  }

  const char *name() const override { return "hip"; }
  std::size_t granularity() const override { return granularity_; }
  bool host_accessible() const override { return false; }

  void *reserve(std::size_t bytes) override {
    void *base = nullptr;
    ISHMEMI_HIP(hipMemAddressReserve(&base, bytes, granularity_, nullptr, 0));
    return base;
  }

  void unreserve(void *base, std::size_t bytes) override {
    ISHMEMI_HIP(hipMemAddressFree(base, bytes));
  }

  ChunkHandle create(std::size_t bytes) override {
    hipMemGenericAllocationHandle_t handle = nullptr;
    ISHMEMI_HIP(hipMemCreate(&handle, bytes, &prop_, 0));
    return to_chunk(handle);
  }

  int export_fd(ChunkHandle handle) override {
    int fd = -1;
    ISHMEMI_HIP(
        hipMemExportToShareableHandle(&fd, to_hip(handle), hipMemHandleTypePosixFileDescriptor, 0));
    return fd;
  }

  ChunkHandle import_fd(int fd, std::size_t) override {
    hipMemGenericAllocationHandle_t handle = nullptr;
    // The runtime reads the fd and keeps its own reference; the caller still owns `fd`.
    ISHMEMI_HIP(hipMemImportFromShareableHandle(
        &handle, reinterpret_cast<void *>(static_cast<std::uintptr_t>(fd)),
        hipMemHandleTypePosixFileDescriptor));
    return to_chunk(handle);
  }

  void map(void *addr, std::size_t bytes, ChunkHandle handle) override {
    ISHMEMI_HIP(hipMemMap(addr, bytes, 0, to_hip(handle), 0));
    hipError_t rc = hipMemSetAccess(addr, bytes, &access_, 1);
    if (rc != hipSuccess) {
      (void)hipMemUnmap(addr, bytes);  // undo the map; the caller releases the handle
      fail_hip(rc, "hipMemSetAccess", __FILE__, __LINE__);
    }
  }

  void unmap(void *addr, std::size_t bytes) override { ISHMEMI_HIP(hipMemUnmap(addr, bytes)); }

  void release(ChunkHandle handle) override {
    // Called on error paths too: report, never throw over the first error.
    hipError_t rc = hipMemRelease(to_hip(handle));
    if (rc != hipSuccess) log(LogLevel::error, "hipMemRelease failed: %s", hipGetErrorString(rc));
  }

  void copy(void *dst, const void *src, std::size_t bytes) override {
    // A private non-blocking stream: host RMA never waits for the user's kernels.
    ISHMEMI_HIP(hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, stream_));
    ISHMEMI_HIP(hipStreamSynchronize(stream_));
  }

  std::string placement() const override {
    std::string text = "GPU " + std::to_string(device_) + " (" + bus_id_ + "), cpus " + cpus_.cpus;
    if (!cpus_.bound) text += " (not bound: " + cpus_.note + ")";
    return text;
  }

  int device() const override { return device_; }
  const std::string &bus_id() const override { return bus_id_; }

  void copy_async(void *dst, const void *src, std::size_t bytes, void *stream) override {
    ISHMEMI_HIP(
        hipMemcpyAsync(dst, src, bytes, hipMemcpyDefault, static_cast<hipStream_t>(stream)));
  }

  void host_call(void *stream, void (*fn)(void *), void *arg) override {
    // hipLaunchHostFunc is declared by HIP 5.2 but not in its library: the older stream
    // callback does the same (it runs after the stream's earlier work; later work waits).
    auto *call = new HostCall{fn, arg};
    hipError_t rc = hipStreamAddCallback(static_cast<hipStream_t>(stream), run_host_call, call, 0);
    if (rc != hipSuccess) {
      delete call;
      fail_hip(rc, "hipStreamAddCallback", __FILE__, __LINE__);
    }
  }

  void *device_alloc(std::size_t bytes) override {
    void *ptr = nullptr;
    ISHMEMI_HIP(hipMalloc(&ptr, bytes));
    return ptr;
  }

  void device_free(void *ptr) noexcept override {
    if (ptr) (void)hipFree(ptr);
  }

  void *register_host(void *ptr, std::size_t bytes) override {
    // Registered host memory is fine-grained: coherent for system-scope atomics.
    ISHMEMI_HIP(hipHostRegister(ptr, bytes, hipHostRegisterPortable | hipHostRegisterMapped));
    void *device_ptr = nullptr;
    hipError_t rc = hipHostGetDevicePointer(&device_ptr, ptr, 0);
    if (rc != hipSuccess) {
      (void)hipHostUnregister(ptr);
      fail_hip(rc, "hipHostGetDevicePointer", __FILE__, __LINE__);
    }
    return device_ptr;
  }

  void unregister_host(void *ptr) noexcept override {
    if (ptr) (void)hipHostUnregister(ptr);
  }

 private:
  int device_;
  std::size_t granularity_;
  std::string bus_id_;
  CpuPlacement cpus_;
  hipMemAllocationProp prop_{};
  hipMemAccessDesc access_{};
  hipStream_t stream_ = nullptr;
};

// Everything make_gpu_backend checks, in order; throws Error with the reason.
std::unique_ptr<Backend> open_hip(int local_rank) {
  int count = 0;
  hipError_t rc = hipGetDeviceCount(&count);
  if (rc != hipSuccess)
    fail(ISHMEM_ERR_UNSUPPORTED, "no usable HIP device: hipGetDeviceCount: %s",
         hipGetErrorString(rc));
  if (count <= 0) fail(ISHMEM_ERR_UNSUPPORTED, "no HIP device is visible");

  const Config config = load_config();
  int device = local_rank % count;  // several PEs may share one GPU
  if (config.device >= 0) {
    if (config.device >= count)
      fail(ISHMEM_ERR_CONFIG, "ISHMEM_DEVICE=%ld but only %d HIP devices are visible",
           config.device, count);
    device = static_cast<int>(config.device);
  }
  ISHMEMI_HIP(hipSetDevice(device));
  ISHMEMI_HIP(hipFree(nullptr));  // creates the context now, not in a kernel launch

  // HIP 5.x has no attribute for virtual memory support: asking for the granularity of an
  // fd-exportable allocation is the test.
  hipMemAllocationProp prop{};
  prop.type = kHeapAllocationType;
  prop.requestedHandleType = hipMemHandleTypePosixFileDescriptor;
  prop.location.type = hipMemLocationTypeDevice;
  prop.location.id = device;
  std::size_t granularity = 0;
  ISHMEMI_HIP(
      hipMemGetAllocationGranularity(&granularity, &prop, hipMemAllocationGranularityMinimum));
  if (granularity == 0 || (granularity & (granularity - 1)) != 0)
    fail(ISHMEM_ERR_BACKEND, "hipMemGetAllocationGranularity gave %zu bytes", granularity);

  char bus[32] = {0};
  ISHMEMI_HIP(hipDeviceGetPCIBusId(bus, sizeof bus, device));
  CpuPlacement cpus = place_near_pci(bus, config.bind != "none");
  return std::make_unique<HipBackend>(device, granularity, bus, std::move(cpus));
}

}  // namespace

std::unique_ptr<Backend> make_gpu_backend(int local_rank, int, std::string &why) {
  // Never throws: every PE must reach the runtime's agreement on the backend.
  try {
    return open_hip(local_rank);
  } catch (const Error &e) {
    why = e.what();
    // The runtime prefixes the reason with the PE itself.
    if (why.compare(0, 8, "[ishmem ") == 0 && why.find("] ") != std::string::npos)
      why.erase(0, why.find("] ") + 2);
  } catch (const std::exception &e) {
    why = std::string("HIP backend: ") + e.what();
  }
  (void)hipGetLastError();  // leave no sticky error behind for the application
  return nullptr;
}

}  // namespace ishmem::detail
