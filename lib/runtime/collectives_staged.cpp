// Collectives on a GPU heap whose team spans nodes, host calls and (through the device proxy)
// kernels' calls: each PE copies its part of the heap to host memory, the team runs the MPI
// algorithms there, and each PE copies the result back. MPI is given host memory only
// (docs/OFF_NODE.md: GPU-aware MPI is not assumed). The device algorithm cannot serve these
// teams: it reads the other members' heaps directly.
#include <cstdint>
#include <vector>

#include "bootstrap/stall_watch.h"
#include "runtime/collectives.h"
#include "runtime/runtime.h"

namespace ishmem::detail {
namespace {

std::vector<char> load(Runtime &rt, const void *gpu, std::size_t bytes) {
  std::vector<char> host(bytes);
  if (bytes) rt.backend->copy(host.data(), gpu, bytes);
  return host;
}

// Kernels' buffers reach here unchecked (host calls checked theirs): [p, p + bytes) must lie
// in this PE's heap.
void check_in_heap(const CollectiveCall &call, const void *p, std::size_t bytes, const char *what) {
  const auto offset = static_cast<std::size_t>(static_cast<const char *>(p) - g_fast.local_base);
  if (bytes && (offset > g_fast.committed || bytes > g_fast.committed - offset))
    fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s: %s (%zu bytes at %p) is not in the symmetric heap", call.fn,
         what, bytes, p);
}

// Every member learns whether each could stage its part, so that none waits in MPI for one
// that left: one MPI_Iallreduce (MINLOC of the status and the team index). A member that
// failed throws its own error, the others the lowest status and the first member with it.
void agree_staged(Team &team, const CollectiveCall &call, const FirstError &mine) {
  struct {
    int code, index;
  } in{mine.code(), team.my_index}, out{};
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Iallreduce(&in, &out, 1, MPI_2INT, MPI_MINLOC, team.comm, &req));
  watch_complete(req, "MPI_Iallreduce");
  mine.rethrow();
  if (out.code != ISHMEM_SUCCESS)
    fail(out.code, "%s: PE %d of the team could not stage its part of the call", call.fn,
         team.world_pe(out.index));
}

// Runs `algorithm` (kMpiSteps) on host copies of `source_bytes` of the source and `dest_bytes`
// of dest (dest read first when the call leaves parts of it alone), then writes dest back.
void staged(Runtime &rt, Team &team, const CollectiveCall &call,
            CollectivePath::Algorithm algorithm, std::size_t source_bytes, std::size_t dest_bytes,
            bool dest_in) {
  const bool in_place = call.dest == call.source;
  std::vector<char> dest, source;
  FirstError loaded;
  loaded.attempt([&] {
    check_in_heap(call, call.dest, dest_bytes, "dest");
    if (!in_place) check_in_heap(call, call.source, source_bytes, "source");
    dest = dest_in || in_place ? load(rt, call.dest, dest_bytes) : std::vector<char>(dest_bytes);
    if (!in_place) source = load(rt, call.source, source_bytes);
  });
  agree_staged(team, call, loaded);
  CollectiveCall host = call;
  host.dest = dest.data();
  host.source = in_place ? dest.data() : source.data();
  host.heap_dest = false;
  algorithm(rt, team, host);
  if (dest_bytes) rt.backend->copy(call.dest, dest.data(), dest_bytes);
}

// What the MPI path's over_mpi does first: under ISHMEM_DEBUG=1 every member's call is
// compared before any data moves.
std::size_t begin(Runtime &rt, Team &team, const CollectiveCall &call) {
  if (rt.config.debug == "1") compare_over_mpi(team, call);
  return call.nelems * call.type.size;
}

void broadcast(Runtime &rt, Team &team, const CollectiveCall &call) {
  const std::size_t bytes = begin(rt, team, call);
  staged(rt, team, call, kMpiSteps.broadcast, team.my_index == call.root ? bytes : 0, bytes, false);
}

void collect(Runtime &rt, Team &team, const CollectiveCall &call) {
  const std::size_t bytes = begin(rt, team, call);
  std::size_t total = bytes * static_cast<std::size_t>(team.n_pes());
  if (call.kind == CollectiveKind::collect) {  // the counts may differ: their sum sizes dest
    unsigned long long mine = bytes, sum = 0;
    MPI_Request req;
    ISHMEMI_CHECK_MPI(
        MPI_Iallreduce(&mine, &sum, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, team.comm, &req));
    watch_complete(req, "MPI_Iallreduce");
    total = sum;
    check_collect_room(call, total);
  }
  staged(rt, team, call, kMpiSteps.collect, bytes, total, false);
}

void alltoall(Runtime &rt, Team &team, const CollectiveCall &call) {
  const std::size_t bytes = begin(rt, team, call), n = static_cast<std::size_t>(team.n_pes());
  if (call.kind == CollectiveKind::alltoall || call.nelems == 0)
    return staged(rt, team, call, kMpiSteps.alltoall, n * bytes, n * bytes, false);
  // alltoalls: n blocks of nelems elements, strided; the gaps of dest are kept.
  const auto span = [&](std::ptrdiff_t stride) {
    return ((n * call.nelems - 1) * static_cast<std::size_t>(stride) + 1) * call.type.size;
  };
  staged(rt, team, call, kMpiSteps.alltoall, span(call.sst), span(call.dst), true);
}

void reduce(Runtime &rt, Team &team, const CollectiveCall &call) {
  const std::size_t bytes = begin(rt, team, call);
  staged(rt, team, call, kMpiSteps.reduce, bytes, bytes, false);
}

void rejected(Runtime &rt, Team &team, const CollectiveCall &call) {
  kMpiCollectives.rejected(rt, team, call);
}

}  // namespace

const CollectivePath kStagedCollectives = {broadcast, collect, alltoall, reduce, rejected};

void run_proxied_collective(Runtime &rt, Team &team, const CollectiveCall &call) {
  // Always compared: a kernel's rejected arguments reach the other members only so.
  compare_over_mpi(team, call);
  switch (call.kind) {
    case CollectiveKind::broadcast:
      return broadcast(rt, team, call);
    case CollectiveKind::collect:
    case CollectiveKind::fcollect:
      return collect(rt, team, call);
    case CollectiveKind::alltoall:
    case CollectiveKind::alltoalls:
      return alltoall(rt, team, call);
    case CollectiveKind::reduce:
      return reduce(rt, team, call);
    case CollectiveKind::sync:  // the comparison met every member
      return;
    default:
      fail(ISHMEM_ERR_INTERNAL, "%s: no collective of kind %d", call.fn,
           static_cast<int>(call.kind));
  }
}

}  // namespace ishmem::detail
