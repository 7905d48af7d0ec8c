// put_signal_pipeline: a producer and a consumer kernel joined by put-with-signal. PE i's
// producer writes its chunks into PE i+1's inbox, each chunk with its own signal in the same
// call; PE i+1's consumer waits for each chunk's signal and processes that chunk while the rest
// are still on their way. The signal is updated after the data lands, so a consumer that sees it
// reads the whole chunk: no barrier or quiet per chunk.
//
//   mpirun -np 2 build/examples/put_signal_pipeline [--chunks N] [--chunk-elems M]
#include "example_util.h"

namespace {

// The value of element j of chunk c sent by PE `pe`: every element distinct, so a chunk that
// landed in the wrong place or only in part shows up.
EXAMPLE_HD long element(int pe, int c, int j) {
  return 1000000L * pe + 1000L * c + j;
}

// One thread: fills a chunk of the private source, then sends it with its signal. The put of
// chunk c may overlap the fill of chunk c+1: the call returns once its source may be reused.
EXAMPLE_HD void produce(long *inbox, long *src, uint64_t *sig, int chunks, int elems) {
  const int me = ishmem_my_pe();
  const int right = (me + 1) % ishmem_n_pes();
  for (int c = 0; c < chunks; ++c) {
    long *chunk = src + (size_t)c * elems;
    for (int j = 0; j < elems; ++j) chunk[j] = element(me, c, j);
    ishmem_putmem_signal(inbox + (size_t)c * elems, chunk, elems * sizeof(long), sig + c, 1,
                         ISHMEM_SIGNAL_SET, right);
  }
}

// One thread: takes the chunks in order as their signals arrive and sums each (the "work").
EXAMPLE_HD void consume(const long *inbox, uint64_t *sig, int chunks, int elems, long *sums) {
  for (int c = 0; c < chunks; ++c) {
    ishmem_signal_wait_until(sig + c, ISHMEM_CMP_EQ, 1);
    long sum = 0;
    for (int j = 0; j < elems; ++j) sum += inbox[(size_t)c * elems + j];
    sums[c] = sum;
  }
}

}  // namespace

int main(int argc, char **argv) {
  int chunks = 8, elems = 4096;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--chunks")) chunks = atoi(argv[i + 1]);
    if (!strcmp(argv[i], "--chunk-elems")) elems = atoi(argv[i + 1]);
  }
  if (chunks < 1 || elems < 1) {
    fprintf(stderr, "usage: put_signal_pipeline [--chunks N>0] [--chunk-elems M>0]\n");
    return 2;
  }
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "put_signal_pipeline: ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  const int me = ishmem_my_pe(), npes = ishmem_n_pes();
  const int left = (me + npes - 1) % npes;
  const size_t bytes = (size_t)chunks * elems * sizeof(long);

  // Symmetric, because peers write them; calloc zeroes the signals on every PE before any
  // producer can start (it ends in a barrier).
  long *inbox = (long *)ishmem_malloc(bytes);
  uint64_t *sig = (uint64_t *)ishmem_calloc(chunks, sizeof(uint64_t));
  EXAMPLE_CHECK("ishmem_malloc/ishmem_calloc", inbox && sig);
  long *src = (long *)example_private_alloc(bytes);
  long *sums = (long *)example_private_alloc(chunks * sizeof(long));

  example_run<produce>(1, inbox, src, sig, chunks, elems);
  example_run<consume>(1, (const long *)inbox, sig, chunks, elems, sums);

  // Check every element of every chunk and the consumer's sum of each.
  long *got = (long *)malloc(bytes);
  long *got_sums = (long *)malloc(chunks * sizeof(long));
  EXAMPLE_CHECK("malloc", got && got_sums);
  example_copy(got, inbox, bytes);
  example_copy(got_sums, sums, chunks * sizeof(long));
  int wrong = 0;
  for (int c = 0; c < chunks; ++c) {
    long expected_sum = 0;
    for (int j = 0; j < elems; ++j) {
      const long want = element(left, c, j);
      expected_sum += want;
      if (got[(size_t)c * elems + j] != want && wrong++ < 5)
        printf("put_signal_pipeline: PE %d chunk %d element %d is %ld, expected %ld: WRONG\n", me,
               c, j, got[(size_t)c * elems + j], want);
    }
    if (got_sums[c] != expected_sum && wrong++ < 5)
      printf("put_signal_pipeline: PE %d chunk %d summed to %ld, expected %ld: WRONG\n", me, c,
             got_sums[c], expected_sum);
  }
  printf(
      "put_signal_pipeline: PE %d of %d (%s heap) consumed %d chunks of %d longs from PE %d: "
      "%s\n",
      me, npes, ishmemx_backend_name(), chunks, elems, left, wrong ? "WRONG" : "ok");

  free(got);
  free(got_sums);
  // No PE frees its inbox while its left neighbour might still be writing into it.
  EXAMPLE_OK(ishmem_barrier_all());
  example_private_free(src);
  example_private_free(sums);
  ishmem_free(inbox);
  ishmem_free(sig);
  ishmem_finalize();
  return wrong ? 1 : 0;
}
