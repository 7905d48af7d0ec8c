// Point-to-point synchronization: wait_until and test on this PE's symmetric variables, and
// the signal reads. Variables are read with acquire loads, so whatever a peer wrote before
// the value it released is visible once the condition holds.
#include "api/guard.h"
#include "ishmem/device.h"
#include "runtime/sync.h"

using namespace ishmem::detail;

namespace {

constexpr std::size_t kNone = SIZE_MAX;

using ishmemi::holds;  // the same comparison the device waits use

template <class T>
struct Query {
  T *ivars;
  std::size_t n;
  const int *status;  // entries with nonzero status are left out
  int cmp;
  const T *targets;  // per entry (vector forms), or nullptr to use `target`
  T target;
  const char *fn;

  bool included(std::size_t i) const { return !status || status[i] == 0; }
  bool satisfied(std::size_t i) const {
    return holds(__atomic_load_n(&ivars[i], __ATOMIC_ACQUIRE), cmp, targets ? targets[i] : target);
  }
  std::size_t included_count() const {
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i) count += included(i);
    return count;
  }
  // Satisfied, included entries: their count; their indices go to `indices` if given. With
  // `first_only`, stops at the first one.
  std::size_t scan(std::size_t *indices, bool first_only, std::size_t *first) const {
    std::size_t count = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!included(i) || !satisfied(i)) continue;
      if (indices) indices[count] = i;
      if (first && count == 0) *first = i;
      ++count;
      if (first_only) break;
    }
    return count;
  }
};

template <class T>
Runtime &check(const Query<T> &q) {
  Runtime &rt = runtime();
  if (q.cmp < ISHMEM_CMP_EQ || q.cmp > ISHMEM_CMP_LE)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: %d is not an ISHMEM_CMP_* operator", q.fn, q.cmp);
  if (q.n == 0) return rt;
  if (!q.ivars) fail(ISHMEM_ERR_INVALID_ARG, "%s: ivars is NULL", q.fn);
  if (!g_fast.host_access)
    fail(ISHMEM_ERR_UNSUPPORTED, "%s: the %s heap is not CPU-addressable; wait on the device", q.fn,
         rt.backend->name());
  std::size_t off = reinterpret_cast<char *>(q.ivars) - g_fast.local_base;
  if (off >= g_fast.stride || q.n > (g_fast.stride - off) / sizeof(T) || off % sizeof(T) != 0)
    fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s: %p is not an aligned array in the symmetric heap", q.fn,
         static_cast<void *>(q.ivars));
  return rt;
}

template <class Ready>
void wait_until_ready(Runtime &rt, Ready &&ready) {
  unsigned polls = 0;
  wait_for([&] {
    // Off-node peers write through MPI, which may need this PE's help to make progress.
    if (rt.remote && (++polls & 63) == 0) rt.remote->progress();
    return ready();
  });
}

template <class T>
int wait_all(const Query<T> &q) {
  return guard([&] {
    Runtime &rt = check(q);
    std::size_t want = q.included_count();
    wait_until_ready(rt, [&] { return q.scan(nullptr, false, nullptr) == want; });
  });
}

template <class T>
std::size_t wait_any(const Query<T> &q) {
  std::size_t first = kNone;
  int rc = guard([&] {
    Runtime &rt = check(q);
    if (q.included_count() == 0) return;
    wait_until_ready(rt, [&] { return q.scan(nullptr, true, &first) > 0; });
  });
  return rc == ISHMEM_SUCCESS ? first : kNone;
}

template <class T>
std::size_t wait_some(const Query<T> &q, std::size_t *indices) {
  std::size_t count = 0;
  int rc = guard([&] {
    Runtime &rt = check(q);
    if (q.n && !indices) fail(ISHMEM_ERR_INVALID_ARG, "%s: indices is NULL", q.fn);
    if (q.included_count() == 0) return;
    wait_until_ready(rt, [&] { return (count = q.scan(indices, false, nullptr)) > 0; });
  });
  return rc == ISHMEM_SUCCESS ? count : 0;
}

// Errors read as "not satisfied" (0), never as true; ishmemx_last_error() says why.
template <class T>
int test_all(const Query<T> &q) {
  int result = 0;
  guard([&] {
    check(q);
    result = q.scan(nullptr, false, nullptr) == q.included_count();
  });
  return result;
}

template <class T>
std::size_t test_any(const Query<T> &q) {
  std::size_t first = kNone;
  guard([&] {
    check(q);
    q.scan(nullptr, true, &first);
  });
  return first;
}

template <class T>
std::size_t test_some(const Query<T> &q, std::size_t *indices) {
  std::size_t count = 0;
  int rc = guard([&] {
    check(q);
    if (q.n && !indices) fail(ISHMEM_ERR_INVALID_ARG, "%s: indices is NULL", q.fn);
    count = q.scan(indices, false, nullptr);
  });
  return rc == ISHMEM_SUCCESS ? count : 0;
}

}  // namespace

