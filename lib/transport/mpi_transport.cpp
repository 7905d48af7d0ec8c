#include "transport/mpi_transport.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <mutex>

#include "common/error.h"

namespace ishmem::detail {

MpiTransport::MpiTransport(MPI_Comm comm, char *local_base) : comm_(comm), local_base_(local_base) {
  int n = 0;
  ISHMEMI_CHECK_MPI(MPI_Comm_size(comm, &n));
  bases_.resize(n);
  MPI_Aint mine;
  ISHMEMI_CHECK_MPI(MPI_Get_address(local_base, &mine));
  ISHMEMI_CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, bases_.data(), 1, MPI_AINT, comm));
  const int created = MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &win_);
  if (created != MPI_SUCCESS) {
    // Some one-sided components refuse windows under MPI_THREAD_MULTIPLE, the level that
    // ishmem_init asks for when it starts MPI: say so, since MPI's error text does not.
    int level = MPI_THREAD_SINGLE;
    const bool multiple = MPI_Query_thread(&level) == MPI_SUCCESS && level == MPI_THREAD_MULTIPLE;
    fail_mpi(created, "MPI_Win_create_dynamic", __FILE__, __LINE__,
             multiple ? "under MPI_THREAD_MULTIPLE the off-node window needs a one-sided "
                        "component that supports it (Open MPI: osc/rdma or osc/ucx, not "
                        "osc/pt2pt; docs/MULTI_NODE.md)"
                      : nullptr);
  }
  int rc = MPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN);
  if (rc == MPI_SUCCESS) rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, win_);
  if (rc != MPI_SUCCESS) {
    MPI_Win_free(&win_);
    fail_mpi(rc, "MPI_Win_lock_all", __FILE__, __LINE__);
  }
}

MpiTransport::~MpiTransport() {
  if (win_ == MPI_WIN_NULL) return;
  MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
}

void MpiTransport::close() {
  if (win_ == MPI_WIN_NULL) return;
  MPI_Win win = win_;
  win_ = MPI_WIN_NULL;  // freed once, even when unlocking fails
  const int unlocked = MPI_Win_unlock_all(win);
  const int freed = MPI_Win_free(&win);
  if (unlocked != MPI_SUCCESS) fail_mpi(unlocked, "MPI_Win_unlock_all", __FILE__, __LINE__);
  if (freed != MPI_SUCCESS) fail_mpi(freed, "MPI_Win_free", __FILE__, __LINE__);
}

void MpiTransport::attach(char *addr, std::size_t bytes) {
  ISHMEMI_CHECK_MPI(MPI_Win_attach(win_, addr, static_cast<MPI_Aint>(bytes)));
  std::unique_lock<std::shared_mutex> lock(regions_mutex_);
  regions_[static_cast<std::size_t>(addr - local_base_)] = bytes;
}

void MpiTransport::detach(char *addr) {
  ISHMEMI_CHECK_MPI(MPI_Win_detach(win_, addr));
  std::unique_lock<std::shared_mutex> lock(regions_mutex_);
  regions_.erase(static_cast<std::size_t>(addr - local_base_));
}

std::size_t MpiTransport::span_at(std::size_t offset) const {
  // Heaps grow in the same chunks on every PE, so this PE's chunks are the target's too.
  std::shared_lock<std::shared_mutex> lock(regions_mutex_);
  auto it = regions_.upper_bound(offset);
  if (it == regions_.begin()) return SIZE_MAX;  // not attached: MPI reports the error
  --it;
  std::size_t end = it->first + it->second;
  return offset < end ? end - offset : SIZE_MAX;
}

void MpiTransport::transfer(bool is_put, int pe, std::size_t offset, char *local, std::size_t bytes,
                            bool blocking) {
  // A blocking transfer completes at the target before it returns, so it leaves nothing for
  // quiet to flush: putmem + quiet is MPI_Put + MPI_Win_flush, as a program using MPI writes
  // it, instead of a flush_local and a flush_all. A non-blocking one marks the window first,
  // and so does an error part-way, which still leaves issued operations to flush.
  if (!blocking) dirty_.store(true, std::memory_order_release);
  try {
    while (bytes > 0) {  // MPI counts are int; one attached chunk per call
      int n = static_cast<int>(std::min({bytes, span_at(offset), std::size_t{INT_MAX}}));
      MPI_Aint disp = bases_[pe] + static_cast<MPI_Aint>(offset);
      if (is_put)
        ISHMEMI_CHECK_MPI(MPI_Put(local, n, MPI_BYTE, pe, disp, n, MPI_BYTE, win_));
      else
        ISHMEMI_CHECK_MPI(MPI_Get(local, n, MPI_BYTE, pe, disp, n, MPI_BYTE, win_));
      local += n;
      offset += n;
      bytes -= n;
    }
    if (blocking) ISHMEMI_CHECK_MPI(MPI_Win_flush(pe, win_));
  } catch (...) {
    dirty_.store(true, std::memory_order_release);
    throw;
  }
}

void MpiTransport::put(int pe, std::size_t offset, const void *source, std::size_t bytes,
                       bool blocking) {
  transfer(true, pe, offset, static_cast<char *>(const_cast<void *>(source)), bytes, blocking);
}

void MpiTransport::get(int pe, std::size_t offset, void *dest, std::size_t bytes, bool blocking) {
  transfer(false, pe, offset, static_cast<char *>(dest), bytes, blocking);
}

void MpiTransport::atomic(int pe, std::size_t offset, MPI_Datatype type, MPI_Op op,
                          const void *origin, const void *compare, void *result) {
  MPI_Aint disp = bases_[pe] + static_cast<MPI_Aint>(offset);
  if (compare)
    ISHMEMI_CHECK_MPI(MPI_Compare_and_swap(origin, compare, result, type, pe, disp, win_));
  else
    ISHMEMI_CHECK_MPI(MPI_Fetch_and_op(origin, result, type, pe, disp, op, win_));
  ISHMEMI_CHECK_MPI(MPI_Win_flush(pe, win_));
}

void MpiTransport::flush(int pe) {
  ISHMEMI_CHECK_MPI(MPI_Win_flush(pe, win_));
}

void MpiTransport::progress() {
  // MPI_Win_sync orders memory for the window; the probe runs MPI's progress engine, which
  // executes peers' emulated atomics aimed at this PE.
  ISHMEMI_CHECK_MPI(MPI_Win_sync(win_));
  int flag = 0;
  ISHMEMI_CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE));
}

void MpiTransport::flush_all() {
  // Cleared before the flush: a transfer of another thread that sets it again meanwhile is
  // flushed by the next quiet, not lost.
  if (!dirty_.exchange(false, std::memory_order_acq_rel)) return;
  ISHMEMI_CHECK_MPI(MPI_Win_flush_all(win_));
}

}  // namespace ishmem::detail
