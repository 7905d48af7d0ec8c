// Setup and query calls.
#include <cstdio>
#include <cstring>

#include "api/checks.h"
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
}  // namespace

extern "C" {

int ishmem_init(void) {
  return guard([] {
    int initialized = 0;
    ISHMEMI_CHECK_MPI(MPI_Initialized(&initialized));
    if (!initialized) {
      int provided = 0;
      ISHMEMI_CHECK_MPI(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, &provided));
      g_started_mpi = true;
    }
    runtime_init(MPI_COMM_WORLD, g_started_mpi);
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
  });
}

int ishmem_finalize(void) {
  return guard([] { runtime_finalize(); });
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
  MPI_Abort(comm, status);
}

const char *ishmemx_last_error(void) {
  return last_error();
}

const char *ishmemx_backend_name(void) {
  return g_rt ? g_rt->backend->name() : "none";
}

}  // extern "C"
