/* ishmem device API: the RMA calls of ishmem.h inside CUDA and HIP kernels.
 *
 * Two forms (docs/DEVICE_API.md has examples):
 *  - No extra argument: ishmem_putmem(dest, src, n, pe) in a kernel, as on the host. These
 *    read the PE layout from a device variable in the device library, so the kernel's code
 *    must be relocatable device code (nvcc -rdc=true, clang -fgpu-rdc) linked with the
 *    CMake target ishmem::device.
 *  - Handle: the same names with a leading ishmemx_device_handle_t, which the host gets from
 *    ishmemx_get_device_handle() and passes to the kernel as an argument. Header-only: no
 *    relocatable device code, no device library.
 * Group forms (ishmemx_putmem_warp, ishmemx_putmem_block and their get and _nbi twins) are
 * called by every thread of the warp (an AMD wavefront: 64 lanes) or block, with the same
 * arguments; they split the copy across the group. Copies use 16-byte accesses where the
 * source and destination are equally aligned, with the head and tail done bytewise.
 *
 * Semantics: put returns once the source may be reused; the data is visible at the target
 * after ishmem_quiet() (or kernel end). get returns with the data. _nbi forms may return
 * earlier; ishmem_quiet() completes them. Device calls do not check their arguments.
 * long double has no device forms (CUDA and HIP compile it as double in device code).
 *
 * Compiled as plain C++ (no GPU compiler), every call here runs on the CPU through the
 * host API, so code shared between host and device builds compiles unchanged. */
#ifndef ISHMEM_DEVICE_H
#define ISHMEM_DEVICE_H

#include "ishmem.h"

/* The PE layout a kernel needs: a symmetric address `a` on PE `pe` is at
 * a + (slot(pe) - my_slot) * stride, with slot(pe) = pe - first_local_pe when contiguous
 * (always so with a GPU backend, whose PEs share one node: there it is a + (pe - my_pe) *
 * stride). */
typedef struct ishmemx_device_handle {
  char *window;       /* slot 0 of the node's heap window */
  size_t stride;      /* bytes per slot */
  char *local_base;   /* this PE's heap: window + my_slot * stride */
  const int *pe_slot; /* device table PE -> slot (-1: not mapped); NULL with the host backend */
  int my_pe;
  int n_pes;
  int my_slot;
  int n_local;
  int first_local_pe;
  int contiguous; /* node-local PEs are numbered first_local_pe + slot */
  /* Barrier words of the device and stream barriers (ishmem/device_sync.h): slot j's 64-bit
   * word is at barrier + j * barrier_step, in host memory that every PE maps and its GPU can
   * reach. NULL with the host backend. */
  unsigned long long *barrier;
  size_t barrier_step;
} ishmemx_device_handle_t;

#ifdef __cplusplus
extern "C" {
#endif
/* Fills *handle for passing to kernels (valid until ishmem_finalize). Host call. */
int ishmemx_get_device_handle(ishmemx_device_handle_t *handle);
#ifdef __cplusplus
}
#endif

#ifdef __cplusplus

/* ---- How this translation unit is compiled --------------------------------------------- */
#if defined(__CUDACC__) && !defined(__clang__)
#define ISHMEMI_GPU_NVCC 1
#elif defined(__HIP__) || (defined(__CUDA__) && defined(__clang__))
#define ISHMEMI_GPU_CLANG 1
#endif
#if defined(ISHMEMI_GPU_NVCC) || defined(ISHMEMI_GPU_CLANG)
#define ISHMEMI_GPU 1
#if defined(__HIP__)
#include <hip/hip_runtime.h>
#endif
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
#define ISHMEMI_GPU_AMD 1
#endif
/* Relocatable device code: the no-argument forms can read the device library's state. */
#if defined(__CUDACC_RDC__) || defined(__CLANG_RDC__)
#define ISHMEMI_DEVICE_STATE 1
#endif
#endif

#ifdef ISHMEMI_GPU
#define ISHMEMI_FN __device__ __forceinline__
#else
#define ISHMEMI_FN inline
#endif

