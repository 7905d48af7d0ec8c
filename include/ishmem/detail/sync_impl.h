/* The device synchronization calls: atomics, put-with-signal, wait/test and barriers (GPU
 * compilers only; compiled as plain C++, the generators forward these calls to the host API).
 * The generators (ishmem/detail/generate.h) call the operations here, one per signature list
 * entry. Internal: included by ishmem/device.h. */
#ifndef ISHMEM_DETAIL_SYNC_IMPL_H
#define ISHMEM_DETAIL_SYNC_IMPL_H

#include "ishmem/detail/atomics.h"
#include "ishmem/detail/mode.h"
#include "ishmem/detail/rma_impl.h"
#include "ishmem/detail/scan.h"

#ifdef ISHMEMI_GPU
namespace ishmemi {

/* ---- Atomics ------------------------------------------------------------------------------ */

template <class T>
ISHMEMI_FN word_t<T> *peer_word(const Handle &h, const T *sym, int pe) {
  check("atomic", h, sym, sizeof(T), pe);
  return (word_t<T> *)peer(h, sym, pe);
}
template <class T>
ISHMEMI_FN T amo_fetch(const Handle &h, const T *src, int pe) {
  if (off_node(h, pe)) return proxy_fetch<T>(h, ISHMEMX_PROXY_AMO_FETCH, src, T(), T(), pe);
  return from_word<T>(ld_relaxed(peer_word(h, src, pe)));
}
template <class T>
ISHMEMI_FN int amo_set(const Handle &h, T *dest, T value, int pe) {
  if (off_node(h, pe)) return proxy_update<T>(h, ISHMEMX_PROXY_AMO_SET, dest, value, pe);
  st_relaxed(peer_word(h, dest, pe), to_word(value));
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN T amo_swap(const Handle &h, T *dest, T value, int pe) {
  if (off_node(h, pe)) return proxy_fetch<T>(h, ISHMEMX_PROXY_AMO_SWAP, dest, value, T(), pe);
  return from_word<T>(atomic_exch(peer_word(h, dest, pe), to_word(value)));
}
template <class T>
ISHMEMI_FN T amo_compare_swap(const Handle &h, T *dest, T cond, T value, int pe) {
  if (off_node(h, pe)) return proxy_fetch<T>(h, ISHMEMX_PROXY_AMO_CSWAP, dest, value, cond, pe);
  return from_word<T>(atomic_cas(peer_word(h, dest, pe), to_word(cond), to_word(value)));
}
template <class T>
ISHMEMI_FN T amo_fetch_add(const Handle &h, T *dest, T value, int pe) {
  if (off_node(h, pe)) return proxy_fetch<T>(h, ISHMEMX_PROXY_AMO_ADD, dest, value, T(), pe);
  /* Two's complement: the unsigned sum is the signed one. */
  return from_word<T>(atomic_add(peer_word(h, dest, pe), to_word(value)));
}
template <class T>
ISHMEMI_FN T amo_fetch_inc(const Handle &h, T *dest, int pe) {
  return amo_fetch_add<T>(h, dest, (T)1, pe);
}
template <class T>
ISHMEMI_FN T amo_fetch_and(const Handle &h, T *dest, T value, int pe) {
  if (off_node(h, pe)) return proxy_fetch<T>(h, ISHMEMX_PROXY_AMO_AND, dest, value, T(), pe);
  return from_word<T>(atomic_and(peer_word(h, dest, pe), to_word(value)));
}
template <class T>
ISHMEMI_FN T amo_fetch_or(const Handle &h, T *dest, T value, int pe) {
  if (off_node(h, pe)) return proxy_fetch<T>(h, ISHMEMX_PROXY_AMO_OR, dest, value, T(), pe);
  return from_word<T>(atomic_or(peer_word(h, dest, pe), to_word(value)));
}
template <class T>
ISHMEMI_FN T amo_fetch_xor(const Handle &h, T *dest, T value, int pe) {
  if (off_node(h, pe)) return proxy_fetch<T>(h, ISHMEMX_PROXY_AMO_XOR, dest, value, T(), pe);
  return from_word<T>(atomic_xor(peer_word(h, dest, pe), to_word(value)));
}
/* Non-fetching forms: the result is dropped, so the compiler emits a reduction (red.sys); off
 * node, the device does not wait for the proxy. */
#define ISHMEMI_UPDATE_OP(OP, PROXY_OP)                                                            \
  template <class T>                                                                               \
  ISHMEMI_FN int amo_##OP(const Handle &h, T *dest, T value, int pe) {                             \
    if (off_node(h, pe)) return proxy_update<T>(h, ISHMEMX_PROXY_AMO_##PROXY_OP, dest, value, pe); \
    amo_fetch_##OP<T>(h, dest, value, pe);                                                         \
    return ISHMEM_SUCCESS;                                                                         \
  }
ISHMEMI_UPDATE_OP(add, ADD)
ISHMEMI_UPDATE_OP(and, AND)
ISHMEMI_UPDATE_OP(or, OR)
ISHMEMI_UPDATE_OP(xor, XOR)
#undef ISHMEMI_UPDATE_OP
template <class T>
ISHMEMI_FN int amo_inc(const Handle &h, T *dest, int pe) {
  return amo_add<T>(h, dest, (T)1, pe);
}
/* _nbi fetching forms: the value lands in *fetch before the call returns. Off node, the status
 * is the proxy's state after the answer: ISHMEM_ERR_UNSUPPORTED without a proxy, its error if
 * it stopped (the value is then 0). */
template <class T>
ISHMEMI_FN int fetched_into(const Handle &h, T *fetch, T value, int pe) {
  *fetch = value;
  return off_node(h, pe) ? proxy_state(h.heap_map) : ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_fetch_nbi(const Handle &h, T *fetch, const T *src, int pe) {
  return fetched_into(h, fetch, amo_fetch<T>(h, src, pe), pe);
}
template <class T>
ISHMEMI_FN int amo_compare_swap_nbi(const Handle &h, T *fetch, T *dest, T cond, T value, int pe) {
  return fetched_into(h, fetch, amo_compare_swap<T>(h, dest, cond, value, pe), pe);
}
template <class T>
ISHMEMI_FN int amo_fetch_inc_nbi(const Handle &h, T *fetch, T *dest, int pe) {
  return fetched_into(h, fetch, amo_fetch_inc<T>(h, dest, pe), pe);
}
/* The _nbi forms of the fetching operations that take one value. */
#define ISHMEMI_FETCH_NBI_OP(OP)                                                       \
  template <class T>                                                                   \
  ISHMEMI_FN int amo_##OP##_nbi(const Handle &h, T *fetch, T *dest, T value, int pe) { \
    return fetched_into(h, fetch, amo_##OP<T>(h, dest, value, pe), pe);                \
  }
ISHMEMI_FETCH_NBI_OP(swap)
ISHMEMI_FETCH_NBI_OP(fetch_add)
ISHMEMI_FETCH_NBI_OP(fetch_and)
ISHMEMI_FETCH_NBI_OP(fetch_or)
ISHMEMI_FETCH_NBI_OP(fetch_xor)
#undef ISHMEMI_FETCH_NBI_OP

/* ---- Put with signal ---------------------------------------------------------------------- */

/* The signal of a put-with-signal of n bytes, by one thread once the data is written. */
ISHMEMI_FN void signal_after(const Handle &h, size_t n, uint64_t *sig_addr, uint64_t signal,
                             int sig_op, int pe) {
  unsigned long long *sig = (unsigned long long *)peer(h, sig_addr, pe);
  const unsigned long long v = signal;
  if (n == 0) {
    /* Nothing to order before the signal: a plain atomic update. */
    if (sig_op == ISHMEM_SIGNAL_ADD)
      atomic_add(sig, v);
    else
      st_relaxed(sig, v);
  } else if (sig_op == ISHMEM_SIGNAL_ADD) {
    /* Release at system scope: the data, written by any thread of the group (ordered
     * before this thread by the group barrier), is visible to whoever sees the signal. */
    add_release(sig, v);
  } else {
    st_release(sig, v);
  }
}
template <class G, bool NBI>
ISHMEMI_FN int put_signal_group(const Handle &h, void *dest, const void *src, size_t n,
                                uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
  check("put_signal", h, dest, n, pe);
  check("put_signal", h, sig_addr, sizeof *sig_addr, pe);
  if (one_word<G>(h, dest, src, n, pe)) {
    move_word(peer(h, dest, pe), src);
    signal_after(h, n, sig_addr, signal, sig_op, pe);
    return ISHMEM_SUCCESS;
  }
  if (off_node(h, pe))
    return group_proxy<G>([&] {
      return proxy_put_signal(h.heap_map, dest, src, n, sig_addr, signal, sig_op, pe, NBI);
    });
  G::sync(); /* every thread's writes to src are done */
  copy<G>(peer(h, dest, pe), src, n);
  G::sync(); /* every thread's part of the data is written */
  if (G::rank() == 0) signal_after(h, n, sig_addr, signal, sig_op, pe);
  (void)NBI; /* blocking or not, the source is free once the group barrier is passed */
  return ISHMEM_SUCCESS;
}
template <class>
ISHMEMI_FN int putmem_signal(const Handle &h, void *dest, const void *src, size_t n,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
  return put_signal_group<Thread, false>(h, dest, src, n, sig_addr, signal, sig_op, pe);
}
template <class>
ISHMEMI_FN int putmem_signal_nbi(const Handle &h, void *dest, const void *src, size_t n,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
  return put_signal_group<Thread, true>(h, dest, src, n, sig_addr, signal, sig_op, pe);
}
template <class T>
ISHMEMI_FN int put_signal(const Handle &h, T *dest, const T *src, size_t nelems, uint64_t *sig_addr,
                          uint64_t signal, int sig_op, int pe) {
  return putmem_signal<T>(h, dest, src, nelems * sizeof(T), sig_addr, signal, sig_op, pe);
}
template <class T>
ISHMEMI_FN int put_signal_nbi(const Handle &h, T *dest, const T *src, size_t nelems,
                              uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
  return putmem_signal_nbi<T>(h, dest, src, nelems * sizeof(T), sig_addr, signal, sig_op, pe);
}
template <class>
ISHMEMI_FN uint64_t signal_fetch(const Handle &, const uint64_t *sig_addr) {
  return ld_acquire((const unsigned long long *)sig_addr);
}

/* ---- Point-to-point synchronization: the shared scans (ishmem/detail/scan.h) ---------------- */

/* Acquire loads, and polls that spin, then nap, and give up after ISHMEMX_DEVICE_WAIT_LIMIT. */
struct DevicePoll {
  template <class T>
  static ISHMEMI_FN T load(const T *p) {
    return load_acquire(p);
  }
  template <class Ready>
  ISHMEMI_FN bool until(Ready ready) {
    Waiter wait;
    while (!ready())
      if (!wait.next()) return false;
    return true;
  }
};

template <class>
ISHMEMI_FN uint64_t signal_wait_until(const Handle &, uint64_t *sig_addr, int cmp,
                                      uint64_t cmp_value) {
  Waiter wait;
  uint64_t seen;
  while (!holds(seen = load_acquire(sig_addr), cmp, cmp_value) && wait.next()) {
  }
  return seen; /* the value that satisfied the condition (a later load could see another) */
}

/* Where a thread's next wait_until_any or test_any scan starts: after the index it returned
 * last, so that a series of calls returns every satisfied index (as on the host). One slot per
 * thread of the grid, modulo kAnySlots: threads that share a slot only move each other's
 * start. Each translation unit has its own table. */
enum { kAnySlots = 1024 };
static __device__ unsigned int any_start_slots[kAnySlots];
ISHMEMI_FN volatile unsigned int &any_start() {
  const unsigned int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned int block_size = blockDim.x * blockDim.y * blockDim.z;
  const unsigned int thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  return ((volatile unsigned int *)any_start_slots)[(block * block_size + thread) % kAnySlots];
}
ISHMEMI_FN size_t returned_any(volatile unsigned int &start, size_t index) {
  if (index != SIZE_MAX) start = (unsigned int)(index + 1);
  return index;
}

/* One operation per wait/test call: F is the query's targets (a value or a vector). */
#define ISHMEMI_WAIT_OPS(NAME, TARGET)                                                             \
  template <class T>                                                                               \
  ISHMEMI_FN int wait_until_all##NAME(const Handle &, T *ivars, size_t n, const int *status,       \
                                      int cmp, TARGET t) {                                         \
    DevicePoll poll;                                                                               \
    return scan_of<DevicePoll>(ivars, n, status, cmp, t).wait_all(poll);                           \
  }                                                                                                \
  template <class T>                                                                               \
  ISHMEMI_FN size_t wait_until_any##NAME(const Handle &, T *ivars, size_t n, const int *status,    \
                                         int cmp, TARGET t) {                                      \
    DevicePoll poll;                                                                               \
    volatile unsigned int &start = any_start();                                                    \
    return returned_any(start,                                                                     \
                        scan_of<DevicePoll>(ivars, n, status, cmp, t).wait_any(poll, start));      \
  }                                                                                                \
  template <class T>                                                                               \
  ISHMEMI_FN size_t wait_until_some##NAME(const Handle &, T *ivars, size_t n, size_t *indices,     \
                                          const int *status, int cmp, TARGET t) {                  \
    DevicePoll poll;                                                                               \
    return scan_of<DevicePoll>(ivars, n, status, cmp, t).wait_some(poll, indices);                 \
  }                                                                                                \
  template <class T>                                                                               \
  ISHMEMI_FN int test_all##NAME(const Handle &, T *ivars, size_t n, const int *status, int cmp,    \
                                TARGET t) {                                                        \
    return scan_of<DevicePoll>(ivars, n, status, cmp, t).test_all();                               \
  }                                                                                                \
  template <class T>                                                                               \
  ISHMEMI_FN size_t test_any##NAME(const Handle &, T *ivars, size_t n, const int *status, int cmp, \
                                   TARGET t) {                                                     \
    volatile unsigned int &start = any_start();                                                    \
    return returned_any(start, scan_of<DevicePoll>(ivars, n, status, cmp, t).test_any(start));     \
  }                                                                                                \
  template <class T>                                                                               \
  ISHMEMI_FN size_t test_some##NAME(const Handle &, T *ivars, size_t n, size_t *indices,           \
                                    const int *status, int cmp, TARGET t) {                        \
    return scan_of<DevicePoll>(ivars, n, status, cmp, t).test_some(indices);                       \
  }
