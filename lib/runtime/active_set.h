// Active sets, the PE groups of OpenSHMEM's deprecated collectives (ishmem/deprecated.h):
// PE_start + i * 2^logPE_stride for i < PE_size. A call over one is collective over its
// members only, so it cannot make a team (a split is collective over the parent); each set
// gets an MPI communicator of its members instead, made by MPI_Comm_create_group (collective
// over the members alone) at its first call and kept until ishmem_finalize. The data moves
// with the MPI path of the team collectives (collectives_mpi.cpp) on that communicator. The
// set of every PE is ISHMEM_TEAM_WORLD instead, whose collectives api/deprecated.cpp runs on
// heap buffers.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "common/error.h"
#include "runtime/team.h"

namespace ishmem::detail {

struct Runtime;
struct CollectiveCall;  // runtime/collectives.h

struct ActiveSet {
  int start, log_stride, size;  // PE_start, logPE_stride, PE_size
};

// The sets this PE has used, each as a Team outside the team table (no slot, no area): its
// members as world PEs, this PE's index and the members' communicator.
class ActiveSets {
 public:
  // The set's Team; the first call over a set makes its communicator, collective over the
  // members. Throws ISHMEM_ERR_INVALID_ARG, naming `fn`, for a set that does not lie in
  // [0, n_pes) or does not hold this PE; ISHMEM_ERR_MISMATCH on every member when some
  // member named another set at this point.
  // The set of every PE (PE_start 0, logPE_stride 0, PE_size n_pes) is ISHMEM_TEAM_WORLD
  // (slot ISHMEM_TEAM_WORLD, its communicator the world's): only its first call meets.
  Team &get(Runtime &rt, const ActiveSet &set, const char *fn);

 private:
  // ISHMEM_THREAD_MULTIPLE: threads of a PE calling over different sets. It is held while a
  // set's communicator is made (the meeting's fixed tags must not mix two sets' messages).
  std::mutex mutex_;
  std::map<std::tuple<int, int, int>, std::unique_ptr<Team>> sets_;
  std::atomic<bool> world_met_{false};  // the members met at the world's first call
};

// Throws ISHMEM_ERR_UNSUPPORTED when [p, p + bytes) lies in a heap the CPU cannot address (a
// GPU heap): MPI is given host memory only.
void check_host_buffer(const void *p, std::size_t bytes, const char *fn, const char *what);

// Runs `call` over the set (broadcast, collect, fcollect, alltoall, alltoalls, reduce on this
// PE's own buffers; a broadcast's root passes its source as dest, which stays unwritten). `checks`
// holds this PE's argument checks: when they failed, the PE still takes part in the comparison of
// the calls made under ISHMEM_DEBUG=1, then rethrows its error.
void run_over_set(Runtime &rt, Team &set, CollectiveCall call, const FirstError &checks);

}  // namespace ishmem::detail
