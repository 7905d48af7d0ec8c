/* hello: the smallest ishmem program. Every PE allocates one symmetric int, puts its PE number
 * into the right-hand neighbour's copy and checks that the left-hand neighbour's arrived.
 *
 *   mpirun -np 2 build/examples/hello
 *
 * The heap may be in GPU memory (a GPU build on a machine with a GPU), where the CPU cannot load
 * it: this program reads it with ishmem_int_g, which works with every backend. */
#include <stdio.h>

#include "ishmem.h"

int main(void) {
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "hello: ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  int me = ishmem_my_pe();
  int npes = ishmem_n_pes();

  /* Collective: every PE gets the same symmetric address, naming its own copy. */
  int *box = (int *)ishmem_malloc(sizeof(int));
  if (!box) {
    fprintf(stderr, "hello: ishmem_malloc failed: %s\n", ishmemx_last_error());
    ishmem_global_exit(1);
  }
  /* Before anyone puts, every copy starts distinct from any PE number... */
  ishmem_int_p(box, -1, me);
  ishmem_barrier_all();
  /* ...then the put lands in the right-hand PE's copy; barrier_all completes it everywhere. */
  ishmem_int_p(box, me, (me + 1) % npes);
  ishmem_barrier_all();

  int left = (me + npes - 1) % npes;
  int got = ishmem_int_g(box, me);
  int ok = got == left;
  printf("hello from PE %d of %d (%s heap): PE %d put %d into my box: %s\n", me, npes,
         ishmemx_backend_name(), left, got, ok ? "ok" : "WRONG");
  if (!ok) fprintf(stderr, "hello: PE %d expected %d from PE %d, got %d\n", me, left, left, got);

  ishmem_free(box);
  ishmem_finalize();
  return ok ? 0 : 1;
}
