// The GPU backend, one source for CUDA and HIP over the vendor shim (vendor.h): chunks are
// cuMemCreate / hipMemCreate allocations exportable as POSIX fds (DMA-BUF fds on ROCm),
// mapped with cuMemMap / hipMemMap into a reserved address window. On a machine without a
// usable GPU or driver, make_gpu_backend says why and the runtime takes the host backend.
#include <cstdint>

#include "backend/gpu/gpu_backend.h"
#include "backend/gpu/placement.h"
#include "backend/gpu/vendor.h"

namespace ishmem::detail {
namespace {

using vendor::from_dptr;
using vendor::to_chunk;
using vendor::to_dptr;
using vendor::to_handle;

// What every heap chunk is: device memory of the heap's allocation type on `location`,
// exportable as a POSIX fd.
vendor::AllocationProp heap_allocation(int location) {
  vendor::AllocationProp prop{};
  prop.type = vendor::kHeapAllocationType;
  prop.ISHMEMI_VMM_HANDLE_TYPES = vendor::kPosixFd;
  prop.location.type = vendor::kOnDevice;
  prop.location.id = location;
  return prop;
}

class VmmBackend final : public GpuBackend {
 public:
  VmmBackend(const vendor::Driver &drv, int device, const vendor::AllocationProp &prop,
             std::size_t granularity, std::string bus_id, CpuPlacement cpus)
      : drv_(drv),
        device_(device),
        granularity_(granularity),
        bus_id_(std::move(bus_id)),
        cpus_(std::move(cpus)),
        prop_(prop) {
    access_.location = prop_.location;
    access_.flags = vendor::kReadWrite;
    ISHMEMI_GPU(StreamCreateWithFlags, (&stream_, gpuStreamNonBlocking));
    std::size_t free_bytes = 0;
    ISHMEMI_GPU(MemGetInfo, (&free_bytes, &device_bytes_));  // the device is current here
  }
  ~VmmBackend() override {
    if (stream_) (void)gpuStreamDestroy(stream_);
  }

  const char *name() const override { return ISHMEMI_GPU_VENDOR; }
  std::size_t granularity() const override { return granularity_; }
  bool host_accessible() const override { return false; }

  void *reserve(std::size_t bytes) override {
    vendor::DevicePtr base{};
    ISHMEMI_VMM(drv_, MemAddressReserve, (&base, bytes, granularity_, 0, 0));
    return from_dptr(base);
  }

  void unreserve(void *base, std::size_t bytes) override {
    ISHMEMI_VMM(drv_, MemAddressFree, (to_dptr(base), bytes));
  }

  ChunkHandle create(std::size_t bytes) override {
    vendor::Handle handle{};
    ISHMEMI_VMM(drv_, MemCreate, (&handle, bytes, &prop_, 0));
    return to_chunk(handle);
  }

  int export_fd(ChunkHandle handle) override {
    int fd = -1;
    ISHMEMI_VMM(drv_, MemExportToShareableHandle, (&fd, to_handle(handle), vendor::kPosixFd, 0));
    return fd;
  }

  ChunkHandle import_fd(int fd, std::size_t) override {
    vendor::Handle handle{};
    // The driver reads the fd and keeps its own reference; the caller still owns `fd`.
    ISHMEMI_VMM(
        drv_, MemImportFromShareableHandle,
        (&handle, reinterpret_cast<void *>(static_cast<std::uintptr_t>(fd)), vendor::kPosixFd));
    return to_chunk(handle);
  }

  void map(void *addr, std::size_t bytes, ChunkHandle handle) override {
    ISHMEMI_VMM(drv_, MemMap, (to_dptr(addr), bytes, 0, to_handle(handle), 0));
    vendor::Result rc = ISHMEMI_VMM_CALL(drv_, MemSetAccess)(to_dptr(addr), bytes, &access_, 1);
    if (rc != vendor::kSuccess) {
      // Undo the map; the caller releases the handle.
      (void)ISHMEMI_VMM_CALL(drv_, MemUnmap)(to_dptr(addr), bytes);
      vendor::fail_call(ISHMEMI_VMM_PREFIX "MemSetAccess", drv_.text(rc), __FILE__, __LINE__);
    }
  }

  void unmap(void *addr, std::size_t bytes) override {
    ISHMEMI_VMM(drv_, MemUnmap, (to_dptr(addr), bytes));
  }

  void release(ChunkHandle handle) override {
    // Called on error paths too: report, never throw over the first error.
    vendor::Result rc = ISHMEMI_VMM_CALL(drv_, MemRelease)(to_handle(handle));
    if (rc != vendor::kSuccess)
      log(LogLevel::error, ISHMEMI_VMM_PREFIX "MemRelease failed: %s", drv_.text(rc).c_str());
  }

  void copy(void *dst, const void *src, std::size_t bytes) override {
    // A private non-blocking stream: host RMA never waits for the user's kernels.
    on_device([&] {
      ISHMEMI_GPU(MemcpyAsync, (dst, src, bytes, gpuMemcpyDefault, stream_));
      ISHMEMI_GPU(StreamSynchronize, (stream_));
    });
  }

  void quiesce() override {
    // The whole device (every stream of this process), as cudaFree waits: the kernel that
    // writes a block may run on any stream.
    on_device([] {
      const gpuError_t rc = gpuDeviceSynchronize();
      if (rc != gpuSuccess)
        vendor::fail_call(ISHMEMI_GPU_VENDOR "DeviceSynchronize()", vendor::runtime_text(rc),
                          __FILE__, __LINE__);
    });
  }

