// Stream-ordered host calls. With a GPU backend they enqueue work on the caller's stream and
// return at once; with the host backend there is no stream, and they act at once.
#include "api/guard.h"
#include "api/rma_path.h"
#include "runtime/gpu_runtime.h"
#include "runtime/sync.h"

using namespace ishmem::detail;

namespace {

// The peer's copy of symmetric [sym, sym + bytes) on node-local `pe`; fails with the reason.
char *stream_peer_address(const void *sym, std::size_t bytes, int pe, const char *fn) {
  const FastPath &f = g_fast;
  if (pe < 0 || pe >= f.n_pes)
    fail(ISHMEM_ERR_INVALID_PE, "%s: PE %d is not in [0, %d)", fn, pe, f.n_pes);
  std::size_t off = static_cast<const char *>(sym) - f.local_base;
  if (off >= f.stride || bytes > f.stride - off)
    fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s: [%p, +%zu) is not inside the symmetric heap [%p, +%zu)", fn,
         sym, bytes, static_cast<void *>(f.local_base), f.stride);
  int slot = runtime().pe_slot[pe];
  if (slot < 0) fail(ISHMEM_ERR_UNSUPPORTED, "%s: PE %d is on another node", fn, pe);
  return f.window + f.stride * static_cast<std::size_t>(slot) + off;
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
