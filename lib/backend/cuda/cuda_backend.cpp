// CUDA backend: chunks are cuMemCreate allocations exportable as POSIX fds, mapped with
// cuMemMap into a cuMemAddressReserve window. The driver API is reached at run time through
// the runtime's entry-point query, so the library never links libcuda: on a machine without
// a driver, make_gpu_backend says why and the runtime takes the host backend.
// lib/backend/hip/hip_backend.cpp is the twin of this file; keep their structure the same.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>

#include "backend/gpu/gpu_backend.h"
#include "common/config.h"
#include "common/error.h"
#include "backend/gpu/placement.h"

namespace ishmem::detail {
namespace {

// The driver calls this backend makes, resolved once.
struct Driver {
  decltype(&cuGetErrorString) GetErrorString = nullptr;
  decltype(&cuDeviceGet) DeviceGet = nullptr;
  decltype(&cuDeviceGetAttribute) DeviceGetAttribute = nullptr;
  decltype(&cuMemGetAllocationGranularity) MemGetAllocationGranularity = nullptr;
  decltype(&cuMemAddressReserve) MemAddressReserve = nullptr;
  decltype(&cuMemAddressFree) MemAddressFree = nullptr;
  decltype(&cuMemCreate) MemCreate = nullptr;
  decltype(&cuMemExportToShareableHandle) MemExportToShareableHandle = nullptr;
  decltype(&cuMemImportFromShareableHandle) MemImportFromShareableHandle = nullptr;
  decltype(&cuMemMap) MemMap = nullptr;
  decltype(&cuMemSetAccess) MemSetAccess = nullptr;
  decltype(&cuMemUnmap) MemUnmap = nullptr;
  decltype(&cuMemRelease) MemRelease = nullptr;
};

// Resolves `symbol` into `fn`; returns an empty string or why it failed.
template <class F>
std::string resolve(const char *symbol, F &fn) {
  void *ptr = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
  cudaError_t rc =
      cudaGetDriverEntryPointByVersion(symbol, &ptr, CUDA_VERSION, cudaEnableDefault, &found);
#else
  cudaError_t rc = cudaGetDriverEntryPoint(symbol, &ptr, cudaEnableDefault, &found);
#endif
  if (rc != cudaSuccess)
    return std::string("cudaGetDriverEntryPoint(") + symbol + "): " + cudaGetErrorString(rc);
  if (found != cudaDriverEntryPointSuccess || !ptr)
    return std::string("the CUDA driver has no ") + symbol;
  fn = reinterpret_cast<F>(ptr);
  return {};
}

std::string load_driver(Driver &d) {
  std::string why;
#define ISHMEMI_RESOLVE(name) \
  if (why.empty()) why = resolve("cu" #name, d.name);
  ISHMEMI_RESOLVE(GetErrorString)
  ISHMEMI_RESOLVE(DeviceGet)
  ISHMEMI_RESOLVE(DeviceGetAttribute)
  ISHMEMI_RESOLVE(MemGetAllocationGranularity)
  ISHMEMI_RESOLVE(MemAddressReserve)
  ISHMEMI_RESOLVE(MemAddressFree)
  ISHMEMI_RESOLVE(MemCreate)
  ISHMEMI_RESOLVE(MemExportToShareableHandle)
  ISHMEMI_RESOLVE(MemImportFromShareableHandle)
  ISHMEMI_RESOLVE(MemMap)
  ISHMEMI_RESOLVE(MemSetAccess)
  ISHMEMI_RESOLVE(MemUnmap)
  ISHMEMI_RESOLVE(MemRelease)
#undef ISHMEMI_RESOLVE
  return why;
}

// Text for a driver or runtime status.
std::string driver_text(const Driver &d, CUresult rc) {
  const char *text = nullptr;
  if (d.GetErrorString) d.GetErrorString(rc, &text);
  char buf[160];
  snprintf(buf, sizeof buf, "%s (CUresult %d)", text ? text : "unknown error",
           static_cast<int>(rc));
  return buf;
}

[[noreturn]] void fail_cu(const Driver &d, CUresult rc, const char *call, const char *file,
                          int line) {
  fail(ISHMEM_ERR_BACKEND, "%s failed: %s at %s:%d", call, driver_text(d, rc).c_str(), file, line);
}

[[noreturn]] void fail_cudart(cudaError_t rc, const char *call, const char *file, int line) {
  fail(ISHMEM_ERR_BACKEND, "%s failed: %s (%s) at %s:%d", call, cudaGetErrorString(rc),
       cudaGetErrorName(rc), file, line);
}

#define ISHMEMI_CU(call)                                            \
  do {                                                              \
    CUresult ishmemi_cu_rc = (drv_.call);                           \
    if (ishmemi_cu_rc != CUDA_SUCCESS)                              \
      fail_cu(drv_, ishmemi_cu_rc, "cu" #call, __FILE__, __LINE__); \
  } while (0)

#define ISHMEMI_CUDART(call)                                                                 \
  do {                                                                                       \
    cudaError_t ishmemi_rt_rc = (call);                                                      \
    if (ishmemi_rt_rc != cudaSuccess) fail_cudart(ishmemi_rt_rc, #call, __FILE__, __LINE__); \
  } while (0)

CUmemGenericAllocationHandle to_cu(ChunkHandle h) {
  return static_cast<CUmemGenericAllocationHandle>(h);
}
CUdeviceptr to_dptr(void *p) {
  return static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(p));
}

class CudaBackend final : public GpuBackend {
 public:
  CudaBackend(const Driver &drv, int device, CUdevice cu_device, std::size_t granularity,
              std::string bus_id, CpuPlacement cpus)
      : drv_(drv),
        device_(device),
        granularity_(granularity),
        bus_id_(std::move(bus_id)),
        cpus_(std::move(cpus)) {
    prop_.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop_.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    prop_.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop_.location.id = cu_device;
    access_.location = prop_.location;
    access_.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    ISHMEMI_CUDART(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~CudaBackend() override {
    if (stream_) cudaStreamDestroy(stream_);
  }

  const char *name() const override { return "cuda"; }
  std::size_t granularity() const override { return granularity_; }
  bool host_accessible() const override { return false; }

  void *reserve(std::size_t bytes) override {
    CUdeviceptr base = 0;
    ISHMEMI_CU(MemAddressReserve(&base, bytes, granularity_, 0, 0));
    return reinterpret_cast<void *>(static_cast<std::uintptr_t>(base));
  }

  void unreserve(void *base, std::size_t bytes) override {
    ISHMEMI_CU(MemAddressFree(to_dptr(base), bytes));
  }

  ChunkHandle create(std::size_t bytes) override {
    CUmemGenericAllocationHandle handle = 0;
    ISHMEMI_CU(MemCreate(&handle, bytes, &prop_, 0));
    return static_cast<ChunkHandle>(handle);
  }

  int export_fd(ChunkHandle handle) override {
    int fd = -1;
    ISHMEMI_CU(MemExportToShareableHandle(&fd, to_cu(handle),
                                          CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    return fd;
  }

  ChunkHandle import_fd(int fd, std::size_t) override {
    CUmemGenericAllocationHandle handle = 0;
    // The driver reads the fd and keeps its own reference; the caller still owns `fd`.
    ISHMEMI_CU(MemImportFromShareableHandle(
        &handle, reinterpret_cast<void *>(static_cast<std::uintptr_t>(fd)),
        CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    return static_cast<ChunkHandle>(handle);
  }

  void map(void *addr, std::size_t bytes, ChunkHandle handle) override {
    ISHMEMI_CU(MemMap(to_dptr(addr), bytes, 0, to_cu(handle), 0));
    CUresult rc = drv_.MemSetAccess(to_dptr(addr), bytes, &access_, 1);
    if (rc != CUDA_SUCCESS) {
      drv_.MemUnmap(to_dptr(addr), bytes);  // undo the map; the caller releases the handle
      fail_cu(drv_, rc, "cuMemSetAccess", __FILE__, __LINE__);
    }
  }

  void unmap(void *addr, std::size_t bytes) override { ISHMEMI_CU(MemUnmap(to_dptr(addr), bytes)); }

  void release(ChunkHandle handle) override {
    // Called on error paths too: report, never throw over the first error.
    CUresult rc = drv_.MemRelease(to_cu(handle));
    if (rc != CUDA_SUCCESS)
      log(LogLevel::error, "cuMemRelease failed: %s", driver_text(drv_, rc).c_str());
  }

  void copy(void *dst, const void *src, std::size_t bytes) override {
    // A private non-blocking stream: host RMA never waits for the user's kernels.
    ISHMEMI_CUDART(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream_));
    ISHMEMI_CUDART(cudaStreamSynchronize(stream_));
  }

  std::string placement() const override {
    std::string text = "GPU " + std::to_string(device_) + " (" + bus_id_ + "), cpus " + cpus_.cpus;
    if (!cpus_.bound) text += " (not bound: " + cpus_.note + ")";
    return text;
  }

  int device() const override { return device_; }
  const std::string &bus_id() const override { return bus_id_; }

  void copy_async(void *dst, const void *src, std::size_t bytes, void *stream) override {
    ISHMEMI_CUDART(
        cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, static_cast<cudaStream_t>(stream)));
  }

  void host_call(void *stream, void (*fn)(void *), void *arg) override {
    ISHMEMI_CUDART(cudaLaunchHostFunc(static_cast<cudaStream_t>(stream), fn, arg));
  }

  void *device_alloc(std::size_t bytes) override {
    void *ptr = nullptr;
    ISHMEMI_CUDART(cudaMalloc(&ptr, bytes));
    return ptr;
  }

  void device_free(void *ptr) noexcept override {
    if (ptr) cudaFree(ptr);
  }

  void *register_host(void *ptr, std::size_t bytes) override {
    ISHMEMI_CUDART(cudaHostRegister(ptr, bytes, cudaHostRegisterPortable | cudaHostRegisterMapped));
    void *device_ptr = nullptr;
    cudaError_t rc = cudaHostGetDevicePointer(&device_ptr, ptr, 0);
    if (rc != cudaSuccess) {
      cudaHostUnregister(ptr);
      fail_cudart(rc, "cudaHostGetDevicePointer", __FILE__, __LINE__);
    }
    return device_ptr;
  }

  void unregister_host(void *ptr) noexcept override {
    if (ptr) cudaHostUnregister(ptr);
  }

 private:
  Driver drv_;
  int device_;
  std::size_t granularity_;
  std::string bus_id_;
  CpuPlacement cpus_;
  CUmemAllocationProp prop_{};
  CUmemAccessDesc access_{};
  cudaStream_t stream_ = nullptr;
};

// Everything make_gpu_backend checks, in order; throws Error with the reason.
std::unique_ptr<Backend> open_cuda(int local_rank) {
  int count = 0;
  cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess)
    fail(ISHMEM_ERR_UNSUPPORTED, "no usable CUDA device: cudaGetDeviceCount: %s",
         cudaGetErrorString(rc));
  if (count <= 0) fail(ISHMEM_ERR_UNSUPPORTED, "no CUDA device is visible");

  const Config config = load_config();
  int device = local_rank % count;  // several PEs may share one GPU
  if (config.device >= 0) {
    if (config.device >= count)
      fail(ISHMEM_ERR_CONFIG, "ISHMEM_DEVICE=%ld but only %d CUDA devices are visible",
           config.device, count);
    device = static_cast<int>(config.device);
  }
  ISHMEMI_CUDART(cudaSetDevice(device));
  ISHMEMI_CUDART(cudaFree(nullptr));  // creates the primary context now, not in a kernel launch

  Driver drv_;  // named like CudaBackend's member, for ISHMEMI_CU
  std::string why = load_driver(drv_);
  if (!why.empty()) fail(ISHMEM_ERR_UNSUPPORTED, "%s", why.c_str());
  CUdevice cu_device = 0;
  ISHMEMI_CU(DeviceGet(&cu_device, device));
  int vmm = 0, posix_fd = 0;
  ISHMEMI_CU(
      DeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, cu_device));
  ISHMEMI_CU(DeviceGetAttribute(
      &posix_fd, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, cu_device));
  if (!vmm) fail(ISHMEM_ERR_UNSUPPORTED, "CUDA device %d has no virtual memory management", device);
  if (!posix_fd)
    fail(ISHMEM_ERR_UNSUPPORTED, "CUDA device %d cannot export memory as POSIX fds", device);

  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = cu_device;
  std::size_t granularity = 0;
  ISHMEMI_CU(MemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  if (granularity == 0 || (granularity & (granularity - 1)) != 0)
    fail(ISHMEM_ERR_BACKEND, "cuMemGetAllocationGranularity gave %zu bytes", granularity);

  char bus[32] = {0};
  ISHMEMI_CUDART(cudaDeviceGetPCIBusId(bus, sizeof bus, device));
  CpuPlacement cpus = place_near_pci(bus, config.bind != "none");
  return std::make_unique<CudaBackend>(drv_, device, cu_device, granularity, bus, std::move(cpus));
}

}  // namespace

std::unique_ptr<Backend> make_gpu_backend(int local_rank, int, std::string &why) {
  // Never throws: every PE must reach the runtime's agreement on the backend.
  try {
    return open_cuda(local_rank);
  } catch (const Error &e) {
    why = e.what();
    // The runtime prefixes the reason with the PE itself.
    if (why.compare(0, 8, "[ishmem ") == 0 && why.find("] ") != std::string::npos)
      why.erase(0, why.find("] ") + 2);
  } catch (const std::exception &e) {
    why = std::string("CUDA backend: ") + e.what();
  }
  cudaGetLastError();  // leave no sticky error behind for the application
  return nullptr;
}

}  // namespace ishmem::detail
