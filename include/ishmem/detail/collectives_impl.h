/* The device collectives on teams (GPU compilers only), which the device forms, the
 * stream-ordered forms and host calls on GPU heaps all run: one algorithm, one sequence of
 * calls per team (ishmem/detail/team_call.h has the layout and the meetings). Internal:
 * included by ishmem/device.h. */
#ifndef ISHMEM_DETAIL_COLLECTIVES_IMPL_H
#define ISHMEM_DETAIL_COLLECTIVES_IMPL_H

#include "ishmem/detail/mode.h"
#include "ishmem/detail/team_call.h"

namespace ishmemi {

#ifdef ISHMEMI_GPU

/* ---- Data movement -------------------------------------------------------------------------- */

/* broadcast: the root's bytes, from its staging (one-shot) or its source. */
template <class G>
ISHMEMI_FN int spread(TeamCall<G> &c, char *dest, const char *src, size_t bytes, int root) {
  const bool staged = bytes <= c.limit();
  if (staged && c.me == root) copy<G>(c.staging(), src, bytes);
  int rc = c.step(0);
  if (rc != ISHMEM_SUCCESS) return rc;
  const char *from = c.me == root ? src : c.on(staged ? (const char *)c.staging() : src, root);
  size_t lo, hi;
  c.slice(bytes, 64, lo, hi);
  if (dest != from) copy<G>(dest + lo, from + lo, hi - lo);
  return staged ? ISHMEM_SUCCESS : c.step(1);
}

/* collect, fcollect: member j's bytes (`bytes` each, or, when `counted`, as its record says)
 * from its staging or source land in dest after the earlier members'. */
template <class G>
ISHMEMI_FN int gather(TeamCall<G> &c, char *dest, const char *src, size_t bytes, bool counted) {
  if (bytes <= c.limit()) copy<G>(c.staging(), src, bytes);
  if (G::rank() == 0) *(volatile unsigned long long *)c.record() = bytes;
  int rc = c.step(0);
  if (rc != ISHMEM_SUCCESS) return rc;
  bool direct = false;
  size_t at = 0;
#pragma unroll 1
  for (int j = 0; j < c.n; ++j) {
    /* a member's record holds its bytes until its seq + 2 */
    const size_t b = counted ? *(volatile unsigned long long *)c.on(c.record(), j) : bytes;
    const bool staged = b <= c.limit();
    direct = direct || !staged;
    const char *from = j == c.me ? src : c.on(staged ? (const char *)c.staging() : src, j);
    size_t lo, hi;
    c.slice(b, 64, lo, hi);
    copy<G>(dest + at + lo, from + lo, hi - lo);
    at += b;
  }
  return direct ? c.step(1) : ISHMEM_SUCCESS;
}

/* alltoall: block `me` of member j's source lands in block j of dest. */
template <class G>
ISHMEMI_FN int exchange(TeamCall<G> &c, char *dest, const char *src, size_t block) {
  const bool staged = block * c.n <= c.limit();
  if (staged) copy<G>(c.staging(), src, block * c.n);
  int rc = c.step(0);
  if (rc != ISHMEM_SUCCESS) return rc;
  size_t lo, hi;
  c.slice(block, 64, lo, hi);
  /* this PE's block, as every member's source (or staging) holds it */
  const char *mine = (staged ? (const char *)c.staging() : src) + c.me * block + lo;
  char *to = dest + lo;
#pragma unroll 1
  for (int j = 0; j < c.n; ++j)
    copy<G>(to + j * block, j == c.me ? src + c.me * block + lo : c.on(mine, j), hi - lo);
  return staged ? ISHMEM_SUCCESS : c.step(1);
}

/* alltoalls: elements of `size` bytes, dst and sst elements apart. */
template <class G>
ISHMEMI_FN int exchange_strided(TeamCall<G> &c, char *dest, const char *src, ptrdiff_t dst,
                                ptrdiff_t sst, size_t nelems, size_t size) {
  int rc = c.step(0);
  if (rc != ISHMEM_SUCCESS) return rc;
  size_t lo, hi;
  c.slice(nelems, 1, lo, hi);
  const size_t count = (hi - lo) * c.n;
#pragma unroll 1
  for (size_t i = G::rank(); i < count; i += G::size()) {
    const int j = (int)(i / (hi - lo));
    const size_t k = lo + i % (hi - lo);
    char *to = dest + (ptrdiff_t)(j * nelems + k) * dst * (ptrdiff_t)size;
    const char *from = c.on(src, j) + (ptrdiff_t)(c.me * nelems + k) * sst * (ptrdiff_t)size;
    for (size_t b = 0; b < size; ++b) to[b] = from[b];
  }
  return c.step(1);
}

/* ---- Reductions ----------------------------------------------------------------------------- */

/* Integer sums and products wrap around (computed unsigned, at least as wide as int). */
template <int Op, class T>
ISHMEMI_FN T apply(T a, T b) {
  typedef unsigned long long Wide;
  if (Op == kAnd) return (T)((Wide)a & (Wide)b);
  if (Op == kOr) return (T)((Wide)a | (Wide)b);
  if (Op == kXor) return (T)((Wide)a ^ (Wide)b);
  if (Op == kMax) return a < b ? b : a;
  if (Op == kMin) return b < a ? b : a;
  if (T(0.5) != T(0)) return Op == kSum ? a + b : a * b; /* floating */
  return Op == kSum ? (T)((Wide)a + (Wide)b) : (T)((Wide)a * (Wide)b);
}

template <class T>
union Vec {
  uint4 raw;
  T e[16 / sizeof(T)];
};
/* U vectors of dest, g apart from v: every member's combined in team order, with the U loads
 * of a member in flight together. */
template <int U, int Op, class T, class G>
ISHMEMI_FN void combine_vectors(const TeamCall<G> &c, T *dest, const T *in, size_t v, size_t g) {
  Vec<T> acc[U], x[U];
#pragma unroll
  for (int u = 0; u < U; ++u) acc[u].raw = ((const uint4 *)c.on(in, 0))[v + u * g];
#pragma unroll 1
  for (int j = 1; j < c.n; ++j) {
    const uint4 *from = (const uint4 *)c.on(in, j);
#pragma unroll
    for (int u = 0; u < U; ++u) x[u].raw = from[v + u * g];
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (size_t e = 0; e < 16 / sizeof(T); ++e) acc[u].e[e] = apply<Op>(acc[u].e[e], x[u].e[e]);
  }
#pragma unroll
  for (int u = 0; u < U; ++u) ((uint4 *)dest)[v + u * g] = acc[u].raw;
}

/* dest[lo, hi) = every member's in[lo, hi) combined in team order; in is symmetric. Sixteen
 * bytes at a time, four per thread per step, where in and dest are 16-byte aligned. */
template <int Op, class T, class G>
ISHMEMI_FN void combine(const TeamCall<G> &c, T *dest, const T *in, size_t lo, size_t hi) {
  const size_t k = 16 / sizeof(T);
  size_t vlo = hi, vhi = hi;
  if (((size_t)in | (size_t)dest) % 16 == 0 && sizeof(T) <= 8) {
    vlo = (lo + k - 1) / k * k;
    vhi = hi / k * k;
    if (vhi < vlo) vlo = vhi = hi;
  }
  const size_t g = G::size(), end = vhi / k;
  size_t v = vlo / k + G::rank();
#pragma unroll 1
  for (; v + g < end; v += 2 * g) combine_vectors<2, Op>(c, dest, in, v, g);
#pragma unroll 1
  for (; v < end; v += g) combine_vectors<1, Op>(c, dest, in, v, g);
  /* the elements before vlo and from vhi on */
  const size_t edge = (vlo - lo) + (hi - vhi);
#pragma unroll 1
  for (size_t i = G::rank(); i < edge; i += g) {
    const size_t at = i < vlo - lo ? lo + i : vhi + (i - (vlo - lo));
    T acc = c.on(in, 0)[at];
#pragma unroll 1
    for (int j = 1; j < c.n; ++j) acc = apply<Op>(acc, c.on(in, j)[at]);
    dest[at] = acc;
  }
}

template <int Op, class T, class G>
ISHMEMI_FN int reduce(TeamCall<G> &c, T *dest, const T *src, size_t nelems) {
  const size_t bytes = nelems * sizeof(T);
  if (bytes <= c.limit()) { /* one-shot: every PE combines every member's staged copy */
    copy<G>(c.staging(), src, bytes);
    int rc = c.step(0);
    if (rc == ISHMEM_SUCCESS) combine<Op>(c, dest, (const T *)c.staging(), 0, nelems);
    return rc;
  }
  int rc = c.step(0);
  if (rc != ISHMEM_SUCCESS) return rc;
  const size_t line = 64 / sizeof(T);
  size_t lo, hi;
  c.slice(nelems, line, lo, hi);
  /* two members, not in place: each reads the other's whole slice, as many bytes as
   * reduce-scatter + all-gather would read, with one meeting less (in place, a member would
   * read the other's source while the other overwrites it) */
  if (c.n <= 2 && (const T *)dest != src) {
    combine<Op>(c, dest, src, lo, hi);
    return c.step(1);
  }
  /* reduce-scatter over this lane's slice: member m combines piece m into its dest; then
   * all-gather: each copies the other pieces from their owners' dest */
  size_t piece = (hi - lo + c.n - 1) / c.n;
  piece = (piece + line - 1) / line * line;
  const size_t mine_lo = lo + piece * c.me < hi ? lo + piece * c.me : hi;
  combine<Op>(c, dest, src, mine_lo, hi - mine_lo < piece ? hi : mine_lo + piece);
  if ((rc = c.step(1)) != ISHMEM_SUCCESS) return rc;
#pragma unroll 1
  for (int j = 0; j < c.n; ++j) {
    const size_t p_lo = lo + piece * j < hi ? lo + piece * j : hi;
    const size_t p_hi = hi - p_lo < piece ? hi : p_lo + piece;
    if (j != c.me) copy<G>(dest + p_lo, c.on(dest, j) + p_lo, (p_hi - p_lo) * sizeof(T));
  }
  return c.step(2);
}

/* ---- Operations of the collective signature lists (ishmem/collectives.h) -------------------- */

template <class T>
struct Size {
  static const size_t value = sizeof(T);
};
template <>
struct Size<void> {
  static const size_t value = 1;
};

/* The call's key; the lanes count too, so that _grid calls on different grids mismatch. */
ISHMEMI_FN CallKey key_of(unsigned kind, unsigned type, size_t nelems, const Lanes &l) {
  CallKey k = {kind, 0, type, nelems, 0, 0, 0, l.lanes};
  return k;
}

/* The byte-level forms, with the element size and type code of the call: the typed calls and
 * the library's kernels (lib/device/collective_kernels.cu) both run these. */
template <class G>
ISHMEMI_FN int broadcast_as(const Handle &h, const Lanes &l, int team, void *dest,
                            const void *source, size_t nelems, size_t size, unsigned type,
                            int root) {
  const size_t bytes = nelems * size;
  CallKey key = key_of(kBroadcast, type, nelems, l);
  key.root = root;
  const ishmemx_team_map_t *t = team_map(h, team);
  return team_collective<G>(
      h, team, l, key, t && (root < 0 || root >= t->n_pes), dest, source,
      [&](TeamCall<G> &c) { return spread(c, (char *)dest, (const char *)source, bytes, root); });
}
/* collect and fcollect: every member's contribution, in team order. */
template <class G>
ISHMEMI_FN int collect_as(const Handle &h, const Lanes &l, int team, void *dest, const void *source,
                          size_t nelems, size_t size, unsigned type, unsigned kind) {
  const size_t bytes = nelems * size;
  return team_collective<G>(
      h, team, l, key_of(kind, type, nelems, l), false, dest, source, [&](TeamCall<G> &c) {
        return gather(c, (char *)dest, (const char *)source, bytes, kind == kCollect);
      });
}
template <class G>
ISHMEMI_FN int alltoall_as(const Handle &h, const Lanes &l, int team, void *dest,
                           const void *source, size_t nelems, size_t size, unsigned type) {
  return team_collective<G>(h, team, l, key_of(kAlltoall, type, nelems, l), false, dest, source,
                            [&](TeamCall<G> &c) {
                              return exchange(c, (char *)dest, (const char *)source, nelems * size);
                            });
}
template <class G>
ISHMEMI_FN int alltoalls_as(const Handle &h, const Lanes &l, int team, void *dest,
                            const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                            size_t size, unsigned type) {
  CallKey key = key_of(kAlltoalls, type, nelems, l);
  key.dst = dst;
  key.sst = sst;
  return team_collective<G>(
      h, team, l, key, dst <= 0 || sst <= 0, dest, source, [&](TeamCall<G> &c) {
        return exchange_strided(c, (char *)dest, (const char *)source, dst, sst, nelems, size);
      });
}

#define ISHMEMI_TYPED_COLLECTIVE(NAME, CALL)                                               \
  template <class T, class G>                                                              \
  ISHMEMI_FN int NAME(const Handle &h, const Lanes &l, int team, T *dest, const T *source, \
                      size_t nelems) {                                                     \
    return CALL;                                                                           \
  }
ISHMEMI_TYPED_COLLECTIVE(collect, collect_as<G>(h, l, team, dest, source, nelems, Size<T>::value,
                                                TypeCode<T>::value, kCollect))
ISHMEMI_TYPED_COLLECTIVE(fcollect, collect_as<G>(h, l, team, dest, source, nelems, Size<T>::value,
                                                 TypeCode<T>::value, kFcollect))
ISHMEMI_TYPED_COLLECTIVE(alltoall, alltoall_as<G>(h, l, team, dest, source, nelems, Size<T>::value,
                                                  TypeCode<T>::value))
#undef ISHMEMI_TYPED_COLLECTIVE
template <class T, class G>
ISHMEMI_FN int broadcast(const Handle &h, const Lanes &l, int team, T *dest, const T *source,
                         size_t nelems, int root) {
  return broadcast_as<G>(h, l, team, dest, source, nelems, Size<T>::value, TypeCode<T>::value,
                         root);
}
template <class T, class G>
ISHMEMI_FN int alltoalls(const Handle &h, const Lanes &l, int team, T *dest, const T *source,
                         ptrdiff_t dst, ptrdiff_t sst, size_t nelems) {
  return alltoalls_as<G>(h, l, team, dest, source, dst, sst, nelems, Size<T>::value,
                         TypeCode<T>::value);
}
template <int Op, class T, class G>
ISHMEMI_FN int reduce_op(const Handle &h, const Lanes &l, int team, T *dest, const T *source,
                         size_t nreduce) {
  CallKey key = key_of(kReduce, TypeCode<T>::value, nreduce, l);
  key.op = Op;
  return team_collective<G>(h, team, l, key, false, dest, source,
                            [&](TeamCall<G> &c) { return reduce<Op>(c, dest, source, nreduce); });
}
#define ISHMEMI_REDUCE_OP(NAME, OP)                                                              \
  template <class T, class G>                                                                    \
  ISHMEMI_FN int NAME##_reduce(const Handle &h, const Lanes &l, int team, T *dest, const T *src, \
                               size_t nreduce) {                                                 \
    return reduce_op<OP, T, G>(h, l, team, dest, src, nreduce);                                  \
  }
