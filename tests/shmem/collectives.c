/* Collectives on teams through shmem.h: team split and queries, broadcast, collect, fcollect,
 * alltoall, alltoalls and the reductions, on the world team and on a team of the even PEs,
 * with the typed and the _mem names. */
#include "shmem_test.h"

int main(void) {
  shmem_team_t evens = SHMEM_TEAM_INVALID;
  shmem_team_config_t config;
  long *src, *dst;
  double *dsrc, *ddst;
  int me, n, i, j;
  shmem_init();
  me = shmem_my_pe();
  n = shmem_n_pes();
  src = (long *)shmem_calloc(4 * (size_t)n, sizeof(long));
  dst = (long *)shmem_calloc(4 * (size_t)n, sizeof(long));
  dsrc = (double *)shmem_calloc(2, sizeof(double));
  ddst = (double *)shmem_calloc(2, sizeof(double));
  CHECK(shmem_team_my_pe(SHMEM_TEAM_WORLD) == me && shmem_team_n_pes(SHMEM_TEAM_WORLD) == n);

  for (i = 0; i < 4 * n; ++i) src[i] = me * 1000 + i;
  CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 3, n - 1) == 0);
  for (i = 0; i < 3; ++i) CHECK(dst[i] == (n - 1) * 1000 + i);
  CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, 2) == 0);
  for (j = 0; j < n; ++j) CHECK(dst[2 * j] == j * 1000 && dst[2 * j + 1] == j * 1000 + 1);
  CHECK(shmem_long_collect(SHMEM_TEAM_WORLD, dst, src, 1) == 0);
  for (j = 0; j < n; ++j) CHECK(dst[j] == j * 1000);
  CHECK(shmem_long_alltoall(SHMEM_TEAM_WORLD, dst, src, 2) == 0);
  for (j = 0; j < n; ++j) CHECK(dst[2 * j] == j * 1000 + 2 * me);
  CHECK(shmem_long_alltoalls(SHMEM_TEAM_WORLD, dst, src, 2, 1, 1) == 0);
  for (j = 0; j < n; ++j) CHECK(dst[2 * j] == j * 1000 + me);
  CHECK(shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 2 * sizeof(long), 0) == 0);
  CHECK(dst[1] == 1);
  CHECK(shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, sizeof(long)) == 0);
  CHECK(dst[n - 1] == (n - 1) * 1000);

  CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, 2) == 0);
  CHECK(dst[0] == 1000L * n * (n - 1) / 2 && dst[1] == dst[0] + n);
  CHECK(shmem_long_max_reduce(SHMEM_TEAM_WORLD, dst, src, 1) == 0 && dst[0] == (n - 1) * 1000);
  CHECK(shmem_long_min_reduce(SHMEM_TEAM_WORLD, dst, src, 1) == 0 && dst[0] == 0);
  CHECK(shmem_long_prod_reduce(SHMEM_TEAM_WORLD, dst, &src[1], 1) == 0);
  dsrc[0] = me + 0.5;
  CHECK(shmem_double_sum_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, 1) == 0);
  CHECK(ddst[0] == n * (n - 1) / 2.0 + 0.5 * n);
  ((unsigned long *)src)[0] = 1ul << me;
  CHECK(shmem_ulong_or_reduce(SHMEM_TEAM_WORLD, (unsigned long *)dst, (unsigned long *)src, 1) ==
        0);
  CHECK(((unsigned long *)dst)[0] == (1ul << n) - 1);
  CHECK(shmem_ulong_and_reduce(SHMEM_TEAM_WORLD, (unsigned long *)dst, (unsigned long *)src, 1) ==
        0);
  CHECK(((unsigned long *)dst)[0] == (n == 1 ? 1ul : 0ul));
  CHECK(shmem_ulong_xor_reduce(SHMEM_TEAM_WORLD, (unsigned long *)dst, (unsigned long *)src, 1) ==
        0);
  CHECK(((unsigned long *)dst)[0] == (1ul << n) - 1);

  /* A team of the even PEs: its own numbering, translation, config, sync and reduction. */
  config.num_contexts = 2;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, &config,
                                 SHMEM_TEAM_NUM_CONTEXTS, &evens) == 0);
  if (me % 2 == 0) {
    shmem_team_config_t got;
    CHECK(evens != SHMEM_TEAM_INVALID && shmem_team_my_pe(evens) == me / 2);
    CHECK(shmem_team_translate_pe(evens, shmem_team_n_pes(evens) - 1, SHMEM_TEAM_WORLD) ==
          2 * ((n + 1) / 2 - 1));
    CHECK(shmem_team_get_config(evens, SHMEM_TEAM_NUM_CONTEXTS, &got) == 0 &&
          got.num_contexts == 2);
    CHECK(shmem_team_sync(evens) == 0);
    src[0] = me;
    CHECK(shmem_long_sum_reduce(evens, dst, src, 1) == 0);
    CHECK(dst[0] == (long)((n + 1) / 2) * ((n + 1) / 2 - 1));
    shmem_team_destroy(evens);
  } else {
    CHECK(evens == SHMEM_TEAM_INVALID);
  }
  shmem_sync_all();
  shmem_free(src);
  shmem_free(dst);
  shmem_free(dsrc);
  shmem_free(ddst);
  return shmem_test_finish("shmem_collectives");
}
