// Host RMA entry points, generated from the type tables in ishmem/types.h.
#include "api/guard.h"
#include "api/rma_path.h"
#include "runtime/sync.h"

using namespace ishmem::detail;

namespace ishmem::detail {

int rma_slow(Direction dir, void *dest, const void *source, std::size_t bytes, int pe,
             bool blocking, const char *fn) noexcept {
  if (bytes == 0) return ISHMEM_SUCCESS;  // zero-length calls do nothing, NULL pointers too
  return guard([&] {
    Runtime &rt = runtime();
    const char *sym = static_cast<const char *>(dir == Direction::put ? dest : source);
    void *local = dir == Direction::put ? const_cast<void *>(source) : dest;
    if (pe < 0 || pe >= g_fast.n_pes)
      fail(ISHMEM_ERR_INVALID_PE, "%s: PE %d is not in [0, %d)", fn, pe, g_fast.n_pes);
    if (!local)
      fail(ISHMEM_ERR_INVALID_ARG, "%s: NULL %s buffer", fn,
           dir == Direction::put ? "source" : "destination");
    std::size_t off = sym - g_fast.local_base;
    if (off >= g_fast.stride || bytes > g_fast.stride - off)
      fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s: [%p, +%zu) is not inside the symmetric heap [%p, +%zu)",
           fn, static_cast<const void *>(sym), bytes, static_cast<void *>(g_fast.local_base),
           g_fast.stride);
    int slot = rt.pe_slot[pe];
    if (slot >= 0) {  // node-local heap that the CPU cannot address: the backend copies
      char *peer = g_fast.window + g_fast.stride * static_cast<std::size_t>(slot) + off;
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

int rma_strided(Direction dir, void *dest, const void *source, std::ptrdiff_t dst,
                std::ptrdiff_t sst, std::size_t nelems, std::size_t size, int pe,
                const char *fn) noexcept {
  if (nelems == 0) return ISHMEM_SUCCESS;
  if (dst <= 0 || sst <= 0) {
    return guard([&] {
      fail(ISHMEM_ERR_INVALID_ARG, "%s: strides must be positive (dst %td, sst %td)", fn, dst, sst);
    });
  }
  // The last element's offset must not overflow, or it would wrap onto an earlier one.
  std::size_t span;
  if (__builtin_mul_overflow(nelems - 1, static_cast<std::size_t>(dst > sst ? dst : sst), &span) ||
      __builtin_mul_overflow(span, size, &span) || span > PTRDIFF_MAX) {
    return guard([&] {
      fail(ISHMEM_ERR_INVALID_ARG, "%s: %zu elements at stride %td/%td overflow", fn, nelems, dst,
           sst);
    });
  }
  char *d = static_cast<char *>(dest);
  const char *s = static_cast<const char *>(source);
  for (std::size_t i = 0; i < nelems; ++i) {
    int rc = rma(dir, d + i * dst * size, s + i * sst * size, size, pe, true, fn);
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

template <std::size_t N>
struct Bytes {
  unsigned char b[N];
};

}  // namespace
}  // namespace ishmem::detail

extern "C" {

int ishmem_putmem(void *dest, const void *source, size_t nbytes, int pe) {
  return rma(Direction::put, dest, source, nbytes, pe, true, "ishmem_putmem");
}
int ishmem_getmem(void *dest, const void *source, size_t nbytes, int pe) {
  return rma(Direction::get, dest, source, nbytes, pe, true, "ishmem_getmem");
}
int ishmem_putmem_nbi(void *dest, const void *source, size_t nbytes, int pe) {
  return rma(Direction::put, dest, source, nbytes, pe, false, "ishmem_putmem_nbi");
}
int ishmem_getmem_nbi(void *dest, const void *source, size_t nbytes, int pe) {
  return rma(Direction::get, dest, source, nbytes, pe, false, "ishmem_getmem_nbi");
}

#define ISHMEMI_DEFINE_TYPED_RMA(T, N)                                                            \
  int ishmem_##N##_put(T *dest, const T *source, size_t nelems, int pe) {                         \
    return typed(Direction::put, dest, source, nelems, sizeof(T), pe, true, "ishmem_" #N "_put"); \
  }                                                                                               \
  int ishmem_##N##_get(T *dest, const T *source, size_t nelems, int pe) {                         \
    return typed(Direction::get, dest, source, nelems, sizeof(T), pe, true, "ishmem_" #N "_get"); \
  }                                                                                               \
  int ishmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe) {                     \
    return typed(Direction::put, dest, source, nelems, sizeof(T), pe, false,                      \
                 "ishmem_" #N "_put_nbi");                                                        \
  }                                                                                               \
  int ishmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe) {                     \
    return typed(Direction::get, dest, source, nelems, sizeof(T), pe, false,                      \
                 "ishmem_" #N "_get_nbi");                                                        \
  }                                                                                               \
  int ishmem_##N##_p(T *dest, T value, int pe) {                                                  \
    return put_value(dest, value, pe);                                                            \
  }                                                                                               \
  T ishmem_##N##_g(const T *source, int pe) {                                                     \
    return get_value(source, pe);                                                                 \
  }                                                                                               \
  int ishmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,    \
                        int pe) {                                                                 \
    return rma_strided(Direction::put, dest, source, dst, sst, nelems, sizeof(T), pe,             \
                       "ishmem_" #N "_iput");                                                     \
  }                                                                                               \
  int ishmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,    \
                        int pe) {                                                                 \
    return rma_strided(Direction::get, dest, source, dst, sst, nelems, sizeof(T), pe,             \
                       "ishmem_" #N "_iget");                                                     \
  }
ISHMEMI_RMA_TYPES(ISHMEMI_DEFINE_TYPED_RMA)
#undef ISHMEMI_DEFINE_TYPED_RMA

#define ISHMEMI_DEFINE_SIZED_RMA(BITS, BYTES)                                                \
  int ishmem_put##BITS(void *dest, const void *source, size_t nelems, int pe) {              \
    return typed(Direction::put, dest, source, nelems, BYTES, pe, true, "ishmem_put" #BITS); \
  }                                                                                          \
  int ishmem_get##BITS(void *dest, const void *source, size_t nelems, int pe) {              \
    return typed(Direction::get, dest, source, nelems, BYTES, pe, true, "ishmem_get" #BITS); \
  }                                                                                          \
  int ishmem_put##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe) {        \
    return typed(Direction::put, dest, source, nelems, BYTES, pe, false,                     \
                 "ishmem_put" #BITS "_nbi");                                                 \
  }                                                                                          \
  int ishmem_get##BITS##_nbi(void *dest, const void *source, size_t nelems, int pe) {        \
    return typed(Direction::get, dest, source, nelems, BYTES, pe, false,                     \
                 "ishmem_get" #BITS "_nbi");                                                 \
  }                                                                                          \
  int ishmem_iput##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,        \
                        size_t nelems, int pe) {                                             \
    return rma_strided(Direction::put, dest, source, dst, sst, nelems, BYTES, pe,            \
                       "ishmem_iput" #BITS);                                                 \
  }                                                                                          \
  int ishmem_iget##BITS(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,        \
                        size_t nelems, int pe) {                                             \
    return rma_strided(Direction::get, dest, source, dst, sst, nelems, BYTES, pe,            \
                       "ishmem_iget" #BITS);                                                 \
  }
ISHMEMI_SIZED_RMA(ISHMEMI_DEFINE_SIZED_RMA)
#undef ISHMEMI_DEFINE_SIZED_RMA

int ishmem_quiet(void) {
  if (!g_rt || !g_rt->remote) {  // no MPI traffic to flush: one fence
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return ISHMEM_SUCCESS;
  }
  return guard([] { quiet(*g_rt); });
}

int ishmem_fence(void) {
  // Stores to one peer are already ordered on a host heap; MPI gives no ordering, so fence
  // is as strong as quiet there.
  if (!g_rt || !g_rt->remote) {
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
