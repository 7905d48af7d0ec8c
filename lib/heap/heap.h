// The symmetric heap's one owner: the collective calls ishmem_malloc, ishmem_align,
// ishmem_calloc, ishmem_realloc, ishmem_free and ishmemx_heap_trim run here from start to
// end. Each first checks that every PE made the same call (CollectiveCheck, over the control
// segment), then takes an offset from the Allocator, which is deterministic, so every PE gets
// the same one, and grows the window (SymmetricHeap) when the block lies past its committed
// memory. With PEs on other nodes it also owns the MPI window (MpiTransport) to which the
// window attaches its chunks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "backend/backend.h"
#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/peer_mesh.h"
#include "common/config.h"
#include "heap/allocator.h"
#include "heap/collective_check.h"
#include "heap/control_segment.h"
#include "heap/symmetric_heap.h"
#include "transport/mpi_transport.h"

namespace ishmem::detail {

class Heap {
 public:
  // Collective over every PE (a part of ishmem_init): sets up the control segment, reserves
  // the heap (ISHMEM_SYMMETRIC_SIZE, grown by ISHMEM_CHUNK_SIZE at least) and, with PEs on
  // other nodes, creates the MPI window. On failure every PE throws.
  Heap(std::unique_ptr<Backend> backend, PeerMesh &mesh, const MpiBootstrap &boot,
       const Config &config);
  Heap(const Heap &) = delete;
  Heap &operator=(const Heap &) = delete;

  // The collective calls, each with its API's arguments and results; they throw Error.
  void *malloc(std::size_t size);
  void *align(std::size_t alignment, std::size_t size);
  void *calloc(std::size_t count, std::size_t size);
  void *realloc(void *ptr, std::size_t size);
  void free(void *ptr);
  // Returns the committed memory past the last used block (ishmemx_heap_trim).
  void trim();

  // Unmaps every chunk, detaching it from the MPI window (which still exists) first; throws the
  // first error. The destructor does the same, logging errors instead.
  void unmap_all() { window_->trim(0); }

  char *window() const { return window_->window(); }
  std::size_t stride() const { return window_->stride(); }
  char *local_base() const { return window_->local_base(); }
  std::size_t committed() const { return window_->committed(); }
  // The live blocks (ISHMEM_DEBUG=1 checks against them). Changed only by the calls above.
  const Allocator &allocator() const { return *allocator_; }
  Backend &backend() const { return *backend_; }
  // The off-node transport; nullptr when every PE is on this node.
  MpiTransport *transport() const { return transport_.get(); }
  ControlSegment &control() const { return *control_; }

 private:
  // Completes this PE's RMA and checks that every PE makes this call (CollectiveCheck).
  void check_call(CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1);
  void *aligned_malloc(std::size_t size, std::size_t align, const char *fn, CollectiveOp op);
  // Takes a block of `size` bytes (aligned to `align`) and backs it on every PE; its offset.
  std::size_t allocate(std::size_t size, std::size_t align, const char *fn);
  // The offset of `ptr` as the PEs compare it: kNoOffset for NULL, an impossible offset
  // outside the heap.
  std::uint64_t offset_of(const void *ptr) const;
  // The size of the block at `off`; throws ISHMEM_ERR_NOT_SYMMETRIC unless one starts there.
  std::size_t checked_block(std::uint64_t off, const void *ptr, const char *fn) const;
  // Frees the block at `off`, then returns memory past ISHMEM_TRIM_THRESHOLD at the tail.
  void release_block(std::size_t off);
  void zero_local(char *dest, std::size_t bytes);
  // Runs a local step that follows an agreed allocation (zeroing, copying) and agrees on its
  // outcome, so that a failure on one PE (a GPU copy, say) fails every PE; also a barrier.
  template <class Fill>
  void agreed_fill(const char *fn, Fill &&fill);

  // Declared in the order they go: the window (and its chunks) before the MPI window they are
  // attached to, everything before the backend that holds their memory.
  std::unique_ptr<Backend> backend_;
  const MpiBootstrap &boot_;
  std::size_t trim_threshold_;
  std::unique_ptr<ControlSegment> control_;
  std::unique_ptr<CollectiveCheck> check_;
  std::unique_ptr<MpiTransport> transport_;  // only with PEs on other nodes
  std::unique_ptr<SymmetricHeap> window_;
  std::unique_ptr<Allocator> allocator_;
};

}  // namespace ishmem::detail
