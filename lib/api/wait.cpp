// Point-to-point synchronization: wait_until and test on this PE's symmetric variables, and
// the signal reads. Variables are read with acquire loads, so whatever a peer wrote before
// the value it released is visible once the condition holds. The scans are the device
// waits' own (ishmem/detail/scan.h); this file adds the checks and the host's polling.
#include <chrono>

#include "api/calls.h"
#include "api/checks.h"
#include "api/guard.h"
#include "ishmem/detail/scan.h"
#include "runtime/sync.h"

using namespace ishmem::detail;

namespace {

constexpr std::size_t kNone = SIZE_MAX;

// Acquire loads, and polls that help MPI progress and yield the CPU (wait_for). The host
// gives up only past ISHMEM_WAIT_TIMEOUT, a debugging aid (OpenSHMEM waits are unbounded).
struct HostPoll {
  Runtime &rt;
  OffNode *mpi;  // the off-node path through which peers write the variables, if any
  const char *fn;

  template <class T>
  static T load(const T *p) {
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
  }
  template <class Ready>
  bool until(Ready ready) {
    unsigned polls = 0;
    std::chrono::steady_clock::time_point give_up{};
    wait_for(
        [&] {
          // Peers that write through MPI may need this PE's help to make progress.
          if (mpi && (++polls & 63) == 0) mpi->progress();
          return ready();
        },
        [&] {
          // Once yielding, every poll serves: a served peer's request waits for this PE, and
          // its server thread stands down while this thread serves (ServedOffNode). Peers
          // may be waiting for this PE to run their atomics on its static data.
          if (mpi) mpi->progress();
          rt.statics->progress();
          const auto now = std::chrono::steady_clock::now();
          if (give_up == std::chrono::steady_clock::time_point{})
            give_up = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                std::chrono::duration<double>(rt.config.wait_timeout));
          else if (now > give_up)
            fail(ISHMEM_ERR_TIMEOUT,
                 "%s: the condition did not hold within %g s (ISHMEM_WAIT_TIMEOUT)", fn,
                 rt.config.wait_timeout);
        });
    return true;
  }
};

// Checks a query on `n` variables at `ivars`; returns how to poll them. Static data is host
// memory whatever the heap's backend; its peers write through its MPI window.
template <class T>
HostPoll check(const T *ivars, std::size_t n, int cmp, const char *fn) {
  Runtime &rt = runtime();
  check_cmp(cmp, fn);
  if (n == 0) return {rt, nullptr, fn};
  if (!ivars) fail(ISHMEM_ERR_INVALID_ARG, "%s: ivars is NULL", fn);
  std::size_t off;
  if (MpiTransport *statics = static_window_aligned(ivars, n, sizeof(T), off, fn))
    return {rt, statics, fn};
  if (!g_fast.host_access)
    fail(ISHMEM_ERR_UNSUPPORTED, "%s: the %s heap is not CPU-addressable; wait on the device", fn,
         rt.backend->name());
  check_symmetric_aligned(ivars, n, sizeof(T), g_fast.my_pe, fn, "", "array");
  return {rt, rt.remote, fn};
}

// A test reads once: peers' MPI operations get one chance to land first.
void serve(const HostPoll &poll) {
  if (poll.mpi) poll.mpi->progress();
}

void check_indices(std::size_t n, const std::size_t *indices, const char *fn) {
  if (n && !indices) fail(ISHMEM_ERR_INVALID_ARG, "%s: indices is NULL", fn);
}

// One call's query: the shared scan's arguments and the call's name.
template <class T, class Targets>
struct Query : ishmemi::Scan<HostPoll, T, Targets> {
  const char *fn;
};
template <class T>
Query<T, ishmemi::OneTarget<T>> query(const char *fn, T *ivars, std::size_t n, const int *status,
                                      int cmp, T value) {
  return {{ivars, n, status, cmp, {value}}, fn};
}
template <class T>
Query<T, ishmemi::EachTarget<T>> query(const char *fn, T *ivars, std::size_t n, const int *status,
                                       int cmp, const T *values) {
  return {{ivars, n, status, cmp, {values}}, fn};
}
template <class Q>
HostPoll check(const Q &q) {
  return check(q.ivars, q.n, q.cmp, q.fn);
}

// Each call: the checks, then the shared scan. Errors read as "not satisfied", never as true;
// ishmemx_last_error() says why.
template <class Q>
int wait_all(const Q &q) {
  return guard([&q] {
    HostPoll poll = check(q);
    // Every included entry holds in one pass over them (the device waits move on entry by
    // entry, Scan::wait_all); the host never gives up.
    poll.until([&q] { return q.test_all() != 0; });
  });
}
// Where this thread's next wait_until_any or test_any scan starts: after the index it
// returned last, so that a series of calls returns every satisfied index.
thread_local std::size_t t_any_start = 0;
std::size_t returned_any(std::size_t index) {
  if (index != kNone) t_any_start = index + 1;
  return index;
}