extern "C" {

#define ISHMEMI_Q(ivars, n, status, cmp, targets, target, name) \
  Query<T> {                                                    \
    ivars, n, status, cmp, targets, target, "ishmem_" #name     \
  }

#define ISHMEMI_DEFINE_P2P(TYPE, N)                                                                \
  int ishmem_##N##_wait_until(TYPE *ivar, int cmp, TYPE value) {                                   \
    using T = TYPE;                                                                                \
    return wait_all(ISHMEMI_Q(ivar, 1, nullptr, cmp, nullptr, value, N##_wait_until));             \
  }                                                                                                \
  int ishmem_##N##_wait_until_all(TYPE *ivars, size_t n, const int *status, int cmp, TYPE value) { \
    using T = TYPE;                                                                                \
    return wait_all(ISHMEMI_Q(ivars, n, status, cmp, nullptr, value, N##_wait_until_all));         \
  }                                                                                                \
  size_t ishmem_##N##_wait_until_any(TYPE *ivars, size_t n, const int *status, int cmp,            \
                                     TYPE value) {                                                 \
    using T = TYPE;                                                                                \
    return wait_any(ISHMEMI_Q(ivars, n, status, cmp, nullptr, value, N##_wait_until_any));         \
  }                                                                                                \
  size_t ishmem_##N##_wait_until_some(TYPE *ivars, size_t n, size_t *indices, const int *status,   \
                                      int cmp, TYPE value) {                                       \
    using T = TYPE;                                                                                \
    return wait_some(ISHMEMI_Q(ivars, n, status, cmp, nullptr, value, N##_wait_until_some),        \
                     indices);                                                                     \
  }                                                                                                \
  int ishmem_##N##_wait_until_all_vector(TYPE *ivars, size_t n, const int *status, int cmp,        \
                                         const TYPE *values) {                                     \
    using T = TYPE;                                                                                \
    return wait_all(ISHMEMI_Q(ivars, n, status, cmp, values, T(), N##_wait_until_all_vector));     \
  }                                                                                                \
  size_t ishmem_##N##_wait_until_any_vector(TYPE *ivars, size_t n, const int *status, int cmp,     \
                                            const TYPE *values) {                                  \
    using T = TYPE;                                                                                \
    return wait_any(ISHMEMI_Q(ivars, n, status, cmp, values, T(), N##_wait_until_any_vector));     \
  }                                                                                                \
  size_t ishmem_##N##_wait_until_some_vector(TYPE *ivars, size_t n, size_t *indices,               \
                                             const int *status, int cmp, const TYPE *values) {     \
    using T = TYPE;                                                                                \
    return wait_some(ISHMEMI_Q(ivars, n, status, cmp, values, T(), N##_wait_until_some_vector),    \
                     indices);                                                                     \
  }                                                                                                \
  int ishmem_##N##_test(TYPE *ivar, int cmp, TYPE value) {                                         \
    using T = TYPE;                                                                                \
    return test_all(ISHMEMI_Q(ivar, 1, nullptr, cmp, nullptr, value, N##_test));                   \
  }                                                                                                \
  int ishmem_##N##_test_all(TYPE *ivars, size_t n, const int *status, int cmp, TYPE value) {       \
    using T = TYPE;                                                                                \
    return test_all(ISHMEMI_Q(ivars, n, status, cmp, nullptr, value, N##_test_all));               \
  }                                                                                                \
  size_t ishmem_##N##_test_any(TYPE *ivars, size_t n, const int *status, int cmp, TYPE value) {    \
    using T = TYPE;                                                                                \
    return test_any(ISHMEMI_Q(ivars, n, status, cmp, nullptr, value, N##_test_any));               \
  }                                                                                                \
  size_t ishmem_##N##_test_some(TYPE *ivars, size_t n, size_t *indices, const int *status,         \
                                int cmp, TYPE value) {                                             \
    using T = TYPE;                                                                                \
    return test_some(ISHMEMI_Q(ivars, n, status, cmp, nullptr, value, N##_test_some), indices);    \
  }                                                                                                \
  int ishmem_##N##_test_all_vector(TYPE *ivars, size_t n, const int *status, int cmp,              \
                                   const TYPE *values) {                                           \
    using T = TYPE;                                                                                \
    return test_all(ISHMEMI_Q(ivars, n, status, cmp, values, T(), N##_test_all_vector));           \
  }                                                                                                \
  size_t ishmem_##N##_test_any_vector(TYPE *ivars, size_t n, const int *status, int cmp,           \
                                      const TYPE *values) {                                        \
    using T = TYPE;                                                                                \
    return test_any(ISHMEMI_Q(ivars, n, status, cmp, values, T(), N##_test_any_vector));           \
  }                                                                                                \
  size_t ishmem_##N##_test_some_vector(TYPE *ivars, size_t n, size_t *indices, const int *status,  \
                                       int cmp, const TYPE *values) {                              \
    using T = TYPE;                                                                                \
    return test_some(ISHMEMI_Q(ivars, n, status, cmp, values, T(), N##_test_some_vector),          \
                     indices);                                                                     \
  }
ISHMEMI_AMO_STANDARD_TYPES(ISHMEMI_DEFINE_P2P)
#undef ISHMEMI_DEFINE_P2P

uint64_t ishmem_signal_fetch(const uint64_t *sig_addr) {
  if (!sig_addr || !g_fast.host_access) {
    guard([] { fail(ISHMEM_ERR_INVALID_ARG, "ishmem_signal_fetch: no CPU-readable signal"); });
    return 0;
  }
  return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}

uint64_t ishmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value) {
  // Returns the value that satisfied the condition: a second load could see a later one.
  uint64_t seen = 0;
  guard([&] {
    Query<uint64_t> q{sig_addr, 1, nullptr, cmp, nullptr, cmp_value, "ishmem_signal_wait_until"};
    Runtime &rt = check(q);
    wait_until_ready(rt, [&] {
      seen = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
      return holds(seen, cmp, cmp_value);
    });
  });
  return seen;
}

#undef ISHMEMI_Q

}  // extern "C"