ISHMEMI_REDUCE_OP(and, kAnd)
ISHMEMI_REDUCE_OP(or, kOr)
ISHMEMI_REDUCE_OP(xor, kXor)
ISHMEMI_REDUCE_OP(max, kMax)
ISHMEMI_REDUCE_OP(min, kMin)
ISHMEMI_REDUCE_OP(sum, kSum)
ISHMEMI_REDUCE_OP(prod, kProd)
#undef ISHMEMI_REDUCE_OP

template <class G>
ISHMEMI_FN int team_sync(const Handle &h, const Lanes &l, int team) {
  return team_collective<G>(h, team, l, key_of(kSync, 1, 0, l), false, 0, 0,
                            [&](TeamCall<G> &c) { return c.step(0); });
}
template <class G>
ISHMEMI_FN int team_sync_group(const Handle &h, int team) {
  return team_sync<G>(h, one_lane(), team);
}
template <class>
ISHMEMI_FN int team_sync_thread(const Handle &h, int team) {
  return team_sync_group<Thread>(h, team);
}

#else
/* Plain C++: the group forms of team_sync through the host API. */
template <class G>
inline int team_sync_group(const Handle &, int team) {
  return ishmem_team_sync(team);
}
#endif /* ISHMEMI_GPU */

} /* namespace ishmemi */

#endif /* ISHMEM_DETAIL_COLLECTIVES_IMPL_H */
