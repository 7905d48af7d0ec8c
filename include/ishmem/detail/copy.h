/* Thread groups and the copy loops of the device RMA calls (GPU compilers only). Internal:
 * included by ishmem/device.h. */
#ifndef ISHMEM_DETAIL_COPY_H
#define ISHMEM_DETAIL_COPY_H

#include "ishmem/detail/mode.h"

#ifdef ISHMEMI_GPU
namespace ishmemi {

ISHMEMI_FN unsigned block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
ISHMEMI_FN unsigned thread_in_block() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

/* Thread groups: rank in the group, group size, a barrier over the group, and a barrier that
 * also tells every thread whether any thread passed a nonzero `pred`. */
struct Thread {
  static constexpr bool kOne = true; /* one thread, known when compiling */
  static ISHMEMI_FN unsigned rank() { return 0; }
  static ISHMEMI_FN unsigned size() { return 1; }
  static ISHMEMI_FN void sync() {}
  static ISHMEMI_FN int any(int pred) { return pred; }
};
struct Warp {
  static constexpr bool kOne = false;
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
    __syncwarp(mask());
#endif
  }
  static ISHMEMI_FN int any(int pred) {
#if defined(ISHMEMI_GPU_AMD)
    sync();
    return __any(pred);
#else
    return __any_sync(mask(), pred);
#endif
  }
#if !defined(ISHMEMI_GPU_AMD)
  static ISHMEMI_FN unsigned mask() {
    unsigned n = size();
    return n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
  }
#endif
};
struct Block {
  static constexpr bool kOne = false;
  static ISHMEMI_FN unsigned rank() { return thread_in_block(); }
  static ISHMEMI_FN unsigned size() { return block_threads(); }
  static ISHMEMI_FN void sync() { __syncthreads(); }
  static ISHMEMI_FN int any(int pred) { return __syncthreads_or(pred); }
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

/* Copies n bytes with accesses of V, dst and src being equally aligned modulo sizeof(V): the
 * head (up to dst's alignment) and the tail bytewise, in one loop, first; then the body as V,
 * four per thread per step, loads first. The loops are not unrolled further and index from
 * one base: a thread then holds four V and a few indices, which keeps every group form within
 * 64 registers, so that kernels of 1024-thread blocks launch (docs/DEVICE_API.md). */
template <class G, class V>
ISHMEMI_FN void copy_as(char *dst, const char *src, size_t n) {
  const size_t w = sizeof(V);
  const unsigned r = G::rank(), g = G::size();
  size_t head = (w - ((size_t)dst & (w - 1))) & (w - 1);
  if (head > n) head = n;
  const size_t count = (n - head) / w; /* elements of the body */
  const size_t edge = n - count * w;   /* bytes of the head and the tail */
#pragma unroll 1
  for (size_t i = r; i < edge; i += g) {
    const size_t at = i < head ? i : i + count * w;
    dst[at] = src[at];
  }
  const V *s = (const V *)(src + head);
  V *d = (V *)(dst + head);
  size_t i = r;
#pragma unroll 1
  for (; i + 3 * g < count; i += 4 * g) {
    V a = ISHMEMI_COPY_LOAD(s + i), b = ISHMEMI_COPY_LOAD(s + i + g),
      c = ISHMEMI_COPY_LOAD(s + i + 2 * g), e = ISHMEMI_COPY_LOAD(s + i + 3 * g);
    ISHMEMI_COPY_STORE(d + i, a);
    ISHMEMI_COPY_STORE(d + i + g, b);
    ISHMEMI_COPY_STORE(d + i + 2 * g, c);
    ISHMEMI_COPY_STORE(d + i + 3 * g, e);
  }
#pragma unroll 1
  for (; i < count; i += g) ISHMEMI_COPY_STORE(d + i, ISHMEMI_COPY_LOAD(s + i));
}

/* v, which the compiler can no longer see through: what depends on it is computed at each
 * call. copy() passes the destination through it: without that, a kernel that copies the
 * same range in a loop gets the copy's set-up hoisted out of the loop and kept live across
 * it (69 registers instead of 31 on sm_90). The size stays visible, so that a constant one
 * (an 8-byte payload) folds the choice of access width. */
ISHMEMI_FN size_t opaque(size_t v) {
#if defined(ISHMEMI_GPU_AMD)
  asm volatile("" : "+v"(v));
#else
  asm volatile("" : "+l"(v));
#endif
  return v;
}

/* Whether accesses of w bytes suit a copy of n bytes to dst whose source is misaligned by
 * `mis` relative to it: equal alignment modulo w, and at least one whole w-byte access after
 * the head. Small copies (an 8-byte payload) then move as one access instead of bytewise. */
ISHMEMI_FN bool suits(size_t w, size_t mis, const char *dst, size_t n) {
  return (mis & (w - 1)) == 0 && n >= ((w - ((size_t)dst & (w - 1))) & (w - 1)) + w;
}

template <class G>
ISHMEMI_FN void copy(void *dst, const void *src, size_t n) {
  const size_t mis = (size_t)dst ^ (size_t)src;
  char *d = (char *)opaque((size_t)dst);
  const char *s = (const char *)src;
  if (suits(16, mis, d, n))
    copy_as<G, uint4>(d, s, n);
  else if (suits(8, mis, d, n))
    copy_as<G, unsigned long long>(d, s, n);
  else if (suits(4, mis, d, n))
    copy_as<G, unsigned int>(d, s, n);
  else if (suits(2, mis, d, n))
    copy_as<G, unsigned short>(d, s, n);
  else
    copy_as<G, unsigned char>(d, s, n);
}

#undef ISHMEMI_COPY_LOAD
#undef ISHMEMI_COPY_STORE

} /* namespace ishmemi */
#endif /* ISHMEMI_GPU */

#endif /* ISHMEM_DETAIL_COPY_H */
