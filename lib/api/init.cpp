// Setup and query calls.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "api/checks.h"
#include "api/ctx.h"
#include "api/guard.h"
#include "runtime/runtime.h"

using namespace ishmem::detail;

namespace ishmem::detail {
void report_error(const char *text, int code) {
  set_last_error(text, code);
  if (log_enabled(LogLevel::error)) fprintf(stderr, "%s\n", text);
}
}  // namespace ishmem::detail

namespace {
// Whether ishmem_init started MPI, so that ishmem_finalize ends it. Kept across a failed
// ishmem_init (MPI stays up so the program may fix its environment and call it again).
bool g_started_mpi = false;

// True if `addr` is in the program's static data and that is usable (symmetric) here.
bool in_static_data(const void *addr) {
  std::size_t off;
  return g_rt && g_rt->statics->usable() && g_rt->statics->contains(addr, 0, off);
}

// The thread level ishmem_query_thread reports: set by every successful initialization.
int g_thread_level = ISHMEM_THREAD_SINGLE;

// OpenSHMEM's levels are MPI's in the same order; MPI's constants are not 0..3 everywhere.
int mpi_level(int level) {
  static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED,
                               MPI_THREAD_MULTIPLE};
  return levels[level];
}
int ishmem_level(int mpi) {
  int level = ISHMEM_THREAD_SINGLE;
  while (level < ISHMEM_THREAD_MULTIPLE && mpi_level(level + 1) <= mpi) ++level;
  return level;
}

// Whether the program has called ishmem_finalize (successfully or not) since the last init.
bool g_finalize_called = false;

// OpenSHMEM 1.2 programs (start_pes) have no finalize call: the library finalizes when the
// program exits. Only where ishmem started MPI itself; a program that runs MPI finalizes both.
void finalize_at_exit() {
  int finalized = 1;
  if (g_fast.initialized && !g_finalize_called && MPI_Finalized(&finalized) == MPI_SUCCESS &&
      !finalized)
    ishmem_finalize();
}

// Starts MPI at level `start` (ISHMEM_THREAD_*) unless the program did, then the runtime;
// returns the level both MPI and ishmem give, at most `requested`.
int init_at(int start, int requested) {
  int initialized = 0, provided = 0;
  ISHMEMI_CHECK_MPI(MPI_Initialized(&initialized));
  if (!initialized) {
    ISHMEMI_CHECK_MPI(MPI_Init_thread(nullptr, nullptr, mpi_level(start), &provided));
    static bool registered = false;
    if (!registered && std::atexit(finalize_at_exit) == 0) registered = true;
    g_started_mpi = true;
  } else {
    ISHMEMI_CHECK_MPI(MPI_Query_thread(&provided));
  }
  runtime_init(MPI_COMM_WORLD, g_started_mpi);
  g_finalize_called = false;
  return std::min(requested, ishmem_level(provided));
}
}  // namespace

extern "C" {

int ishmem_init(void) {
  // MPI started here is MULTIPLE, which the progress thread needs, unless that thread is
  // turned off: some MPI components refuse MULTIPLE (docs/MULTI_NODE.md, "Progress"). MPI the
  // program started keeps its level. The variable's value is checked by ishmem_init's table.
  const char *thread = std::getenv("ISHMEM_PROGRESS_THREAD");
  const int start =
      thread && std::strcmp(thread, "off") == 0 ? ISHMEM_THREAD_SINGLE : ISHMEM_THREAD_MULTIPLE;
  return guard([start] { g_thread_level = init_at(start, ISHMEM_THREAD_MULTIPLE); });
}

int ishmem_init_thread(int requested, int *provided) {
  return guard([&] {
    if (requested < ISHMEM_THREAD_SINGLE || requested > ISHMEM_THREAD_MULTIPLE)
      fail(ISHMEM_ERR_INVALID_ARG,
           "ishmem_init_thread: requested level %d is not an ISHMEM_THREAD_* level", requested);
    g_thread_level = init_at(requested, requested);
    if (provided) *provided = g_thread_level;
  });
}

int ishmem_query_thread(int *provided) {
  return guard([&] {
    runtime();
    if (!provided) fail(ISHMEM_ERR_INVALID_ARG, "ishmem_query_thread: provided is NULL");
    *provided = g_thread_level;
  });
}

int ishmemx_init_attr(const ishmemx_init_attr_t *attr) {
  return guard([attr] {
    if (!attr) fail(ISHMEM_ERR_INVALID_ARG, "ishmemx_init_attr: attr is NULL");
    int initialized = 0;
    ISHMEMI_CHECK_MPI(MPI_Initialized(&initialized));
    if (!initialized)
      fail(ISHMEM_ERR_INVALID_ARG, "ishmemx_init_attr: MPI is not initialized (use ishmem_init)");
    if (attr->comm == MPI_COMM_NULL)
      fail(ISHMEM_ERR_INVALID_ARG, "ishmemx_init_attr: attr->comm is MPI_COMM_NULL");
    runtime_init(attr->comm, false);
    int provided = 0;
    ISHMEMI_CHECK_MPI(MPI_Query_thread(&provided));
    g_thread_level = ishmem_level(provided);
  });
}

int ishmem_finalize(void) {
  g_finalize_called = true;
  return guard([] {
    contexts_finalize();
    runtime_finalize();
  });
}

int ishmem_my_pe(void) {
  return g_fast.my_pe;
}
int ishmem_n_pes(void) {
  return g_fast.initialized ? g_fast.n_pes : -1;
}

int ishmem_pe_accessible(int pe) {
  return g_fast.initialized && pe >= 0 && pe < g_fast.n_pes ? 1 : 0;
}

int ishmem_addr_accessible(const void *addr, int pe) {
  std::size_t off;
  return ishmem_pe_accessible(pe) && (in_heap(addr, 0, off) || in_static_data(addr)) ? 1 : 0;
}

void *ishmem_ptr(const void *dest, int pe) {
  const FastPath &f = g_fast;
  if (pe < 0 || pe >= f.n_pes) return nullptr;
  std::size_t off;
  if (!in_heap(dest, 0, off))  // a peer's static data is reached through MPI only
    return pe == f.my_pe && in_static_data(dest) ? const_cast<void *>(dest) : nullptr;
  int slot = f.pe_slot[pe];
  if (!f.host_access || slot < 0) return nullptr;
  return f.window + f.stride * static_cast<std::size_t>(slot) + off;
}

void ishmem_info_get_version(int *major, int *minor) {
  if (major) *major = ISHMEM_MAJOR_VERSION;
  if (minor) *minor = ISHMEM_MINOR_VERSION;
}

void ishmem_info_get_name(char *name) {
  if (name) snprintf(name, ISHMEM_MAX_NAME_LEN, "%s", ISHMEM_VENDOR_STRING);
}

void ishmem_global_exit(int status) {
  MPI_Comm comm = g_rt ? g_rt->boot->world() : MPI_COMM_WORLD;
  fflush(stdout);
  fflush(stderr);
  liveness_announce_abort(status);
  MPI_Abort(comm, status);
}

const char *ishmemx_last_error(void) {
  return last_error();
}

const char *ishmemx_backend_name(void) {
  return g_rt ? g_rt->backend->name() : "none";
}

}  // extern "C"
