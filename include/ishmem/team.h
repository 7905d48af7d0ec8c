/* Teams (OpenSHMEM 1.5): subsets of the PEs on which collectives run. A team handle is an
 * index in a per-PE table of ISHMEM_MAX_TEAMS slots (WORLD and SHARED included), the same on
 * every member of the team, so it can be passed to kernels as a plain int. Included by
 * ishmem.h; plain C. */
#ifndef ISHMEM_TEAM_H
#define ISHMEM_TEAM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int ishmem_team_t;
#define ISHMEM_TEAM_INVALID (-1)
#define ISHMEM_TEAM_WORLD 0 /* every PE, numbered as ishmem_my_pe */
/* The PEs of this node, whose heaps ishmem_ptr reaches; in split mode (ISHMEM_MAX_LOCAL_PES=k,
 * docs/MULTI_NODE.md) this PE's group of at most k PEs (k = 1 or ISHMEM_NODE_LOCAL=self: this
 * PE alone). */
#define ISHMEM_TEAM_SHARED 1

/* Options of a new team; num_contexts is recorded and returned by ishmem_team_get_config
 * (ishmem has no communication contexts). */
typedef struct {
  int num_contexts;
} ishmem_team_config_t;
#define ISHMEM_TEAM_NUM_CONTEXTS (1L << 0) /* the config_mask bit of num_contexts */

/* Queries: this PE's number in `team` and the team's size; -1 for an invalid team (one this
 * PE is not in, destroyed, ISHMEM_TEAM_INVALID). */
int ishmem_team_my_pe(ishmem_team_t team);
int ishmem_team_n_pes(ishmem_team_t team);
/* The number in dest_team of PE src_pe of src_team, or -1 when either team is invalid or the
 * PE is not in dest_team. */
int ishmem_team_translate_pe(ishmem_team_t src_team, int src_pe, ishmem_team_t dest_team);
/* Copies the fields of team's config named in config_mask into *config. ISHMEM_TEAM_INVALID:
 * nothing is copied and the return is nonzero (ISHMEM_ERR_INVALID_ARG), with no error report,
 * as OpenSHMEM 1.5 has it. */
int ishmem_team_get_config(ishmem_team_t team, long config_mask, ishmem_team_config_t *config);
/* Local address of symmetric `dest` on PE `pe` of `team`, or NULL (see ishmem_ptr). */
void *ishmem_team_ptr(ishmem_team_t team, const void *dest, int pe);

/* Collective over the parent's members, who pass the same start, stride and size (a
 * mismatch fails every member with ISHMEM_ERR_MISMATCH). The new team holds the parent's PEs
 * start, start + stride, ..., start + (size - 1) * stride; stride may be negative, and 0 only
 * when size is 1. A member not in it gets ISHMEM_TEAM_INVALID and ISHMEM_SUCCESS. Past
 * ISHMEM_MAX_TEAMS every member gets ISHMEM_ERR_NOMEM and ISHMEM_TEAM_INVALID. A PE that
 * passes parent_team ISHMEM_TEAM_INVALID takes no part: it gets ISHMEM_TEAM_INVALID and a
 * nonzero return (ISHMEM_ERR_INVALID_ARG) with no error report; so does ishmem_team_split_2d.
 */
int ishmem_team_split_strided(ishmem_team_t parent_team, int start, int stride, int size,
                              const ishmem_team_config_t *config, long config_mask,
                              ishmem_team_t *new_team);
/* Collective over the parent's members: the parent's PEs as rows of xrange PEs (the last row
 * may be short; xrange past the parent's size means one row). *xaxis_team is this PE's row,
 * *yaxis_team its column. */
int ishmem_team_split_2d(ishmem_team_t parent_team, int xrange,
                         const ishmem_team_config_t *xaxis_config, long xaxis_mask,
                         ishmem_team_t *xaxis_team, const ishmem_team_config_t *yaxis_config,
                         long yaxis_mask, ishmem_team_t *yaxis_team);
/* Collective over the team's members: frees its slot. WORLD and SHARED cannot be destroyed.
 * ISHMEM_TEAM_INVALID: nothing is done and the return is ISHMEM_SUCCESS (OpenSHMEM 1.5). */
int ishmem_team_destroy(ishmem_team_t team);
/* Collective over the team's members: every member arrives before any leaves. Stores made
 * before it are visible after it; puts are complete only after ishmem_quiet (or when
 * blocking). */
int ishmem_team_sync(ishmem_team_t team);

#ifdef __cplusplus
}
#endif

#endif /* ISHMEM_TEAM_H */
