// ishmem C++ API: errors, the library's lifetime and the calls on every PE. Part of
// ishmem.hpp; host API only. Every wrapper turns a failed C call into ishmem::error.
#ifndef ISHMEM_CXX_RUNTIME_HPP
#define ISHMEM_CXX_RUNTIME_HPP

#include <cstdio>
#include <stdexcept>
#include <string>

#include "ishmem.h"

namespace ishmem {

// A failed ishmem call: status() is the C status (ISHMEM_ERR_*), what() names the call and
// carries the library's text (ishmemx_last_error()).
class error : public std::runtime_error {
 public:
  error(int status, const std::string &message) : std::runtime_error(message), status_(status) {}
  int status() const noexcept { return status_; }

 private:
  int status_;
};

// Throws "[ishmem pe N] call: why". The library's own texts start with that prefix already:
// the call goes after it.
[[noreturn]] inline void throw_error(int status, const std::string &call, std::string why) {
  std::string prefix;
  const std::size_t prefix_end = why.find("] ");
  if (why.rfind("[ishmem", 0) == 0 && prefix_end != std::string::npos) {
    prefix = why.substr(0, prefix_end + 2);
    why.erase(0, prefix_end + 2);
  } else {
    const int pe = ishmem_my_pe();
    prefix = pe >= 0 ? "[ishmem pe " + std::to_string(pe) + "] " : std::string("[ishmem] ");
  }
  throw error(status, prefix + call + ": " + why);
}

// The C API's code and text of the last failure on this thread, as an exception.
[[noreturn]] inline void throw_last_error(const std::string &call,
                                          int status = ishmemx_last_status()) {
  if (status == ISHMEM_SUCCESS) status = ISHMEM_ERR_INTERNAL;  // a failure without a code
  throw_error(status, call, ishmemx_last_error());
}

// A C call that returns a status.
inline void check(int status, const char *call) {
  if (status != ISHMEM_SUCCESS) throw_last_error(call, status);
}

// A C call that returns a value (a fetch, a g): it failed when this thread's error count moved.
template <class Call>
auto checked_value(const char *call, Call &&c) {
  const unsigned long errors_before = ishmemx_error_count();
  auto value = c();
  if (ishmemx_error_count() != errors_before) throw_last_error(call);
  return value;
}

// Destructors cannot throw: a failed free or destroy is reported on stderr and the program goes on.
inline void report_in_destructor(int status, const char *call) noexcept {
  if (status != ISHMEM_SUCCESS)
    std::fprintf(stderr, "[ishmem pe %d] %s failed in a destructor: %s\n", ishmem_my_pe(), call,
                 ishmemx_last_error());
}

enum class thread_level : int {
  single = ISHMEM_THREAD_SINGLE,
  funneled = ISHMEM_THREAD_FUNNELED,
  serialized = ISHMEM_THREAD_SERIALIZED,
  multiple = ISHMEM_THREAD_MULTIPLE
};

// The library initialized for the lifetime of this object: ishmem_init (which starts MPI if
// the program has not), ishmem_init_thread, or ishmemx_init_attr over a communicator.
// Collective. finalize() ends it early and reports errors; the destructor ends it otherwise.
class runtime {
 public:
  runtime() { check(ishmem_init(), "ishmem_init"); }
  explicit runtime(thread_level requested) {
    int provided = 0;
    check(ishmem_init_thread(static_cast<int>(requested), &provided), "ishmem_init_thread");
    provided_ = static_cast<thread_level>(provided);
  }
  explicit runtime(MPI_Comm comm) {
    ishmemx_init_attr_t attr{comm};
    check(ishmemx_init_attr(&attr), "ishmemx_init_attr");
  }
  runtime(const runtime &) = delete;
  runtime &operator=(const runtime &) = delete;
  ~runtime() {
    if (active_) report_in_destructor(ishmem_finalize(), "ishmem_finalize");
  }

  void finalize() {
    if (!active_) return;
    active_ = false;
    check(ishmem_finalize(), "ishmem_finalize");
  }
  // The level the library runs at (ishmem_query_thread).
  thread_level query_thread() const {
    int provided = 0;
    check(ishmem_query_thread(&provided), "ishmem_query_thread");
    return static_cast<thread_level>(provided);
  }
  // What ishmem_init_thread granted (the thread-level constructor only; single otherwise).
  thread_level provided() const noexcept { return provided_; }

 private:
  bool active_ = true;
  thread_level provided_ = thread_level::single;
};

inline int my_pe() {
  const int pe = ishmem_my_pe();
  if (pe < 0) throw_error(ISHMEM_ERR_NOT_INITIALIZED, "ishmem_my_pe", "ishmem is not initialized");
  return pe;
}
inline int n_pes() {
  const int n = ishmem_n_pes();
  if (n < 0) throw_error(ISHMEM_ERR_NOT_INITIALIZED, "ishmem_n_pes", "ishmem is not initialized");
  return n;
}
inline void quiet() {
  check(ishmem_quiet(), "ishmem_quiet");
}
inline void fence() {
  check(ishmem_fence(), "ishmem_fence");
}
inline void barrier_all() {
  check(ishmem_barrier_all(), "ishmem_barrier_all");
}
inline void sync_all() {
  check(ishmem_sync_all(), "ishmem_sync_all");
}

}  // namespace ishmem

#endif  // ISHMEM_CXX_RUNTIME_HPP
