// Stream-ordered host calls. With a GPU backend they enqueue work on the caller's stream and
// return at once; with the host backend there is no stream, and they act at once.
#include "api/checks.h"
#include "api/guard.h"
#include "api/rma_path.h"
#include "runtime/gpu_runtime.h"
#include "runtime/sync.h"
#if defined(ISHMEM_GPU_CUDA) || defined(ISHMEM_GPU_HIP)
#include "device/stream_kernels.h"
#define ISHMEMI_STREAM_KERNELS 1
#endif

using namespace ishmem::detail;

namespace {

// The peer's copy of symmetric [sym, sym + bytes) on node-local `pe`; fails with the reason.
char *stream_peer_address(const void *sym, std::size_t bytes, int pe, const char *fn) {
  check_pe(pe, fn);
  std::size_t off = check_symmetric(sym, bytes, pe, fn);
  int slot = runtime().pe_slot[pe];
  if (slot < 0) fail(ISHMEM_ERR_UNSUPPORTED, "%s: PE %d is on another node", fn, pe);
  return runtime().heap->window() + g_fast.stride * static_cast<std::size_t>(slot) + off;
}

int rma_on_stream(Direction dir, void *dest, const void *source, std::size_t bytes, int pe,
                  void *stream, const char *fn) {
  if (bytes == 0) return ISHMEM_SUCCESS;
  GpuBackend *gpu = g_rt ? gpu_backend(*g_rt) : nullptr;
  // No stream to order against (host backend, or not initialized): the blocking call does
  // the same and reports the same errors.
  if (!gpu) return rma(dir, dest, source, bytes, pe, true, fn);
  return guard([&] {
    if (!(dir == Direction::put ? source : dest))
      fail(ISHMEM_ERR_INVALID_ARG, "%s: NULL %s buffer", fn,
           dir == Direction::put ? "source" : "destination");
    if (dir == Direction::put)
      gpu->copy_async(stream_peer_address(dest, bytes, pe, fn), source, bytes, stream);
    else
      gpu->copy_async(dest, stream_peer_address(source, bytes, pe, fn), bytes, stream);
  });
}

// The peer's copy of the 8-byte signal `sig` on `pe`, checked for alignment and place.
std::uint64_t *stream_signal_address(std::uint64_t *sig, int pe, const char *fn) {
  if (reinterpret_cast<std::uintptr_t>(sig) % sizeof *sig != 0)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: signal %p is not 8-byte aligned", fn,
         static_cast<void *>(sig));
  return reinterpret_cast<std::uint64_t *>(stream_peer_address(sig, sizeof *sig, pe, fn));
}

}  // namespace

extern "C" {

int ishmemx_putmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, void *stream) {
  return rma_on_stream(Direction::put, dest, source, nbytes, pe, stream,
                       "ishmemx_putmem_on_stream");
}

int ishmemx_getmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, void *stream) {
  return rma_on_stream(Direction::get, dest, source, nbytes, pe, stream,
                       "ishmemx_getmem_on_stream");
}

int ishmemx_quiet_on_stream(void *stream) {
  (void)stream;
  // Copies on a stream complete in stream order, and a kernel's stores are visible once it
  // ends, so the stream itself completes what came before; with the host backend, quiet.
  return guard([] {
    Runtime &rt = runtime();
    if (!gpu_backend(rt)) quiet(rt);
  });
}

int ishmemx_barrier_all_on_stream(void *stream) {
  return guard([stream] {
    Runtime &rt = runtime();
    if (gpu_backend(rt)) {
      stream_barrier(rt, stream);
    } else {
      quiet(rt);
      sync_all(rt);
    }
  });
}

}  // extern "C"

// Put with signal and signal waits on a stream: the data goes by the copy engine, the signal
// (and the wait) by a one-thread kernel, all in stream order (lib/device/stream_kernels.cu).
extern "C" int ishmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nbytes,
                                               uint64_t *sig_addr, uint64_t signal, int sig_op,
                                               int pe, void *stream) {
  GpuBackend *gpu = g_rt ? gpu_backend(*g_rt) : nullptr;
  if (!gpu) return ishmem_putmem_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe);
  return guard([&] {
    const char *fn = "ishmemx_putmem_signal_on_stream";
    // Everything is checked before anything is enqueued.
    check_sig_op(sig_op, fn);
    std::uint64_t *peer_sig = stream_signal_address(sig_addr, pe, fn);
    char *peer_dest = nullptr;
    if (nbytes) {
      if (!source) fail(ISHMEM_ERR_INVALID_ARG, "%s: NULL source buffer", fn);
      peer_dest = stream_peer_address(dest, nbytes, pe, fn);
    }
#ifdef ISHMEMI_STREAM_KERNELS
    if (nbytes) gpu->copy_async(peer_dest, source, nbytes, stream);
    enqueue_signal_update(peer_sig, signal, sig_op, stream);
#else
    (void)peer_sig;
    (void)peer_dest;
    (void)stream;
    fail(ISHMEM_ERR_INTERNAL, "%s: a GPU backend without stream kernels", fn);
#endif
  });
}

extern "C" int ishmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value,
                                                   void *stream) {
  const char *fn = "ishmemx_signal_wait_until_on_stream";
  GpuBackend *gpu = g_rt ? gpu_backend(*g_rt) : nullptr;
  if (!gpu) {
    // No stream: wait now. The host call reports its errors only as a value: check first.
    int rc = guard([&] {
      runtime();
      check_cmp(cmp, fn);
      stream_signal_address(sig_addr, g_fast.my_pe, fn);
    });
    if (rc == ISHMEM_SUCCESS) ishmem_signal_wait_until(sig_addr, cmp, cmp_value);
    return rc;
  }
  return guard([&] {
    check_cmp(cmp, fn);
    std::uint64_t *sig = stream_signal_address(sig_addr, g_fast.my_pe, fn);
#ifdef ISHMEMI_STREAM_KERNELS
    enqueue_signal_wait(device_handle(g_fast), sig, cmp, cmp_value, stream);
#else
    (void)sig;
    (void)stream;
    fail(ISHMEM_ERR_INTERNAL, "%s: a GPU backend without stream kernels", fn);
#endif
  });
}