ISHMEMI_WAIT_OPS(, T)
ISHMEMI_WAIT_OPS(_vector, const T *)
#undef ISHMEMI_WAIT_OPS
template <class T>
ISHMEMI_FN int wait_until(const Handle &h, T *ivar, int cmp, T value) {
  return wait_until_all<T>(h, ivar, 1, (const int *)0, cmp, value);
}
template <class T>
ISHMEMI_FN int test(const Handle &h, T *ivar, int cmp, T value) {
  return test_all<T>(h, ivar, 1, (const int *)0, cmp, value);
}

/* ---- Barriers --------------------------------------------------------------------------------
 * Every PE has a row of n_local 64-bit words in its GPU's memory (h.barrier + slot *
 * h.barrier_step, mapped by every node-local PE): word j of PE i's row is the count of
 * barriers PE slot j has entered, as PE i sees it. To pass its next barrier a PE counts one
 * more in its own word, releases at system scope once, stores the count into its word of
 * every peer's row, then waits until its own row has every word at that count: its stores go
 * out as posted writes and its polls stay in its own memory. Counts only grow, so a PE already
 * in the next barrier still counts as arrived. Kernels and stream barriers
 * (ishmemx_barrier_all_on_stream, a kernel) advance the same counts: one sequence. */
ISHMEMI_FN unsigned long long *barrier_word(const Handle &h, int row, int slot) {
  return h.barrier + (size_t)row * h.barrier_step + slot;
}
/* Polls until done(); false past the collective deadline (ISHMEM_COLLECTIVE_TIMEOUT, counted
 * once the wait naps) or ISHMEMX_DEVICE_WAIT_LIMIT. A PE that gives up has still arrived: the
 * barriers and collectives stay in step for the calls after it. */
