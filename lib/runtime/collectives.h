// The collectives on teams (broadcast, collect, fcollect, alltoall, alltoalls, reductions),
// host-initiated and blocking. Node-local teams on a CPU-addressable heap move the data
// through the peers' mappings (collectives_node.cpp); teams that span nodes combine that
// inside each node with MPI between the nodes' leaders (team_hierarchy.cpp); buffers outside
// the heap use MPI's collectives on the team's communicator (collectives_mpi.cpp).
// docs/COLLECTIVES.md describes them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/error.h"
#include "runtime/reduce_ops.h"
#include "runtime/runtime.h"
#include "runtime/team.h"

namespace ishmem::detail {

enum class CollectiveKind : std::uint8_t {
  none = 0,
  broadcast,
  collect,
  fcollect,
  alltoall,
  alltoalls,
  reduce,
  rejected,  // this PE's argument checks failed: the others fail with it
  sync,      // team_sync, as kernels post it to the device proxy (ishmem/detail/team_call.h)
};

// How a call was made: its API name, and the stream of a stream-ordered form.
struct Launch {
  const char *fn = "";
  void *stream = nullptr;
  bool on_stream = false;
};

// One call, as the entry point describes it. Counts are in elements of `type` (bytes for
// the _mem forms); `root` is a team index; strides (alltoalls) are in elements.
struct CollectiveCall {
  CollectiveKind kind = CollectiveKind::none;
  ElementType type{1, ElementKind::bytes};
  const Reduction *reduction = nullptr;  // reduce only
  void *dest = nullptr;
  const void *source = nullptr;
  std::size_t nelems = 0;
  int root = 0;
  std::ptrdiff_t dst = 1, sst = 1;
  // dest and source are symmetric heap memory, whose room for a collect is checked; false for
  // the active-set calls, whose buffers are the caller's own memory, and for team calls on
  // the program's static data: both run on the MPI path.
  bool heap_dest = true;
  const char *fn = "";
  Launch launch;
};

// What every PE publishes of its call, and compares with the others' before any data moves.
struct CallRecord {
  std::uint64_t what;    // kind | reduce op << 8 | element type code << 16
  std::uint64_t nelems;  // collect: this PE's count (the counts may differ)
  std::uint64_t root;
  std::uint64_t strides;  // alltoalls: dst << 32 | sst (as 32-bit words)
};
CallRecord record_of(const CollectiveCall &call);
// True if neither call was rejected and `a` is the same call as `b` (collect: any counts).
bool records_agree(const CallRecord &a, const CallRecord &b);
// Throws ISHMEM_ERR_MISMATCH naming each PE's call unless the records of the team's members
// (all[index]) agree; a member that rejected its arguments is named as such.
void compare_records(const Team &team, const CallRecord *all, const char *fn);

// Runs `call` on `team`, collective over its members. `checks` holds the outcome of this
// PE's argument checks: when they failed the PE still takes part in the call's first
// exchange (on node-local teams always, elsewhere under ISHMEM_DEBUG=1), so that the other
// PEs fail with ISHMEM_ERR_MISMATCH instead of waiting, then rethrows its own error.
void run_collective(Runtime &rt, Team &team, const CollectiveCall &call, const FirstError &checks);

// The algorithms of one path, node-local or MPI, each collective over the team's members.
// `rejected` takes part in the first exchange for a PE whose checks failed.
struct CollectivePath {
  using Algorithm = void (*)(Runtime &rt, Team &team, const CollectiveCall &call);
  Algorithm broadcast, collect, alltoall, reduce, rejected;  // collect and alltoall: the
                                                             // f and s forms too
};
extern const CollectivePath kNodeCollectives;  // collectives_node.cpp
extern const CollectivePath kMpiCollectives;   // collectives_mpi.cpp
// The same MPI algorithms without ISHMEM_DEBUG=1's comparison of the calls: the leaders' step
// of kHierCollectives, which compares over the whole team first.
extern const CollectivePath kMpiSteps;
// Teams that span nodes, on a host heap: node-local shared memory inside each node, MPI
// between the nodes' leaders (team_hierarchy.cpp).
extern const CollectivePath kHierCollectives;
// Host calls on a GPU heap of teams that span nodes: the MPI algorithms on host copies
// (collectives_staged.cpp).
extern const CollectivePath kStagedCollectives;

// A collective a kernel called on a team that spans nodes, as the device proxy's thread runs
// it (proxied_collectives.cpp) on the team's `proxied` twin: the members' calls are compared
// first, always (for team_sync, that is all), then the staged algorithm runs on host copies
// (collectives_staged.cpp).
void run_proxied_collective(Runtime &rt, Team &team, const CollectiveCall &call);

// ISHMEM_DEBUG=1's check on the MPI paths: every member's record, gathered over the team's
// communicator; throws ISHMEM_ERR_MISMATCH on every member unless they agree.
void compare_over_mpi(Team &team, const CollectiveCall &call);

// Throws ISHMEM_ERR_NOT_SYMMETRIC unless the heap holds `total` bytes from collect's dest
// (checked for this PE's own part only before the counts were known).
void check_collect_room(const CollectiveCall &call, std::size_t total);

// Element copies between strided arrays (strides and size in bytes).
void copy_strided(char *dest, std::ptrdiff_t dest_stride, const char *source,
                  std::ptrdiff_t source_stride, std::size_t count, std::size_t size);

}  // namespace ishmem::detail
