#include "transport/mpi_transport.h"

#include <climits>

#include "runtime/error.h"

namespace ishmem::detail {

MpiTransport::MpiTransport(MPI_Comm comm, char *local_base) {
  int n = 0;
  ISHMEMI_CHECK_MPI(MPI_Comm_size(comm, &n));
  bases_.resize(n);
  MPI_Aint mine;
  ISHMEMI_CHECK_MPI(MPI_Get_address(local_base, &mine));
  ISHMEMI_CHECK_MPI(MPI_Allgather(&mine, 1, MPI_AINT, bases_.data(), 1, MPI_AINT, comm));
  ISHMEMI_CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &win_));
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

void MpiTransport::attach(char *addr, std::size_t bytes) {
  ISHMEMI_CHECK_MPI(MPI_Win_attach(win_, addr, static_cast<MPI_Aint>(bytes)));
}

void MpiTransport::detach(char *addr) {
  ISHMEMI_CHECK_MPI(MPI_Win_detach(win_, addr));
}

void MpiTransport::put(int pe, std::size_t offset, const void *source, std::size_t bytes,
                       bool blocking) {
  const char *src = static_cast<const char *>(source);
  while (bytes > 0) {  // MPI counts are int
    int n = bytes > INT_MAX ? INT_MAX : static_cast<int>(bytes);
    ISHMEMI_CHECK_MPI(MPI_Put(src, n, MPI_BYTE, pe, bases_[pe] + static_cast<MPI_Aint>(offset), n,
                              MPI_BYTE, win_));
    src += n;
    offset += n;
    bytes -= n;
  }
  dirty_ = true;
  if (blocking) ISHMEMI_CHECK_MPI(MPI_Win_flush_local(pe, win_));
}

void MpiTransport::get(int pe, std::size_t offset, void *dest, std::size_t bytes, bool blocking) {
  char *dst = static_cast<char *>(dest);
  while (bytes > 0) {
    int n = bytes > INT_MAX ? INT_MAX : static_cast<int>(bytes);
    ISHMEMI_CHECK_MPI(MPI_Get(dst, n, MPI_BYTE, pe, bases_[pe] + static_cast<MPI_Aint>(offset), n,
                              MPI_BYTE, win_));
    dst += n;
    offset += n;
    bytes -= n;
  }
  dirty_ = true;
  if (blocking) ISHMEMI_CHECK_MPI(MPI_Win_flush(pe, win_));
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
  ISHMEMI_CHECK_MPI(MPI_Win_sync(win_));
}

void MpiTransport::flush_all() {
  if (!dirty_) return;
  ISHMEMI_CHECK_MPI(MPI_Win_flush_all(win_));
  dirty_ = false;
}

}  // namespace ishmem::detail
