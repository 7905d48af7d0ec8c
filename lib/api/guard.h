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
