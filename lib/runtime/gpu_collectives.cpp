// Collectives on GPU heaps: the call as the kernels take it, how many blocks run it, and what
// the host learns of its outcome.
#include "runtime/gpu_collectives.h"

#include <algorithm>

#include "runtime/gpu_runtime.h"
#if defined(ISHMEM_GPU_CUDA) || defined(ISHMEM_GPU_HIP)
#include "device/collective_kernels.h"
#define ISHMEMI_COLLECTIVE_KERNELS 1
#endif

namespace ishmem::detail {
namespace {

#ifdef ISHMEMI_COLLECTIVE_KERNELS
// A call runs on one block per this many bytes per PE (at least one, at most
// ISHMEMX_GRID_MAX_BLOCKS). Up to it, one block stages the data (one meeting); above it
// several blocks read the peers' buffers directly, which costs a meeting more but reads in
// parallel: on two H200s a 256 KiB reduction on a stream took 21.4 us on one block, 11.6 on 16.
constexpr std::size_t kBytesPerLane = 16 * 1024;

const char *failure_text(int rc) {
  switch (rc) {
    case ISHMEM_ERR_MISMATCH:
      return "the team's PEs made different collective calls (kind, element type, size, root "
             "or lanes differ)";
    case ISHMEM_ERR_TIMEOUT:
      return "a PE of the team did not reach the collective within ISHMEM_COLLECTIVE_TIMEOUT";
    default:
      return "the collective kernel failed";
  }
}

int lanes_for(const Runtime &rt, const Team &team, const CollectiveCall &call) {
  std::size_t bytes = call.nelems * call.type.size;
  if (call.kind == CollectiveKind::collect || call.kind == CollectiveKind::rejected) return 1;
  if (call.kind == CollectiveKind::alltoall) bytes *= static_cast<std::size_t>(team.n_pes());
  if (bytes <= std::min(kBytesPerLane, rt.config.device_oneshot_max)) return 1;
  return static_cast<int>(std::clamp<std::size_t>((bytes + kBytesPerLane - 1) / kBytesPerLane, 2,
                                                  ISHMEMX_GRID_MAX_BLOCKS));
}

// Enqueues `call` of `lanes` blocks; waits for it unless it is stream-ordered. On a team that
// spans nodes one block posts the call to the device proxy (ishmem/detail/team_call.h).
void launch(const Team &team, const DeviceCollective &call, int lanes, const Launch &how) {
  if (team.node_local && team.n_pes() > ISHMEMX_DEVICE_TEAM_MAX_PES)
    fail(ISHMEM_ERR_UNSUPPORTED,
         "%s: collectives on a GPU heap take node-local teams of at most %d PEs (this one has %d)",
         how.fn, ISHMEMX_DEVICE_TEAM_MAX_PES, team.n_pes());
  if (!team.node_local) lanes = 1;
  int *device = nullptr;
  int *status = collective_status(&device);
  const ishmemx_device_handle_t h = device_handle(g_fast);
  if (how.on_stream) {
    // A stream-ordered call that failed has no caller left to tell: the next one does.
    const int earlier = __atomic_exchange_n(&status[1], 0, __ATOMIC_ACQ_REL);
    if (earlier != 0)
      fail(earlier, "%s: an earlier stream-ordered collective failed: %s", how.fn,
           failure_text(earlier));
    enqueue_collective(h, call, lanes, device + 1, how.stream, how.fn);
    return;
  }
  enqueue_collective(h, call, lanes, device, nullptr, how.fn);
  wait_stream(nullptr, how.fn);
  const int rc = __atomic_exchange_n(&status[0], 0, __ATOMIC_ACQ_REL);
  // A PE that rejected its arguments throws its own error instead.
  if (rc != 0 && call.kind != static_cast<int>(CollectiveKind::rejected))
    fail(rc, "%s: %s", how.fn, failure_text(rc));
}
#endif

}  // namespace

void run_device_collective(Runtime &rt, Team &team, const CollectiveCall &call) {
#ifdef ISHMEMI_COLLECTIVE_KERNELS
  DeviceCollective d;
  d.team = team.slot;
  d.kind = static_cast<int>(call.kind);
  d.type = static_cast<unsigned>(call.type.code());
  d.dest = call.dest;
  d.source = call.source;
  d.nelems = call.nelems;
  d.root = call.root;
  d.dst = call.dst;
  d.sst = call.sst;
  if (call.kind == CollectiveKind::reduce) {
    d.op = static_cast<int>(call.reduction->op);
    if (!device_reduces(d.type))
      fail(ISHMEM_ERR_UNSUPPORTED,
           "%s: reductions on a GPU heap take the device types (not long double or complex)",
           call.fn);
  }
  launch(team, d, lanes_for(rt, team, call), call.launch);
#else
  (void)rt;
  (void)team;
  fail(ISHMEM_ERR_INTERNAL, "%s: a heap the CPU cannot address in a build without GPU kernels",
       call.fn);
#endif
}

void team_sync_on_stream(Runtime &rt, Team &team, void *stream) {
  Launch how{"ishmemx_team_sync_on_stream", stream, true};
#ifdef ISHMEMI_COLLECTIVE_KERNELS
  DeviceCollective d;
  d.team = team.slot;
  d.kind = static_cast<int>(CollectiveKind::sync);
  (void)rt;
  launch(team, d, 1, how);
#else
  (void)rt;
  (void)team;
  fail(ISHMEM_ERR_INTERNAL, "%s: a GPU backend in a build without GPU kernels", how.fn);
#endif
}

}  // namespace ishmem::detail