namespace ishmemi {

typedef ishmemx_device_handle_t Handle;

#ifdef ISHMEMI_GPU
/* ---- Device implementation --------------------------------------------------------------- */

ISHMEMI_FN unsigned block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
ISHMEMI_FN unsigned thread_in_block() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* Thread groups: rank in the group, group size, and a barrier over the group. */
struct Thread {
  static ISHMEMI_FN unsigned rank() { return 0; }
  static ISHMEMI_FN unsigned size() { return 1; }
  static ISHMEMI_FN void sync() {}
};
struct Warp {
  static ISHMEMI_FN unsigned rank() { return thread_in_block() % warpSize; }
  /* The last warp of a block whose size is not a multiple of warpSize is partial. */
  static ISHMEMI_FN unsigned size() {
    unsigned left = block_threads() - (thread_in_block() - rank());
    return left < (unsigned)warpSize ? left : (unsigned)warpSize;
  }
  static ISHMEMI_FN void sync() {
#if defined(ISHMEMI_GPU_AMD)
#if defined(__HIP_DEVICE_COMPILE__)
    /* A wavefront runs its lanes together; order their memory accesses. */
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
    __builtin_amdgcn_wave_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#endif
#else
    unsigned n = size();
    __syncwarp(n >= 32 ? 0xffffffffu : ((1u << n) - 1u));
#endif
  }
};
struct Block {
  static ISHMEMI_FN unsigned rank() { return thread_in_block(); }
  static ISHMEMI_FN unsigned size() { return block_threads(); }
  static ISHMEMI_FN void sync() { __syncthreads(); }
};

/* Body accesses of the copies. ISHMEMI_STREAMING_COPY (nvcc; an experiment, off by default)
 * marks them evict-first, for copies that outsize the L2. */
#if defined(ISHMEMI_STREAMING_COPY) && defined(ISHMEMI_GPU_NVCC)
#define ISHMEMI_COPY_LOAD(p) __ldcs(p)
#define ISHMEMI_COPY_STORE(p, v) __stcs((p), (v))
#else
#define ISHMEMI_COPY_LOAD(p) (*(p))
#define ISHMEMI_COPY_STORE(p, v) (*(p) = (v))
#endif

/* Copies n bytes with accesses of V, dst and src being equally aligned modulo sizeof(V):
 * the head (up to dst's alignment) and the tail bytewise, first, so that nothing but the body
 * loop's pointers stays live in it; the body as V, four per thread per step, loads first. */
template <class G, class V>
ISHMEMI_FN void copy_as(char *dst, const char *src, size_t n) {
  const size_t w = sizeof(V);
  const unsigned r = G::rank(), g = G::size();
  size_t head = (w - ((size_t)dst & (w - 1))) & (w - 1);
  if (head > n) head = n;
  const size_t body = (n - head) / w * w;
  for (size_t i = r; i < head; i += g) dst[i] = src[i];
  for (size_t i = head + body + r; i < n; i += g) dst[i] = src[i];
  const V *s = (const V *)(src + head) + r;
  const V *end = (const V *)(src + head + body);
  V *d = (V *)(dst + head) + r;
  for (; s + 3 * g < end; s += 4 * g, d += 4 * g) {
    V a = ISHMEMI_COPY_LOAD(s), b = ISHMEMI_COPY_LOAD(s + g), c = ISHMEMI_COPY_LOAD(s + 2 * g),
      e = ISHMEMI_COPY_LOAD(s + 3 * g);
    ISHMEMI_COPY_STORE(d, a);
    ISHMEMI_COPY_STORE(d + g, b);
    ISHMEMI_COPY_STORE(d + 2 * g, c);
    ISHMEMI_COPY_STORE(d + 3 * g, e);
  }
  for (; s < end; s += g, d += g) ISHMEMI_COPY_STORE(d, ISHMEMI_COPY_LOAD(s));
}

template <class G>
ISHMEMI_FN void copy(void *dst, const void *src, size_t n) {
  size_t mis = (size_t)dst ^ (size_t)src;
  char *d = (char *)dst;
  const char *s = (const char *)src;
  if ((mis & 15) == 0)
    copy_as<G, uint4>(d, s, n);
  else if ((mis & 7) == 0)
    copy_as<G, unsigned long long>(d, s, n);
  else if ((mis & 3) == 0)
    copy_as<G, unsigned int>(d, s, n);
  else if ((mis & 1) == 0)
    copy_as<G, unsigned short>(d, s, n);
  else
    copy_as<G, unsigned char>(d, s, n);
}

/* The address of symmetric `sym` on `pe`. GPU heaps span one node whose PEs are numbered
 * like their slots (the runtime checks this), so slot(pe) - my_slot = pe - my_pe: one
 * multiply-add, and no table load, which keeps ishmem_p as cheap as a raw store. */
ISHMEMI_FN char *peer(const Handle &h, const void *sym, int pe) {
  return (char *)sym + (ptrdiff_t)(pe - h.my_pe) * (ptrdiff_t)h.stride;
}

template <class G, bool NBI>
ISHMEMI_FN int put(const Handle &h, void *dest, const void *src, size_t n, int pe) {
  G::sync(); /* every thread's writes to src are done */
  copy<G>(peer(h, dest, pe), src, n);
  if (!NBI) G::sync(); /* src may be reused by any thread of the group */
  return ISHMEM_SUCCESS;
}
template <class G, bool NBI>
ISHMEMI_FN int get(const Handle &h, void *dest, const void *src, size_t n, int pe) {
  G::sync();
  copy<G>(dest, peer(h, src, pe), n);
  if (!NBI) G::sync(); /* dest is complete for every thread of the group */
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN int p(const Handle &h, T *dest, T value, int pe) {
  *(volatile T *)peer(h, dest, pe) = value;
  return ISHMEM_SUCCESS;
}
template <class T>
ISHMEMI_FN T g(const Handle &h, const T *src, int pe) {
  return *(const volatile T *)peer(h, src, pe);
}
ISHMEMI_FN int quiet(const Handle &) {
  __threadfence_system(); /* peers may be other GPUs: system scope */
  return ISHMEM_SUCCESS;
}
ISHMEMI_FN int fence(const Handle &) {
  __threadfence_system();
  return ISHMEM_SUCCESS;
}
ISHMEMI_FN void *ptr(const Handle &h, const void *dest, int pe) {
  size_t off = (size_t)((const char *)dest - h.local_base);
  if (pe < 0 || pe >= h.n_pes || off >= h.stride) return 0;
  return peer(h, dest, pe);
}
ISHMEMI_FN int my_pe(const Handle &h) {
  return h.my_pe;
}
ISHMEMI_FN int n_pes(const Handle &h) {
  return h.n_pes;
}

#else
/* ---- Plain C++: the same calls through the host API ---------------------------------------- */

struct Thread {};
struct Warp {};
struct Block {};

template <class G, bool NBI>
inline int put(const Handle &, void *dest, const void *src, size_t n, int pe) {
  return NBI ? ishmem_putmem_nbi(dest, src, n, pe) : ishmem_putmem(dest, src, n, pe);
}
template <class G, bool NBI>
inline int get(const Handle &, void *dest, const void *src, size_t n, int pe) {
  return NBI ? ishmem_getmem_nbi(dest, src, n, pe) : ishmem_getmem(dest, src, n, pe);
}
template <class T>
inline int p(const Handle &, T *dest, T value, int pe) {
  return ishmem_putmem(dest, &value, sizeof value, pe);
}
template <class T>
inline T g(const Handle &, const T *src, int pe) {
  T value{};
  ishmem_getmem(&value, src, sizeof value, pe);
  return value;
}
inline int quiet(const Handle &) {
  return ishmem_quiet();
}
inline int fence(const Handle &) {
  return ishmem_fence();
}
inline void *ptr(const Handle &, const void *dest, int pe) {
  return ishmem_ptr(dest, pe);
}
inline int my_pe(const Handle &) {
  return ishmem_my_pe();
}
inline int n_pes(const Handle &) {
  return ishmem_n_pes();
}
inline const Handle &host_state() {
  static const Handle none = {};
  return none;
}
#endif

} /* namespace ishmemi */

/* Types with device forms: every RMA type but long double (see the top of this file). */
#define ISHMEMI_PP_SECOND(a, b, ...) b
#define ISHMEMI_PP_PROBE(...) ISHMEMI_PP_SECOND(__VA_ARGS__, 0, ~)
#define ISHMEMI_PP_CAT(a, b) ISHMEMI_PP_CAT_(a, b)
#define ISHMEMI_PP_CAT_(a, b) a##b
#define ISHMEMI_HOST_ONLY_TYPE_longdouble ~, 1
#define ISHMEMI_PP_IF_0(yes, no) no
#define ISHMEMI_PP_IF_1(yes, no) yes
#define ISHMEMI_PP_IGNORE(T, N)
#define ISHMEMI_DEVICE_TYPE(GEN, T, N)                                         \
  ISHMEMI_PP_CAT(ISHMEMI_PP_IF_, ISHMEMI_PP_PROBE(ISHMEMI_HOST_ONLY_TYPE_##N)) \
  (ISHMEMI_PP_IGNORE, GEN)(T, N)

/* Generates one family of calls: PREFIX is the storage (device or inline, extern "C" or
 * not), H0/H1 the handle parameter and the handle expression passed on. */
#define ISHMEMI_GEN_CORE(PREFIX, H0, H1)                                                     \
  PREFIX int ishmem_putmem(H0() void *dest, const void *source, size_t nbytes, int pe) {     \
    return ::ishmemi::put<::ishmemi::Thread, false>(H1, dest, source, nbytes, pe);           \
  }                                                                                          \
  PREFIX int ishmem_getmem(H0() void *dest, const void *source, size_t nbytes, int pe) {     \
    return ::ishmemi::get<::ishmemi::Thread, false>(H1, dest, source, nbytes, pe);           \
  }                                                                                          \
  PREFIX int ishmem_putmem_nbi(H0() void *dest, const void *source, size_t nbytes, int pe) { \
    return ::ishmemi::put<::ishmemi::Thread, true>(H1, dest, source, nbytes, pe);            \
  }                                                                                          \
  PREFIX int ishmem_getmem_nbi(H0() void *dest, const void *source, size_t nbytes, int pe) { \
    return ::ishmemi::get<::ishmemi::Thread, true>(H1, dest, source, nbytes, pe);            \
  }                                                                                          \
  PREFIX int ishmem_quiet(H0##_ONLY()) {                                                     \
    return ::ishmemi::quiet(H1);                                                             \
  }                                                                                          \
  PREFIX int ishmem_fence(H0##_ONLY()) {                                                     \
    return ::ishmemi::fence(H1);                                                             \
  }                                                                                          \
  PREFIX void *ishmem_ptr(H0() const void *dest, int pe) {                                   \
    return ::ishmemi::ptr(H1, dest, pe);                                                     \
  }                                                                                          \
  PREFIX int ishmem_my_pe(H0##_ONLY()) {                                                     \
    return ::ishmemi::my_pe(H1);                                                             \
  }                                                                                          \
  PREFIX int ishmem_n_pes(H0##_ONLY()) {                                                     \
    return ::ishmemi::n_pes(H1);                                                             \
  }

#define ISHMEMI_GEN_TYPED(PREFIX, H0, H1, T, N)                                                \
  PREFIX int ishmem_##N##_put(H0() T *dest, const T *source, size_t nelems, int pe) {          \
    return ::ishmemi::put<::ishmemi::Thread, false>(H1, dest, source, nelems * sizeof(T), pe); \
  }                                                                                            \
  PREFIX int ishmem_##N##_get(H0() T *dest, const T *source, size_t nelems, int pe) {          \
    return ::ishmemi::get<::ishmemi::Thread, false>(H1, dest, source, nelems * sizeof(T), pe); \
  }                                                                                            \
  PREFIX int ishmem_##N##_put_nbi(H0() T *dest, const T *source, size_t nelems, int pe) {      \
    return ::ishmemi::put<::ishmemi::Thread, true>(H1, dest, source, nelems * sizeof(T), pe);  \
  }                                                                                            \
  PREFIX int ishmem_##N##_get_nbi(H0() T *dest, const T *source, size_t nelems, int pe) {      \
    return ::ishmemi::get<::ishmemi::Thread, true>(H1, dest, source, nelems * sizeof(T), pe);  \
  }                                                                                            \
  PREFIX int ishmem_##N##_p(H0() T *dest, T value, int pe) {                                   \
    return ::ishmemi::p<T>(H1, dest, value, pe);                                               \
  }                                                                                            \
  PREFIX T ishmem_##N##_g(H0() const T *source, int pe) {                                      \
    return ::ishmemi::g<T>(H1, source, pe);                                                    \
  }

