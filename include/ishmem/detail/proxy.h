/* Device calls to off-node PEs (GPU compilers only): requests to the host's proxy
 * (lib/runtime/device_proxy.h) through the ring of ishmemx_proxy_slot_t in host memory that
 * the heap map points to (docs/MULTI_NODE.md). The calls test off_node(), one subtract and
 * compare on the handle, and run the functions here behind that branch. They take the heap
 * map's pointer and a few scalars, not the handle. Kernels built with ISHMEMX_DEVICE_NODE_LOCAL
 * leave all of it out: their calls to off-node PEs return ISHMEM_ERR_UNSUPPORTED. Internal:
 * included by rma_impl.h.
 *
 * Where the request code runs. In relocatable device code (the no-argument forms' build) it is
 * the device library's (ishmem::device, lib/device/proxy_requests.cu): two functions, out of
 * line, that nvcc compiles within 32 registers. A call is what lets the compiler take the
 * off-node test out of a caller's loop (inlined, the request's wait loops kept a branch and a
 * convergence barrier beside every store of a loop of ishmem_p: 5.9x a raw store), and the
 * cap keeps the callee's registers, which count against every calling kernel, within what a
 * kernel of two 1024-thread blocks per multiprocessor has (docs/DEVICE_API.md). Elsewhere
 * (the handle form without relocatable device code, and the library's own kernels) there is
 * nothing to link against, and the code is inlined. */
#ifndef ISHMEM_DETAIL_PROXY_H
#define ISHMEM_DETAIL_PROXY_H

#include "ishmem.h"
#include "ishmem/detail/atomics.h"
#include "ishmem/detail/checks.h"
#include "ishmem/detail/mode.h"
#include "ishmem/device_handle.h"

