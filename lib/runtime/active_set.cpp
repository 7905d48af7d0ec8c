#include "runtime/active_set.h"

#include <cstdio>
#include <string>
#include <vector>

#include "bootstrap/stall_watch.h"
#include "runtime/collectives.h"
#include "runtime/runtime.h"

namespace ishmem::detail {
namespace {

// World-communicator tags of the meeting before MPI_Comm_create_group and of the creation.
constexpr int kArriveTag = 0x15a0, kAnswerTag = 0x15a1, kCreateTag = 0x15a2;

std::string describe(const ActiveSet &set) {
  char text[96];
  snprintf(text, sizeof text, "(PE_start %d, logPE_stride %d, PE_size %d)", set.start,
           set.log_stride, set.size);
  return text;
}

// The set's members as world PEs, after checking that it lies in [0, n_pes) and holds `me`.
std::vector<int> members_of(const ActiveSet &set, int me, int n_pes, const char *fn) {
  if (set.start < 0 || set.log_stride < 0 || set.log_stride > 30 || set.size < 1)
    fail(ISHMEM_ERR_INVALID_ARG,
         "%s: %s is no active set: PE_start must be >= 0, logPE_stride in [0, 30], PE_size >= 1",
         fn, describe(set).c_str());
  const long long stride = 1LL << set.log_stride;
  const long long last = set.start + (set.size - 1LL) * stride;
  if (last >= n_pes)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: the active set %s reaches PE %lld, past the last PE %d", fn,
         describe(set).c_str(), last, n_pes - 1);
  const long long offset = me - static_cast<long long>(set.start);
  if (offset < 0 || offset % stride != 0 || offset / stride >= set.size)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: PE %d is not in the active set %s", fn, me,
         describe(set).c_str());
  std::vector<int> members(static_cast<std::size_t>(set.size));
  for (int i = 0; i < set.size; ++i) members[i] = static_cast<int>(set.start + i * stride);
  return members;
}

// MPI_Comm_create_group blocks with no deadline, so the members first meet at the set's
// first member, which answers once every member has arrived naming the same set: the
// creation starts only when all are there, and a missing member is reported past the
// collective deadline instead of hanging the job.
void meet(MPI_Comm world, const std::vector<int> &members, int my_index, const ActiveSet &set,
          const char *fn) {
  const int mine[3] = {set.start, set.log_stride, set.size};
  int odd_pe = -1;  // the first member that named another set
  MPI_Request req;
  if (my_index == 0) {
    for (std::size_t j = 1; j < members.size(); ++j) {
      int theirs[3];
      ISHMEMI_CHECK_MPI(MPI_Irecv(theirs, 3, MPI_INT, members[j], kArriveTag, world, &req));
      watch_complete(req, "MPI_Irecv");
      if (odd_pe < 0 && (theirs[0] != mine[0] || theirs[1] != mine[1] || theirs[2] != mine[2]))
        odd_pe = members[j];
    }
    for (std::size_t j = 1; j < members.size(); ++j) {
      ISHMEMI_CHECK_MPI(MPI_Isend(&odd_pe, 1, MPI_INT, members[j], kAnswerTag, world, &req));
      watch_complete(req, "MPI_Isend");
    }
  } else {
    ISHMEMI_CHECK_MPI(MPI_Isend(mine, 3, MPI_INT, members[0], kArriveTag, world, &req));
    watch_complete(req, "MPI_Isend");
    ISHMEMI_CHECK_MPI(MPI_Irecv(&odd_pe, 1, MPI_INT, members[0], kAnswerTag, world, &req));
    watch_complete(req, "MPI_Irecv");
  }
  if (odd_pe >= 0)
    fail(ISHMEM_ERR_MISMATCH, "%s: PE %d named an active set other than %s at this call", fn,
         odd_pe, describe(set).c_str());
}

