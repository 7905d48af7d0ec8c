/* How a device collective meets the team's other members (GPU compilers only): the layout of
 * the team's area, the call's key, and the progress posts every collective is made of
 * (ishmem/detail/collectives_impl.h moves the data). Internal: included by
 * collectives_impl.h.
 *
 * A team's collective area (lib/runtime/team.h; the same heap offset on every member) holds:
 *  - rows [0, 4096): for each lane l < ISHMEMX_GRID_MAX_BLOCKS and member j, the 64-bit word
 *    (l * 32 + j) is where member j posts its progress to this PE: count << 24 | call hash.
 *    A PE posts into every peer's row and polls its own, as the barrier rows do
 *    (ishmem/detail/sync_impl.h);
 *  - scratch, then: one 128-byte head per lane (this PE's call count on the lane, and the
 *    call's record, by parity of the count), and from offset 4096 two staging halves, used
 *    by parity, for one-shot calls on lane 0.
 * A lane is one block of a _grid call (lane 0 for every other form); each lane counts its
 * calls, and call `seq` step `phase` posts count seq * 4 + phase + 1. The 24-bit hash of the
 * call (kind, operation, element type, size, root, strides) rides in the same word, so that a
 * PE finds a peer in a different call when it sees that peer at its own count: both then
 * return ISHMEM_ERR_MISMATCH, and the counts stay in step.
 * One-shot calls (every contribution of lane 0 fits the staging threshold) copy the
 * contribution to staging half seq % 2 before posting, and need no other step: a PE writes
 * that half again at seq + 2 only after every member posted seq + 1, which each does once it
 * has read seq. Other calls read the peers' buffers directly and post a last step, after
 * which every member is done reading this PE's source. */
#ifndef ISHMEM_DETAIL_TEAM_CALL_H
#define ISHMEM_DETAIL_TEAM_CALL_H

#include <stdio.h> /* printf, in device code too */

#include "ishmem/detail/atomics.h"
#include "ishmem/detail/mode.h"
#include "ishmem/detail/rma_impl.h"
#include "ishmem/detail/sync_impl.h"

namespace ishmemi {

/* Kinds and operations, numbered as the host library's CollectiveKind and ReduceOp. */
enum CollectiveKind {
  kBroadcast = 1,
  kCollect,
  kFcollect,
  kAlltoall,
  kAlltoalls,
  kReduce,
  kRejected,
  kSync
};
enum ReduceOp { kAnd = 1, kOr, kXor, kMax, kMin, kSum, kProd };

/* The element type code of the host library's ElementType: kind << 8 | size; kind 0 bytes, 1
 * signed integer, 2 unsigned integer, 3 real. */
template <class T>
struct TypeCode {
  static const unsigned value =
      (unsigned)sizeof(T) | (T(-1) < T(0) ? (T(0.5) != T(0) ? 3u : 1u) : 2u) << 8;
};
template <>
struct TypeCode<void> {
  static const unsigned value = 1;
};

/* One call, as the members compare it. */
struct CallKey {
  unsigned kind, op, type;
  size_t nelems; /* collect: not compared (each PE's count) */
  long long root, dst, sst;
  int lanes;
  ISHMEMI_FN unsigned long long hash() const {
    unsigned long long v[] = {(unsigned long long)kind | (unsigned long long)op << 8 |
                                  (unsigned long long)type << 16 | (unsigned long long)lanes << 32,
                              kind == kCollect ? 0ull : (unsigned long long)nelems,
                              (unsigned long long)root, (unsigned long long)dst,
                              (unsigned long long)sst};
    unsigned long long h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 5; ++i) {
      h ^= v[i];
      h *= 0xff51afd7ed558ccdull;
      h ^= h >> 29;
    }
    return h & 0xffffff;
  }
};

/* Which slice of a call's data a group moves: lane `lane` of `lanes`. */
struct Lanes {
  int lane, lanes;
};

#ifdef ISHMEMI_GPU

const size_t kRowsBytes = 4096, kLaneHeadBytes = 128, kStagingOffset = 4096;
const int kRowMembers = ISHMEMX_DEVICE_TEAM_MAX_PES;