#ifdef ISHMEMI_GPU
namespace ishmemi {

/* Whether `pe` is outside this PE's node (its heap is not mapped here). */
ISHMEMI_FN bool off_node(const ishmemx_device_handle_t &h, int pe) {
  return (unsigned)(pe - h.first_local_pe) >= (unsigned)h.n_local;
}
/* Whether some PE is off-node: quiet and fence then reach the proxy too. */
ISHMEMI_FN bool has_off_node(const ishmemx_device_handle_t &h) {
  return h.n_local < h.n_pes;
}

/* Whether the host can address p: global memory (the heap, device allocations, mapped host
 * memory), not a thread's local memory nor a block's shared memory. */
ISHMEMI_FN bool host_reachable(const void *p) {
#if defined(ISHMEMI_GPU_AMD)
#if defined(__HIP_DEVICE_COMPILE__)
  return !__builtin_amdgcn_is_private(p) && !__builtin_amdgcn_is_shared(p);
#else
  return p != 0;
#endif
#else
  return __isGlobal(p);
#endif
}

/* A request as a call fills it. */
struct ProxyRequest {
  unsigned op;
  int pe;
  unsigned long long dest, source, bytes, value, cond;
};

/* Whether a proxy serves this kernel's requests. Never in kernels built with
 * ISHMEMX_DEVICE_NODE_LOCAL (for jobs on one node): the constant leaves every request out,
 * and with it the inlined request code of the handle form built without relocatable device
 * code (docs/DEVICE_API.md, "Stores in hot loops"). */
ISHMEMI_FN bool proxy_serves(const ishmemx_heap_map_t *map) {
#ifdef ISHMEMX_DEVICE_NODE_LOCAL
  (void)map;
  return false;
#else
  return map && map->proxy_slots && map->proxy_status;
#endif
}
/* ISHMEM_ERR_UNSUPPORTED where no proxy serves this kernel, else the proxy's status: 0 while it
 * runs, its error once it stopped. */
ISHMEMI_FN int proxy_state(const ishmemx_heap_map_t *map) {
  if (!proxy_serves(map)) return ISHMEM_ERR_UNSUPPORTED;
  return (int)ld_relaxed((const unsigned int *)map->proxy_status);
}

/* One poll of a wait on the proxy failed: ISHMEM_ERR_TIMEOUT past ISHMEMX_DEVICE_WAIT_LIMIT or
 * the deadline (0: none), the proxy's error once it stopped, else 0. */
ISHMEMI_FN int proxy_stalled(const ishmemx_heap_map_t *map, Waiter &w, unsigned long long deadline,
                             unsigned long long &start) {
  if (!w.next()) return ISHMEM_ERR_TIMEOUT;
  if (w.polls % 64) return 0; /* the status and the timer: now and then */
  if (deadline) {
    const unsigned long long now = timer_now();
    if (start == 0) start = now;
    if (now - start > deadline) return ISHMEM_ERR_TIMEOUT;
  }
  return (int)ld_relaxed((const unsigned int *)map->proxy_status);
}

#if defined(ISHMEMI_DEVICE_STATE) && !defined(ISHMEMI_PROXY_LIBRARY) && \
    !defined(ISHMEMX_DEVICE_NODE_LOCAL)
#define ISHMEMI_PROXY_IN_LIBRARY 1
#endif

/* The request code out of line: lib/device/proxy_requests.cu defines them (its translation unit
 * sets ISHMEMI_PROXY_LIBRARY and compiles the bodies below). */
__device__ int library_proxy_call(const ishmemx_heap_map_t *map, ProxyRequest r,
                                  unsigned long long *fetched, unsigned long long deadline,
                                  long long wait_limit);
__device__ int library_proxy_rma_large(const ishmemx_heap_map_t *map, bool is_put, bool nbi,
                                       void *sym, void *local, size_t n, int pe,
                                       long long wait_limit);

#ifdef ISHMEMI_PROXY_IN_LIBRARY
ISHMEMI_FN int proxy_call(const ishmemx_heap_map_t *map, const ProxyRequest &r,
                          unsigned long long *fetched, unsigned long long deadline = 0,
                          long long wait_limit = ISHMEMI_WAIT_LIMIT) {
  return library_proxy_call(map, r, fetched, deadline, wait_limit);
}
#else
/* Posts r: takes a ticket, waits while the ring's slot for it is taken (a full ring), writes
 * the request and, for ISHMEMX_PROXY_WAIT, waits until the proxy served it; the fetched value
 * is then in *fetched, and the slot is handed on. Each step happens inside its wait loop, so
 * that lanes of one warp that run in lockstep (AMD) never hold back a lane whose slot or
 * answer has come: the proxy serves in ticket order, and a lane's request must not wait for
 * the reconvergence of lanes whose tickets come later. */
ISHMEMI_FN int proxy_call(const ishmemx_heap_map_t *map, const ProxyRequest &r,
                          unsigned long long *fetched, unsigned long long deadline = 0,
                          long long wait_limit = ISHMEMI_WAIT_LIMIT) {
  if (!proxy_serves(map)) return ISHMEM_ERR_UNSUPPORTED;
  const unsigned long long t = atomic_add(map->proxy_tickets, 1ull);
  ishmemx_proxy_slot_t *s = map->proxy_slots + (t & map->proxy_mask);
  Waiter w(wait_limit);
  unsigned long long start = 0;
  int rc;
  for (bool posted = false; !posted;) {
    if (ld_acquire(&s->free) == t) {
      s->op = r.op;
      s->pe = r.pe;
      s->dest = r.dest;
      s->source = r.source;
      s->bytes = r.bytes;
      s->value = r.value;
      s->cond = r.cond;
      st_release(&s->ready, t + 1); /* the request, and this thread's earlier stores, first */
      posted = true;
    } else if ((rc = proxy_stalled(map, w, 0, start))) {
      return rc;
    }
  }
  if (!(r.op & ISHMEMX_PROXY_WAIT)) return ISHMEM_SUCCESS;
  w = Waiter(wait_limit);
  for (bool answered = false; !answered;) {
    if (ld_acquire(&s->done) == t + 1) {
      if (fetched) *fetched = ld_relaxed(&s->value);
      st_release(&s->free, t + map->proxy_mask + 1);
      answered = true;
    } else if ((rc = proxy_stalled(map, w, deadline, start))) {
      return rc;
    }
  }
  return ISHMEM_SUCCESS;
}
#endif

ISHMEMI_FN ProxyRequest proxy_request(unsigned op, int pe, const void *dest) {
  ProxyRequest r = {op, pe, (unsigned long long)dest, 0, 0, 0, 0};
  return r;
}

/* Put or get of n bytes between symmetric `sym` on `pe` and `local`. Up to 8 bytes travel in
 * one request; larger ones by address when the host can reach `local` (the proxy moves the
 * data), else in 8-byte pieces. A blocking put waits until its source is free; a get and a
 * piece of a get wait for the data. */
ISHMEMI_FN int proxy_rma_piece(const ishmemx_heap_map_t *map, bool is_put, void *sym, void *local,
                               size_t piece, int pe, long long wait_limit = ISHMEMI_WAIT_LIMIT) {
  ProxyRequest r = proxy_request(
      is_put ? ISHMEMX_PROXY_PUT_INLINE : ISHMEMX_PROXY_GET_INLINE | ISHMEMX_PROXY_WAIT, pe, sym);
  r.bytes = piece;
  unsigned long long v = 0;
  if (is_put) __builtin_memcpy(&r.source, local, piece);
  const int rc = proxy_call(map, r, &v, 0, wait_limit);
  if (rc == ISHMEM_SUCCESS && !is_put) __builtin_memcpy(local, &v, piece);
  return rc;
}
#ifdef ISHMEMI_PROXY_IN_LIBRARY
ISHMEMI_FN int proxy_rma_large(const ishmemx_heap_map_t *map, bool is_put, bool nbi, void *sym,
                               void *local, size_t n, int pe,
                               long long wait_limit = ISHMEMI_WAIT_LIMIT) {
  return library_proxy_rma_large(map, is_put, nbi, sym, local, n, pe, wait_limit);
}
#else
ISHMEMI_FN int proxy_rma_large(const ishmemx_heap_map_t *map, bool is_put, bool nbi, void *sym,
                               void *local, size_t n, int pe,
                               long long wait_limit = ISHMEMI_WAIT_LIMIT) {
  if (host_reachable(local)) {
    ProxyRequest r = proxy_request(is_put ? ISHMEMX_PROXY_PUT : ISHMEMX_PROXY_GET, pe, sym);
    if (!nbi) r.op |= ISHMEMX_PROXY_WAIT;
    r.source = (unsigned long long)local;
    r.bytes = n;
    return proxy_call(map, r, 0, 0, wait_limit);
  }
  for (size_t at = 0; at < n; at += 8) {
    const int rc = proxy_rma_piece(map, is_put, (char *)sym + at, (char *)local + at,
                                   n - at < 8 ? n - at : 8, pe, wait_limit);
    if (rc != ISHMEM_SUCCESS) return rc;
  }
  return ISHMEM_SUCCESS;
}
#endif
ISHMEMI_FN int proxy_rma(const ishmemx_heap_map_t *map, bool is_put, bool nbi, void *sym,
                         void *local, size_t n, int pe) {
  if (n == 0) return ISHMEM_SUCCESS;
  if (n <= 8) return proxy_rma_piece(map, is_put, sym, local, n, pe);
  return proxy_rma_large(map, is_put, nbi, sym, local, n, pe);
}

/* An atomic on the word of `bytes` bytes at symmetric `sym` on `pe`; fetching ones wait and
 * return the old value in *fetched. */
ISHMEMI_FN int proxy_amo(const ishmemx_heap_map_t *map, unsigned op, unsigned bytes,
                         const void *sym, unsigned long long value, unsigned long long cond, int pe,
                         unsigned long long *fetched) {
  ProxyRequest r = proxy_request(op | bytes << 8, pe, sym);
  r.bytes = bytes;
  r.value = value;
  r.cond = cond;
  return proxy_call(map, r, fetched);
}
template <class T>
ISHMEMI_FN T proxy_fetch(const ishmemx_device_handle_t &h, unsigned op, const T *sym, T value,
                         T cond, int pe) {
  check("atomic", h, sym, sizeof(T), pe); /* ISHMEM_DEBUG=1: a PE out of range stops here */
  unsigned long long v = 0;
  proxy_amo(h.heap_map, op | ISHMEMX_PROXY_WAIT, sizeof(T), sym, to_word(value), to_word(cond), pe,
            &v);
  return from_word<T>((word_t<T>)v);
}
template <class T>
ISHMEMI_FN int proxy_update(const ishmemx_device_handle_t &h, unsigned op, const T *sym, T value,
                            int pe) {
  check("atomic", h, sym, sizeof(T), pe);
  return proxy_amo(h.heap_map, op, sizeof(T), sym, to_word(value), 0, pe, 0);
}

/* Put with signal: the data (in pieces first where it must travel in requests), then one
 * request that flushes it at the target and updates the signal. */
ISHMEMI_FN int proxy_put_signal(const ishmemx_heap_map_t *map, void *dest, const void *src,
                                size_t n, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                bool nbi) {
  const bool by_address = n > 8 && host_reachable(src);
  if (!by_address && n > 0) {
    int rc = proxy_rma(map, true, false, dest, (void *)src, n, pe);
    if (rc != ISHMEM_SUCCESS) return rc;
  }
  ProxyRequest r = proxy_request(
      sig_op == ISHMEM_SIGNAL_ADD ? ISHMEMX_PROXY_PUT_SIGNAL_ADD : ISHMEMX_PROXY_PUT_SIGNAL_SET, pe,
      dest);
  if (by_address) {
    r.source = (unsigned long long)src;
    r.bytes = n;
    if (!nbi) r.op |= ISHMEMX_PROXY_WAIT; /* the source is free once the proxy put it */
  }
  r.value = signal;
  r.cond = (unsigned long long)sig_addr;
  return proxy_call(map, r, 0);
}

/* quiet (waits), fence (ordered by the proxy; no wait), barrier (waits, within `deadline`
 * ticks of the device timer). */
ISHMEMI_FN int proxy_sync(const ishmemx_heap_map_t *map, unsigned op, unsigned long long deadline) {
  ProxyRequest r = proxy_request(op, 0, 0);
  return proxy_call(map, r, 0, deadline);
}

/* Thread 0's status (ISHMEM_SUCCESS or an ISHMEM_ERR_*, -15 to 0) for every thread of group
 * G, bit by bit through the group's vote: one vote when it is ISHMEM_SUCCESS. */
template <class G>
ISHMEMI_FN int group_status(int rc) {
  if (!G::any(rc != ISHMEM_SUCCESS)) return ISHMEM_SUCCESS;
  int code = 0;
#pragma unroll 1
  for (int bit = 0; bit < 4; ++bit)
    if (G::any(G::rank() == 0 && ((-rc) >> bit & 1))) code |= 1 << bit;
  return -code;
}

/* A group's call through the proxy: one thread posts it for the group, whose other threads
 * learn its outcome. */
template <class G, class Call>
ISHMEMI_FN int group_proxy(Call call) {
  G::sync(); /* every thread's part of the source is written */
  const int rc = G::rank() == 0 ? call() : ISHMEM_SUCCESS;
  return group_status<G>(rc); /* a group barrier: a get's data is there for every thread */
}

} /* namespace ishmemi */
#endif /* ISHMEMI_GPU */

#endif /* ISHMEM_DETAIL_PROXY_H */
