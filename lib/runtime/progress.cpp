#include "runtime/progress.h"

#include "common/error.h"
#include "runtime/runtime.h"

namespace ishmem::detail {

bool start_progress_thread(Runtime &rt) {
  const std::string &mode = rt.config.progress_thread;
  if (mode == "off") return false;
  if (mode == "on") {
    require_mpi_multiple("ISHMEM_PROGRESS_THREAD=on");
  } else {  // auto: only peers reached through MPI can be starved by a computing PE
    if (!rt.remote) return false;
    // Served requests have the server thread of their own, whose probes run MPI's whole
    // progress engine, static data's window included; a second poller would only cost: over
    // TCP each MPI poll is a system call, and over UCX a poll's MPI_Win_sync made every
    // served request wait milliseconds. On a loaded node polls every 20 us from two threads
    // per PE slowed a waiting PE's rounds tenfold.
    if (rt.served) return false;
    if (mpi_thread_level() != MPI_THREAD_MULTIPLE) {
      log(LogLevel::info,
          "no progress thread: MPI is not at MPI_THREAD_MULTIPLE, so only this PE's ishmem "
          "calls drive progress for its off-node peers' operations");
      return false;
    }
  }
  // Both transports' progress() only read their window handle and call MPI_Win_sync and
  // MPI_Iprobe, which MPI_THREAD_MULTIPLE allows beside the program's own MPI calls; the
  // windows are freed only after finalize has stopped this thread. No work is ever reported
  // (MPI does not say whether it ran anything), so the thread sleeps between polls.
  // Under ISHMEM_PROGRESS_THREAD=on with served requests the server thread still probes them.
  OffNode *remote = rt.served ? nullptr : rt.remote;
  StaticData *statics = rt.statics.get();
  rt.service->add("MPI progress", [remote, statics] {
    if (remote) remote->progress();
    statics->progress();
    return false;
  });
  log(LogLevel::info, "progress thread: MPI progress every %lld us",
      static_cast<long long>(rt.service->interval().count()));
  return true;
}

}  // namespace ishmem::detail
