/* The checks of ISHMEM_DEBUG=1 in device calls (GPU compilers only), compiled in where the
 * program defines ISHMEMX_DEVICE_CHECKS before including ishmem/device.h. When the handle
 * says debug is on, put, get, p, g, the atomics and put-with-signal first check that the
 * target PE is in range and that [address, address + bytes) lies inside one live allocation
 * of the heap map's table (kept by the runtime, ishmem/device_handle.h); a bad call prints
 * what it was and where, and stops the kernel. Without ISHMEMX_DEVICE_CHECKS the calls are
 * exactly the unchecked ones: the report's printf raises kernels' register counts even when
 * it never runs (docs/DEVICE_API.md has the figures), so it stays out of release kernels.
 * Internal: included by ishmem/detail/rma_impl.h. */
#ifndef ISHMEM_DETAIL_CHECKS_H
#define ISHMEM_DETAIL_CHECKS_H

#include "ishmem/detail/mode.h"
#include "ishmem/device_handle.h"

#ifdef ISHMEMI_GPU
namespace ishmemi {
#ifdef ISHMEMX_DEVICE_CHECKS

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
  __builtin_unreachable(); /* nothing is live past here: no register kept for after it */
}

/* The report of a bad call: one line, then the kernel stops. Inlined like the rest: an
 * out-of-line function's registers would count against a calling kernel's limit
 * (__launch_bounds__) and fail its build, where inlined code is fitted to it. */
ISHMEMI_FN void report_bad_call(const char *op, int my_pe, const void *addr, size_t bytes, int pe,
                                const char *why) {
  printf(
      "[ishmem pe %d] %s: address %p (+%llu bytes) to PE %d %s (block (%u,%u,%u) thread "
      "(%u,%u,%u))\n",
      my_pe, op, addr, (unsigned long long)bytes, pe, why, (unsigned)blockIdx.x,
      (unsigned)blockIdx.y, (unsigned)blockIdx.z, (unsigned)threadIdx.x, (unsigned)threadIdx.y,
      (unsigned)threadIdx.z); /* HIP's indices are classes, which its printf cannot take */
  stop_kernel();
}

/* What the calls run first: with debug off, one branch on the flag, read with the rest of the
 * handle, that always goes the same way. A zero-byte call checks nothing, as on the host. */
ISHMEMI_FN void check(const char *op, const ishmemx_device_handle_t &h, const void *addr,
                      size_t bytes, int pe) {
  if (__builtin_expect(h.debug == 0, 1) || bytes == 0) return;
  if (pe < 0 || pe >= h.n_pes) {
    report_bad_call(op, h.my_pe, addr, bytes, pe, "names no PE");
    return;
  }
  const ishmemx_heap_map_t *map = h.heap_map;
  const size_t off = (size_t)((const char *)addr - h.local_base);
  if (!(map && map->live && in_live_block(map->live, off, bytes)))
    report_bad_call(op, h.my_pe, addr, bytes, pe, "is not inside a live allocation");
}
#else
ISHMEMI_FN void check(const char *, const ishmemx_device_handle_t &, const void *, size_t, int) {}
#endif /* ISHMEMX_DEVICE_CHECKS */

} /* namespace ishmemi */
#endif /* ISHMEMI_GPU */

#endif /* ISHMEM_DETAIL_CHECKS_H */
