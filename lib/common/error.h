// Errors and logging. Internals throw Error; lib/api catches it at the C boundary, records the
// text for ishmemx_last_error() and returns the code. Every message starts "[ishmem pe N]".
#pragma once

#include <cerrno>
#include <new>
#include <stdexcept>
#include <string>

#include "ishmem.h"

namespace ishmem::detail {

class Error : public std::runtime_error {
 public:
  Error(int code, const std::string &what) : std::runtime_error(what), code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

enum class LogLevel { none = 0, error = 1, warn = 2, info = 3, debug = 4 };

void set_log_pe(int pe);
void set_log_level(LogLevel level);
bool log_enabled(LogLevel level);
void log(LogLevel level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// Logs the text of `e`, which carries the PE's prefix already.
void log_error(LogLevel level, const Error &e);

// An error's text without its "[ishmem pe N] " (or "[ishmem] ") prefix, to quote it inside
// another message, which has its own.
std::string without_prefix(const std::string &text);

// Formats "[ishmem pe N] <message>" and throws Error(code).
[[noreturn]] void fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
// Throws ISHMEM_ERR_SYSTEM naming the call, errno's text and the place.
[[noreturn]] void fail_errno(const char *what, const char *file, int line);
// Throws ISHMEM_ERR_MPI naming the call, MPI's text for rc and the place, then `hint`, if any:
// what the user can do about it.
[[noreturn]] void fail_mpi(int rc, const char *what, const char *file, int line,
                           const char *hint = nullptr);

// The first error of a step that must run to its end on every PE (an fd exchange, a heap
// growth step): attempt() runs a part of it and records, instead of throwing, an Error, a
// std::bad_alloc (as ISHMEM_ERR_NOMEM) or any other exception (ISHMEM_ERR_INTERNAL).
class FirstError {
 public:
  template <class F>
  void attempt(F &&part) noexcept {
    try {
      part();
    } catch (const Error &e) {
      record(e.code(), e.what());
    } catch (const std::bad_alloc &) {
      record(ISHMEM_ERR_NOMEM, nullptr);
    } catch (const std::exception &e) {
      record(ISHMEM_ERR_INTERNAL, e.what());
    }
  }
  // Keeps the first code and text; a NULL text is "out of host memory".
  void record(int code, const char *text) noexcept;
  bool ok() const { return code_ == ISHMEM_SUCCESS; }
  int code() const { return code_; }
  const char *text() const { return text_.c_str(); }
  // Throws the recorded error, if any.
  void rethrow() const;

 private:
  int code_ = ISHMEM_SUCCESS;
  std::string text_;
};

// Records an error of this thread: its text, its status code, and one more in the count.
void set_last_error(const char *text, int code);
const char *last_error();
int last_status();
unsigned long error_count();

// Runs `call` again while it fails with EINTR; returns its last result.
template <class F>
auto retry_eintr(F &&call) {
  auto rc = call();
  while (rc < 0 && errno == EINTR) rc = call();
  return rc;
}

}  // namespace ishmem::detail

// Checks a POSIX call returning <0 on error (EINTR retried).
#define ISHMEMI_CHECK_SYS(call)                                                  \
  ([&]() {                                                                       \
    auto ishmemi_rc = ::ishmem::detail::retry_eintr([&]() { return (call); });   \
    if (ishmemi_rc < 0) ::ishmem::detail::fail_errno(#call, __FILE__, __LINE__); \
    return ishmemi_rc;                                                           \
  }())

#define ISHMEMI_CHECK_MPI(call)                                              \
  do {                                                                       \
    int ishmemi_mpi_rc = (call);                                             \
    if (ishmemi_mpi_rc != MPI_SUCCESS)                                       \
      ::ishmem::detail::fail_mpi(ishmemi_mpi_rc, #call, __FILE__, __LINE__); \
  } while (0)
