// Collectives on GPU heaps: host calls and their stream-ordered twins run the device algorithm
// (ishmem/detail/collectives_impl.h) as a kernel, so that host, stream-ordered and device calls
// on a team form one sequence. A stream-ordered call returns once the kernel is enqueued; a host
// call enqueues it on the default stream and waits, and throws what the kernel found.
#pragma once

#include "runtime/collectives.h"

namespace ishmem::detail {

// Runs `call` (from run_collective; kind rejected when this PE's checks failed) on the team.
void run_device_collective(Runtime &rt, Team &team, const CollectiveCall &call);
// ishmemx_team_sync_on_stream with a GPU backend.
void team_sync_on_stream(Runtime &rt, Team &team, void *stream);

}  // namespace ishmem::detail