/* Group forms: NAME is warp or block, G the group. */
#define ISHMEMI_GEN_GROUP(PREFIX, H0, H1, NAME, G)                                               \
  PREFIX int ishmemx_putmem_##NAME(H0() void *dest, const void *source, size_t nbytes, int pe) { \
    return ::ishmemi::put<G, false>(H1, dest, source, nbytes, pe);                               \
  }                                                                                              \
  PREFIX int ishmemx_getmem_##NAME(H0() void *dest, const void *source, size_t nbytes, int pe) { \
    return ::ishmemi::get<G, false>(H1, dest, source, nbytes, pe);                               \
  }                                                                                              \
  PREFIX int ishmemx_putmem_nbi_##NAME(H0() void *dest, const void *source, size_t nbytes,       \
                                       int pe) {                                                 \
    return ::ishmemi::put<G, true>(H1, dest, source, nbytes, pe);                                \
  }                                                                                              \
  PREFIX int ishmemx_getmem_nbi_##NAME(H0() void *dest, const void *source, size_t nbytes,       \
                                       int pe) {                                                 \
    return ::ishmemi::get<G, true>(H1, dest, source, nbytes, pe);                                \
  }
#define ISHMEMI_GEN_GROUPS(PREFIX, H0, H1)                 \
  ISHMEMI_GEN_GROUP(PREFIX, H0, H1, warp, ::ishmemi::Warp) \
  ISHMEMI_GEN_GROUP(PREFIX, H0, H1, block, ::ishmemi::Block)

