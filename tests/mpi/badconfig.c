/* A bad ISHMEM_* variable on one PE fails ishmem_init on every PE (none waits forever), the
 * error names the variable (a heap too large to reserve too), and after the environment is
 * fixed the library initializes. The
 * program initializes MPI itself so that it can give only the last PE the bad value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "ishmem.h"

int main(int argc, char **argv) {
  int rank = 0, size = 0, rc, any = 0;
  ishmemx_init_attr_t attr;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  attr.comm = MPI_COMM_WORLD;

  if (rank == size - 1) setenv("ISHMEM_CHUNK_SIZE", "12Q", 1);
  rc = ishmemx_init_attr(&attr);
  CHECK(rc == ISHMEM_ERR_CONFIG);
  {
    /* The config is read before MPI setup, and its errors still name the PE. */
    char prefix[48];
    snprintf(prefix, sizeof prefix, "[ishmem pe %d] ", rank);
    CHECK(strncmp(ishmemx_last_error(), prefix, strlen(prefix)) == 0);
  }
  if (rank == size - 1)
    CHECK(strstr(ishmemx_last_error(), "ISHMEM_CHUNK_SIZE") != NULL);
  else
    CHECK(strstr(ishmemx_last_error(), "another PE") != NULL);
  CHECK(ishmem_n_pes() == -1);
  CHECK(ishmem_malloc(64) == NULL);

  unsetenv("ISHMEM_CHUNK_SIZE");
  /* A heap larger than the address space: the reservation fails on every PE, and the error
   * names the variable. */
  setenv("ISHMEM_SYMMETRIC_SIZE", "1000T", 1);
  rc = ishmemx_init_attr(&attr);
  CHECK(rc != ISHMEM_SUCCESS);
  CHECK(strstr(ishmemx_last_error(), "ISHMEM_SYMMETRIC_SIZE=1099511627776000") != NULL);
  CHECK(strstr(ishmemx_last_error(), "reserving") != NULL);
  CHECK(ishmem_n_pes() == -1);
  unsetenv("ISHMEM_SYMMETRIC_SIZE");

  /* Fixed: the library initializes and works. */
  CHECK(ishmemx_init_attr(&attr) == ISHMEM_SUCCESS);
  CHECK(ishmem_n_pes() == size && ishmem_my_pe() == rank);
  check_ring_put(rank, size);
  CHECK(ishmem_finalize() == ISHMEM_SUCCESS);
  {
    int finalized = 1;
    MPI_Finalized(&finalized);
    CHECK(!finalized); /* the program initialized MPI, so the program finalizes it */
  }
  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (failures) fprintf(stderr, "PE %d: %d checks failed\n", rank, failures);
  return any ? 1 : 0;
}
