/* ishmem device API, synchronization: the atomics, put-with-signal, wait/test and barrier
 * calls of ishmem.h inside CUDA and HIP kernels, in the two forms of ishmem/device.h (no extra
 * argument, and with a leading ishmemx_device_handle_t). Included by ishmem/device.h.
 *
 * Atomics are system-scope read-modify-writes on the target PE's mapped heap (relaxed order:
 * like the host API, ordering comes from ishmem_fence / ishmem_quiet). Put-with-signal copies
 * the data, then updates the signal atomically with system-scope release order (so whoever
 * sees the signal sees the data; with no data, a plain atomic update). Waits read with
 * system-scope acquire loads, spinning briefly and then backing off (__nanosleep on NVIDIA,
 * s_sleep on AMD), so that other blocks keep their issue slots and memory bandwidth.
 * Device barriers (ishmem_barrier_all, ishmem_sync_all) are called by ONE thread per PE;
 * ishmemx_barrier_all_block and ishmemx_sync_all_block by every thread of one block. They
 * meet the other PEs' device barriers and their ishmemx_barrier_all_on_stream calls, which
 * share one sequence of barriers (docs/MEMORY_MODEL.md).
 *
 * Debugging aid: define ISHMEMX_DEVICE_WAIT_LIMIT (clock cycles) before including this header
 * and every device wait gives up after that long: wait_until and the barriers return
 * ISHMEM_ERR_TIMEOUT, _any returns SIZE_MAX, _some 0, and signal_wait_until the last value
 * read. Without it, as OpenSHMEM specifies, waits wait for ever. Device calls do not check
 * their arguments (a bad cmp never holds).
 *
 * Compiled as plain C++, every call here runs on the CPU through the host API. */
#ifndef ISHMEM_DEVICE_SYNC_H
#define ISHMEM_DEVICE_SYNC_H

#include "ishmem/device.h" /* which includes this header at its end */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Stream-ordered signals (host calls; stream is a cudaStream_t or hipStream_t) -------- */

/* Enqueues on `stream` a put of nbytes to dest on pe, then the update of pe's signal sig_addr
 * (ISHMEM_SIGNAL_SET or _ADD): a PE that sees the signal sees the data. Returns at once; with
 * the host backend it acts at once, like ishmem_putmem_signal. */
int ishmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nbytes,
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                                    void *stream);
/* Enqueues on `stream` a wait until this PE's signal compares true against cmp_value: later
 * work on the stream starts after it. Returns at once (the host backend waits at once). */
int ishmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                                        void *stream);

#ifdef __cplusplus
}
#endif

#ifdef __cplusplus

