// Host backend: chunks are memfds, mapped MAP_SHARED|MAP_FIXED into a PROT_NONE reservation.
#include <sys/mman.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "backend/backend.h"
#include "common/error.h"

namespace ishmem::detail {
namespace {

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

  std::string placement() const override { return "cpu"; }
};

}  // namespace

std::unique_ptr<Backend> make_host_backend() {
  return std::make_unique<HostBackend>();
}

}  // namespace ishmem::detail
