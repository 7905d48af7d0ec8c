// The symmetric heap's one owner: the collective calls ishmem_malloc, ishmem_align,
// ishmem_calloc, ishmem_realloc, ishmem_free and ishmemx_heap_trim run here from start to
// end. Each first checks that every PE made the same call (CollectiveCheck, over the control
// segment), then takes an offset from the Allocator, which is deterministic, so every PE gets
// the same one, and grows the window (SymmetricHeap) when the block lies past its committed
// memory. With PEs on other nodes it also owns the MPI window (MpiTransport) to which the
// window attaches its chunks. Freed memory stays committed for reuse; the trim policy
// (after_call) decides, the same way on every PE, when unused memory at the tail goes back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

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
  // other nodes, creates the MPI window unless they are served. On failure every PE throws.
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
  // Collective, once, before any other allocation (ishmem_init's team areas): `bytes` of
  // zeroed memory at the heap's start for the library's own use. The user's heap begins past
  // it: the fast path's layout (runtime.cpp) starts at user_base() and spans user_committed(),
  // so the range check of every RMA, atomic, signal and wait call refuses this memory as it
  // refuses any address outside the heap, and free and realloc refuse it too.
  char *library_area(std::size_t bytes);

  // Unmaps every chunk, detaching it from the MPI window (which still exists) first; throws the
  // first error. The destructor does the same, logging errors instead. Only after every PE's
  // device work has completed (runtime_finalize quiesces before its last barrier).
  void unmap_all() { window_->trim(0); }

  char *window() const { return window_->window(); }
  std::size_t stride() const { return window_->stride(); }
  std::size_t capacity() const { return window_->capacity(); }
  char *local_base() const { return window_->local_base(); }
  std::size_t committed() const { return window_->committed(); }
  // The user's heap: offsets from user_offset() on (0 without a library area).
  std::size_t user_offset() const { return user_offset_; }
  char *user_base() const { return local_base() + user_offset_; }
  char *user_window() const { return window() + user_offset_; }
  std::size_t user_committed() const { return committed() - user_offset_; }
  // The live blocks (ISHMEM_DEBUG=1 checks against them). Changed only by the calls above.
  const Allocator &allocator() const { return *allocator_; }
  Backend &backend() const { return *backend_; }
  // The off-node window; nullptr when every PE is on this node or off-node PEs are served.
  MpiTransport *transport() const { return transport_.get(); }
  // Why off-node PEs are served (for the log line of runtime/served_off_node.cpp), and
  // whether it is because MPI refused the window that ISHMEM_OFF_NODE=auto asked for.
  const std::string &served_reason() const { return served_reason_; }
  bool window_refused() const { return window_refused_; }
  // The collective-call check, whose sync() is the barrier of every PE.
  CollectiveCheck &collectives() const { return *check_; }

 private:
  // Completes this PE's RMA and checks that every PE makes this call (CollectiveCheck).
  void check_call(CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1);
  // Creates the MPI window, or, where `may_serve` and no PE could make it, leaves off-node PEs
  // to be served.
  void open_window(bool may_serve);
  void *aligned_malloc(std::size_t size, std::size_t align, const char *fn, CollectiveOp op);
  // Takes a block of `size` bytes (aligned to `align`) and backs it on every PE; its offset.
  std::size_t allocate(std::size_t size, std::size_t align, const char *fn);
  // The offset of `ptr` as the PEs compare it: kNoOffset for NULL, an impossible offset
  // outside the heap.
  std::uint64_t offset_of(const void *ptr) const;
  // The size of the block at `off`; throws ISHMEM_ERR_NOT_SYMMETRIC unless one starts there.
  std::size_t checked_block(std::uint64_t off, const void *ptr, const char *fn) const;
  // Frees the block at `off`; memory stays committed until the trim policy returns it.
  void release_block(std::size_t off) { allocator_->release(off); }
  // The trim policy, run at the end of every collective allocation call that succeeded: it
  // counts the call and records the end of the used memory after it. Once ISHMEM_TRIM_INTERVAL
  // calls have passed, the chunks past the highest end recorded in them go back, when that
  // leaves more than ISHMEM_TRIM_THRESHOLD bytes unused at the tail. Every PE makes the same
  // calls with the same outcomes, so every PE releases the same chunks. After a call that
  // `gave_block` to the caller, a failure to release is logged, not thrown: the block is the
  // caller's whatever happens, and the memory stays mapped.
  void after_call(const char *fn, bool gave_block);
  // Releases every chunk entirely at or past `bytes` on every PE alike, after quiesce_all;
  // does nothing, and waits for nothing, when no chunk lies there.
  void release_past(std::size_t bytes, const char *fn);
  // release_past for a call whose outcome stands whatever happens; a failure is logged.
  void release_past_logged(std::size_t bytes, const char *fn) noexcept;
  // Every PE waits for the device work it queued so far, then all agree that it completed:
  // from then on no kernel or stream copy of any PE touches the memory this call unmaps or
  // copies. A device error on any PE fails the call on every PE, before anything changes.
  void quiesce_all(const char *fn);
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
  long trim_interval_;
  long period_calls_ = 0;        // calls since the policy last ran
  std::size_t period_peak_ = 0;  // the highest end of used memory after each of them
  std::unique_ptr<ControlSegment> control_;
  std::unique_ptr<CollectiveCheck> check_;
  std::unique_ptr<MpiTransport> transport_;  // only with PEs on other nodes
  std::string served_reason_;
  bool window_refused_ = false;
  std::unique_ptr<SymmetricHeap> window_;
  std::unique_ptr<Allocator> allocator_;
  std::size_t user_offset_ = 0;  // the end of the library's area
};

}  // namespace ishmem::detail