template <class Done>
ISHMEMI_FN bool wait_deadline(const Handle &h, Done done) {
  Waiter wait;
  unsigned long long start = 0;
  while (!done()) {
    if (!wait.next()) return false;
    if (h.barrier_timeout && wait.polls > Waiter::kSpinPolls) {
      const unsigned long long now = timer_now();
      if (start == 0) start = now;
      if (now - start > h.barrier_timeout) return false;
    }
  }
  return true;
}
/* The barrier; on ISHMEM_ERR_TIMEOUT *late_slot is the slot of a PE that did not arrive. */
ISHMEMI_FN int sync_slots(const Handle &h, int *late_slot) {
  if (!h.barrier) return ISHMEM_ERR_UNSUPPORTED; /* no barrier rows (host backend) */
  unsigned long long *mine = barrier_word(h, h.my_slot, h.my_slot);
  const unsigned long long epoch = ld_relaxed(mine) + 1; /* only this PE writes it */
  st_relaxed(mine, epoch);
  __threadfence_system(); /* this thread's puts and AMOs before the barrier, then the counts */
  for (int slot = 0; slot < h.n_local; ++slot)
    if (slot != h.my_slot) st_relaxed(barrier_word(h, slot, h.my_slot), epoch);
  for (int slot = 0; slot < h.n_local; ++slot) {
    if (slot == h.my_slot) continue;
    const unsigned long long *word = barrier_word(h, h.my_slot, slot);
    *late_slot = slot;
    if (!wait_deadline(h, [&] { return ld_acquire(word) >= epoch; })) return ISHMEM_ERR_TIMEOUT;
  }
  return ISHMEM_SUCCESS;
}
ISHMEMI_FN int sync_all(const Handle &h) {
  /* With off-node PEs: the proxy's barrier over every PE (MPI), after it completed this PE's
   * earlier requests; it meets the other PEs' device barriers only (docs/MULTI_NODE.md). */
  if (has_off_node(h))
    return proxy_sync(h.heap_map, ISHMEMX_PROXY_BARRIER | ISHMEMX_PROXY_WAIT, h.barrier_timeout);
  int late_slot;
  return sync_slots(h, &late_slot);
}
ISHMEMI_FN int barrier_all(const Handle &h) {
  /* The arrival is a system-scope release: this thread's puts and AMOs before it are visible
   * to every PE that sees it, which is what quiet adds to a barrier. */
  return sync_all(h);
}
/* Block forms: the block's threads meet; one thread takes part in the barrier for them. */
template <bool QUIET>
ISHMEMI_FN int barrier_block(const Handle &h) {
  __shared__ int rc;
  __syncthreads(); /* every thread's puts are ordered before thread 0's release */
  if (thread_in_block() == 0) rc = QUIET ? barrier_all(h) : sync_all(h);
  __syncthreads();
  const int result = rc;
  __syncthreads(); /* read by all before a later call writes it again */
  return result;
}

} /* namespace ishmemi */

#else
namespace ishmemi {
/* ---- Plain C++: the group forms through the host API ----------------------------------------- */
template <class G, bool NBI>
inline int put_signal_group(const Handle &, void *dest, const void *src, size_t n,
                            uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
  return NBI ? ishmem_putmem_signal_nbi(dest, src, n, sig_addr, signal, sig_op, pe)
             : ishmem_putmem_signal(dest, src, n, sig_addr, signal, sig_op, pe);
}
template <bool QUIET>
inline int barrier_block(const Handle &) {
  return QUIET ? ishmem_barrier_all() : ishmem_sync_all();
}
} /* namespace ishmemi */
#endif /* ISHMEMI_GPU */

#endif /* ISHMEM_DETAIL_SYNC_IMPL_H */
