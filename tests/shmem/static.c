/* Symmetric static data through shmem.h: global and static variables as RMA, atomic, wait,
 * lock and team-reduction targets, as OpenSHMEM programs use them. It never touches the heap,
 * so that it can run beside a GPU heap too. */
#define SHMEM_TEST_STATIC_COUNTS
#include "shmem_test.h"

long counter;
static long ring[4];
static int flag;
static long lock;
static long guarded; /* updated only under the lock, with plain get and put */
static long sums[3], parts[3];

int main(void) {
  int me, n, right, left;
  long src[4];
  shmem_init();
  shmem_test_ring(&me, &n, &right, &left);
  CHECK(shmem_addr_accessible(&counter, right) == 1 && shmem_addr_accessible(ring, 0) == 1);
  src[0] = me;
  src[1] = me + 1;
  shmem_long_put(ring, src, 2, right);
  shmem_long_atomic_inc(&counter, 0);
  shmem_quiet();
  shmem_int_p(&flag, 1, right);
  shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
  CHECK(ring[0] == left && ring[1] == left + 1);
  shmem_barrier_all();
  if (me == 0) CHECK(counter == n);
  CHECK(shmem_long_g(&ring[1], right) == me + 1);
  CHECK(shmem_long_atomic_fetch(&counter, 0) == n);
  shmem_barrier_all();
  /* A context's quiet completes its non-blocking puts to static data. */
  {
    shmem_ctx_t ctx;
    long mine = 100 + me;
    CHECK(shmem_ctx_create(0, &ctx) == 0);
    shmem_ctx_long_put_nbi(ctx, &ring[2], &mine, 1, right);
    shmem_ctx_quiet(ctx);
    shmem_sync_all();
    CHECK(ring[2] == 100 + left);
    shmem_ctx_destroy(ctx);
    shmem_barrier_all();
  }
  /* A lock in static data guards a non-atomic read-modify-write on PE 0. */
  for (int i = 0; i < 5; ++i) {
    shmem_set_lock(&lock);
    shmem_long_p(&guarded, shmem_long_g(&guarded, 0) + 1, 0);
    shmem_clear_lock(&lock);
  }
  /* A team reduction with static source and dest. */
  for (int i = 0; i < 3; ++i) parts[i] = (long)(me + 1) * (i + 1);
  CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, sums, parts, 3) == 0);
  for (int i = 0; i < 3; ++i) CHECK(sums[i] == (long)n * (n + 1) / 2 * (i + 1));
  shmem_barrier_all();
  CHECK(shmem_long_g(&guarded, 0) == 5L * n);
  shmem_barrier_all();
  return shmem_test_finish("shmem_static");
}
