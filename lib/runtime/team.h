// Teams: the per-PE table of ISHMEM_MAX_TEAMS slots, WORLD (slot 0) and SHARED (slot 1)
// built at init, and what the collectives need of a team: its members as world PEs, its
// communicator, its collective area in the symmetric heap and its barrier (team_sync).
// Splits and destroy (team_split.cpp) agree on slots over the parent's communicator.
#pragma once

#include "ishmem.h"  // brings in mpi.h without the C++ bindings

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace ishmem::detail {

struct Runtime;

// The team-sync words at the start of a PE's area. They are zero in a fresh or reused slot.
constexpr std::size_t kTeamSyncBytes = 4096;

struct Team {
  std::vector<int> members;       // world PE of each team index (in split order)
  int my_index = -1;              // this PE's index in the team
  int slot = -1;                  // its ishmem_team_t, the same on every member
  MPI_Comm comm = MPI_COMM_NULL;  // the members, ranked by team index (world, shared: dups)
  bool node_local = false;        // every member is on this node: its heap is mapped here
  // This PE's collective area (symmetric heap memory; the same offset on every PE):
  // kTeamSyncBytes of team-sync words, then the collectives' scratch (Config
  // collective_scratch bytes). A peer's copy: peer_address(rt, area, pe). Zero when the team
  // is made: destroy zeroes it again once no member can still read it.
  char *area = nullptr;
  // Member i's heap base as mapped here (nullptr off the node): a peer's copy of symmetric p
  // is heaps[i] + (p - this PE's base), without peer_address's lookups on every access.
  std::vector<char *> heaps;
  std::uint64_t calls = 0;       // collective calls this PE made on the team (sequence numbers)
  std::uint64_t sync_epoch = 0;  // team_sync calls over the area's words
  // The last team_sync call's name and its hash: a repeated call hashes nothing.
  const char *sync_name = nullptr;
  std::uint64_t sync_hash = 0;
  ishmem_team_config_t config{};
  long config_mask = 0;
  // A team of a host heap whose members span nodes runs its barrier and most collectives in
  // two levels (team_hierarchy.cpp): `node`, its members on this node (a node-local team over
  // this team's area; its first member leads the node), and on each node's leader `leaders`,
  // one member per node, ranked by team index. node_of[i] is member i's node, as its leader's
  // rank in `leaders`. All empty for other teams.
  std::unique_ptr<Team> node;
  std::unique_ptr<Team> leaders;
  std::vector<int> node_of;
  // A team of a GPU heap whose members span nodes: its members again, on a duplicate of comm,
  // where the device proxy's thread runs the collectives that kernels call on this team
  // (device_proxy.cpp), beside the program's host calls on comm. Null for other teams.
  std::unique_ptr<Team> proxied;

  Team() = default;
  Team(const Team &) = delete;
  Team &operator=(const Team &) = delete;
  ~Team();  // frees comm, logging a failure

  int world_pe(int index) const { return members[index]; }
  // Member `index`'s copy of this PE's symmetric `p` (node-local teams).
  template <class T>
  T *peer(T *p, int index) const {
    using Byte = std::conditional_t<std::is_const_v<T>, const char, char>;
    return reinterpret_cast<T *>(heaps[index] + (reinterpret_cast<Byte *>(p) - heaps[my_index]));
  }
  int n_pes() const { return static_cast<int>(members.size()); }
  // The index of world PE `pe`, or -1 if it is not a member.
  int index_of(int pe) const;
};

// The team table of this PE. One heap block holds the areas of every slot.
struct Teams {
  std::vector<std::unique_ptr<Team>> slots;  // ISHMEM_MAX_TEAMS entries; null: free here
  char *areas = nullptr;                     // slot s's area at areas + s * area_bytes
  std::size_t area_bytes = 0;                // kTeamSyncBytes + scratch, rounded to a page
  bool host_heap = false;  // the CPU may load and store the heap (the node-local team_sync)

  char *area(int slot) const { return areas + area_bytes * static_cast<std::size_t>(slot); }
  Team *find(ishmem_team_t team) const {
    return team >= 0 && team < static_cast<int>(slots.size()) ? slots[team].get() : nullptr;
  }
};

// Puts a new team of `members` in `slot` of this PE's table, `comm` (ranked by team index)
// with it, which it owns from here on, even when it throws.
Team &add_team(Runtime &rt, int slot, std::vector<int> members, int my_index, MPI_Comm comm);
// Fails every member with ISHMEM_ERR_MISMATCH naming each member's call (names[index]),
// grouped: "PEs 0,2 called A; PE 1 called B". `what` names the call that found it.
[[noreturn]] void report_calls(const Team &team, const char *what,
                               const std::vector<std::string> &names);

// Collective over every PE, during ishmem_init once the heap is built: takes the areas'
// block from the heap and builds WORLD and SHARED in rt.teams. Throws Error.
void teams_init(Runtime &rt);

// The team `team` names, for API function `fn`: throws Error(ISHMEM_ERR_INVALID_ARG, naming
// fn and the handle) for ISHMEM_TEAM_INVALID, an out-of-range or a destroyed team, or one this
// PE is not in.
Team &team_of(Runtime &rt, ishmem_team_t team, const char *fn);
// The address of symmetric `p` (heap memory mapped on this node) on world PE `pe`; nullptr
// when `pe` is on another node.
char *peer_address(const Runtime &rt, const void *p, int pe);
// Barrier over the team's members, with the deadline of every collective wait; the node-local
// form (a host heap) meets in the team's sync words, the others use an MPI_Iallreduce on comm
// + watch_complete. Every member also compares `what`, the call: members in different calls
// fail with ISHMEM_ERR_MISMATCH, each naming every member's call.
void team_sync(Runtime &rt, Team &team, const char *what);
// The MPI form of team_sync, whatever the team.
void team_sync_over_mpi(Team &team, const char *what);
// Collective over the members of a team that spans nodes, when it is made: builds team.node,
// team.leaders and team.node_of. Throws Error.
void build_hierarchy(const Runtime &rt, Team &team);

// Splits and destroy (team_split.cpp), collective over the parent's (the team's) members;
// each throws the same Error on every member, after which its outputs are
// ISHMEM_TEAM_INVALID. A member not in a new team gets ISHMEM_TEAM_INVALID. Output pointers
// are checked with the other arguments, on every member at once.
void team_split_strided(Runtime &rt, Team &parent, int start, int stride, int size,
                        const ishmem_team_config_t *config, long config_mask,
                        ishmem_team_t *new_team);
void team_split_2d(Runtime &rt, Team &parent, int xrange, const ishmem_team_config_t *x_config,
                   long x_mask, ishmem_team_t *x_team, const ishmem_team_config_t *y_config,
                   long y_mask, ishmem_team_t *y_team);
// Frees the team's slot and communicator after a barrier of its members; WORLD and SHARED
// are refused.
void team_destroy(Runtime &rt, Team &team);

}  // namespace ishmem::detail