namespace ishmemi {

/* True if `value` compares true against `target` under ISHMEM_CMP_*; a bad cmp never holds.
 * Shared by the device waits and the host library's wait_until/test. */
template <class T>
ISHMEMI_FN bool holds(T value, int cmp, T target) {
  switch (cmp) {
    case ISHMEM_CMP_EQ:
      return value == target;
    case ISHMEM_CMP_NE:
      return value != target;
    case ISHMEM_CMP_GT:
      return value > target;
    case ISHMEM_CMP_GE:
      return value >= target;
    case ISHMEM_CMP_LT:
      return value < target;
    case ISHMEM_CMP_LE:
      return value <= target;
  }
  return false;
}

#ifdef ISHMEMI_GPU
/* ---- System-scope primitives on 32- and 64-bit words ---------------------------------------- */

template <int Bytes>
struct WordOf;
template <>
struct WordOf<4> {
  typedef unsigned int type;
};
template <>
struct WordOf<8> {
  typedef unsigned long long type;
};
/* The unsigned word an AMO type travels as (every AMO and wait type is 4 or 8 bytes). */
template <class T>
using word_t = typename WordOf<sizeof(T)>::type;

template <class T>
ISHMEMI_FN word_t<T> to_word(T v) {
  word_t<T> w;
  __builtin_memcpy(&w, &v, sizeof w);
  return w;
}
template <class T>
ISHMEMI_FN T from_word(word_t<T> w) {
  T v;
  __builtin_memcpy(&v, &w, sizeof v);
  return v;
}

#if defined(ISHMEMI_GPU_AMD)
/* HIP: clang's scoped atomic builtins at system scope. */
#define ISHMEMI_SYS __HIP_MEMORY_SCOPE_SYSTEM
template <class U>
ISHMEMI_FN U ld_acquire(const U *p) {
  return __hip_atomic_load(const_cast<U *>(p), __ATOMIC_ACQUIRE, ISHMEMI_SYS);
}
template <class U>
ISHMEMI_FN U ld_relaxed(const U *p) {
  return __hip_atomic_load(const_cast<U *>(p), __ATOMIC_RELAXED, ISHMEMI_SYS);
}
template <class U>
ISHMEMI_FN void st_relaxed(U *p, U v) {
  __hip_atomic_store(p, v, __ATOMIC_RELAXED, ISHMEMI_SYS);
}
template <class U>
ISHMEMI_FN void st_release(U *p, U v) {
  __hip_atomic_store(p, v, __ATOMIC_RELEASE, ISHMEMI_SYS);
}
template <class U>
ISHMEMI_FN U atomic_add(U *p, U v) {
  return __hip_atomic_fetch_add(p, v, __ATOMIC_RELAXED, ISHMEMI_SYS);
}
template <class U>
ISHMEMI_FN void add_release(U *p, U v) {
  __hip_atomic_fetch_add(p, v, __ATOMIC_RELEASE, ISHMEMI_SYS);
}
template <class U>
ISHMEMI_FN U atomic_and(U *p, U v) {
  return __hip_atomic_fetch_and(p, v, __ATOMIC_RELAXED, ISHMEMI_SYS);
}
template <class U>
ISHMEMI_FN U atomic_or(U *p, U v) {
  return __hip_atomic_fetch_or(p, v, __ATOMIC_RELAXED, ISHMEMI_SYS);
}
template <class U>
ISHMEMI_FN U atomic_xor(U *p, U v) {
  return __hip_atomic_fetch_xor(p, v, __ATOMIC_RELAXED, ISHMEMI_SYS);
}
template <class U>
ISHMEMI_FN U atomic_exch(U *p, U v) {
  return __hip_atomic_exchange(p, v, __ATOMIC_RELAXED, ISHMEMI_SYS);
}
template <class U>
ISHMEMI_FN U atomic_cas(U *p, U cond, U v) {
  __hip_atomic_compare_exchange_strong(p, &cond, v, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                       ISHMEMI_SYS);
  return cond; /* the value found: cond itself when the swap happened */
}
#undef ISHMEMI_SYS
/* A short sleep between polls (s_sleep 2: about 128 clocks). */
ISHMEMI_FN void nap(unsigned) {
#if defined(__HIP_DEVICE_COMPILE__)
  __builtin_amdgcn_s_sleep(2);
#endif
}

#else
/* CUDA (nvcc or clang): PTX loads and stores with system scope (sm_70 and later; older
 * targets fall back to volatile accesses and fences), and the *_system atomics, which are
 * relaxed read-modify-writes at system scope (atom.sys / red.sys). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#define ISHMEMI_PTX_SCOPED 0
#else
#define ISHMEMI_PTX_SCOPED 1
#endif
#if ISHMEMI_PTX_SCOPED
#define ISHMEMI_LD(SEM, BITS, C, U)                                                             \
  ISHMEMI_FN U ld_##SEM(const U *p) {                                                           \
    U v;                                                                                        \
    asm volatile("ld." #SEM ".sys.global.u" #BITS " %0, [%1];" : "=" C(v) : "l"(p) : "memory"); \
    return v;                                                                                   \
  }
#define ISHMEMI_ST(SEM, BITS, C, U)                                                        \
  ISHMEMI_FN void st_##SEM(U *p, U v) {                                                    \
    asm volatile("st." #SEM ".sys.global.u" #BITS " [%0], %1;" ::"l"(p), C(v) : "memory"); \
  }
ISHMEMI_LD(acquire, 32, "r", unsigned int)
ISHMEMI_LD(acquire, 64, "l", unsigned long long)
ISHMEMI_LD(relaxed, 32, "r", unsigned int)
ISHMEMI_LD(relaxed, 64, "l", unsigned long long)
ISHMEMI_ST(relaxed, 32, "r", unsigned int)
ISHMEMI_ST(relaxed, 64, "l", unsigned long long)
ISHMEMI_ST(release, 32, "r", unsigned int)
ISHMEMI_ST(release, 64, "l", unsigned long long)
/* A reduction (no value returned) with release order. */
ISHMEMI_FN void add_release(unsigned long long *p, unsigned long long v) {
  asm volatile("red.release.sys.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
#undef ISHMEMI_LD
#undef ISHMEMI_ST
#else
template <class U>
ISHMEMI_FN U ld_acquire(const U *p) {
  U v = *(const volatile U *)p;
  __threadfence_system();
  return v;
}
template <class U>
ISHMEMI_FN U ld_relaxed(const U *p) {
  return *(const volatile U *)p;
}
template <class U>
ISHMEMI_FN void st_relaxed(U *p, U v) {
  *(volatile U *)p = v;
}
template <class U>
ISHMEMI_FN void st_release(U *p, U v) {
  __threadfence_system();
  *(volatile U *)p = v;
}
ISHMEMI_FN void add_release(unsigned long long *p, unsigned long long v) {
  __threadfence_system();
  atomicAdd_system(p, v);
}
#endif
template <class U>
ISHMEMI_FN U atomic_add(U *p, U v) {
  return atomicAdd_system(p, v);
}
template <class U>
ISHMEMI_FN U atomic_and(U *p, U v) {
  return atomicAnd_system(p, v);
}
template <class U>
ISHMEMI_FN U atomic_or(U *p, U v) {
  return atomicOr_system(p, v);
}
template <class U>
ISHMEMI_FN U atomic_xor(U *p, U v) {
  return atomicXor_system(p, v);
}
template <class U>
ISHMEMI_FN U atomic_exch(U *p, U v) {
  return atomicExch_system(p, v);
}
template <class U>
ISHMEMI_FN U atomic_cas(U *p, U cond, U v) {
  return atomicCAS_system(p, cond, v);
}
/* A sleep between polls that grows from 32 ns to 1 us (sm_70 and later). */
ISHMEMI_FN void nap(unsigned round) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  __nanosleep(32u << (round < 5 ? round : 5));
#else
  (void)round;
#endif
}
#undef ISHMEMI_PTX_SCOPED
#endif

/* Polls between sleeps: the first ones spin, so that a reply already on its way is seen at
 * once; then each poll follows a nap, which leaves the issue slots and the memory system to
 * the blocks being waited for. */
ISHMEMI_FN long long clock_now() {
  return clock64();
}
struct Waiter {
  static const unsigned kSpinPolls = 64;
  unsigned polls = 0;
#ifdef ISHMEMX_DEVICE_WAIT_LIMIT
  long long start = 0;
#endif
  /* Call after a poll that failed; false once the debugging limit has passed. */
  ISHMEMI_FN bool next() {
#ifdef ISHMEMX_DEVICE_WAIT_LIMIT
    if (polls == 0) start = clock_now();
    if (clock_now() - start > (long long)(ISHMEMX_DEVICE_WAIT_LIMIT)) return false;
#endif
    if (++polls > kSpinPolls) nap((polls - kSpinPolls) / 16);
    return true;
  }
};

/* ---- Atomics ----------------------------------------------------------------------------------
 */

template <class T>
ISHMEMI_FN word_t<T> *peer_word(const Handle &h, const T *sym, int pe) {
  return (word_t<T> *)peer(h, sym, pe);
}
template <class T>
ISHMEMI_FN T amo_fetch(const Handle &h, const T *src, int pe) {
  return from_word<T>(ld_relaxed(peer_word(h, src, pe)));
}
template <class T>
ISHMEMI_FN int amo_set(const Handle &h, T *dest, T value, int pe) {
  st_relaxed(peer_word(h, dest, pe), to_word(value));
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN T amo_swap(const Handle &h, T *dest, T value, int pe) {
  return from_word<T>(atomic_exch(peer_word(h, dest, pe), to_word(value)));
}
template <class T>
ISHMEMI_FN T amo_compare_swap(const Handle &h, T *dest, T cond, T value, int pe) {
  return from_word<T>(atomic_cas(peer_word(h, dest, pe), to_word(cond), to_word(value)));
}
template <class T>
ISHMEMI_FN T amo_fetch_add(const Handle &h, T *dest, T value, int pe) {
  /* Two's complement: the unsigned sum is the signed one. */
  return from_word<T>(atomic_add(peer_word(h, dest, pe), to_word(value)));
}
template <class T>
ISHMEMI_FN T amo_fetch_inc(const Handle &h, T *dest, int pe) {
  return amo_fetch_add<T>(h, dest, (T)1, pe);
}
template <class T>
ISHMEMI_FN T amo_fetch_and(const Handle &h, T *dest, T value, int pe) {
  return from_word<T>(atomic_and(peer_word(h, dest, pe), to_word(value)));
}
template <class T>
ISHMEMI_FN T amo_fetch_or(const Handle &h, T *dest, T value, int pe) {
  return from_word<T>(atomic_or(peer_word(h, dest, pe), to_word(value)));
}
template <class T>
ISHMEMI_FN T amo_fetch_xor(const Handle &h, T *dest, T value, int pe) {
  return from_word<T>(atomic_xor(peer_word(h, dest, pe), to_word(value)));
}
/* Non-fetching forms: the result is dropped, so the compiler emits a reduction (red.sys). */
template <class T>
ISHMEMI_FN int amo_add(const Handle &h, T *dest, T value, int pe) {
  amo_fetch_add<T>(h, dest, value, pe);
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_inc(const Handle &h, T *dest, int pe) {
  return amo_add<T>(h, dest, (T)1, pe);
}
template <class T>
ISHMEMI_FN int amo_and(const Handle &h, T *dest, T value, int pe) {
  amo_fetch_and<T>(h, dest, value, pe);
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_or(const Handle &h, T *dest, T value, int pe) {
  amo_fetch_or<T>(h, dest, value, pe);
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_xor(const Handle &h, T *dest, T value, int pe) {
  amo_fetch_xor<T>(h, dest, value, pe);
  return ISHMEM_SUCCESS;
}
/* _nbi fetching forms: the value lands in *fetch before the call returns. */
template <class T>
ISHMEMI_FN int amo_fetch_nbi(const Handle &h, T *fetch, const T *src, int pe) {
  *fetch = amo_fetch<T>(h, src, pe);
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_swap_nbi(const Handle &h, T *fetch, T *dest, T value, int pe) {
  *fetch = amo_swap<T>(h, dest, value, pe);
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_compare_swap_nbi(const Handle &h, T *fetch, T *dest, T cond, T value, int pe) {
  *fetch = amo_compare_swap<T>(h, dest, cond, value, pe);
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_fetch_inc_nbi(const Handle &h, T *fetch, T *dest, int pe) {
  *fetch = amo_fetch_inc<T>(h, dest, pe);
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_fetch_add_nbi(const Handle &h, T *fetch, T *dest, T value, int pe) {
  *fetch = amo_fetch_add<T>(h, dest, value, pe);
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_fetch_and_nbi(const Handle &h, T *fetch, T *dest, T value, int pe) {
  *fetch = amo_fetch_and<T>(h, dest, value, pe);
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_fetch_or_nbi(const Handle &h, T *fetch, T *dest, T value, int pe) {
  *fetch = amo_fetch_or<T>(h, dest, value, pe);
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int amo_fetch_xor_nbi(const Handle &h, T *fetch, T *dest, T value, int pe) {
  *fetch = amo_fetch_xor<T>(h, dest, value, pe);
  return ISHMEM_SUCCESS;
}

/* ---- Put with signal ---------------------------------------------------------------------- */

template <class G, bool NBI>
ISHMEMI_FN int put_signal(const Handle &h, void *dest, const void *src, size_t n,
                          uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
  G::sync(); /* every thread's writes to src are done */
  copy<G>(peer(h, dest, pe), src, n);
  G::sync(); /* every thread's part of the data is written */
  if (G::rank() == 0) {
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
  (void)NBI; /* blocking or not, the source is free once the group barrier is passed */
  return ISHMEM_SUCCESS;
}
template <class T, bool NBI>
ISHMEMI_FN int put_signal_typed(const Handle &h, T *dest, const T *src, size_t nelems,
                                uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
  return put_signal<Thread, NBI>(h, dest, src, nelems * sizeof(T), sig_addr, signal, sig_op, pe);
}
ISHMEMI_FN uint64_t signal_fetch(const Handle &, const uint64_t *sig_addr) {
  return ld_acquire((const unsigned long long *)sig_addr);
}

/* ---- Point-to-point synchronization ------------------------------------------------------------
 */

template <class T>
ISHMEMI_FN T load_acquire(const T *p) {
  return from_word<T>(ld_acquire((const word_t<T> *)p));
}

ISHMEMI_FN uint64_t signal_wait_until(const Handle &, uint64_t *sig_addr, int cmp,
                                      uint64_t cmp_value) {
  Waiter wait;
  uint64_t seen;
  while (!holds(seen = load_acquire(sig_addr), cmp, cmp_value) && wait.next()) {
  }
  return seen; /* the value that satisfied the condition (a later load could see another) */
}

/* The comparison target of entry i: one value for all, or one per entry (_vector forms). */
template <class T>
struct OneTarget {
  T value;
  ISHMEMI_FN T operator[](size_t) const { return value; }
};
template <class T>
struct EachTarget {
  const T *values;
  ISHMEMI_FN T operator[](size_t i) const { return values[i]; }
};

template <class T, class Targets>
ISHMEMI_FN bool satisfied(const T *ivars, size_t i, int cmp, const Targets &t) {
  return holds(load_acquire(ivars + i), cmp, t[i]);
}
/* Included, satisfied entries: their count; their indices go to `indices` when given. With
 * `first_only`, stops at the first. */
template <class T, class Targets>
ISHMEMI_FN size_t scan(const T *ivars, size_t n, const int *status, int cmp, const Targets &t,
                       size_t *indices, bool first_only, size_t *first) {
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) {
    if ((status && status[i] != 0) || !satisfied(ivars, i, cmp, t)) continue;
    if (indices) indices[count] = i;
    if (count == 0) *first = i;
    ++count;
    if (first_only) break;
  }
  return count;
}
template <class T, class Targets>
ISHMEMI_FN int wait_all(const T *ivars, size_t n, const int *status, int cmp, const Targets &t) {
  /* Entry by entry: once an entry holds, the wait moves on to the next. */
  for (size_t i = 0; i < n; ++i) {
    if (status && status[i] != 0) continue;
    Waiter wait;
    while (!satisfied(ivars, i, cmp, t))
      if (!wait.next()) return ISHMEM_ERR_TIMEOUT;
  }
  return ISHMEM_SUCCESS;
}
ISHMEMI_FN bool any_included(size_t n, const int *status) {
  if (!status) return n > 0;
  for (size_t i = 0; i < n; ++i)
    if (status[i] == 0) return true;
  return false;
}
template <class T, class Targets>
ISHMEMI_FN size_t wait_any(const T *ivars, size_t n, const int *status, int cmp, const Targets &t) {
  size_t first = SIZE_MAX;
  if (!any_included(n, status)) return SIZE_MAX;
  Waiter wait;
  while (scan(ivars, n, status, cmp, t, (size_t *)0, true, &first) == 0)
    if (!wait.next()) return SIZE_MAX;
  return first;
}
template <class T, class Targets>
ISHMEMI_FN size_t wait_some(const T *ivars, size_t n, size_t *indices, const int *status, int cmp,
                            const Targets &t) {
  size_t first, count;
  if (!any_included(n, status)) return 0;
  Waiter wait;
  while ((count = scan(ivars, n, status, cmp, t, indices, false, &first)) == 0)
    if (!wait.next()) return 0;
  return count;
}
template <class T, class Targets>
ISHMEMI_FN int test_all(const T *ivars, size_t n, const int *status, int cmp, const Targets &t) {
  for (size_t i = 0; i < n; ++i)
    if (!(status && status[i] != 0) && !satisfied(ivars, i, cmp, t)) return 0;
  return 1;
}

template <class T>
ISHMEMI_FN int wait_until(const Handle &, T *ivar, int cmp, T value) {
  return wait_all(ivar, 1, (const int *)0, cmp, OneTarget<T>{value});
}
template <class T>
ISHMEMI_FN int wait_until_all(const Handle &, T *ivars, size_t n, const int *status, int cmp,
                              T value) {
  return wait_all(ivars, n, status, cmp, OneTarget<T>{value});
}
template <class T>
ISHMEMI_FN size_t wait_until_any(const Handle &, T *ivars, size_t n, const int *status, int cmp,
                                 T value) {
  return wait_any(ivars, n, status, cmp, OneTarget<T>{value});
}
template <class T>
ISHMEMI_FN size_t wait_until_some(const Handle &, T *ivars, size_t n, size_t *indices,
                                  const int *status, int cmp, T value) {
  return wait_some(ivars, n, indices, status, cmp, OneTarget<T>{value});
}
template <class T>
ISHMEMI_FN int wait_until_all_vector(const Handle &, T *ivars, size_t n, const int *status, int cmp,
                                     const T *values) {
  return wait_all(ivars, n, status, cmp, EachTarget<T>{values});
}
template <class T>
ISHMEMI_FN size_t wait_until_any_vector(const Handle &, T *ivars, size_t n, const int *status,
                                        int cmp, const T *values) {
  return wait_any(ivars, n, status, cmp, EachTarget<T>{values});
}
template <class T>
ISHMEMI_FN size_t wait_until_some_vector(const Handle &, T *ivars, size_t n, size_t *indices,
                                         const int *status, int cmp, const T *values) {
  return wait_some(ivars, n, indices, status, cmp, EachTarget<T>{values});
}
template <class T>
ISHMEMI_FN int test(const Handle &, T *ivar, int cmp, T value) {
  return test_all(ivar, 1, (const int *)0, cmp, OneTarget<T>{value});
}
template <class T>
ISHMEMI_FN int test_all_of(const Handle &, T *ivars, size_t n, const int *status, int cmp,
                           T value) {
  return test_all(ivars, n, status, cmp, OneTarget<T>{value});
}
template <class T>
ISHMEMI_FN size_t test_any(const Handle &, T *ivars, size_t n, const int *status, int cmp,
                           T value) {
  size_t first = SIZE_MAX;
  scan(ivars, n, status, cmp, OneTarget<T>{value}, (size_t *)0, true, &first);
  return first;
}
template <class T>
ISHMEMI_FN size_t test_some(const Handle &, T *ivars, size_t n, size_t *indices, const int *status,
                            int cmp, T value) {
  size_t first;
  return scan(ivars, n, status, cmp, OneTarget<T>{value}, indices, false, &first);
}
template <class T>
ISHMEMI_FN int test_all_vector(const Handle &, T *ivars, size_t n, const int *status, int cmp,
                               const T *values) {
  return test_all(ivars, n, status, cmp, EachTarget<T>{values});
}
template <class T>
ISHMEMI_FN size_t test_any_vector(const Handle &, T *ivars, size_t n, const int *status, int cmp,
                                  const T *values) {
  size_t first = SIZE_MAX;
  scan(ivars, n, status, cmp, EachTarget<T>{values}, (size_t *)0, true, &first);
  return first;
}
template <class T>
ISHMEMI_FN size_t test_some_vector(const Handle &, T *ivars, size_t n, size_t *indices,
                                   const int *status, int cmp, const T *values) {
  size_t first;
  return scan(ivars, n, status, cmp, EachTarget<T>{values}, indices, false, &first);
}

/* ---- Barriers
 * ------------------------------------------------------------------------------------ Each PE owns
 * one 64-bit word (in host memory mapped for the GPU, shared with the stream barriers): to pass its
 * next barrier it stores its count of barriers + 1 with release order, then waits, with acquire
 * loads, until every PE's word has reached that count. Counts only grow, so a PE already in the
 * next barrier still counts as arrived. */
ISHMEMI_FN unsigned long long *barrier_word(const Handle &h, int slot) {
  return h.barrier + (size_t)slot * h.barrier_step;
}
ISHMEMI_FN int sync_all(const Handle &h) {
  if (!h.barrier) return ISHMEM_ERR_UNSUPPORTED; /* the GPU could not map the barrier page */
  unsigned long long *mine = barrier_word(h, h.my_slot);
  const unsigned long long epoch = ld_relaxed(mine) + 1; /* only this PE writes its word */
  st_release(mine, epoch);
  for (int slot = 0; slot < h.n_local; ++slot) {
    if (slot == h.my_slot) continue;
    const unsigned long long *word = barrier_word(h, slot);
    Waiter wait;
    while (ld_acquire(word) < epoch)
      if (!wait.next()) return ISHMEM_ERR_TIMEOUT;
  }
  return ISHMEM_SUCCESS;
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

#endif /* ISHMEMI_GPU */

} /* namespace ishmemi */

/* ---- Generators ---------------------------------------------------------------------------------
 * Each list below names its calls as F(RETURN, NAME, (PARAMETERS), (ARGUMENTS), IMPL); the
 * form macros turn one entry into a device function calling IMPL(handle, ARGUMENTS...) or,
 * as plain C++, into a handle overload that forwards to the host call of the same name. */
#define ISHMEMI_UNPAREN(...) __VA_ARGS__

#define ISHMEMI_SYNC_AMO_EXTENDED(F, T, N)                                                         \
  F(T, ishmem_##N##_atomic_fetch, (const T *source, int pe), (source, pe),                         \
    ::ishmemi::amo_fetch<T>)                                                                       \
  F(int, ishmem_##N##_atomic_set, (T * dest, T value, int pe), (dest, value, pe),                  \
    ::ishmemi::amo_set<T>)                                                                         \
  F(T, ishmem_##N##_atomic_swap, (T * dest, T value, int pe), (dest, value, pe),                   \
    ::ishmemi::amo_swap<T>)                                                                        \
  F(int, ishmem_##N##_atomic_fetch_nbi, (T * fetch, const T *source, int pe), (fetch, source, pe), \
    ::ishmemi::amo_fetch_nbi<T>)                                                                   \
  F(int, ishmem_##N##_atomic_swap_nbi, (T * fetch, T * dest, T value, int pe),                     \
    (fetch, dest, value, pe), ::ishmemi::amo_swap_nbi<T>)

#define ISHMEMI_SYNC_AMO_STANDARD(F, T, N)                                                         \
  F(T, ishmem_##N##_atomic_compare_swap, (T * dest, T cond, T value, int pe),                      \
    (dest, cond, value, pe), ::ishmemi::amo_compare_swap<T>)                                       \
  F(int, ishmem_##N##_atomic_compare_swap_nbi, (T * fetch, T * dest, T cond, T value, int pe),     \
    (fetch, dest, cond, value, pe), ::ishmemi::amo_compare_swap_nbi<T>)                            \
  F(T, ishmem_##N##_atomic_fetch_inc, (T * dest, int pe), (dest, pe), ::ishmemi::amo_fetch_inc<T>) \
  F(int, ishmem_##N##_atomic_inc, (T * dest, int pe), (dest, pe), ::ishmemi::amo_inc<T>)           \
  F(int, ishmem_##N##_atomic_fetch_inc_nbi, (T * fetch, T * dest, int pe), (fetch, dest, pe),      \
    ::ishmemi::amo_fetch_inc_nbi<T>)                                                               \
  F(T, ishmem_##N##_atomic_fetch_add, (T * dest, T value, int pe), (dest, value, pe),              \
    ::ishmemi::amo_fetch_add<T>)                                                                   \
  F(int, ishmem_##N##_atomic_add, (T * dest, T value, int pe), (dest, value, pe),                  \
    ::ishmemi::amo_add<T>)                                                                         \
  F(int, ishmem_##N##_atomic_fetch_add_nbi, (T * fetch, T * dest, T value, int pe),                \
    (fetch, dest, value, pe), ::ishmemi::amo_fetch_add_nbi<T>)

#define ISHMEMI_SYNC_AMO_BITWISE_OP(F, T, N, OP)                                       \
  F(T, ishmem_##N##_atomic_fetch_##OP, (T * dest, T value, int pe), (dest, value, pe), \
    ::ishmemi::amo_fetch_##OP<T>)                                                      \
  F(int, ishmem_##N##_atomic_##OP, (T * dest, T value, int pe), (dest, value, pe),     \
    ::ishmemi::amo_##OP<T>)                                                            \
  F(int, ishmem_##N##_atomic_fetch_##OP##_nbi, (T * fetch, T * dest, T value, int pe), \
    (fetch, dest, value, pe), ::ishmemi::amo_fetch_##OP##_nbi<T>)
#define ISHMEMI_SYNC_AMO_BITWISE(F, T, N)   \
  ISHMEMI_SYNC_AMO_BITWISE_OP(F, T, N, and) \
  ISHMEMI_SYNC_AMO_BITWISE_OP(F, T, N, or)  \
  ISHMEMI_SYNC_AMO_BITWISE_OP(F, T, N, xor)

#define ISHMEMI_SYNC_P2P(F, T, N)                                                                  \
  F(int, ishmem_##N##_wait_until, (T * ivar, int cmp, T cmp_value), (ivar, cmp, cmp_value),        \
    ::ishmemi::wait_until<T>)                                                                      \
  F(int, ishmem_##N##_wait_until_all,                                                              \
    (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value),                           \
    (ivars, nelems, status, cmp, cmp_value), ::ishmemi::wait_until_all<T>)                         \
  F(size_t, ishmem_##N##_wait_until_any,                                                           \
    (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value),                           \
    (ivars, nelems, status, cmp, cmp_value), ::ishmemi::wait_until_any<T>)                         \
  F(size_t, ishmem_##N##_wait_until_some,                                                          \
    (T * ivars, size_t nelems, size_t * indices, const int *status, int cmp, T cmp_value),         \
    (ivars, nelems, indices, status, cmp, cmp_value), ::ishmemi::wait_until_some<T>)               \
  F(int, ishmem_##N##_wait_until_all_vector,                                                       \
    (T * ivars, size_t nelems, const int *status, int cmp, const T *cmp_values),                   \
    (ivars, nelems, status, cmp, cmp_values), ::ishmemi::wait_until_all_vector<T>)                 \
  F(size_t, ishmem_##N##_wait_until_any_vector,                                                    \
    (T * ivars, size_t nelems, const int *status, int cmp, const T *cmp_values),                   \
    (ivars, nelems, status, cmp, cmp_values), ::ishmemi::wait_until_any_vector<T>)                 \
  F(size_t, ishmem_##N##_wait_until_some_vector,                                                   \
    (T * ivars, size_t nelems, size_t * indices, const int *status, int cmp, const T *cmp_values), \
    (ivars, nelems, indices, status, cmp, cmp_values), ::ishmemi::wait_until_some_vector<T>)       \
  F(int, ishmem_##N##_test, (T * ivar, int cmp, T cmp_value), (ivar, cmp, cmp_value),              \
    ::ishmemi::test<T>)                                                                            \
  F(int, ishmem_##N##_test_all,                                                                    \
    (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value),                           \
    (ivars, nelems, status, cmp, cmp_value), ::ishmemi::test_all_of<T>)                            \
  F(size_t, ishmem_##N##_test_any,                                                                 \
    (T * ivars, size_t nelems, const int *status, int cmp, T cmp_value),                           \
    (ivars, nelems, status, cmp, cmp_value), ::ishmemi::test_any<T>)                               \
  F(size_t, ishmem_##N##_test_some,                                                                \
    (T * ivars, size_t nelems, size_t * indices, const int *status, int cmp, T cmp_value),         \
    (ivars, nelems, indices, status, cmp, cmp_value), ::ishmemi::test_some<T>)                     \
  F(int, ishmem_##N##_test_all_vector,                                                             \
    (T * ivars, size_t nelems, const int *status, int cmp, const T *cmp_values),                   \
    (ivars, nelems, status, cmp, cmp_values), ::ishmemi::test_all_vector<T>)                       \
  F(size_t, ishmem_##N##_test_any_vector,                                                          \
    (T * ivars, size_t nelems, const int *status, int cmp, const T *cmp_values),                   \
    (ivars, nelems, status, cmp, cmp_values), ::ishmemi::test_any_vector<T>)                       \
  F(size_t, ishmem_##N##_test_some_vector,                                                         \
    (T * ivars, size_t nelems, size_t * indices, const int *status, int cmp, const T *cmp_values), \
    (ivars, nelems, indices, status, cmp, cmp_values), ::ishmemi::test_some_vector<T>)

#define ISHMEMI_SIGNAL_PARAMS                                                                      \
  (void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal, int sig_op, \
   int pe)
#define ISHMEMI_SIGNAL_ARGS (dest, source, nbytes, sig_addr, signal, sig_op, pe)
#define ISHMEMI_SYNC_SIGNAL(F)                                                              \
  F(int, ishmem_putmem_signal, ISHMEMI_SIGNAL_PARAMS, ISHMEMI_SIGNAL_ARGS,                  \
    (::ishmemi::put_signal<::ishmemi::Thread, false>))                                      \
  F(int, ishmem_putmem_signal_nbi, ISHMEMI_SIGNAL_PARAMS, ISHMEMI_SIGNAL_ARGS,              \
    (::ishmemi::put_signal<::ishmemi::Thread, true>))                                       \
  F(uint64_t, ishmem_signal_fetch, (const uint64_t *sig_addr), (sig_addr),                  \
    ::ishmemi::signal_fetch)                                                                \
  F(uint64_t, ishmem_signal_wait_until, (uint64_t * sig_addr, int cmp, uint64_t cmp_value), \
    (sig_addr, cmp, cmp_value), ::ishmemi::signal_wait_until)
#define ISHMEMI_SYNC_PUT_SIGNAL_TYPED(F, T, N)                                                     \
  F(int, ishmem_##N##_put_signal,                                                                  \
    (T * dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op,    \
     int pe),                                                                                      \
    (dest, source, nelems, sig_addr, signal, sig_op, pe), (::ishmemi::put_signal_typed<T, false>)) \
  F(int, ishmem_##N##_put_signal_nbi,                                                              \
    (T * dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal, int sig_op,    \
     int pe),                                                                                      \
    (dest, source, nelems, sig_addr, signal, sig_op, pe), (::ishmemi::put_signal_typed<T, true>))

/* Applies one form F to every synchronization call with a standard OpenSHMEM name. */
#define ISHMEMI_SYNC_EXT_F(T, N) ISHMEMI_SYNC_AMO_EXTENDED(ISHMEMI_SYNC_F, T, N)
#define ISHMEMI_SYNC_STD_F(T, N) ISHMEMI_SYNC_AMO_STANDARD(ISHMEMI_SYNC_F, T, N)
#define ISHMEMI_SYNC_BIT_F(T, N) ISHMEMI_SYNC_AMO_BITWISE(ISHMEMI_SYNC_F, T, N)
#define ISHMEMI_SYNC_P2P_F(T, N) ISHMEMI_SYNC_P2P(ISHMEMI_SYNC_F, T, N)
#define ISHMEMI_SYNC_SIG_F(T, N) ISHMEMI_SYNC_PUT_SIGNAL_TYPED(ISHMEMI_SYNC_F, T, N)
#define ISHMEMI_SYNC_SIG_F_DEV(T, N) ISHMEMI_DEVICE_TYPE(ISHMEMI_SYNC_SIG_F, T, N)
#define ISHMEMI_SYNC_ALL_STANDARD_NAMES               \
  ISHMEMI_AMO_STANDARD_TYPES(ISHMEMI_SYNC_EXT_F)      \
  ISHMEMI_AMO_EXTENDED_ONLY_TYPES(ISHMEMI_SYNC_EXT_F) \
  ISHMEMI_AMO_STANDARD_TYPES(ISHMEMI_SYNC_STD_F)      \
  ISHMEMI_AMO_BITWISE_TYPES(ISHMEMI_SYNC_BIT_F)       \
  ISHMEMI_AMO_STANDARD_TYPES(ISHMEMI_SYNC_P2P_F)      \
  ISHMEMI_SYNC_SIGNAL(ISHMEMI_SYNC_F)                 \
  ISHMEMI_RMA_TYPES(ISHMEMI_SYNC_SIG_F_DEV)

/* Device-only extension names (group forms): NAME is warp or block, G the group. */
#define ISHMEMI_SYNC_GROUP(PREFIX, H0, H1, NAME, G)                                                \
  PREFIX int ishmemx_putmem_signal_##NAME(H0() void *dest, const void *source, size_t nbytes,      \
                                          uint64_t *sig_addr, uint64_t signal, int sig_op,         \
                                          int pe) {                                                \
    return ::ishmemi::put_signal<G, false>(H1, dest, source, nbytes, sig_addr, signal, sig_op,     \
                                           pe);                                                    \
  }                                                                                                \
  PREFIX int ishmemx_putmem_signal_nbi_##NAME(H0() void *dest, const void *source, size_t nbytes,  \
                                              uint64_t *sig_addr, uint64_t signal, int sig_op,     \
                                              int pe) {                                            \
    return ::ishmemi::put_signal<G, true>(H1, dest, source, nbytes, sig_addr, signal, sig_op, pe); \
  }
#define ISHMEMI_SYNC_EXTENSIONS(PREFIX, H0, H1)               \
  ISHMEMI_SYNC_GROUP(PREFIX, H0, H1, warp, ::ishmemi::Warp)   \
  ISHMEMI_SYNC_GROUP(PREFIX, H0, H1, block, ::ishmemi::Block) \
  PREFIX int ishmemx_barrier_all_block(H0##_ONLY()) {         \
    return ::ishmemi::barrier_block<true>(H1);                \
  }                                                           \
  PREFIX int ishmemx_sync_all_block(H0##_ONLY()) {            \
    return ::ishmemi::barrier_block<false>(H1);               \
  }
#define ISHMEMI_SYNC_BARRIERS(PREFIX, H0, H1)  \
  PREFIX int ishmem_barrier_all(H0##_ONLY()) { \
    return ::ishmemi::barrier_all(H1);         \
  }                                            \
  PREFIX int ishmem_sync_all(H0##_ONLY()) {    \
    return ::ishmemi::sync_all(H1);            \
  }

#if defined(ISHMEMI_GPU)
/* ---- Handle form ----------------------------------------------------------------------------- */
#define ISHMEMI_SYNC_F(RET, NAME, PARAMS, ARGS, IMPL)                              \
  ISHMEMI_FN RET NAME(ishmemx_device_handle_t ishmemi_h, ISHMEMI_UNPAREN PARAMS) { \
    return IMPL(ishmemi_h, ISHMEMI_UNPAREN ARGS);                                  \
  }
ISHMEMI_SYNC_ALL_STANDARD_NAMES
#undef ISHMEMI_SYNC_F
ISHMEMI_SYNC_BARRIERS(ISHMEMI_FN, ISHMEMI_H, ishmemi_h)
ISHMEMI_SYNC_EXTENSIONS(ISHMEMI_FN, ISHMEMI_H, ishmemi_h)

/* ---- No-argument form (relocatable device code; see ishmem/device.h) ------------------------ */
#if defined(ISHMEMI_DEVICE_STATE)
ISHMEMI_SYNC_EXTENSIONS(ISHMEMI_FN, ISHMEMI_NOARG, ishmemi_device_state)
#if defined(ISHMEMI_NOARG_API)
#if defined(ISHMEMI_GPU_NVCC)
#pragma nv_diag_suppress 20040
#endif
#define ISHMEMI_SYNC_F(RET, NAME, PARAMS, ARGS, IMPL)        \
  ISHMEMI_NOARG_API RET NAME PARAMS {                        \
    return IMPL(ishmemi_device_state, ISHMEMI_UNPAREN ARGS); \
  }
ISHMEMI_SYNC_ALL_STANDARD_NAMES
#undef ISHMEMI_SYNC_F
ISHMEMI_SYNC_BARRIERS(ISHMEMI_NOARG_API, ISHMEMI_NOARG, ishmemi_device_state)
#if defined(ISHMEMI_GPU_NVCC)
#pragma nv_diag_default 20040
#endif
#endif /* ISHMEMI_NOARG_API */
#endif /* ISHMEMI_DEVICE_STATE */

#else
/* ---- Plain C++: handle overloads and group names forward to the host API -------------------- */
#define ISHMEMI_SYNC_F(RET, NAME, PARAMS, ARGS, IMPL)                \
  inline RET NAME(ishmemx_device_handle_t, ISHMEMI_UNPAREN PARAMS) { \
    return NAME ARGS;                                                \
  }
ISHMEMI_SYNC_ALL_STANDARD_NAMES
#undef ISHMEMI_SYNC_F
inline int ishmem_barrier_all(ishmemx_device_handle_t) {
  return ishmem_barrier_all();
}
inline int ishmem_sync_all(ishmemx_device_handle_t) {
  return ishmem_sync_all();
}
#define ISHMEMI_SYNC_HOST_GROUP(NAME)                                                              \
  inline int ishmemx_putmem_signal_##NAME(void *dest, const void *source, size_t nbytes,           \
                                          uint64_t *sig_addr, uint64_t signal, int sig_op,         \
                                          int pe) {                                                \
    return ishmem_putmem_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe);               \
  }                                                                                                \
  inline int ishmemx_putmem_signal_nbi_##NAME(void *dest, const void *source, size_t nbytes,       \
                                              uint64_t *sig_addr, uint64_t signal, int sig_op,     \
                                              int pe) {                                            \
    return ishmem_putmem_signal_nbi(dest, source, nbytes, sig_addr, signal, sig_op, pe);           \
  }                                                                                                \
  inline int ishmemx_putmem_signal_##NAME(ishmemx_device_handle_t, void *dest, const void *source, \
                                          size_t nbytes, uint64_t *sig_addr, uint64_t signal,      \
                                          int sig_op, int pe) {                                    \
    return ishmem_putmem_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe);               \
  }                                                                                                \
  inline int ishmemx_putmem_signal_nbi_##NAME(                                                     \
      ishmemx_device_handle_t, void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,  \
      uint64_t signal, int sig_op, int pe) {                                                       \
    return ishmem_putmem_signal_nbi(dest, source, nbytes, sig_addr, signal, sig_op, pe);           \
  }
ISHMEMI_SYNC_HOST_GROUP(warp)
ISHMEMI_SYNC_HOST_GROUP(block)
#undef ISHMEMI_SYNC_HOST_GROUP
inline int ishmemx_barrier_all_block() {
  return ishmem_barrier_all();
}
inline int ishmemx_sync_all_block() {
  return ishmem_sync_all();
}
inline int ishmemx_barrier_all_block(ishmemx_device_handle_t) {
  return ishmem_barrier_all();
}
inline int ishmemx_sync_all_block(ishmemx_device_handle_t) {
  return ishmem_sync_all();
}
#endif

#endif /* __cplusplus */

#endif /* ISHMEM_DEVICE_SYNC_H */
