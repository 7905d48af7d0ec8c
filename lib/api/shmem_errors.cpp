// The error policy of shmem.h (ISHMEM_SHMEM_ERRORS): OpenSHMEM calls that return no status
// cannot hand an error to the program, so by default a failure stops the job, as other
// OpenSHMEM implementations do. shmem.h tests the status inline and calls out of line only
// on failure; the ishmem_ API itself always returns its codes.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "api/guard.h"
#include "runtime/runtime.h"

using namespace ishmem::detail;

namespace {

// Whether ISHMEM_SHMEM_ERRORS asks failing calls to return: the loaded configuration after
// ishmem_init, the environment before it (an unknown value means the default, abort).
bool errors_return() {
  if (g_rt) return g_rt->config.shmem_errors == "return";
  const char *text = getenv("ISHMEM_SHMEM_ERRORS");
  return text && strcmp(text, "return") == 0;
}

}  // namespace

extern "C" {

unsigned long ishmemx_error_count(void) {
  return error_count();
}

int ishmemx_last_status(void) {
  return last_status();
}

int ishmemx_shmem_failed(int status, const char *call) {
  if (errors_return()) return status;
  // The library printed the text already unless ISHMEM_LOG silences it; a job that stops
  // must say why whatever the log level.
  if (!log_enabled(LogLevel::error)) fprintf(stderr, "%s\n", last_error());
  int pe = ishmem_my_pe();
  fprintf(stderr,
          "[ishmem pe %d] %s failed (status %d): stopping the job (ISHMEM_SHMEM_ERRORS=abort)\n",
          pe, call ? call : "a shmem call", status);
  int initialized = 0, finalized = 0;
  if (MPI_Initialized(&initialized) == MPI_SUCCESS && initialized &&
      MPI_Finalized(&finalized) == MPI_SUCCESS && !finalized)
    ishmem_global_exit(1);
  // No MPI to stop the other processes with: end this one.
  fflush(stderr);
  abort();
}

}  // extern "C"
