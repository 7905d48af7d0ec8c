/* The invalid handles, call by call as OpenSHMEM 1.5 defines them: destroy, quiet and fence
 * on SHMEM_CTX_INVALID and shmem_team_destroy on SHMEM_TEAM_INVALID do nothing (under the
 * default error policy too, which would stop the job on an error); the calls defined to
 * return nonzero do so with SHMEM_*_INVALID outputs and no error report. Then the pattern of
 * the specification's team-context example: contexts on split teams, where the PEs outside a
 * team hold invalid handles and pass them on. */
#include <shmemx.h>

#include "shmem_test.h"

int main(void) {
  int *vals; /* on the heap, not static: this runs beside GPU heaps too (gpu-test) */
  shmem_team_t team = SHMEM_TEAM_WORLD, evens, thirds, x = SHMEM_TEAM_WORLD, y = x;
  shmem_team_config_t conf = {7};
  shmem_ctx_t ctx = SHMEM_CTX_DEFAULT, ctx_evens, ctx_thirds;
  unsigned long errors;
  int me, n, right, left, i, expected = 0;
  shmem_init();
  shmem_test_ring(&me, &n, &right, &left);
  vals = (int *)shmem_calloc(3, sizeof(int)); /* the evens' value, the thirds', the sum */
  if (!vals) return 1;
  errors = shmemx_error_count();

  shmem_team_destroy(SHMEM_TEAM_INVALID);
  shmem_ctx_destroy(SHMEM_CTX_INVALID);
  shmem_ctx_quiet(SHMEM_CTX_INVALID);
  shmem_ctx_fence(SHMEM_CTX_INVALID);
  CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx) != 0 && ctx == SHMEM_CTX_INVALID);
  CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &team) != 0 && team == SHMEM_TEAM_INVALID);
  CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &conf) != 0);
  CHECK(conf.num_contexts == 7);
  team = SHMEM_TEAM_WORLD;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &team) != 0);
  CHECK(team == SHMEM_TEAM_INVALID);
  CHECK(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &x, NULL, 0, &y) != 0);
  CHECK(x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID);
  CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1 && shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1);
  CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1);
  CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID) == -1);
  CHECK(shmemx_error_count() == errors);

  /* Teams of the PEs 0, 2, 4, ... and 0, 3, 6, ...; a context on each where this PE is in it. */
  conf.num_contexts = 1;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, &conf,
                                 SHMEM_TEAM_NUM_CONTEXTS, &evens) == 0);
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 3, (n + 2) / 3, &conf,
                                 SHMEM_TEAM_NUM_CONTEXTS, &thirds) == 0);
  CHECK((evens != SHMEM_TEAM_INVALID) == (me % 2 == 0));
  CHECK((thirds != SHMEM_TEAM_INVALID) == (me % 3 == 0));
  CHECK((shmem_team_create_ctx(evens, 0, &ctx_evens) == 0) == (evens != SHMEM_TEAM_INVALID));
  CHECK((shmem_team_create_ctx(thirds, 0, &ctx_thirds) == 0) == (thirds != SHMEM_TEAM_INVALID));
  CHECK((ctx_evens == SHMEM_CTX_INVALID) == (evens == SHMEM_TEAM_INVALID));
  /* Each team's ring: my team number to the next member. */
  if (ctx_evens != SHMEM_CTX_INVALID) {
    int pe = shmem_team_my_pe(evens);
    shmem_ctx_int_p(ctx_evens, &vals[0], pe, (pe + 1) % shmem_team_n_pes(evens));
  }
  if (ctx_thirds != SHMEM_CTX_INVALID) {
    int pe = shmem_team_my_pe(thirds);
    shmem_ctx_int_p(ctx_thirds, &vals[1], pe, (pe + 1) % shmem_team_n_pes(thirds));
  }
  shmem_ctx_quiet(ctx_evens);
  shmem_ctx_quiet(ctx_thirds);
  shmem_team_sync(SHMEM_TEAM_WORLD);
  if (evens != SHMEM_TEAM_INVALID) {
    int m = shmem_team_n_pes(evens), pe = shmem_team_my_pe(evens);
    CHECK(vals[0] == (pe + m - 1) % m);
  }
  if (thirds != SHMEM_TEAM_INVALID) {
    int m = shmem_team_n_pes(thirds), pe = shmem_team_my_pe(thirds);
    CHECK(vals[1] == (pe + m - 1) % m);
  }
  /* The PEs in both teams add what they received on PE 0, through the evens' context. */
  if (evens != SHMEM_TEAM_INVALID && thirds != SHMEM_TEAM_INVALID)
    shmem_ctx_int_atomic_add(ctx_evens, &vals[2], vals[0] + vals[1], 0);
  shmem_ctx_quiet(ctx_evens);
  shmem_team_sync(SHMEM_TEAM_WORLD);
  for (i = 0; i < n; i += 6) {
    int me_e = i / 2, n_e = (n + 1) / 2, me_t = i / 3, n_t = (n + 2) / 3;
    expected += (me_e + n_e - 1) % n_e + (me_t + n_t - 1) % n_t;
  }
  if (me == 0) CHECK(vals[2] == expected);
  shmem_ctx_destroy(ctx_evens);
  shmem_team_destroy(evens);
  shmem_ctx_destroy(ctx_thirds);
  shmem_team_destroy(thirds);
  CHECK(shmemx_error_count() == errors);
  shmem_free(vals);
  return shmem_test_finish("shmem_invalid_handles");
}
