// The off-node path: how a PE reaches the heap of a PE on another node. Two implementations:
// MpiTransport (one MPI dynamic window, one-sided; host heaps) and the served path of
// runtime/served_off_node.h (two-sided requests that the target's service thread executes; GPU
// heaps, or any heap with ISHMEM_OFF_NODE=served). Runtime::remote points at the one in use.
#pragma once

#include "ishmem.h"  // brings in mpi.h without the C++ bindings

#include <atomic>
#include <cstddef>

namespace ishmem::detail {

class OffNode {
 public:
  virtual ~OffNode() = default;
  // `offset` is the byte offset in the target's heap. `source` and `dest` may be device memory
  // when the heap is on a GPU. Blocking forms wait for local completion (put: source reusable;
  // get: data in `dest`); the others complete at the next flush.
  virtual void put(int pe, std::size_t offset, const void *source, std::size_t bytes,
                   bool blocking) = 0;
  virtual void get(int pe, std::size_t offset, void *dest, std::size_t bytes, bool blocking) = 0;
  // Atomic read-modify-write of one element at `offset` on `pe`: `op` of `origin` (MPI_NO_OP
  // fetches, MPI_REPLACE swaps), or compare-and-swap when `compare` is given. The old value
  // lands in `result` (host memory, one element) before the call returns.
  virtual void atomic(int pe, std::size_t offset, MPI_Datatype type, MPI_Op op, const void *origin,
                      const void *compare, void *result) = 0;
  // Completes every outstanding operation at `pe`, or at every target.
  virtual void flush(int pe) = 0;
  virtual void flush_all() = 0;
  // Lets this PE serve peers' operations on its memory while it polls that memory.
  virtual void progress() = 0;
  // True if puts or gets may be outstanding (flush_all would flush).
  virtual bool dirty() const = 0;
};

// Completes this PE's outstanding RMA: stores to mapped peer memory are made visible, and
// off-node operations flushed when there is a `remote` path. Inline: every barrier starts
// with it.
inline void quiet_rma(OffNode *remote) {
  // Stores to mapped peer memory are ordinary stores: a full fence makes them visible before
  // anything this PE does next (see docs/MEMORY_MODEL.md).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (remote) remote->flush_all();
}

}  // namespace ishmem::detail