// A communicator of `members` (world ranks), collective over them alone.
MPI_Comm create_comm(MPI_Comm world, const std::vector<int> &members) {
  MPI_Group world_group, group;
  ISHMEMI_CHECK_MPI(MPI_Comm_group(world, &world_group));
  const int incl =
      MPI_Group_incl(world_group, static_cast<int>(members.size()), members.data(), &group);
  ISHMEMI_CHECK_MPI(MPI_Group_free(&world_group));
  if (incl != MPI_SUCCESS) fail_mpi(incl, "MPI_Group_incl", __FILE__, __LINE__);
  MPI_Comm comm = MPI_COMM_NULL;
  const int created = MPI_Comm_create_group(world, group, kCreateTag, &comm);
  ISHMEMI_CHECK_MPI(MPI_Group_free(&group));
  if (created != MPI_SUCCESS) fail_mpi(created, "MPI_Comm_create_group", __FILE__, __LINE__);
  return comm;
}

}  // namespace

Team &ActiveSets::get(Runtime &rt, const ActiveSet &set, const char *fn) {
  const Topology &topo = rt.boot->topology();
  const bool world = set.start == 0 && set.log_stride == 0 && set.size == topo.n_pes;
  if (world && world_met_.load(std::memory_order_acquire))
    return team_of(rt, ISHMEM_TEAM_WORLD, fn);
  std::vector<int> members = members_of(set, topo.my_pe, topo.n_pes, fn);
  const std::lock_guard<std::mutex> lock(mutex_);
  const int my_index = (topo.my_pe - set.start) >> set.log_stride;
  if (world) {
    if (!world_met_.load(std::memory_order_relaxed)) {
      meet(rt.boot->world(), members, my_index, set, fn);
      world_met_.store(true, std::memory_order_release);
    }
    return team_of(rt, ISHMEM_TEAM_WORLD, fn);
  }
  std::unique_ptr<Team> &known = sets_[{set.start, set.log_stride, set.size}];
  if (known) return *known;
  meet(rt.boot->world(), members, my_index, set, fn);
  auto team = std::make_unique<Team>();
  team->comm = create_comm(rt.boot->world(), members);  // the Team frees it from here on
  // Errors come back as codes, so that a failure becomes an ishmem error, not an abort.
  ISHMEMI_CHECK_MPI(MPI_Comm_set_errhandler(team->comm, MPI_ERRORS_RETURN));
  team->members = std::move(members);
  team->my_index = my_index;
  known = std::move(team);
  return *known;
}

void check_host_buffer(const void *p, std::size_t bytes, const char *fn, const char *what) {
  if (g_fast.host_access || bytes == 0) return;
  const char *c = static_cast<const char *>(p);
  const char *heap = g_rt->heap->window();  // from its start: the library's area included
  const std::size_t window = g_fast.stride * static_cast<std::size_t>(g_fast.n_local);
  if (c + bytes > heap && c < heap + window)
    fail(ISHMEM_ERR_UNSUPPORTED,
         "%s: %s is in the %s heap, which the CPU cannot address; the calls over active sets "
         "take host memory (the team collectives take the heap)",
         fn, what, ishmemx_backend_name());
}

void run_over_set(Runtime &rt, Team &set, CollectiveCall call, const FirstError &checks) {
  if (!checks.ok()) {
    CollectiveCall rejected;
    rejected.kind = CollectiveKind::rejected;
    rejected.fn = call.fn;
    kMpiCollectives.rejected(rt, set, rejected);
    checks.rethrow();
  }
  call.heap_dest = false;
  switch (call.kind) {
    case CollectiveKind::broadcast:
      return kMpiCollectives.broadcast(rt, set, call);
    case CollectiveKind::collect:
    case CollectiveKind::fcollect:
      return kMpiCollectives.collect(rt, set, call);
    case CollectiveKind::alltoall:
    case CollectiveKind::alltoalls:
      return kMpiCollectives.alltoall(rt, set, call);
    default:
      return kMpiCollectives.reduce(rt, set, call);
  }
}

}  // namespace ishmem::detail