  MemorySource memory_source() const override {
    return {device_bytes_, "GPU " + std::to_string(device_) + "'s memory", bus_id_};
  }

  std::string placement() const override {
    std::string text = "GPU " + std::to_string(device_) + " (" + bus_id_ + "), cpus " + cpus_.cpus;
    if (!cpus_.bound) text += " (not bound: " + cpus_.note + ")";
    return text;
  }

  int device() const override { return device_; }
  const std::string &bus_id() const override { return bus_id_; }
  double timer_hz() const override { return vendor::timer_hz(device_); }

  void copy_async(void *dst, const void *src, std::size_t bytes, void *stream) override {
    ISHMEMI_GPU(MemcpyAsync, (dst, src, bytes, gpuMemcpyDefault, static_cast<gpuStream_t>(stream)));
  }

  void host_call(void *stream, void (*fn)(void *), void *arg) override {
    vendor::launch_host_func(static_cast<gpuStream_t>(stream), fn, arg);
  }

  void *device_alloc(std::size_t bytes) override {
    void *ptr = nullptr;
    ISHMEMI_GPU(Malloc, (&ptr, bytes));
    return ptr;
  }

  void device_free(void *ptr) noexcept override {
    if (ptr) (void)gpuFree(ptr);
  }

  void *register_host(void *ptr, std::size_t bytes) override {
    // On HIP, registered host memory is fine-grained: coherent for system-scope atomics.
    ISHMEMI_GPU(HostRegister, (ptr, bytes, gpuHostRegisterPortable | gpuHostRegisterMapped));
    void *device_ptr = nullptr;
    gpuError_t rc = gpuHostGetDevicePointer(&device_ptr, ptr, 0);
    if (rc != gpuSuccess) {
      (void)gpuHostUnregister(ptr);
      vendor::fail_call(ISHMEMI_GPU_VENDOR "HostGetDevicePointer", vendor::runtime_text(rc),
                        __FILE__, __LINE__);
    }
    return device_ptr;
  }

  void unregister_host(void *ptr) noexcept override {
    if (ptr) (void)gpuHostUnregister(ptr);
  }

 private:
  // Runs work() with this PE's GPU current on the calling thread, which gets its own back: a
  // program's thread may use another GPU, and ishmem's threads (the service thread, a device
  // collective's) have none set, which would make GPU 0 current for them.
  template <class Work>
  void on_device(Work &&work) {
    int current = device_;
    ISHMEMI_GPU(GetDevice, (&current));
    if (current != device_) ISHMEMI_GPU(SetDevice, (device_));
    try {
      work();
    } catch (...) {
      if (current != device_) (void)gpuSetDevice(current);
      throw;
    }
    if (current != device_) ISHMEMI_GPU(SetDevice, (current));
  }

  vendor::Driver drv_;
  int device_;
  std::size_t granularity_;
  std::string bus_id_;
  std::size_t device_bytes_ = 0;
  CpuPlacement cpus_;
  vendor::AllocationProp prop_;
  vendor::AccessDesc access_{};
  gpuStream_t stream_ = nullptr;
};

// Everything make_gpu_backend checks, in order; throws Error with the reason.
std::unique_ptr<Backend> open_gpu(const GpuOptions &options) {
  int count = 0;
  gpuError_t rc = gpuGetDeviceCount(&count);
  if (rc != gpuSuccess)
    fail(ISHMEM_ERR_UNSUPPORTED, "no usable %s device: %s: %s", vendor::kLabel,
         ISHMEMI_GPU_VENDOR "GetDeviceCount", gpuGetErrorString(rc));
  if (count <= 0) fail(ISHMEM_ERR_UNSUPPORTED, "no %s device is visible", vendor::kLabel);

  int device = options.local_rank % count;  // several PEs may share one GPU
  if (options.device >= 0) {
    if (options.device >= count)
      fail(ISHMEM_ERR_CONFIG, "ISHMEM_DEVICE=%ld but only %d %s devices are visible",
           options.device, count, vendor::kLabel);
    device = static_cast<int>(options.device);
  }
  ISHMEMI_GPU(SetDevice, (device));
  ISHMEMI_GPU(Free, (nullptr));  // creates the (primary) context now, not in a kernel launch

  vendor::Driver drv;
  const vendor::AllocationProp prop = heap_allocation(drv.open(device));
  std::size_t granularity = 0;
  ISHMEMI_VMM(drv, MemGetAllocationGranularity, (&granularity, &prop, vendor::kGranularityMinimum));
  if (granularity == 0 || (granularity & (granularity - 1)) != 0)
    fail(ISHMEM_ERR_BACKEND, ISHMEMI_VMM_PREFIX "MemGetAllocationGranularity gave %zu bytes",
         granularity);

  char bus[32] = {0};
  ISHMEMI_GPU(DeviceGetPCIBusId, (bus, sizeof bus, device));
  CpuPlacement cpus = place_near_pci(bus, options.bind);
  return std::make_unique<VmmBackend>(drv, device, prop, granularity, bus, std::move(cpus));
}

}  // namespace

std::unique_ptr<Backend> make_gpu_backend(const GpuOptions &options, std::string &why) {
  // Never throws: every PE must reach the runtime's agreement on the backend.
  try {
    return open_gpu(options);
  } catch (const Error &e) {
    why = without_prefix(e.what());  // the runtime prefixes the reason with the PE itself
  } catch (const std::exception &e) {
    why = std::string(vendor::kLabel) + " backend: " + e.what();
  }
  (void)gpuGetLastError();  // leave no sticky error behind for the application
  return nullptr;
}

}  // namespace ishmem::detail
