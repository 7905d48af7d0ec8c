/* A C program built outside the source tree against the installed ishmem: each PE puts its
 * PE number (plus a marker) into its right neighbour's symmetric array, then checks after a
 * barrier that its left neighbour's values arrived. Exit status 0 only if they did. */
#include <ishmem.h>
#include <stdio.h>

enum { N = 64 };

int main(void) {
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "ring_put: ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  const int me = ishmem_my_pe(), npes = ishmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  int *dest = (int *)ishmem_calloc(N, sizeof(int));
  int src[N], bad = dest == NULL;
  for (int i = 0; i < N; ++i) src[i] = 1000 * me + i;
  if (!bad) bad |= ishmem_putmem(dest, src, sizeof(src), right) != ISHMEM_SUCCESS;
  bad |= ishmem_barrier_all() != ISHMEM_SUCCESS;
  for (int i = 0; !bad && i < N; ++i) {
    if (dest[i] != 1000 * left + i) {
      fprintf(stderr, "ring_put: pe %d: dest[%d] = %d, expected %d\n", me, i, dest[i],
              1000 * left + i);
      bad = 1;
    }
  }
  printf("ring_put (C): pe %d of %d: %s\n", me, npes, bad ? "FAILED" : "ok");
  ishmem_free(dest);
  ishmem_finalize();
  return bad;
}
