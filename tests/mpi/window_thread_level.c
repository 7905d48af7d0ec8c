/* The off-node window under MPI_THREAD_MULTIPLE with Open MPI's osc/pt2pt forced
 * (OMPI_MCA_osc=pt2pt and every PE its own node, set by CMake): Open MPI 4.1's pt2pt refuses
 * that level. Under ISHMEM_OFF_NODE=auto ishmem_init then serves the off-node PEs instead, and
 * a put around the ring is checked. Under ISHMEM_OFF_NODE=window it fails on every PE (none
 * waits) with ISHMEM_ERR_MPI, naming the call and saying which thread level and components
 * are the matter; where the component takes the level instead, the ring put is checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "ishmem.h"

int main(int argc, char **argv) {
  int provided = 0, rank = 0, size = 0, rc, any = 0;
  ishmemx_init_attr_t attr;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(provided == MPI_THREAD_MULTIPLE);
  attr.comm = MPI_COMM_WORLD;

  const char *off_node = getenv("ISHMEM_OFF_NODE");
  const int window_asked = off_node && strcmp(off_node, "window") == 0;
  rc = ishmemx_init_attr(&attr);
  if (!window_asked) CHECK(rc == ISHMEM_SUCCESS);
  if (rc == ISHMEM_SUCCESS) {
    check_ring_put(rank, size);
    CHECK(ishmem_finalize() == ISHMEM_SUCCESS);
    if (rank == 0) printf("the one-sided component took MPI_THREAD_MULTIPLE; put checked\n");
  } else {
    const char *text = ishmemx_last_error();
    CHECK(rc == ISHMEM_ERR_MPI);
    CHECK(strstr(text, "MPI_Win_create_dynamic failed") != NULL);
    CHECK(strstr(text, "under MPI_THREAD_MULTIPLE") != NULL);
    CHECK(strstr(text, "osc/pt2pt") != NULL);
    CHECK(ishmem_n_pes() == -1);
    if (rank == 0) printf("refused as expected: %s\n", text);
  }
  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (failures) fprintf(stderr, "PE %d: %d checks failed\n", rank, failures);
  return any ? 1 : 0;
}