/* The lanes of the forms: one, or one per block of a 1-D grid. */
ISHMEMI_FN Lanes one_lane() {
  Lanes l = {0, 1};
  return l;
}
ISHMEMI_FN Lanes grid_lanes() {
  Lanes l = {(int)blockIdx.x, gridDim.y * gridDim.z == 1 ? (int)gridDim.x : 1 << 30};
  return l;
}

/* One call of group G on a team: its progress posts and its slices. */
template <class G>
struct TeamCall {
  const Handle &h;
  const ishmemx_team_map_t *t;
  int n, me, lane, lanes;
  unsigned long long seq, hash;
  size_t half; /* bytes of one staging half (lane 0) */

  ISHMEMI_FN TeamCall(const Handle &handle) : h(handle) {}
  ISHMEMI_FN char *scratch() const { return t->area + kRowsBytes; }
  ISHMEMI_FN unsigned long long *head() const {
    return (unsigned long long *)(scratch() + (size_t)lane * kLaneHeadBytes);
  }
  /* This PE's record of the call: what a peer reads of it (collect: the count). */
  ISHMEMI_FN unsigned long long *record() const { return head() + 2 + (seq & 1) * 4; }
  ISHMEMI_FN char *staging() const { return scratch() + kStagingOffset + (seq & 1) * half; }
  /* Bytes one-shot calls may stage (0 for lanes other than 0 of 1). */
  ISHMEMI_FN size_t limit() const {
    const size_t cap = h.heap_map->device_oneshot_max;
    return lanes == 1 ? (half < cap ? half : cap) : 0;
  }
  /* Member j's copy of symmetric p. */
  template <class P>
  ISHMEMI_FN P *on(P *p, int j) const {
    return j == me ? p : (P *)peer(h, p, t->pes[j]);
  }
  /* [lo, hi) of n units for this lane, in pieces of `align` units. */
  ISHMEMI_FN void slice(size_t n_units, size_t align, size_t &lo, size_t &hi) const {
    size_t per = n_units;
    if (lanes > 1) { /* in pieces of align; 32-bit division while the count of pieces fits */
      const size_t pieces = (n_units + align - 1) / align;
      per = (pieces >> 32 ? (pieces + lanes - 1) / lanes
                          : (unsigned)(pieces + lanes - 1) / (unsigned)lanes) *
            align;
    }
    lo = per * (size_t)lane < n_units ? per * (size_t)lane : n_units;
    hi = n_units - lo < per ? n_units : lo + per;
  }

  /* Takes the team and the lane's count; an error here is the same on every member. */
  ISHMEMI_FN int begin(int team, const Lanes &l, const CallKey &key) {
    t = team_map(h, team);
    if (!t) return ISHMEM_ERR_INVALID_ARG;
    if (!t->area || t->n_pes > kRowMembers) return ISHMEM_ERR_UNSUPPORTED;
    if (l.lanes > ISHMEMX_GRID_MAX_BLOCKS) return ISHMEM_ERR_INVALID_ARG;
    n = t->n_pes;
    me = t->my_pe;
    lane = l.lane;
    lanes = l.lanes;
    hash = key.hash();
    const size_t scratch_bytes = h.heap_map->collective_scratch;
    half =
        scratch_bytes > kStagingOffset ? ((scratch_bytes - kStagingOffset) / 2) & ~(size_t)63 : 0;
    G::sync(); /* the group's writes to the buffers, and the last call's count, are done */
    seq = *(volatile unsigned long long *)head();
    return ISHMEM_SUCCESS;
  }
  /* Counts the call on this lane, whatever its outcome. */
  ISHMEMI_FN int end(int rc) {
    G::sync();
    if (G::rank() == 0) *(volatile unsigned long long *)head() = seq + 1;
    return rc;
  }
  /* Posts `phase` to every member and waits for theirs: the group's writes before it are
   * visible (system-scope release) to each member that passes it. */
  ISHMEMI_FN int step(int phase) {
    const unsigned long long count = seq * 4 + phase + 1, word = count << 24 | hash;
    const size_t my_word = (size_t)lane * kRowMembers;
    G::sync();
#pragma unroll 1
    for (int j = G::rank(); j < n; j += G::size()) {
      if (j == me) continue;
      __threadfence_system();
      st_relaxed(on((unsigned long long *)t->area, j) + my_word + me, word);
    }
    int mismatch = 0, late = 0;
#pragma unroll 1
    for (int j = G::rank(); j < n; j += G::size()) {
      if (j == me) continue;
      const unsigned long long *post = (unsigned long long *)t->area + my_word + j;
      unsigned long long seen = 0;
      if (!wait_deadline(h, [&] { return ((seen = ld_acquire(post)) >> 24) >= count; }))
        late = 1;
      else if ((seen >> 24) == count && (seen & 0xffffff) != hash)
        mismatch = 1;
    }
    if (G::any(mismatch)) {
      if (G::rank() == 0)
        printf(
            "[ishmem pe %d] device collective on team %d: the team's PEs made different "
            "collective calls\n",
            h.my_pe, (int)(t - h.heap_map->teams));
      return ISHMEM_ERR_MISMATCH;
    }
    return G::any(late) ? ISHMEM_ERR_TIMEOUT : ISHMEM_SUCCESS;
  }
};

