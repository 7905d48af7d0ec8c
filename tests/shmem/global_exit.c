/* shmem_global_exit(status) ends every PE, and the job's exit status is `status`: PE 0 calls it
 * at once, while the others wait in a barrier that it never enters. The test runs the program
 * and compares mpirun's exit status with the argument (tests/shmem/CMakeLists.txt). */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  const int status = argc > 1 ? atoi(argv[1]) : 5;
  shmem_init();
  if (shmem_my_pe() == 0) shmem_global_exit(status);
  shmem_barrier_all(); /* never completes: PE 0 ended the job */
  fprintf(stderr, "PE %d: the barrier completed after shmem_global_exit\n", shmem_my_pe());
  shmem_finalize();
  return 0;
}
