/* ishmem device API: the RMA calls of ishmem.h inside CUDA and HIP kernels.
 *
 * Two forms (docs/DEVICE_API.md has examples):
 *  - No extra argument: ishmem_putmem(dest, src, n, pe) in a kernel, as on the host. These
 *    read the PE layout from a device variable in the device library, so the kernel's code
 *    must be relocatable device code (nvcc -rdc=true, clang -fgpu-rdc) linked with the
 *    CMake target ishmem::device.
 *  - Handle: the same names with a leading ishmemx_device_handle_t, which the host gets from
 *    ishmemx_get_device_handle() and passes to the kernel as an argument. Header-only
 *    without relocatable device code; as relocatable device code it links ishmem::device
 *    too, whose request code serves calls to off-node PEs (ishmem/detail/proxy.h).
 * Group forms (ishmemx_putmem_warp, ishmemx_putmem_block and their get and _nbi twins) are
 * called by every thread of the warp (an AMD wavefront: 64 lanes) or block, with the same
 * arguments; they split the copy across the group. Copies use 16-byte accesses where the
 * source and destination are equally aligned, with the head and tail done bytewise.
 *
 * Semantics: put returns once the source may be reused; the data is visible at the target
 * after ishmem_quiet() (or kernel end). get returns with the data. _nbi forms may return
 * earlier; ishmem_quiet() completes them. Device calls do not check their arguments unless
 * ISHMEM_DEBUG=1 (then put, get, p, g, atomics and put-with-signal check the PE and the live
 * allocation, and a bad call stops the kernel: ishmem/detail/checks.h).
 * long double has no device forms (CUDA and HIP compile it as double in device code).
 *
 * Compiled as plain C++ (no GPU compiler), every call here runs on the CPU through the
 * host API, so code shared between host and device builds compiles unchanged.
 *
 * Synchronization: atomics are system-scope read-modify-writes on the target PE's mapped heap
 * (relaxed order: like the host API, ordering comes from ishmem_fence / ishmem_quiet).
 * Put-with-signal copies the data, then updates the signal atomically with system-scope
 * release order (so whoever sees the signal sees the data; with no data, a plain atomic
 * update). Waits read with system-scope acquire loads, spinning briefly and then backing off
 * (__nanosleep on NVIDIA, s_sleep on AMD), so that other blocks keep their issue slots and
 * memory bandwidth. Device barriers (ishmem_barrier_all, ishmem_sync_all) are called by ONE
 * thread per PE; ishmemx_barrier_all_block and ishmemx_sync_all_block by every thread of one
 * block. They meet the other PEs' device barriers and their ishmemx_barrier_all_on_stream
 * calls, which share one sequence of barriers (docs/MEMORY_MODEL.md). A device barrier gives
 * up with ISHMEM_ERR_TIMEOUT past ISHMEM_COLLECTIVE_TIMEOUT (its arrival stands).
 *
 * Debugging aid: define ISHMEMX_DEVICE_WAIT_LIMIT (clock cycles) before including this header
 * and every device wait gives up after that long: wait_until and the barriers return
 * ISHMEM_ERR_TIMEOUT, _any returns SIZE_MAX, _some 0, and signal_wait_until the last value
 * read. Without it, as OpenSHMEM specifies, waits wait for ever. Device calls do not check
 * their arguments (a bad cmp never holds), unless ISHMEMX_DEVICE_CHECKS is defined before
 * this header: then, with ISHMEM_DEBUG=1, put, get, p, g, the atomics and put-with-signal
 * check the PE and the live allocation and stop the kernel on a bad call (docs/DEVICE_API.md).
 *
 * The machinery lives in ishmem/detail/; its macros are undefined at the end of this header. */
#ifndef ISHMEM_DEVICE_H
#define ISHMEM_DEVICE_H

#include "ishmem.h"
#include "ishmem/device_handle.h"

/* The calls, each in both forms (ishmem/detail/signatures.h lists their signatures):
 *  RMA          ishmem_putmem, _getmem, _putmem_nbi, _getmem_nbi; ishmem_<type>_put, _get,
 *               _put_nbi, _get_nbi, _p, _g; ishmem_quiet, _fence, _ptr, _my_pe, _n_pes
 *  Atomics      ishmem_<type>_atomic_fetch, _set, _swap, _compare_swap, _fetch_inc, _inc,
 *               _fetch_add, _add, _fetch_and/or/xor, _and/or/xor, and their _nbi forms
 *  Signals      ishmem_putmem_signal(_nbi), ishmem_<type>_put_signal(_nbi),
 *               ishmem_signal_fetch, ishmem_signal_wait_until
 *  Wait, test   ishmem_<type>_wait_until(_all, _any, _some)(_vector),
 *               ishmem_<type>_test(_all, _any, _some)(_vector)
 *  Barriers     ishmem_barrier_all, ishmem_sync_all (one thread per PE)
 *  Teams        ishmem_team_my_pe, _n_pes, _translate_pe, ishmem_team_sync (one thread),
 *               ishmemx_team_sync_warp, ishmemx_team_sync_block
 *  Collectives  every collective of ishmem/collectives.h with a device type, as
 *               ishmemx_<name>_warp, _block (every thread of the warp or block) and _grid
 *               (every thread of a 1-D grid of at most ISHMEMX_GRID_MAX_BLOCKS blocks, each
 *               moving a slice: for large sizes); e.g. ishmemx_float_sum_reduce_block(team,
 *               dest, source, nreduce). One collective at a time per team; device,
 *               stream-ordered and host calls on a team form one sequence. They return
 *               ISHMEM_ERR_MISMATCH when the members made different calls,
 *               ISHMEM_ERR_TIMEOUT past ISHMEM_COLLECTIVE_TIMEOUT (docs/COLLECTIVES.md)
 *  Groups       ishmemx_putmem_, _getmem_, _putmem_nbi_, _getmem_nbi_, _putmem_signal_,
 *               _putmem_signal_nbi_ + warp or block; ishmemx_barrier_all_block,
 *               ishmemx_sync_all_block (every thread of one block) */
#ifdef __cplusplus
#include "ishmem/detail/mode.h"             /* how this translation unit is compiled */
#include "ishmem/detail/copy.h"             /* thread groups and copy loops */
#include "ishmem/detail/atomics.h"          /* vendor atomics, fences and the poller */
#include "ishmem/detail/scan.h"             /* wait/test scans shared with the host library */
#include "ishmem/detail/rma_impl.h"         /* RMA */
#include "ishmem/detail/sync_impl.h"        /* atomics, signals, wait/test, barriers */
#include "ishmem/detail/collectives_impl.h" /* collectives on teams */
#include "ishmem/detail/signatures.h"
#define ISHMEMI_KEEP_COLLECTIVE_LISTS 1
#include "ishmem/collectives.h"     /* again, for its signature lists */
#include "ishmem/detail/generate.h" /* the calls, from the signature lists */
#include "ishmem/detail/undef.h"
#endif

#endif /* ISHMEM_DEVICE_H */