/* A collective on a team that spans nodes (it has no area here): one request to the device
 * proxy, whose host thread compares the members' calls and runs it over MPI on host copies
 * of the buffers, then answers with its status (docs/MULTI_NODE.md). One lane only: the
 * blocks of a _grid call cannot share a request. */
template <class G>
ISHMEMI_FN int proxied_collective(const Handle &h, int team, const Lanes &l, const CallKey &key,
                                  void *dest, const void *source) {
  const bool strided = key.kind == kAlltoalls;
  const long long stride_max = 0x7fffffff;
  if (l.lanes != 1 || (strided && (key.dst > stride_max || key.sst > stride_max)))
    return ISHMEM_ERR_UNSUPPORTED; /* the same on every member */
  G::sync();                       /* every thread's part of the source is written */
  int rc = ISHMEM_SUCCESS;
  if (G::rank() == 0) {
    ProxyRequest r = proxy_request(ISHMEMX_PROXY_COLLECTIVE | ISHMEMX_PROXY_WAIT, team, dest);
    r.source = (unsigned long long)source;
    r.bytes = key.nelems;
    r.value = key.kind | key.op << 8 | (unsigned long long)key.type << 16;
    r.cond = strided ? (unsigned long long)key.dst << 32 | (unsigned long long)key.sst
                     : (unsigned long long)key.root;
    /* No deadline of its own: the proxy's thread may still write dest after one passed, and
     * its MPI waits end the job at the collective deadline (docs/MULTI_NODE.md). */
    unsigned long long status = 0;
    rc = proxy_call(h.heap_map, r, &status);
    if (rc == ISHMEM_SUCCESS) rc = (int)(long long)status;
  }
  return group_status<G>(rc); /* a group barrier: dest is complete for every thread */
}

/* Runs body(call) as one collective on dest and source; a PE that rejects its own arguments
 * (bad) still posts, so that the others fail with ISHMEM_ERR_MISMATCH instead of waiting. */
template <class G, class Body>
ISHMEMI_FN int team_collective(const Handle &h, int team, const Lanes &l, CallKey key, bool bad,
                               void *dest, const void *source, Body body) {
  if (bad) key.kind = kRejected;
  const ishmemx_team_map_t *t = team_map(h, team);
  if (t && !t->area && proxy_serves(h.heap_map)) {
    const int rc = proxied_collective<G>(h, team, l, key, dest, source);
    return bad && rc != ISHMEM_ERR_TIMEOUT ? ISHMEM_ERR_INVALID_ARG : rc;
  }
  TeamCall<G> c(h);
  int rc = c.begin(team, l, key);
  if (rc != ISHMEM_SUCCESS) return rc;
  if (bad) {
    rc = c.step(0);
    return c.end(rc == ISHMEM_ERR_TIMEOUT ? rc : ISHMEM_ERR_INVALID_ARG);
  }
  return c.end(body(c));
}

#endif /* ISHMEMI_GPU */

} /* namespace ishmemi */

#endif /* ISHMEM_DETAIL_TEAM_CALL_H */
