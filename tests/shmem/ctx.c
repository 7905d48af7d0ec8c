/* Contexts, locks and thread levels through shmem.h (built when ishmem.h has contexts):
 * shmem_init_thread and shmem_query_thread, a private context and a team context with typed,
 * AMO and signal calls and their own quiet, and a lock every PE takes in turn. */
#include "shmem_test.h"

int main(void) {
  shmem_ctx_t ctx = SHMEM_CTX_INVALID, team_ctx = SHMEM_CTX_INVALID;
  shmem_team_t team = SHMEM_TEAM_INVALID;
  long *lv, *lock, src = 0;
  uint64_t *sig;
  int provided = -1, queried = -1, me, n, right, left, i;
  CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0);
  CHECK(provided >= SHMEM_THREAD_SINGLE && provided <= SHMEM_THREAD_MULTIPLE);
  shmem_query_thread(&queried);
  CHECK(queried == provided);
  shmem_test_ring(&me, &n, &right, &left);
  lv = (long *)shmem_calloc(4, sizeof(long));
  lock = (long *)shmem_calloc(1, sizeof(long));
  sig = (uint64_t *)shmem_calloc(1, sizeof(uint64_t));
  shmem_barrier_all();

  CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0 && ctx != SHMEM_CTX_INVALID);
  CHECK(shmem_ctx_get_team(ctx, &team) == 0 && team == SHMEM_TEAM_WORLD);
  src = me + 10;
  shmem_ctx_long_put(ctx, &lv[0], &src, 1, right);
  shmem_ctx_long_p(ctx, &lv[1], me + 20, right);
  shmem_ctx_long_atomic_add(ctx, &lv[2], 1, 0);
  shmem_ctx_quiet(ctx);
  shmem_ctx_fence(SHMEM_CTX_DEFAULT);
  shmem_barrier_all();
  CHECK(lv[0] == left + 10 && lv[1] == left + 20);
  if (me == 0) CHECK(lv[2] == n);
  CHECK(shmem_ctx_long_g(ctx, &lv[0], right) == me + 10);
  CHECK(shmem_ctx_long_atomic_fetch(ctx, &lv[2], 0) == n);
  shmem_ctx_putmem_signal(ctx, &lv[3], &src, sizeof(long), sig, 1, SHMEM_SIGNAL_SET, right);
  shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
  CHECK(lv[3] == left + 10);
  shmem_put(ctx, &lv[0], &src, 1, right); /* the generic name with a context */
  shmem_ctx_destroy(ctx);

  CHECK(shmem_team_create_ctx(SHMEM_TEAM_WORLD, 0, &team_ctx) == 0);
  CHECK(shmem_ctx_long_atomic_fetch_inc(team_ctx, &lv[2], 0) >= n);
  shmem_ctx_quiet(team_ctx);
  shmem_ctx_destroy(team_ctx);
  shmem_barrier_all();

  /* The lock: every PE increments a shared count non-atomically inside it. */
  for (i = 0; i < 3; ++i) {
    long v;
    shmem_set_lock(lock);
    v = shmem_long_g(&lv[1], 0);
    shmem_long_p(&lv[1], v + 1, 0);
    shmem_quiet();
    shmem_clear_lock(lock);
  }
  shmem_barrier_all();
  if (me == 0) CHECK(lv[1] == left + 20 + 3L * n);
  while (shmem_test_lock(lock) != 0) {
  }
  shmem_clear_lock(lock);
  shmem_barrier_all();
  shmem_free(lv);
  shmem_free(lock);
  shmem_free(sig);
  return shmem_test_finish("shmem_ctx");
}
