// The symmetric heap's memory: one reserved virtual window of n_local slots of `stride` bytes,
// slot j holding node-local PE j's heap. Physical memory is committed in chunks on demand:
// every PE creates its chunk, exports it as an fd, sends it to every local peer, and maps the
// peers' chunks into their slots. With PEs on other nodes, each PE also attaches its own chunks
// to the off-node transport's MPI window. Offsets are managed by the Allocator; this class only
// commits and releases memory. The control segment and the GPU barrier page are such windows
// too, without a transport.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "backend/backend.h"
#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/peer_mesh.h"
#include "common/error.h"
#include "transport/mpi_transport.h"

namespace ishmem::detail {

class SymmetricHeap {
 public:
  // Largest single chunk, unless a growth would then need more than kMaxFdsPerMessage chunks:
  // then its chunks are larger, since all fds of one growth step travel in one message.
  static constexpr std::size_t kMaxChunkBytes = std::size_t{1} << 30;

  // Reserves the window. `capacity` is rounded up to the backend's granularity, and the stride
  // to a multiple of `slot_unit` (0: the granularity), a power of two and a multiple of the
  // granularity.
  SymmetricHeap(Backend &backend, PeerMesh &mesh, const MpiBootstrap &boot, std::size_t capacity,
                std::size_t min_growth, std::size_t slot_unit = 0);
  ~SymmetricHeap();
  SymmetricHeap(const SymmetricHeap &) = delete;
  SymmetricHeap &operator=(const SymmetricHeap &) = delete;

  char *window() const { return window_; }
  // The most this PE's heap may hold; slots may be further apart (stride >= capacity).
  std::size_t capacity() const { return capacity_; }
  std::size_t stride() const { return stride_; }
  // Every slot starts at a multiple of this (the largest power of two dividing the capacity,
  // which divides the stride's), so an offset aligned to it or less gives an equally aligned
  // address on every PE.
  std::size_t base_alignment() const { return base_align_; }
  char *local_base() const { return window_ + stride_ * static_cast<std::size_t>(my_slot_); }
  std::size_t committed() const { return committed_; }
  std::size_t chunk_count() const { return chunks_.size(); }
  Backend &backend() const { return backend_; }

  // From now on every local chunk is attached to `transport`'s MPI window once mapped, and
  // detached before it is unmapped. Only while nothing is committed; nullptr stops it.
  void set_transport(MpiTransport *transport);

  // Collective over every PE: commits memory so that [0, bytes) is backed on every local PE.
  // The node's PEs agree on the outcome of the exchange, then, with PEs on other nodes, the
  // world does. On failure every PE throws and the heap is as before.
  void commit(std::size_t bytes);
  // Releases every chunk that lies entirely at or past `bytes` (deterministic, no messages).
  // A failing detach is logged and the chunk released anyway. The caller makes sure that no
  // device work still touches them (Heap::release_past).
  void trim(std::size_t bytes);
  // Whether trim(bytes) would release a chunk.
  bool has_chunks_past(std::size_t bytes) const {
    return !chunks_.empty() && chunks_.back().offset >= bytes;
  }

 private:
  struct Chunk {
    std::size_t offset;
    std::size_t bytes;
  };
  // What a growth step has done on this PE so far, so that a failed one is undone exactly.
  struct StepProgress {
    std::vector<std::vector<bool>> mapped;  // by chunk and slot
    std::vector<bool> attached;             // by chunk: attached to the transport
  };
  // This PE's part of a growth step: creates, exchanges, maps and attaches `step`'s chunks,
  // recording what it did in `done`. Goes through the exchange even after a local failure;
  // throws the first error at the end.
  // `head` is the first chunk (sent even when `step` could not be listed); `first` holds a
  // `before` holds a, which this PE then reports to its peers.
  void map_step(const Chunk &head, const std::vector<Chunk> &step, StepProgress &done,
                const FirstError &before);
  // The mapping part of map_step: imports the peers' fds, maps every slot and attaches.
  void map_chunks(const std::vector<Chunk> &step, std::vector<std::optional<ChunkHandle>> &own,
                  const std::vector<std::vector<UniqueFd>> &received, StepProgress &done);
  // Unmaps `chunk` from every slot marked in `slots`; tries them all, then throws the first error.
  void unmap_chunk(const Chunk &chunk, const std::vector<bool> &slots);
  // Undoes a failed step: detaches the chunks that were attached, unmaps what was mapped.
  // Never throws; errors are logged.
  void rollback(const std::vector<Chunk> &step, const StepProgress &done);

  Backend &backend_;
  PeerMesh &mesh_;
  const MpiBootstrap &boot_;
  int my_slot_;
  int n_slots_;
  std::size_t capacity_;
  std::size_t stride_;
  std::size_t min_growth_;
  std::size_t base_align_;
  char *reservation_ = nullptr;  // what the backend reserved: the window and room to align it
  std::size_t reserved_bytes_ = 0;
  char *window_ = nullptr;
  std::size_t committed_ = 0;
  std::uint64_t exchange_tag_ = 0;
  std::vector<Chunk> chunks_;
  MpiTransport *transport_ = nullptr;  // the off-node MPI window, if any
};

}  // namespace ishmem::detail
