// Off-node RMA through MPI one-sided communication: one dynamic window to which every PE
// attaches its heap chunks; the target address is the peer's heap base plus the offset.
#pragma once

#include "ishmem.h"  // brings in mpi.h without the C++ bindings
#include "transport/off_node.h"

#include <atomic>
#include <cstddef>
#include <map>
#include <shared_mutex>
#include <vector>

namespace ishmem::detail {

class MpiTransport : public OffNode {
 public:
  // Collective over `comm`. `local_base` is this PE's heap base.
  MpiTransport(MPI_Comm comm, char *local_base);
  ~MpiTransport() override;
  MpiTransport(const MpiTransport &) = delete;
  MpiTransport &operator=(const MpiTransport &) = delete;

  // Adds a chunk of this PE's heap to the window, or removes it. Virtual so that tests can
  // inject failures; they run once per heap chunk, never on the RMA paths.
  virtual void attach(char *addr, std::size_t bytes);
  virtual void detach(char *addr);
  // Blocking forms wait for local completion (put: source reusable; get: data arrived).
  void put(int pe, std::size_t offset, const void *source, std::size_t bytes,
           bool blocking) override;
  void get(int pe, std::size_t offset, void *dest, std::size_t bytes, bool blocking) override;
  // Atomic read-modify-write of one element at `offset` on `pe` (MPI_Fetch_and_op, or
  // MPI_Compare_and_swap when `compare` is given); completes before returning.
  void atomic(int pe, std::size_t offset, MPI_Datatype type, MPI_Op op, const void *origin,
              const void *compare, void *result) override;
  // Completes every outstanding operation at `pe`, or at every target.
  void flush(int pe) override;
  void flush_all() override;
  // Lets MPI progress incoming one-sided traffic while this PE polls its own memory.
  void progress() override;
  // True if puts or gets may be outstanding (flush_all would flush).
  bool dirty() const override { return dirty_; }
  // Frees the window (collective over the communicator), checking each MPI call; the
  // destructor does the same unchecked.
  void close();
  // Forgets the window without freeing it: freeing is collective, and a peer that failed to
  // make its window would never join. MPI_Finalize reclaims it.
  void abandon() { win_ = MPI_WIN_NULL; }

 protected:
  MpiTransport() = default;  // for test doubles of attach and detach: no MPI window

 private:
  void transfer(bool is_put, int pe, std::size_t offset, char *local, std::size_t bytes,
                bool blocking);
  // Bytes from `offset` to the end of the attached chunk that holds it: one MPI_Put or MPI_Get
  // must stay inside one attached region, even where two chunks are adjacent.
  std::size_t span_at(std::size_t offset) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  char *local_base_ = nullptr;
  std::vector<MPI_Aint> bases_;
  // Attached chunks, offset -> bytes (every PE). Under ISHMEM_THREAD_MULTIPLE a heap call of
  // one thread attaches while another's RMA reads: the mutex is taken on the MPI path only.
  std::map<std::size_t, std::size_t> regions_;
  mutable std::shared_mutex regions_mutex_;
  std::atomic<bool> dirty_{false};  // set by any thread's transfer, cleared by flush_all
};

}  // namespace ishmem::detail
