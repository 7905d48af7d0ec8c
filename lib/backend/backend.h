// The memory-provider interface: the only place that touches memfd/mmap, hipMem* or cuMem*.
// A backend hands out physical chunks, exports them as file descriptors, imports peers' fds
// and maps chunks into a reserved virtual range. All failures throw ishmem::detail::Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace ishmem::detail {

// The memory a backend's chunks come from: its size in bytes (0 if unknown), what it is (for
// messages) and a key that is equal for PEs whose chunks come from the same memory.
struct MemorySource {
  std::size_t bytes = 0;
  std::string what;
  std::string key;
};

// Opaque handle to one physical chunk (a memfd for host, a generic allocation handle for GPUs).
using ChunkHandle = std::uint64_t;

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char *name() const = 0;
  // Chunk sizes and mapping offsets must be multiples of this.
  virtual std::size_t granularity() const = 0;
  // True if the CPU may load/store mapped memory (host); GPU heaps use copy() instead.
  virtual bool host_accessible() const = 0;
  // Reserves (does not commit) `bytes` of virtual address space, aligned to granularity().
  virtual void *reserve(std::size_t bytes) = 0;
  virtual void unreserve(void *base, std::size_t bytes) = 0;
  // Creates a physical chunk of `bytes` (a multiple of granularity()).
  virtual ChunkHandle create(std::size_t bytes) = 0;
  // Returns a new fd that a peer can import; the caller owns and closes it.
  virtual int export_fd(ChunkHandle handle) = 0;
  // Imports a peer's chunk from `fd`; the fd stays owned by the caller.
  virtual ChunkHandle import_fd(int fd, std::size_t bytes) = 0;
  // Maps `handle` at `addr` (inside a reservation) and makes it readable and writable.
  virtual void map(void *addr, std::size_t bytes, ChunkHandle handle) = 0;
  // Unmaps; the range stays reserved.
  virtual void unmap(void *addr, std::size_t bytes) = 0;
  // Drops the handle; memory lives on while it is mapped.
  virtual void release(ChunkHandle handle) = 0;
  // Copies between any two addresses the backend maps (or host memory); blocking.
  virtual void copy(void *dst, const void *src, std::size_t bytes) = 0;
  // Returns once all device work this process queued so far (kernels and copies, on every
  // stream) has completed, so that memory about to be unmapped is no longer touched; throws
  // ISHMEM_ERR_BACKEND naming the call when the device reports an error (a kernel's fault
  // included). A no-op where nothing runs asynchronously (host).
  virtual void quiesce() = 0;
  // The most memory its chunks can ever take (MemorySource), which init compares with the heap's
  // size: for host memory the smaller of physical memory plus swap and the cgroup's memory.max;
  // for a GPU the device's memory.
  virtual MemorySource memory_source() const = 0;
  // Human-readable placement ("cpu", "GPU 0 (bus 0000:1a:00.0)") for ishmem-info and logs.
  virtual std::string placement() const = 0;
};

// What the GPU backend is told by the runtime (from its config and the node's layout); a
// backend never reads the environment itself.
struct GpuOptions {
  int local_rank = 0;  // rank on this machine: picks the device when `device` is -1
  long device = -1;    // ISHMEM_DEVICE: ordinal among the visible devices, -1 = by local rank
  bool bind = true;    // ISHMEM_BIND: bind this PE's threads to the cores nearest its GPU
};

std::unique_ptr<Backend> make_host_backend();
// Returns nullptr when the GPU backend is not compiled in or no GPU/driver is usable;
// `why` then says why (for the log and ishmem-info).
std::unique_ptr<Backend> make_gpu_backend(const GpuOptions &options, std::string &why);

}  // namespace ishmem::detail
