// Teams: the queries read this PE's team table and return -1 (or NULL) for a team it does
// not hold, as OpenSHMEM's do; splits, destroy and sync are collective (runtime/team*.cpp).
#include "api/guard.h"
#include "runtime/gpu_collectives.h"
#include "runtime/gpu_runtime.h"
#include "runtime/runtime.h"

using namespace ishmem::detail;

namespace {

const Team *held_team(ishmem_team_t team) {
  return g_rt && g_rt->teams ? g_rt->teams->find(team) : nullptr;
}

}  // namespace

extern "C" {

int ishmem_team_my_pe(ishmem_team_t team) {
  const Team *t = held_team(team);
  return t ? t->my_index : -1;
}

int ishmem_team_n_pes(ishmem_team_t team) {
  const Team *t = held_team(team);
  return t ? t->n_pes() : -1;
}

int ishmem_team_translate_pe(ishmem_team_t src_team, int src_pe, ishmem_team_t dest_team) {
  const Team *src = held_team(src_team), *dest = held_team(dest_team);
  if (!src || !dest || src_pe < 0 || src_pe >= src->n_pes()) return -1;
  return dest->index_of(src->world_pe(src_pe));
}

int ishmem_team_get_config(ishmem_team_t team, long config_mask, ishmem_team_config_t *config) {
  if (team == ISHMEM_TEAM_INVALID && g_rt)
    return invalid_handle_status("ishmem_team_get_config", "ISHMEM_TEAM_INVALID");
  return guard([&] {
    const Team &t = team_of(runtime(), team, "ishmem_team_get_config");
    if (!config) fail(ISHMEM_ERR_INVALID_ARG, "ishmem_team_get_config: config is NULL");
    if (config_mask & ~ISHMEM_TEAM_NUM_CONTEXTS)
      fail(ISHMEM_ERR_INVALID_ARG,
           "ishmem_team_get_config: config_mask %#lx has bits other than "
           "ISHMEM_TEAM_NUM_CONTEXTS",
           config_mask);
    if (config_mask & ISHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = t.config.num_contexts;
  });
}

void *ishmem_team_ptr(ishmem_team_t team, const void *dest, int pe) {
  const Team *t = held_team(team);
  if (!t || pe < 0 || pe >= t->n_pes()) return nullptr;
  return ishmem_ptr(dest, t->world_pe(pe));
}

int ishmem_team_split_strided(ishmem_team_t parent_team, int start, int stride, int size,
                              const ishmem_team_config_t *config, long config_mask,
                              ishmem_team_t *new_team) {
  if (new_team) *new_team = ISHMEM_TEAM_INVALID;
  if (parent_team == ISHMEM_TEAM_INVALID && new_team && g_rt)
    return invalid_handle_status("ishmem_team_split_strided", "ISHMEM_TEAM_INVALID");
  return guard([&] {
    Runtime &rt = runtime();
    Team &parent = team_of(rt, parent_team, "ishmem_team_split_strided");
    team_split_strided(rt, parent, start, stride, size, config, config_mask, new_team);
  });
}

int ishmem_team_split_2d(ishmem_team_t parent_team, int xrange,
                         const ishmem_team_config_t *xaxis_config, long xaxis_mask,
                         ishmem_team_t *xaxis_team, const ishmem_team_config_t *yaxis_config,
                         long yaxis_mask, ishmem_team_t *yaxis_team) {
  if (xaxis_team) *xaxis_team = ISHMEM_TEAM_INVALID;
  if (yaxis_team) *yaxis_team = ISHMEM_TEAM_INVALID;
  if (parent_team == ISHMEM_TEAM_INVALID && xaxis_team && yaxis_team && g_rt)
    return invalid_handle_status("ishmem_team_split_2d", "ISHMEM_TEAM_INVALID");
  return guard([&] {
    Runtime &rt = runtime();
    Team &parent = team_of(rt, parent_team, "ishmem_team_split_2d");
    team_split_2d(rt, parent, xrange, xaxis_config, xaxis_mask, xaxis_team, yaxis_config,
                  yaxis_mask, yaxis_team);
  });
}

int ishmem_team_destroy(ishmem_team_t team) {
  if (team == ISHMEM_TEAM_INVALID) return ISHMEM_SUCCESS;  // OpenSHMEM 1.5: no operation
  return guard([&] {
    Runtime &rt = runtime();
    team_destroy(rt, team_of(rt, team, "ishmem_team_destroy"));
  });
}

int ishmem_team_sync(ishmem_team_t team) {
  return guard([&] {
    Runtime &rt = runtime();
    team_sync(rt, team_of(rt, team, "ishmem_team_sync"), "ishmem_team_sync");
  });
}

// With a GPU backend, a kernel in the sequence of the team's device collectives; with the
// host backend there is no stream: the team syncs at once.
int ishmemx_team_sync_on_stream(ishmem_team_t team, void *stream) {
  return guard([&] {
    Runtime &rt = runtime();
    const char *fn = "ishmemx_team_sync_on_stream";
    Team &t = team_of(rt, team, fn);
    if (gpu_backend(rt))
      team_sync_on_stream(rt, t, stream);
    else
      team_sync(rt, t, fn);
  });
}

}  // extern "C"
