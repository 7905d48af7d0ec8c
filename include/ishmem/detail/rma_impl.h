/* The device RMA calls (and, compiled as plain C++, their forwarding to the host API): the
 * address translation, put, get, p, g, quiet, fence and the layout queries. The generators
 * (ishmem/detail/generate.h) call the operations at the end, one per signature list entry.
 * Internal: included by ishmem/device.h. */
#ifndef ISHMEM_DETAIL_RMA_IMPL_H
#define ISHMEM_DETAIL_RMA_IMPL_H

#include "ishmem.h"
#include "ishmem/detail/checks.h"
#include "ishmem/detail/copy.h"
#include "ishmem/detail/mode.h"
#include "ishmem/detail/proxy.h"
#include "ishmem/device_handle.h"

namespace ishmemi {

typedef ishmemx_device_handle_t Handle;

#ifdef ISHMEMI_GPU
/* The address of symmetric `sym` on `pe`. GPU heaps span one node whose PEs are numbered
 * like their slots, and their slots are a multiple of 4 GiB apart (the runtime checks both),
 * so the address moves by (pe - my_pe) * stride in its high 32 bits only: no table load and
 * one 32-bit add per address. The add is written in PTX on NVIDIA GPUs because NVVM turns the
 * C form back into a 64-bit add, which costs ishmem_p 20% over a raw store in a store loop
 * (docs/PERFORMANCE.md); the twins compute the same address. */
ISHMEMI_FN char *peer(const Handle &h, const void *sym, int pe) {
  const unsigned high_delta = (unsigned)(pe - h.my_pe) * (unsigned)(h.stride >> 32);
#ifdef ISHMEMI_GPU_AMD
  /* In integers: a pointer plus an unsigned offset of 2^63 or more is undefined behaviour. */
  return (char *)((unsigned long long)sym + ((unsigned long long)high_delta << 32));
#else
  unsigned long long address;
  asm("{\n\t.reg .u32 lo, hi;\n\tmov.b64 {lo, hi}, %1;\n\tadd.u32 hi, hi, %2;\n\t"
      "mov.b64 %0, {lo, hi};\n\t}"
      : "=l"(address)
      : "l"((unsigned long long)sym), "r"(high_delta));
  return (char *)address;
#endif
}

/* Whether a group of one thread moves one 8-byte word, both ends aligned, to or from a PE of
 * this node: then a single load and store do it, behind one branch. The general path puts the
 * off-node branch, the copy's choice of width and its loops between the call's start and the
 * source load; in a put-with-signal that chain is latency added to every message (docs/
 * PERFORMANCE.md). The tests are combined without short-circuits so that they compile to one
 * branch. */
template <class G>
ISHMEMI_FN bool one_word(const Handle &h, const void *dest, const void *src, size_t n, int pe) {
  return G::kOne & (n == 8) & ((((size_t)dest | (size_t)src) & 7) == 0) & !off_node(h, pe);
}
ISHMEMI_FN void move_word(void *dest, const void *src) {
  *(unsigned long long *)dest = *(const unsigned long long *)src;
}

template <class G, bool NBI>
ISHMEMI_FN int put_group(const Handle &h, void *dest, const void *src, size_t n, int pe) {
  check("put", h, dest, n, pe);
  if (one_word<G>(h, dest, src, n, pe)) {
    move_word(peer(h, dest, pe), src);
    return ISHMEM_SUCCESS;
  }
  if (off_node(h, pe))
    return group_proxy<G>(
        [&] { return proxy_rma(h.heap_map, true, NBI, dest, (void *)src, n, pe); });
  G::sync(); /* every thread's writes to src are done */
  copy<G>(peer(h, dest, pe), src, n);
  if (!NBI) G::sync(); /* src may be reused by any thread of the group */
  return ISHMEM_SUCCESS;
}
template <class G, bool NBI>
ISHMEMI_FN int get_group(const Handle &h, void *dest, const void *src, size_t n, int pe) {
  check("get", h, src, n, pe);
  if (one_word<G>(h, dest, src, n, pe)) {
    move_word(dest, peer(h, src, pe));
    return ISHMEM_SUCCESS;
  }
  if (off_node(h, pe))
    return group_proxy<G>(
        [&] { return proxy_rma(h.heap_map, false, NBI, (void *)src, dest, n, pe); });
  G::sync();
  copy<G>(dest, peer(h, src, pe), n);
  if (!NBI) G::sync(); /* dest is complete for every thread of the group */
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int p(const Handle &h, T *dest, T value, int pe) {
  check("p", h, dest, sizeof(T), pe);
  if (off_node(h, pe)) return proxy_rma(h.heap_map, true, true, dest, &value, sizeof(T), pe);
  *(volatile T *)peer(h, dest, pe) = value;
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN T g(const Handle &h, const T *src, int pe) {
  check("g", h, src, sizeof(T), pe);
  if (off_node(h, pe)) {
    T value = T();
    proxy_rma(h.heap_map, false, false, (void *)src, &value, sizeof(T), pe);
    return value;
  }
  return *(const volatile T *)peer(h, src, pe);
}
ISHMEMI_FN int quiet(const Handle &h) {
  __threadfence_system(); /* peers may be other GPUs: system scope */
  /* Off-node requests: the proxy completes every earlier one at its target first. */
  if (has_off_node(h)) return proxy_sync(h.heap_map, ISHMEMX_PROXY_QUIET | ISHMEMX_PROXY_WAIT, 0);
  return ISHMEM_SUCCESS;
}
ISHMEMI_FN int fence(const Handle &h) {
  __threadfence_system();
  if (has_off_node(h)) return proxy_sync(h.heap_map, ISHMEMX_PROXY_FENCE, 0);
  return ISHMEM_SUCCESS;
}
/* NULL unless dest lies in the committed heap (past it the window is only reserved). */
template <class>
ISHMEMI_FN void *ptr(const Handle &h, const void *dest, int pe) {
  size_t off = (size_t)((const char *)dest - h.local_base);
  if (pe < 0 || pe >= h.n_pes || !h.heap_map || off >= h.heap_map->committed) return 0;
  if (off_node(h, pe)) return 0; /* reached through the proxy only */
  return peer(h, dest, pe);
}
ISHMEMI_FN int my_pe(const Handle &h) {
  return h.my_pe;
}
ISHMEMI_FN int n_pes(const Handle &h) {
  return h.n_pes;
}
/* Teams (ishmem/team.h): the device's copy of this PE's team table. -1 for a team this PE has
 * not (invalid, destroyed, not a member, out of range), as on the host. */
ISHMEMI_FN const ishmemx_team_map_t *team_map(const Handle &h, int team) {
  if (team < 0 || team >= h.max_teams || !h.heap_map) return 0;
  const ishmemx_team_map_t *t = h.heap_map->teams + team;
  return t->n_pes > 0 ? t : 0;
}
template <class>
ISHMEMI_FN int team_my_pe(const Handle &h, int team) {
  const ishmemx_team_map_t *t = team_map(h, team);
  return t ? t->my_pe : -1;
}
template <class>
ISHMEMI_FN int team_n_pes(const Handle &h, int team) {
  const ishmemx_team_map_t *t = team_map(h, team);
  return t ? t->n_pes : -1;
}
template <class>
ISHMEMI_FN int team_translate_pe(const Handle &h, int src_team, int src_pe, int dest_team) {
  const ishmemx_team_map_t *from = team_map(h, src_team), *to = team_map(h, dest_team);
  if (!from || !to || src_pe < 0 || src_pe >= from->n_pes) return -1;
  const int pe = from->pes[src_pe];
  for (int i = 0; i < to->n_pes; ++i)
    if (to->pes[i] == pe) return i;
  return -1;
}

#else
/* ---- Plain C++: the group forms through the host API (the standard names are the host
 * library's; the generators forward the handle forms to them) ---------------------------- */

struct Thread {};
struct Warp {};
struct Block {};

template <class G, bool NBI>
inline int put_group(const Handle &, void *dest, const void *src, size_t n, int pe) {
  return NBI ? ishmem_putmem_nbi(dest, src, n, pe) : ishmem_putmem(dest, src, n, pe);
}
template <class G, bool NBI>
inline int get_group(const Handle &, void *dest, const void *src, size_t n, int pe) {
  return NBI ? ishmem_getmem_nbi(dest, src, n, pe) : ishmem_getmem(dest, src, n, pe);
}
inline const Handle &host_state() {
  static const Handle none = {};
  return none;
}
#endif

#ifdef ISHMEMI_GPU
/* ---- Operations of the signature lists (ishmem/detail/signatures.h) ------------------------ */

/* DIR is put or get: the byte forms (the list's TARG is void) and the typed ones. */
#define ISHMEMI_RMA_OPS(DIR)                                                                    \
  template <class>                                                                              \
  ISHMEMI_FN int DIR##mem(const Handle &h, void *dest, const void *src, size_t n, int pe) {     \
    return DIR##_group<Thread, false>(h, dest, src, n, pe);                                     \
  }                                                                                             \
  template <class>                                                                              \
  ISHMEMI_FN int DIR##mem_nbi(const Handle &h, void *dest, const void *src, size_t n, int pe) { \
    return DIR##_group<Thread, true>(h, dest, src, n, pe);                                      \
  }                                                                                             \
  template <class T>                                                                            \
  ISHMEMI_FN int DIR(const Handle &h, T *dest, const T *src, size_t nelems, int pe) {           \
    return DIR##_group<Thread, false>(h, dest, src, nelems * sizeof(T), pe);                    \
  }                                                                                             \
  template <class T>                                                                            \
  ISHMEMI_FN int DIR##_nbi(const Handle &h, T *dest, const T *src, size_t nelems, int pe) {     \
    return DIR##_group<Thread, true>(h, dest, src, nelems * sizeof(T), pe);                     \
  }
ISHMEMI_RMA_OPS(put)
ISHMEMI_RMA_OPS(get)
#undef ISHMEMI_RMA_OPS
#endif /* ISHMEMI_GPU */

} /* namespace ishmemi */

#endif /* ISHMEM_DETAIL_RMA_IMPL_H */