/* Handle parameter spellings, function-like so that they pass through the generators
 * unexpanded: with the handle (H) or without (NOARG), before more parameters or alone. The
 * handle is taken by value: bound to a reference, a kernel argument would be copied to local
 * memory and reloaded around every volatile store. */
#define ISHMEMI_H() ishmemx_device_handle_t ishmemi_h,
#define ISHMEMI_H_ONLY() ishmemx_device_handle_t ishmemi_h
#define ISHMEMI_NOARG()
#define ISHMEMI_NOARG_ONLY()

/* ---- Handle form: overloads with the handle first, everywhere ------------------------------ */
ISHMEMI_GEN_CORE(ISHMEMI_FN, ISHMEMI_H, ishmemi_h)
#define ISHMEMI_GEN_TYPED_H(T, N) ISHMEMI_GEN_TYPED(ISHMEMI_FN, ISHMEMI_H, ishmemi_h, T, N)
#define ISHMEMI_GEN_TYPED_H_DEV(T, N) ISHMEMI_DEVICE_TYPE(ISHMEMI_GEN_TYPED_H, T, N)
ISHMEMI_RMA_TYPES(ISHMEMI_GEN_TYPED_H_DEV)
ISHMEMI_GEN_GROUPS(ISHMEMI_FN, ISHMEMI_H, ishmemi_h)

