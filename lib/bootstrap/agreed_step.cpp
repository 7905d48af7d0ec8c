#include "bootstrap/agreed_step.h"

namespace ishmem::detail {

int lowest_status(MPI_Comm comm, int status) {
  int lowest = ISHMEM_SUCCESS;
  ISHMEMI_CHECK_MPI(MPI_Allreduce(&status, &lowest, 1, MPI_INT, MPI_MIN, comm));
  return lowest;
}

}  // namespace ishmem::detail
