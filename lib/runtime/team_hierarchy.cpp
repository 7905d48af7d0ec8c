// Teams whose members span nodes, on a host heap: each collective runs in two levels. Inside
// a node the team's members meet in their shared memory (the node-local path of
// collectives_node.cpp, on team.node, over the team's own area); between nodes one leader per
// node (the node's first member in team order) runs MPI's collective on team.leaders; the
// leader's result then spreads inside the node by a node-local broadcast. Barriers do the same
// (team.cpp, sync_across_nodes). docs/COLLECTIVES.md describes which calls take this path.
#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "bootstrap/stall_watch.h"
#include "runtime/collectives.h"

namespace ishmem::detail {
namespace {

std::unique_ptr<Team> subteam(const Team &team, const std::vector<int> &indices, int my_index,
                              MPI_Comm comm) {
  auto sub = std::make_unique<Team>();
  sub->comm = comm;
  if (comm != MPI_COMM_NULL) ISHMEMI_CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
  for (int i : indices) {
    sub->members.push_back(team.members[i]);
    sub->heaps.push_back(team.heaps[i]);
  }
  sub->my_index = my_index;
  sub->slot = team.slot;
  sub->area = team.area;
  return sub;
}

// One call of the node-local path on the node's members, with its own sequence number.
void on_node(Runtime &rt, Team &team, CollectivePath::Algorithm algorithm,
             const CollectiveCall &call) {
  ++team.node->calls;
  algorithm(rt, *team.node, call);
}

// The node's leader holds `bytes` at call.dest: every other member of the node copies them.
void spread(Runtime &rt, Team &team, const CollectiveCall &call, std::size_t bytes) {
  if (team.node->n_pes() == 1) return;
  CollectiveCall down = call;
  down.kind = CollectiveKind::broadcast;
  down.type = ElementType{1, ElementKind::bytes};
  down.reduction = nullptr;
  down.nelems = bytes;
  down.root = 0;
  down.source = call.dest;
  on_node(rt, team, kNodeCollectives.broadcast, down);
}

void broadcast(Runtime &rt, Team &team, const CollectiveCall &call) {
  const int root_here = team.node->index_of(team.world_pe(call.root));
  if (root_here >= 0) {
    CollectiveCall local = call;
    local.root = root_here;
    on_node(rt, team, kNodeCollectives.broadcast, local);
  }
  if (team.leaders) {
    CollectiveCall up = call;
    up.source = call.dest;
    up.root = team.node_of[call.root];
    kMpiSteps.broadcast(rt, *team.leaders, up);
  }
  if (root_here < 0) spread(rt, team, call, call.nelems * call.type.size);
}

// fcollect: the node's contributions gathered in shared memory, the nodes' blocks exchanged
// by the leaders, then the whole result spread. collect (counts that differ, which only an
// extra exchange would tell the leaders) and alltoall (no data to combine: a hierarchy only
// adds copies) keep MPI's algorithm on the whole team.
void collect(Runtime &rt, Team &team, const CollectiveCall &call) {
  const std::size_t bytes = call.nelems * call.type.size;
  const std::size_t total = bytes * static_cast<std::size_t>(team.n_pes());
  if (call.kind == CollectiveKind::collect || total > INT_MAX)
    return kMpiSteps.collect(rt, team, call);
  check_collect_room(call, total);
  char *dest = static_cast<char *>(call.dest);
  // Nodes whose members follow each other in team order (node_of ascending) gather in place.
  const bool in_place = std::is_sorted(team.node_of.begin(), team.node_of.end());
  const int first = team.index_of(team.node->world_pe(0));
  CollectiveCall local = call;
  if (in_place) local.dest = dest + static_cast<std::size_t>(first) * bytes;
  on_node(rt, team, kNodeCollectives.collect, local);
  if (team.leaders) {
    const int n_nodes = team.leaders->n_pes();
    std::vector<int> counts(n_nodes, 0), displs(n_nodes, 0);
    for (int node : team.node_of) counts[node] += static_cast<int>(bytes);
    for (int r = 1; r < n_nodes; ++r) displs[r] = displs[r - 1] + counts[r - 1];
    if (in_place)
      for (int i = team.n_pes() - 1; i >= 0; --i)
        displs[team.node_of[i]] = i * static_cast<int>(bytes);
    std::vector<char> gathered(in_place ? 0 : total);
    MPI_Request req;
    const int mine = counts[team.leaders->my_index];
    ISHMEMI_CHECK_MPI(MPI_Iallgatherv(in_place ? MPI_IN_PLACE : dest, mine, MPI_BYTE,
                                      in_place ? dest : gathered.data(), counts.data(),
                                      displs.data(), MPI_BYTE, team.leaders->comm, &req));
    watch_complete(req, "MPI_Iallgatherv");
    if (!in_place) {  // node r's k-th member in team order is at displs[r] + k * bytes
      std::vector<int> next = displs;
      for (int i = 0; i < team.n_pes(); ++i) {
        int &at = next[team.node_of[i]];
        memcpy(dest + static_cast<std::size_t>(i) * bytes, gathered.data() + at, bytes);
        at += static_cast<int>(bytes);
      }
    }
  }
  spread(rt, team, call, total);
}

void alltoall(Runtime &rt, Team &team, const CollectiveCall &call) {
  kMpiSteps.alltoall(rt, team, call);
}

// The node's members combine their sources in shared memory, the leaders combine the nodes'
// results over MPI, and every member takes its leader's result: the same bits on every PE.
void reduce(Runtime &rt, Team &team, const CollectiveCall &call) {
  on_node(rt, team, kNodeCollectives.reduce, call);
  if (team.leaders) {
    CollectiveCall up = call;
    up.source = call.dest;  // in place
    kMpiSteps.reduce(rt, *team.leaders, up);
  }
  spread(rt, team, call, call.nelems * call.type.size);
}

// Without ISHMEM_DEBUG=1 the other members cannot be told (as on the MPI path).
void rejected(Runtime &, Team &, const CollectiveCall &) {}

// ISHMEM_DEBUG=1: every member's record, compared over the team's communicator first.
template <void (*Algorithm)(Runtime &, Team &, const CollectiveCall &)>
void across_nodes(Runtime &rt, Team &team, const CollectiveCall &call) {
  if (rt.config.debug != "1") return Algorithm(rt, team, call);
  if (call.kind != CollectiveKind::rejected) {
    compare_over_mpi(team, call);
    return Algorithm(rt, team, call);
  }
  try {
    compare_over_mpi(team, call);
  } catch (const Error &) {  // the caller throws this PE's own error
  }
}

}  // namespace

const CollectivePath kHierCollectives = {across_nodes<broadcast>, across_nodes<collect>,
                                         across_nodes<alltoall>, across_nodes<reduce>,
                                         across_nodes<rejected>};

void build_hierarchy(const Runtime &rt, Team &team) {
  const int n = team.n_pes();
  std::vector<int> local;  // the members on this node, in team order; the first leads
  int my_local = -1;
  for (int i = 0; i < n; ++i) {
    if (rt.pe_slot[team.members[i]] < 0) continue;
    if (i == team.my_index) my_local = static_cast<int>(local.size());
    local.push_back(i);
  }
  const int my_leader = local.front();
  std::vector<int> leader_of(n);
  MPI_Request req;
  ISHMEMI_CHECK_MPI(
      MPI_Iallgather(&my_leader, 1, MPI_INT, leader_of.data(), 1, MPI_INT, team.comm, &req));
  watch_complete(req, "MPI_Iallgather");
  std::vector<int> leaders = leader_of;  // ascending: the leaders' ranks (split key: index)
  std::sort(leaders.begin(), leaders.end());
  leaders.erase(std::unique(leaders.begin(), leaders.end()), leaders.end());
  const bool leads = team.my_index == my_leader;
  MPI_Comm comm = MPI_COMM_NULL;
  ISHMEMI_CHECK_MPI(MPI_Comm_split(team.comm, leads ? 0 : MPI_UNDEFINED, team.my_index, &comm));
  team.node_of.resize(n);
  for (int i = 0; i < n; ++i)
    team.node_of[i] = static_cast<int>(
        std::lower_bound(leaders.begin(), leaders.end(), leader_of[i]) - leaders.begin());
  if (leads) team.leaders = subteam(team, leaders, team.node_of[team.my_index], comm);
  team.node = subteam(team, local, my_local, MPI_COMM_NULL);
  team.node->node_local = true;
  if (team.my_index == 0)
    log(LogLevel::info,
        "team %d: %d PEs on %zu nodes: its barrier and collectives meet in each node's memory, "
        "and over MPI between the nodes' first PEs",
        team.slot, n, leaders.size());
}

}  // namespace ishmem::detail