template <class Q>
std::size_t wait_any(const Q &q) {
  std::size_t first = kNone;
  int rc = guard([&] {
    HostPoll poll = check(q);
    first = returned_any(q.wait_any(poll, t_any_start));
  });
  return rc == ISHMEM_SUCCESS ? first : kNone;
}
template <class Q>
std::size_t wait_some(const Q &q, std::size_t *indices) {
  std::size_t count = 0;
  int rc = guard([&] {
    HostPoll poll = check(q);
    check_indices(q.n, indices, q.fn);
    count = q.wait_some(poll, indices);
  });
  return rc == ISHMEM_SUCCESS ? count : 0;
}
template <class Q>
int test_all(const Q &q) {
  int result = 0;
  guard([&] {
    serve(check(q));
    result = q.test_all();
  });
  return result;
}
template <class Q>
std::size_t test_any(const Q &q) {
  std::size_t first = kNone;
  guard([&] {
    serve(check(q));
    first = returned_any(q.test_any(t_any_start));
  });
  return first;
}
template <class Q>
std::size_t test_some(const Q &q, std::size_t *indices) {
  std::size_t count = 0;
  int rc = guard([&] {
    serve(check(q));
    check_indices(q.n, indices, q.fn);
    count = q.test_some(indices);
  });
  return rc == ISHMEM_SUCCESS ? count : 0;
}

}  // namespace

// The operations of the wait/test signature list, and of the signal reads.
namespace ishmem::detail::host {

template <class T>
int wait_until(const char *fn, T *ivar, int cmp, T value) {
  return wait_all(query(fn, ivar, 1, nullptr, cmp, value));
}
template <class T>
int test(const char *fn, T *ivar, int cmp, T value) {
  return ::test_all(query(fn, ivar, 1, nullptr, cmp, value));
}
// SUFFIX is empty or _vector; TARGET the type of the comparison target(s).
#define ISHMEMI_P2P_OPS(SUFFIX, TARGET)                                                           \
  template <class T>                                                                              \
  int wait_until_all##SUFFIX(const char *fn, T *ivars, std::size_t n, const int *status, int cmp, \
                             TARGET t) {                                                          \
    return wait_all(query(fn, ivars, n, status, cmp, t));                                         \
  }                                                                                               \
  template <class T>                                                                              \
  std::size_t wait_until_any##SUFFIX(const char *fn, T *ivars, std::size_t n, const int *status,  \
                                     int cmp, TARGET t) {                                         \
    return wait_any(query(fn, ivars, n, status, cmp, t));                                         \
  }                                                                                               \
  template <class T>                                                                              \
  std::size_t wait_until_some##SUFFIX(const char *fn, T *ivars, std::size_t n,                    \
                                      std::size_t *indices, const int *status, int cmp,           \
                                      TARGET t) {                                                 \
    return wait_some(query(fn, ivars, n, status, cmp, t), indices);                               \
  }                                                                                               \
  template <class T>                                                                              \
  int test_all##SUFFIX(const char *fn, T *ivars, std::size_t n, const int *status, int cmp,       \
                       TARGET t) {                                                                \
    return ::test_all(query(fn, ivars, n, status, cmp, t));                                       \
  }                                                                                               \
  template <class T>                                                                              \
  std::size_t test_any##SUFFIX(const char *fn, T *ivars, std::size_t n, const int *status,        \
                               int cmp, TARGET t) {                                               \
    return ::test_any(query(fn, ivars, n, status, cmp, t));                                       \
  }                                                                                               \
  template <class T>                                                                              \
  std::size_t test_some##SUFFIX(const char *fn, T *ivars, std::size_t n, std::size_t *indices,    \
                                const int *status, int cmp, TARGET t) {                           \
    return ::test_some(query(fn, ivars, n, status, cmp, t), indices);                             \
  }
ISHMEMI_P2P_OPS(, T)
ISHMEMI_P2P_OPS(_vector, const T *)
#undef ISHMEMI_P2P_OPS

// A signal that peers may update through MPI: in static data or in a heap with off-node PEs
// (their MPI operations get one chance to land first: a loop of fetches must not starve
// them); elsewhere in this process's memory, or nowhere readable.
[[gnu::noinline]] std::uint64_t signal_fetch_slow(const char *fn, const std::uint64_t *sig_addr) {
  int rc = guard([&] {
    std::size_t off;
    if (MpiTransport *statics = static_window_aligned(sig_addr, 1, sizeof *sig_addr, off, fn))
      statics->progress();
    else if (!sig_addr || !g_fast.host_access)
      fail(ISHMEM_ERR_INVALID_ARG, "%s: no CPU-readable signal", fn);
    else if (OffNode *remote = runtime().remote)
      remote->progress();
  });
  return rc == ISHMEM_SUCCESS ? __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE) : 0;
}

template <class>
std::uint64_t signal_fetch(const char *fn, const std::uint64_t *sig_addr) {
  // direct_atomics: a CPU-addressable heap without off-node PEs, whose peers store the signal
  // themselves; with an MPI window the slow path lets MPI progress first.
  std::size_t off;
  if (__builtin_expect(g_fast.direct_atomics && in_heap(sig_addr, sizeof *sig_addr, off), 1))
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
  return signal_fetch_slow(fn, sig_addr);
}

template <class>
std::uint64_t signal_wait_until(const char *fn, std::uint64_t *sig_addr, int cmp,
                                std::uint64_t cmp_value) {
  // Returns the value that satisfied the condition: a second load could see a later one.
  std::uint64_t seen = 0;
  guard([&] {
    HostPoll poll = check(sig_addr, 1, cmp, fn);
    poll.until([&] {
      seen = HostPoll::load(sig_addr);
      return ishmemi::holds(seen, cmp, cmp_value);
    });
  });
  return seen;
}

}  // namespace ishmem::detail::host

extern "C" {

#define ISHMEMI_DEFINE_P2P(T, N) ISHMEMI_P2P_CALLS(ISHMEMI_DEFINE_CALL, T, N)
ISHMEMX_P2P_TYPES(ISHMEMI_DEFINE_P2P)
#undef ISHMEMI_DEFINE_P2P
ISHMEMI_SIGNAL_READ_CALLS(ISHMEMI_DEFINE_CALL)

}  // extern "C"
