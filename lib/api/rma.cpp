// Host RMA entry points, defined from the RMA signature lists (ishmem/detail/signatures.h)
// over the type tables of ishmem/types.h.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "api/calls.h"
#include "api/checks.h"
#include "api/guard.h"
#include "api/rma_path.h"
#include "runtime/sync.h"

using namespace ishmem::detail;

namespace ishmem::detail {

namespace {

// A variable of the program's static data, at `off` in it: this PE's own copy directly, a
// peer's through the MPI window.
void static_rma(MpiTransport &statics, Direction dir, void *dest, const void *source,
                std::size_t off, std::size_t bytes, int pe, bool blocking) {
  if (pe == g_fast.my_pe)
    memcpy(dest, source, bytes);
  else if (dir == Direction::put)
    statics.put(pe, off, source, bytes, blocking);
  else
    statics.get(pe, off, dest, bytes, blocking);
}

}  // namespace

int rma_slow(Direction dir, void *dest, const void *source, std::size_t bytes, int pe,
             bool blocking, const char *fn) noexcept {
  if (bytes == 0) return ISHMEM_SUCCESS;  // zero-length calls do nothing, NULL pointers too
  return guard([&] {
    Runtime &rt = runtime();
    const char *sym = static_cast<const char *>(dir == Direction::put ? dest : source);
    void *local = dir == Direction::put ? const_cast<void *>(source) : dest;
    check_pe(pe, fn);
    // Either side NULL is a bad argument, the symmetric one too (not an address outside the
    // heap), so that put and get say the same of it.
    if (!local || !sym)
      fail(ISHMEM_ERR_INVALID_ARG, "%s: NULL %s buffer", fn, dest ? "source" : "destination");
    std::size_t off;
    if (MpiTransport *statics = static_window(sym, bytes, off, fn)) {
      static_rma(*statics, dir, dest, source, off, bytes, pe, blocking);
      return;
    }
    off = check_symmetric(sym, bytes, pe, fn);
    int slot = rt.pe_slot[pe];
    if (slot >= 0) {  // node-local heap that the CPU cannot address: the backend copies
      char *peer = rt.heap->window() + g_fast.stride * static_cast<std::size_t>(slot) + off;
      if (dir == Direction::put)
        rt.backend->copy(peer, source, bytes);
      else
        rt.backend->copy(dest, peer, bytes);
    } else if (dir == Direction::put) {
      rt.remote->put(pe, off, source, bytes, blocking);
    } else {
      rt.remote->get(pe, off, dest, bytes, blocking);
    }
  });
}

namespace {

// Bytes from the first element's start to the last element's start, or false on overflow.
bool strided_span(std::size_t nelems, std::ptrdiff_t stride, std::size_t size, std::size_t &span) {
  return !__builtin_mul_overflow(nelems - 1, static_cast<std::size_t>(stride), &span) &&
         !__builtin_mul_overflow(span, size, &span) && span <= PTRDIFF_MAX;
}

// False if the page holding `addr` is not mapped in this process.
bool page_mapped(std::uintptr_t addr) {
  static const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  unsigned char resident;
  return mincore(reinterpret_cast<void *>(addr & ~(page - 1)), 1, &resident) == 0 ||
         errno != ENOMEM;
}

// The local side has no heap to be range-checked against: its last element must neither wrap
// around the address space nor lie in unmapped memory, or the copy would fault (node-local) or
// hand MPI a wild pointer (off-node). `span` is the first to the last element's start.
void check_local_span(const void *local, std::size_t span, std::size_t size, std::ptrdiff_t stride,
                      std::size_t nelems, const char *fn, const char *kind) {
  const auto first = reinterpret_cast<std::uintptr_t>(local);
  std::uintptr_t last;
  if (__builtin_add_overflow(first, span + (size - 1), &last) || !page_mapped(last - (size - 1)) ||
      !page_mapped(last))
    fail(ISHMEM_ERR_INVALID_ARG,
         "%s: the %s buffer's last element (%zu elements at stride %td from %p) is outside this "
         "process's memory",
         fn, kind, nelems, stride, local);
}

// Every check of a strided call, for the whole range, before any element moves: an error
// leaves both sides as they were.
void check_strided(Direction dir, const void *dest, const void *source, std::ptrdiff_t dst,
                   std::ptrdiff_t sst, std::size_t nelems, std::size_t size, int pe,
                   const char *fn) {
  if (dst <= 0 || sst <= 0)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: strides must be positive (dst %td, sst %td)", fn, dst, sst);
  const bool put = dir == Direction::put;
  // The last element's offset must not overflow, or it would wrap onto an earlier one.
  std::size_t sym_span, local_span;
  if (!strided_span(nelems, put ? dst : sst, size, sym_span) ||
      !strided_span(nelems, put ? sst : dst, size, local_span))
    fail(ISHMEM_ERR_INVALID_ARG, "%s: %zu elements at stride %td/%td overflow", fn, nelems, dst,
         sst);
  runtime();
  check_pe(pe, fn);
  if (!source || !dest)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: NULL %s buffer", fn, dest ? "source" : "destination");
  // The symmetric side, from the first element's start to the last one's end: in the heap or
  // in static data.
  const void *sym = put ? dest : source;
  std::size_t off;
  if (!static_window(sym, sym_span + size, off, fn)) check_symmetric(sym, sym_span + size, pe, fn);
  check_local_span(put ? source : dest, local_span, size, put ? sst : dst, nelems, fn,
                   put ? "source" : "destination");
}

}  // namespace

int rma_strided(Direction dir, void *dest, const void *source, std::ptrdiff_t dst,
                std::ptrdiff_t sst, std::size_t nelems, std::size_t size, int pe,
                const char *fn) noexcept {
  if (nelems == 0) return ISHMEM_SUCCESS;
  int rc = guard([&] { check_strided(dir, dest, source, dst, sst, nelems, size, pe, fn); });
  if (rc != ISHMEM_SUCCESS) return rc;
  char *d = static_cast<char *>(dest);
  const char *s = static_cast<const char *>(source);
  for (std::size_t i = 0; i < nelems; ++i) {
    rc = rma(dir, d + i * dst * size, s + i * sst * size, size, pe, true, fn);
    if (rc != ISHMEM_SUCCESS) return rc;
  }
  return ISHMEM_SUCCESS;
}

namespace {

int element_bytes(std::size_t nelems, std::size_t size, std::size_t &bytes, const char *fn) {
  if (!__builtin_mul_overflow(nelems, size, &bytes)) return ISHMEM_SUCCESS;
  return guard([&] { fail(ISHMEM_ERR_INVALID_ARG, "%s: %zu elements overflow", fn, nelems); });
}

int typed(Direction dir, void *dest, const void *source, std::size_t nelems, std::size_t size,
          int pe, bool blocking, const char *fn) {
  std::size_t bytes;
  int rc = element_bytes(nelems, size, bytes, fn);
  return rc ? rc : rma(dir, dest, source, bytes, pe, blocking, fn);
}

// The slow halves of p and g live out of line, so that the fast halves need no stack frame.
template <class T>
[[gnu::cold, gnu::noinline]] int put_value_slow(T *dest, T value, int pe) {
  return rma_slow(Direction::put, dest, &value, sizeof(T), pe, true, "ishmem_p");
}

template <class T>
[[gnu::cold, gnu::noinline]] T get_value_slow(const T *source, int pe) {
  T value{};
  rma_slow(Direction::get, &value, source, sizeof(T), pe, true, "ishmem_g");
  return value;
}

template <class T>
int put_value(T *dest, T value, int pe) {
  char *peer = direct_address(dest, sizeof(T), pe, g_fast.direct_bytes);
  if (__builtin_expect(peer == nullptr, 0)) return put_value_slow(dest, value, pe);
  *reinterpret_cast<T *>(peer) = value;
  return ISHMEM_SUCCESS;
}

template <class T>
T get_value(const T *source, int pe) {
  const char *peer = direct_address(source, sizeof(T), pe, g_fast.direct_bytes);
  if (__builtin_expect(peer == nullptr, 0)) return get_value_slow(source, pe);
  return *reinterpret_cast<const T *>(peer);
}

}  // namespace

// The operations of the RMA signature lists; `fn` names the call in error messages.
namespace host {

// DIR is put or get: the byte, typed and sized forms, blocking and _nbi, and the strided ones.
#define ISHMEMI_RMA_OPS(DIR)                                                                     \
  template <class>                                                                               \
  int DIR##mem(const char *fn, void *dest, const void *source, std::size_t nbytes, int pe) {     \
    return rma(Direction::DIR, dest, source, nbytes, pe, true, fn);                              \
  }                                                                                              \
  template <class>                                                                               \
  int DIR##mem_nbi(const char *fn, void *dest, const void *source, std::size_t nbytes, int pe) { \
    return rma(Direction::DIR, dest, source, nbytes, pe, false, fn);                             \
  }                                                                                              \
  template <class T>                                                                             \
  int DIR(const char *fn, T *dest, const T *source, std::size_t nelems, int pe) {                \
    return typed(Direction::DIR, dest, source, nelems, sizeof(T), pe, true, fn);                 \
  }                                                                                              \
  template <class T>                                                                             \
  int DIR##_nbi(const char *fn, T *dest, const T *source, std::size_t nelems, int pe) {          \
    return typed(Direction::DIR, dest, source, nelems, sizeof(T), pe, false, fn);                \
  }                                                                                              \
  template <std::size_t Bytes>                                                                   \
  int DIR##_sized(const char *fn, void *dest, const void *source, std::size_t nelems, int pe) {  \
    return typed(Direction::DIR, dest, source, nelems, Bytes, pe, true, fn);                     \
  }                                                                                              \
  template <std::size_t Bytes>                                                                   \
  int DIR##_sized_nbi(const char *fn, void *dest, const void *source, std::size_t nelems,        \
                      int pe) {                                                                  \
    return typed(Direction::DIR, dest, source, nelems, Bytes, pe, false, fn);                    \
  }                                                                                              \
  template <class T>                                                                             \
  int i##DIR(const char *fn, T *dest, const T *source, std::ptrdiff_t dst, std::ptrdiff_t sst,   \
             std::size_t nelems, int pe) {                                                       \
    return rma_strided(Direction::DIR, dest, source, dst, sst, nelems, sizeof(T), pe, fn);       \
  }                                                                                              \
  template <std::size_t Bytes>                                                                   \
  int i##DIR##_sized(const char *fn, void *dest, const void *source, std::ptrdiff_t dst,         \
                     std::ptrdiff_t sst, std::size_t nelems, int pe) {                           \
    return rma_strided(Direction::DIR, dest, source, dst, sst, nelems, Bytes, pe, fn);           \
  }
