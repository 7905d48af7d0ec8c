#include "bootstrap/agreed_step.h"

#include "bootstrap/stall_watch.h"

namespace ishmem::detail {

int lowest_status(MPI_Comm comm, int status) {
  int lowest = ISHMEM_SUCCESS;
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Iallreduce(&status, &lowest, 1, MPI_INT, MPI_MIN, comm, &req));
  watch_complete(req, "MPI_Iallreduce");
  return lowest;
}

}  // namespace ishmem::detail
