// Host backend: chunks are memfds, mapped MAP_SHARED|MAP_FIXED into a PROT_NONE reservation.
#include <sys/mman.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>

#include "backend/backend.h"
#include "common/error.h"

namespace ishmem::detail {
namespace {

// The lowest memory.max of this process's cgroup (v2) and its ancestors, 0 if none is set or
// it cannot be read: the limit is for a warning, and a machine without cgroup v2 has none.
std::size_t cgroup_memory_max() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(self, line))
    if (line.rfind("0::", 0) == 0) path = line.substr(3);
  if (path.empty() || path[0] != '/') return 0;
  std::size_t lowest = 0;
  for (;;) {
    std::ifstream max_file("/sys/fs/cgroup" + path + "/memory.max");
    unsigned long long bytes = 0;
    if (max_file >> bytes && (lowest == 0 || bytes < lowest)) lowest = bytes;  // "max": no limit
    if (path == "/") return lowest;
    const std::size_t slash = path.find_last_of('/');
    path = slash == 0 ? "/" : path.substr(0, slash);
  }
}

class HostBackend final : public Backend {
 public:
  const char *name() const override { return "host"; }
  std::size_t granularity() const override {
    return static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  }
  bool host_accessible() const override { return true; }

  void *reserve(std::size_t bytes) override {
    void *p = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) fail_errno("mmap (reserve address space)", __FILE__, __LINE__);
    return p;
  }

  void unreserve(void *base, std::size_t bytes) override { ISHMEMI_CHECK_SYS(munmap(base, bytes)); }

  ChunkHandle create(std::size_t bytes) override {
    int fd = ISHMEMI_CHECK_SYS(memfd_create("ishmem-heap", MFD_CLOEXEC));
    if (retry_eintr([&] { return ftruncate(fd, static_cast<off_t>(bytes)); }) < 0) {
      int err = errno;
      close(fd);
      errno = err;
      fail_errno("ftruncate (size heap chunk)", __FILE__, __LINE__);
    }
    return static_cast<ChunkHandle>(fd);
  }

  int export_fd(ChunkHandle handle) override {
    return ISHMEMI_CHECK_SYS(fcntl(static_cast<int>(handle), F_DUPFD_CLOEXEC, 0));
  }

  ChunkHandle import_fd(int fd, std::size_t bytes) override {
    struct stat st;
    ISHMEMI_CHECK_SYS(fstat(fd, &st));
    if (static_cast<std::size_t>(st.st_size) < bytes)
      fail(ISHMEM_ERR_SYSTEM, "received heap chunk has %lld bytes, expected %zu",
           static_cast<long long>(st.st_size), bytes);
    return static_cast<ChunkHandle>(ISHMEMI_CHECK_SYS(fcntl(fd, F_DUPFD_CLOEXEC, 0)));
  }

  void map(void *addr, std::size_t bytes, ChunkHandle handle) override {
    void *p = mmap(addr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                   static_cast<int>(handle), 0);
    if (p == MAP_FAILED) fail_errno("mmap (map heap chunk)", __FILE__, __LINE__);
  }

  void unmap(void *addr, std::size_t bytes) override {
    // Mapping PROT_NONE over the chunk drops it and keeps the range reserved in one step.
    void *p = mmap(addr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
                   -1, 0);
    if (p == MAP_FAILED) fail_errno("mmap (unmap heap chunk)", __FILE__, __LINE__);
  }

  void release(ChunkHandle handle) override { close(static_cast<int>(handle)); }

  void copy(void *dst, const void *src, std::size_t bytes) override { memcpy(dst, src, bytes); }

  void quiesce() override {}  // every access to host memory is a synchronous CPU one

  MemorySource memory_source() const override {
    MemorySource source{0, "physical memory and swap", "host"};
    struct sysinfo info {};
    if (sysinfo(&info) == 0)
      source.bytes = (static_cast<std::size_t>(info.totalram) + info.totalswap) * info.mem_unit;
    const std::size_t cgroup = cgroup_memory_max();
    if (cgroup && (source.bytes == 0 || cgroup < source.bytes)) {
      source.bytes = cgroup;
      source.what = "the cgroup's memory.max";
    }
    return source;
  }

  std::string placement() const override { return "cpu"; }
};

}  // namespace

std::unique_ptr<Backend> make_host_backend() {
  return std::make_unique<HostBackend>();
}

}  // namespace ishmem::detail