ISHMEMI_RMA_OPS(put)
ISHMEMI_RMA_OPS(get)
#undef ISHMEMI_RMA_OPS

// p and g report errors as ishmem_p / ishmem_g: their slow halves are shared by every type.
template <class T>
int p(const char *, T *dest, T value, int pe) {
  return put_value(dest, value, pe);
}
template <class T>
T g(const char *, const T *source, int pe) {
  return get_value(source, pe);
}

}  // namespace host
}  // namespace ishmem::detail

namespace {

// True when MPI may hold operations of this PE: a heap window, or puts to static data.
bool mpi_pending(const Runtime *rt) {
  return rt && (rt->remote || rt->statics->dirty());
}

}  // namespace

extern "C" {

ISHMEMI_RMA_BYTES_CALLS(ISHMEMI_DEFINE_CALLS)
#define ISHMEMI_DEFINE_TYPED_RMA(T, N)                \
  ISHMEMI_RMA_TYPED_CALLS(ISHMEMI_DEFINE_CALLS, T, N) \
  ISHMEMI_RMA_STRIDED_CALLS(ISHMEMI_DEFINE_CALLS, T, N)
ISHMEMX_RMA_TYPES(ISHMEMI_DEFINE_TYPED_RMA)
#undef ISHMEMI_DEFINE_TYPED_RMA
#define ISHMEMI_DEFINE_SIZED_RMA(BITS, BYTES) \
  ISHMEMI_RMA_SIZED_CALLS(ISHMEMI_DEFINE_CALLS, BITS, BYTES)
ISHMEMX_SIZED_RMA(ISHMEMI_DEFINE_SIZED_RMA)
#undef ISHMEMI_DEFINE_SIZED_RMA

int ishmem_quiet(void) {
  if (!mpi_pending(g_rt)) {  // no MPI traffic to flush: one fence
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return ISHMEM_SUCCESS;
  }
  return guard([] { quiet(*g_rt); });
}

int ishmem_fence(void) {
  // Stores to one peer are already ordered on a host heap; MPI gives no ordering, so fence
  // is as strong as quiet there.
  if (!mpi_pending(g_rt)) {
    std::atomic_thread_fence(std::memory_order_release);
    return ISHMEM_SUCCESS;
  }
  return guard([] { quiet(*g_rt); });
}

int ishmem_barrier_all(void) {
  return guard([] {
    Runtime &rt = runtime();
    quiet(rt);
    sync_all(rt);
  });
}

int ishmem_sync_all(void) {
  return guard([] { sync_all(runtime()); });
}

}  // extern "C"