/* ---- No-argument form ----------------------------------------------------------------------- */
#if !defined(ISHMEMI_GPU)
/* Plain C++: the standard names are the host library's; add the group names. */
ISHMEMI_GEN_GROUPS(inline, ISHMEMI_NOARG, ::ishmemi::host_state())

#elif defined(ISHMEMI_DEVICE_STATE)
/* The device library's copy of the layout (ishmem::device), set at ishmem_init. */
extern __constant__ ishmemx_device_handle_t ishmemi_device_state;
ISHMEMI_GEN_GROUPS(ISHMEMI_FN, ISHMEMI_NOARG, ishmemi_device_state)

/* The standard names are also host functions (ishmem.h). nvcc merges a device definition
 * with the host declaration into one __host__ __device__ function, so it sees the device
 * body only in its device pass; clang overloads on __device__ and sees it in both. */
#if defined(ISHMEMI_GPU_NVCC) && defined(__CUDA_ARCH__)
#define ISHMEMI_NOARG_API extern "C" __host__ __device__ __forceinline__
#pragma nv_diag_suppress 20040
#elif defined(ISHMEMI_GPU_CLANG)
#define ISHMEMI_NOARG_API extern "C" __device__ __forceinline__
#endif
#ifdef ISHMEMI_NOARG_API
ISHMEMI_GEN_CORE(ISHMEMI_NOARG_API, ISHMEMI_NOARG, ishmemi_device_state)
#define ISHMEMI_GEN_TYPED_NOARG(T, N) \
  ISHMEMI_GEN_TYPED(ISHMEMI_NOARG_API, ISHMEMI_NOARG, ishmemi_device_state, T, N)
#define ISHMEMI_GEN_TYPED_NOARG_DEV(T, N) ISHMEMI_DEVICE_TYPE(ISHMEMI_GEN_TYPED_NOARG, T, N)
ISHMEMI_RMA_TYPES(ISHMEMI_GEN_TYPED_NOARG_DEV)
#endif
#if defined(ISHMEMI_GPU_NVCC) && defined(__CUDA_ARCH__)
#pragma nv_diag_default 20040
#endif
#endif /* no-argument form */

#endif /* __cplusplus */

/* Atomics, put-with-signal, wait/test and barriers in kernels. */
#include "ishmem/device_sync.h"

#endif /* ISHMEM_DEVICE_H */
