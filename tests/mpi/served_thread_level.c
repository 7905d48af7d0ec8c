/* The served off-node path needs MPI_THREAD_MULTIPLE: with MPI started at a lower level,
 * ishmem_init must fail on every PE and say so. Plain C, its own main. */
#include <stdio.h>
#include <string.h>

#include "ishmem.h"

int main(int argc, char **argv) {
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) return 1;
  int status = 1;
  if (provided == MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "MPI gave MPI_THREAD_MULTIPLE for SERIALIZED: nothing to test\n");
  } else if (ishmem_init() == ISHMEM_SUCCESS) {
    fprintf(stderr, "ishmem_init succeeded without MPI_THREAD_MULTIPLE\n");
    ishmem_finalize();
  } else if (!strstr(ishmemx_last_error(), "needs MPI_THREAD_MULTIPLE")) {
    fprintf(stderr, "ishmem_init failed for another reason: %s\n", ishmemx_last_error());
  } else {
    status = 0;
  }
  MPI_Finalize();
  return status;
}
