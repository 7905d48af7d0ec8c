/* The checks of ISHMEM_DEBUG=1 in device calls (GPU compilers only). When the handle says
 * debug is on, put, get, p, g, the atomics and put-with-signal first check that the target PE
 * is in range and that [address, address + bytes) lies inside one live allocation of the
 * heap map's table (kept by the runtime, ishmem/device_handle.h); a bad call prints what it
 * was and where, and stops the kernel. With debug off a call pays one branch on the flag,
 * which it reads with the rest of the handle. Internal: included by ishmem/detail/rma_impl.h. */
#ifndef ISHMEM_DETAIL_CHECKS_H
#define ISHMEM_DETAIL_CHECKS_H

#include "ishmem/detail/mode.h"
#include "ishmem/device_handle.h"

#ifdef ISHMEMI_GPU
namespace ishmemi {

/* True if [off, off + bytes) lies inside one block of `live` (its layout: ishmemx_heap_map_t):
 * a binary search for the last block that starts at or before `off`. */
ISHMEMI_FN bool in_live_block(const size_t *live, size_t off, size_t bytes) {
  size_t lo = 0, hi = live[0]; /* blocks [0, lo) start at or before off, [hi, n) after it */
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (live[1 + 2 * mid] <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == 0) return false;
  const size_t into = off - live[2 * lo - 1], size = live[2 * lo]; /* block lo - 1 */
  return into < size && bytes <= size - into;
}

/* Ends the kernel: the launch fails, and the host sees the error at its next synchronization. */
ISHMEMI_FN void stop_kernel() {
#if defined(__HIP__)
  abort();
#else
  __trap();
#endif
}

/* The check itself, out of line so that the calls keep only the branch on the flag; it takes
 * the handle's fields, not the handle, whose address would make a kernel copy its argument to
 * local memory. A template, so that every translation unit may hold its copy (as `inline`
 * allows) while the compiler keeps it out of line. A zero-byte call checks nothing, as on the
 * host. */
template <int = 0>
__device__ __noinline__ void check_call(const char *op, int my_pe, int n_pes,
                                        const char *local_base, const ishmemx_heap_map_t *map,
                                        const void *addr, size_t bytes, int pe) {
  const char *why;
  if (pe < 0 || pe >= n_pes) {
    why = "names no PE";
  } else {
    const size_t off = (size_t)((const char *)addr - local_base);
    if (bytes == 0 || (map && map->live && in_live_block(map->live, off, bytes))) return;
    why = "is not inside a live allocation";
  }
  printf(
      "[ishmem pe %d] %s: address %p (+%llu bytes) to PE %d %s (block (%u,%u,%u) thread "
      "(%u,%u,%u))\n",
      my_pe, op, addr, (unsigned long long)bytes, pe, why, blockIdx.x, blockIdx.y, blockIdx.z,
      threadIdx.x, threadIdx.y, threadIdx.z);
  stop_kernel();
}

/* What the calls run first: nothing but a predictable branch while debug is off. */
ISHMEMI_FN void check(const char *op, const ishmemx_device_handle_t &h, const void *addr,
                      size_t bytes, int pe) {
  if (__builtin_expect(h.debug != 0, 0))
    check_call<>(op, h.my_pe, h.n_pes, h.local_base, h.heap_map, addr, bytes, pe);
}

} /* namespace ishmemi */
#endif /* ISHMEMI_GPU */

#endif /* ISHMEM_DETAIL_CHECKS_H */
