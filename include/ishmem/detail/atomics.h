/* Vendor atomics and fences: system-scope loads, stores and read-modify-writes on 32- and
 * 64-bit words (PTX on NVIDIA, clang's scoped builtins on AMD), the sleep between polls, and
 * the poll-then-back-off waiter of the device waits (GPU compilers only). Internal: included
 * by ishmem/device.h. */
#ifndef ISHMEM_DETAIL_ATOMICS_H
#define ISHMEM_DETAIL_ATOMICS_H

#include "ishmem/detail/mode.h"

#ifdef ISHMEMI_GPU
namespace ishmemi {

/* ---- System-scope primitives on 32- and 64-bit words ---------------------------------------- */

template <int Bytes>
struct WordOf;
template <>
struct WordOf<2> {
  typedef unsigned short type;
};
template <>
struct WordOf<4> {
  typedef unsigned int type;
};
template <>
struct WordOf<8> {
  typedef unsigned long long type;
};
/* The unsigned word an AMO or wait type travels as: 4 or 8 bytes, 2 for the short waits (loads
 * only; no AMO takes a 2-byte type). */
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
ISHMEMI_FN void add_release(U *p, U v) {
  __hip_atomic_fetch_add(p, v, __ATOMIC_RELEASE, ISHMEMI_SYS);
}
/* Relaxed read-modify-writes: atomic_add, _and, _or, _xor, _exch. */
#define ISHMEMI_RMW(NAME, BUILTIN)                                      \
  template <class U>                                                    \
  ISHMEMI_FN U atomic_##NAME(U *p, U v) {                               \
    return __hip_atomic_##BUILTIN(p, v, __ATOMIC_RELAXED, ISHMEMI_SYS); \
  }
ISHMEMI_RMW(add, fetch_add)
ISHMEMI_RMW(and, fetch_and)
ISHMEMI_RMW(or, fetch_or)
ISHMEMI_RMW(xor, fetch_xor)
ISHMEMI_RMW(exch, exchange)
#undef ISHMEMI_RMW
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
/* The device timer of deadlines: the constant-rate wall clock (s_memrealtime, 100 MHz on
 * gfx9), not the core clock, whose rate varies. */
ISHMEMI_FN unsigned long long timer_now() {
#if defined(__HIP_DEVICE_COMPILE__)
  return wall_clock64();
#else
  return 0;
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
ISHMEMI_LD(acquire, 16, "h", unsigned short)
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
/* Relaxed read-modify-writes: atomic_add, _and, _or, _xor, _exch. */
#define ISHMEMI_RMW(NAME, CUDA_FN)        \
  template <class U>                      \
  ISHMEMI_FN U atomic_##NAME(U *p, U v) { \
    return CUDA_FN##_system(p, v);        \
  }
ISHMEMI_RMW(add, atomicAdd)
ISHMEMI_RMW(and, atomicAnd)
ISHMEMI_RMW(or, atomicOr)
ISHMEMI_RMW(xor, atomicXor)
ISHMEMI_RMW(exch, atomicExch)
#undef ISHMEMI_RMW
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
/* The device timer of deadlines: %globaltimer, in nanoseconds. */
ISHMEMI_FN unsigned long long timer_now() {
#if defined(__CUDA_ARCH__)
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
#else
  return 0;
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
/* ISHMEMX_DEVICE_WAIT_LIMIT as this translation unit defines it (0: none). The device
 * library's request code (lib/device/proxy_requests.cu) is compiled apart, so the caller's
 * limit travels to it as an argument; and the Waiter's layout is the same everywhere. */
#ifdef ISHMEMX_DEVICE_WAIT_LIMIT
#define ISHMEMI_WAIT_LIMIT ((long long)(ISHMEMX_DEVICE_WAIT_LIMIT))
#else
#define ISHMEMI_WAIT_LIMIT 0ll
#endif
struct Waiter {
  static const unsigned kSpinPolls = 64;
  unsigned polls;
  long long start;
  long long limit; /* clocks; 0: none */
  ISHMEMI_FN explicit Waiter(long long limit_clocks = ISHMEMI_WAIT_LIMIT)
      : polls(0), start(0), limit(limit_clocks) {}
  /* Call after a poll that failed; false once the debugging limit has passed, counted from
   * the end of the spin: while it spins, a poll costs only its load, as in a hand-written
   * loop, so that a value arriving is seen as soon as there. */
  ISHMEMI_FN bool next() {
    if (++polls <= kSpinPolls) return true;
    if (limit) {
      const long long now = clock_now();
      if (polls == kSpinPolls + 1) start = now;
      if (now - start > limit) return false;
    }
    nap((polls - kSpinPolls) / 16);
    return true;
  }
};

template <class T>
ISHMEMI_FN T load_acquire(const T *p) {
  return from_word<T>(ld_acquire((const word_t<T> *)p));
}

} /* namespace ishmemi */
#endif /* ISHMEMI_GPU */

#endif /* ISHMEM_DETAIL_ATOMICS_H */
