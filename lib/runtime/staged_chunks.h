// The data of the served off-node path (runtime/served_off_node.h): a transfer moves as MPI
// messages of at most one chunk, two in flight, so that copying one chunk overlaps sending the
// other. On a GPU heap every chunk is staged through one of two pinned host buffers (MPI is
// given host memory only); on a host heap it goes straight from and to the heap.
#pragma once

#include "ishmem.h"  // brings in mpi.h without the C++ bindings

#include <cstddef>
#include <functional>

namespace ishmem::detail {

class Backend;
class GpuBackend;

class StagedChunks {
 public:
  static constexpr std::size_t kChunk = std::size_t{1} << 20;
  // Waits for `n` requests to complete (the caller's deadline and what it serves meanwhile).
  using Wait = std::function<void(MPI_Request *reqs, int n)>;

  // `gpu` is the heap's GPU backend, or nullptr for a host heap (no staging). Pins its
  // buffers at once: the service thread never allocates.
  StagedChunks(Backend &backend, GpuBackend *gpu);
  ~StagedChunks();
  StagedChunks(const StagedChunks &) = delete;
  StagedChunks &operator=(const StagedChunks &) = delete;

  // Sends `bytes` from `src` to `peer`; returns when `src` may be reused.
  void send(MPI_Comm comm, int peer, int tag, const char *src, std::size_t bytes, const Wait &wait);
  // Receives `bytes` from `peer` into `dst` (sent by send() with the same size and tag).
  void recv(MPI_Comm comm, int peer, int tag, char *dst, std::size_t bytes, const Wait &wait);

 private:
  void release() noexcept;

  Backend &backend_;
  GpuBackend *gpu_;
  char *pinned_[2] = {nullptr, nullptr};  // host memory the GPU copies to and from directly
};

}  // namespace ishmem::detail
