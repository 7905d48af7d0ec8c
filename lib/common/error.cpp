#include "common/error.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include "ishmem.h"  // brings in mpi.h without the C++ bindings

namespace ishmem::detail {
namespace {

int g_log_pe = -1;
LogLevel g_log_level = LogLevel::warn;
thread_local std::string t_last_error;
thread_local int t_last_status = ISHMEM_SUCCESS;
thread_local unsigned long t_error_count = 0;

std::string vformat(const char *fmt, va_list ap) {
  char buf[1024];
  vsnprintf(buf, sizeof buf, fmt, ap);
  char prefix[48];
  if (g_log_pe >= 0)
    snprintf(prefix, sizeof prefix, "[ishmem pe %d] ", g_log_pe);
  else
    snprintf(prefix, sizeof prefix, "[ishmem] ");
  return std::string(prefix) + buf;
}

const char *basename_of(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

}  // namespace

void set_log_pe(int pe) {
  g_log_pe = pe;
}
void set_log_level(LogLevel level) {
  g_log_level = level;
}
bool log_enabled(LogLevel level) {
  return level <= g_log_level && level != LogLevel::none;
}

void log(LogLevel level, const char *fmt, ...) {
  if (!log_enabled(level)) return;
  va_list ap;
  va_start(ap, fmt);
  std::string line = vformat(fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s\n", line.c_str());
}

void log_error(LogLevel level, const Error &e) {
  if (log_enabled(level)) fprintf(stderr, "%s\n", e.what());
}

std::string without_prefix(const std::string &text) {
  const std::size_t end = text.find("] ");
  return text.rfind("[ishmem", 0) == 0 && end != std::string::npos ? text.substr(end + 2) : text;
}

void fail(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string text = vformat(fmt, ap);
  va_end(ap);
  throw Error(code, text);
}

void fail_errno(const char *what, const char *file, int line) {
  int err = errno;
  fail(ISHMEM_ERR_SYSTEM, "%s failed: %s (%s:%d)", what, strerror(err), basename_of(file), line);
}

void fail_mpi(int rc, const char *what, const char *file, int line, const char *hint) {
  char text[MPI_MAX_ERROR_STRING] = "unknown MPI error";
  int len = 0;
  MPI_Error_string(rc, text, &len);
  fail(ISHMEM_ERR_MPI, "%s failed: %s (%s:%d)%s%s", what, text, basename_of(file), line,
       hint ? ": " : "", hint ? hint : "");
}

void FirstError::record(int code, const char *text) noexcept {
  if (code_ != ISHMEM_SUCCESS || code == ISHMEM_SUCCESS) return;
  code_ = code;
  try {
    if (text) {
      text_ = text;
    } else {
      char line[64];
      if (g_log_pe >= 0)
        snprintf(line, sizeof line, "[ishmem pe %d] out of host memory", g_log_pe);
      else
        snprintf(line, sizeof line, "[ishmem] out of host memory");
      text_ = line;
    }
  } catch (...) {  // the code is kept; the text may stay empty
  }
}

void FirstError::rethrow() const {
  if (code_ != ISHMEM_SUCCESS) throw Error(code_, text_);
}

void set_last_error(const char *text, int code) {
  ++t_error_count;
  t_last_status = code;
  t_last_error = text;
}
const char *last_error() {
  return t_last_error.c_str();
}
int last_status() {
  return t_last_status;
}
unsigned long error_count() {
  return t_error_count;
}

}  // namespace ishmem::detail
