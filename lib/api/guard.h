// The C boundary: no exception crosses it. Each extern "C" function runs its body in
// guard(), which turns an Error into its status code and records the text.
#pragma once

#include <exception>
#include <new>

#include "common/error.h"

namespace ishmem::detail {

// Records `text` and `code` for ishmemx_last_error() and ishmemx_last_status(), and prints
// the text at log level error.
void report_error(const char *text, int code);

// The status of a call that OpenSHMEM 1.5 defines on an invalid handle (ISHMEM_TEAM_INVALID
// or ISHMEM_CTX_INVALID) as doing nothing and returning nonzero: a correct program's outcome
// (the specification's own examples reach it), so it is no error report, only a debug line.
inline int invalid_handle_status(const char *fn, const char *handle) noexcept {
  log(LogLevel::debug, "%s on %s: nothing done, nonzero returned (OpenSHMEM 1.5)", fn, handle);
  return ISHMEM_ERR_INVALID_ARG;
}

template <class F>
int guard(F &&body) noexcept {
  try {
    body();
    return ISHMEM_SUCCESS;
  } catch (const Error &e) {
    report_error(e.what(), e.code());
    return e.code();
  } catch (const std::bad_alloc &) {
    report_error("[ishmem] out of host memory", ISHMEM_ERR_NOMEM);
    return ISHMEM_ERR_NOMEM;
  } catch (const std::exception &e) {
    report_error(e.what(), ISHMEM_ERR_INTERNAL);
    return ISHMEM_ERR_INTERNAL;
  }
}

}  // namespace ishmem::detail
