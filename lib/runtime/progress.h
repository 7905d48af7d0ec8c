// The progress thread: a poller on the runtime's service thread that lets MPI run peers'
// passive-target operations aimed at this PE (its off-node heap and its static data) while
// the program computes without calling ishmem. ISHMEM_PROGRESS_THREAD decides whether it runs
// (docs/MULTI_NODE.md, "Progress").
#pragma once

namespace ishmem::detail {

struct Runtime;

// Registers the poller on `rt.service` as ISHMEM_PROGRESS_THREAD asks: `auto` where the job has
// off-node PEs and MPI provides MPI_THREAD_MULTIPLE, `on` always (throws ISHMEM_ERR_UNSUPPORTED
// without MPI_THREAD_MULTIPLE), `off` never. Needs `rt.remote` and `rt.statics` set; the
// service thread is stopped before either goes away. Returns whether the poller runs.
bool start_progress_thread(Runtime &rt);

}  // namespace ishmem::detail
