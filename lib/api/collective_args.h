// The size and overlap checks of the collectives' arguments and the call's description, shared by
// the team collectives (api/collectives.cpp) and those over active sets (api/deprecated.cpp). Each
// throws Error (ISHMEM_ERR_INVALID_ARG) naming the call.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/error.h"
#include "runtime/collectives.h"

namespace ishmem::detail::host {

// count * size bytes, or ISHMEM_ERR_INVALID_ARG on overflow.
inline std::size_t bytes_of(std::size_t count, std::size_t size, const char *fn, const char *what) {
  std::size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes) || bytes > PTRDIFF_MAX)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: %s of %zu elements of %zu bytes overflow", fn, what, count,
         size);
  return bytes;
}

// Bytes of a strided array: `count` elements `stride` elements apart.
inline std::size_t strided_bytes(std::size_t count, std::ptrdiff_t stride, std::size_t size,
                                 const char *fn, const char *what) {
  if (stride <= 0)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: the %s stride %td is not positive", fn, what, stride);
  if (count == 0) return 0;
  const std::size_t span =
      bytes_of(bytes_of(count - 1, static_cast<std::size_t>(stride), fn, what), size, fn, what);
  if (span > PTRDIFF_MAX - size)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: the %s array overflows", fn, what);
  return span + size;
}

// dest and source must not overlap; `in_place` allows them to be the same buffer.
inline void check_overlap(const void *dest, std::size_t dest_bytes, const void *source,
                          std::size_t source_bytes, bool in_place, const char *fn) {
  const char *d = static_cast<const char *>(dest);
  const char *s = static_cast<const char *>(source);
  if (!dest_bytes || !source_bytes || (in_place && d == s)) return;
  if (d < s + source_bytes && s < d + dest_bytes)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: dest %p (%zu bytes) and source %p (%zu bytes) overlap%s", fn,
         dest, dest_bytes, source, source_bytes,
         in_place ? " (only dest == source is allowed)" : "");
}

// A call of `kind` on nelems elements of T (void: bytes).
template <class T>
CollectiveCall call_of(CollectiveKind kind, T *dest, const T *source, std::size_t nelems) {
  CollectiveCall call;
  call.kind = kind;
  call.type = element_type<T>();
  call.dest = dest;
  call.source = source;
  call.nelems = nelems;
  return call;
}

}  // namespace ishmem::detail::host
