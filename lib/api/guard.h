// The C boundary: no exception crosses it. Each extern "C" function runs its body in
// guard(), which turns an Error into its status code and records the text.
#pragma once

#include <exception>
#include <new>

#include "common/error.h"

namespace ishmem::detail {

// Records `text` for ishmemx_last_error() and prints it at log level error.
void report_error(const char *text);

template <class F>
int guard(F &&body) noexcept {
  try {
    body();
    return ISHMEM_SUCCESS;
  } catch (const Error &e) {
    report_error(e.what());
    return e.code();
  } catch (const std::bad_alloc &) {
    report_error("[ishmem] out of host memory");
    return ISHMEM_ERR_NOMEM;
  } catch (const std::exception &e) {
    report_error(e.what());
    return ISHMEM_ERR_INTERNAL;
  }
}

}  // namespace ishmem::detail
