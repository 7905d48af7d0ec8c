// The symmetric heap's memory: one reserved virtual window of n_local slots of `stride` bytes,
// slot j holding node-local PE j's heap. Physical memory is committed in chunks on demand:
// every PE creates its chunk, exports it as an fd, sends it to every local peer, and maps the
// peers' chunks into their slots. Offsets are managed by the Allocator; this class only
// commits and releases memory.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "backend/backend.h"
#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/peer_mesh.h"

namespace ishmem::detail {

class SymmetricHeap {
 public:
  // Largest single chunk, unless a growth would then need more than kMaxFdsPerMessage chunks:
  // then its chunks are larger, since all fds of one growth step travel in one message.
  static constexpr std::size_t kMaxChunkBytes = std::size_t{1} << 30;

  // Reserves the window. `capacity` is rounded up to the backend's granularity.
  SymmetricHeap(Backend &backend, PeerMesh &mesh, const MpiBootstrap &boot, std::size_t capacity,
                std::size_t min_growth);
  ~SymmetricHeap();
  SymmetricHeap(const SymmetricHeap &) = delete;
  SymmetricHeap &operator=(const SymmetricHeap &) = delete;

  char *window() const { return window_; }
  std::size_t stride() const { return stride_; }
  // Every slot starts at a multiple of this (the largest power of two dividing the stride), so
  // an offset aligned to it or less gives an equally aligned address on every PE.
  std::size_t base_alignment() const { return base_align_; }
  char *local_base() const { return window_ + stride_ * static_cast<std::size_t>(my_slot_); }
  std::size_t committed() const { return committed_; }
  std::size_t chunk_count() const { return chunks_.size(); }
  Backend &backend() const { return backend_; }

  // Collective over the node: commits memory so that [0, bytes) is backed on every local PE.
  // On failure every local PE throws and the heap is as before.
  void commit(std::size_t bytes);
  // Releases every chunk that lies entirely at or past `bytes` (deterministic, no messages).
  // A failing on_local_chunk(false) is logged and the chunk released anyway.
  void trim(std::size_t bytes);

  // Told of each local chunk mapped (true) or about to be unmapped (false); used to attach
  // memory to the off-node MPI window.
  std::function<void(char *addr, std::size_t bytes, bool mapped)> on_local_chunk;

 private:
  struct Chunk {
    std::size_t offset;
    std::size_t bytes;
  };
  // Unmaps `chunk` from every slot marked in `slots`; tries them all, then throws the first error.
  void unmap_chunk(const Chunk &chunk, const std::vector<bool> &slots);
  // Undoes a failed commit step: detaches the chunks that were attached, unmaps what was mapped.
  // Never throws; errors are logged.
  void rollback(const std::vector<Chunk> &step, const std::vector<std::vector<bool>> &mapped,
                const std::vector<bool> &attached);

  Backend &backend_;
  PeerMesh &mesh_;
  const MpiBootstrap &boot_;
  int my_slot_;
  int n_slots_;
  std::size_t stride_;
  std::size_t min_growth_;
  std::size_t base_align_;
  char *reservation_ = nullptr;  // what the backend reserved: the window and room to align it
  std::size_t reserved_bytes_ = 0;
  char *window_ = nullptr;
  std::size_t committed_ = 0;
  std::uint64_t exchange_tag_ = 0;
  std::vector<Chunk> chunks_;
};

}  // namespace ishmem::detail
