#include "runtime/team.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>

#include "bootstrap/stall_watch.h"
#include "common/error.h"
#include "common/spin_wait.h"
#include "runtime/runtime.h"

namespace ishmem::detail {
namespace {

constexpr std::size_t kNameBytes = 48;  // of a call's name in the sync words and reports
constexpr std::size_t kAreaAlign = 4096;
constexpr int kMaxPesNamed = 8;

// One PE's team-sync words, at the start of its area. The call of each epoch parity is
// written before the epoch is released: a peer that has passed epoch e cannot reach e + 2,
// and write that parity again, before every member has left e.
struct alignas(64) SyncWords {
  std::atomic<std::uint64_t> epoch;
  std::uint64_t call[2];     // hash of the call's name
  char name[2][kNameBytes];  // the name, for the mismatch report
  // A team spanning nodes: whether the node's leader found the members' calls different
  // (sync_across_nodes). Written before the leader's release, read after it.
  std::uint64_t differ;
};
static_assert(sizeof(SyncWords) <= kTeamSyncBytes, "the sync words fit their part of the area");

SyncWords *sync_words(char *area) {
  return reinterpret_cast<SyncWords *>(area);
}

std::uint64_t name_hash(const char *name) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (const char *c = name; *c; ++c) h = (h ^ static_cast<unsigned char>(*c)) * 1099511628211ull;
  return h;
}

void copy_name(char *dest, const char *name) {
  snprintf(dest, kNameBytes, "%s", name);
}

// "PEs 0,2 called A; PE 1 called B": every member's call, grouped by name.
std::string calls_text(const Team &team, const std::vector<std::string> &names) {
  std::string text;
  std::vector<bool> done(names.size(), false);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (done[i]) continue;
    std::vector<int> pes;
    for (std::size_t j = i; j < names.size(); ++j)
      if (!done[j] && names[j] == names[i]) {
        done[j] = true;
        pes.push_back(team.members[j]);
      }
    text += text.empty() ? "" : "; ";
    text += pes.size() > 1 ? "PEs " : "PE ";
    for (std::size_t k = 0; k < pes.size() && k < kMaxPesNamed; ++k)
      text += (k ? "," : "") + std::to_string(pes[k]);
    if (pes.size() > kMaxPesNamed) text += ",...";
    text += " called " + names[i];
  }
  return text;
}

// Stores this PE's call for the epoch's parity; returns its hash.
std::uint64_t publish_call(Team &team, const char *what, int parity) {
  if (team.sync_name != what) {
    team.sync_hash = name_hash(what);
    team.sync_name = what;
  }
  SyncWords *mine = sync_words(team.area);
  if (mine->call[parity] != team.sync_hash) {  // a repeated call keeps its name: no copy
    mine->call[parity] = team.sync_hash;
    copy_name(mine->name[parity], what);
  }
  return team.sync_hash;
}

// Waits until member `index` of a node-local team reaches `epoch`; returns its words.
const SyncWords *wait_epoch(const Team &team, int index, std::uint64_t epoch,
                            SpinDeadline &deadline) {
  const SyncWords *peer = sync_words(team.peer(team.area, index));
  wait_for(
      [&] { return peer->epoch.load(std::memory_order_acquire) >= epoch; },
      [&] {
        deadline.poll([&](std::vector<int> &pes) {
          for (int i = 0; i < team.n_pes(); ++i)
            if (sync_words(team.peer(team.area, i))->epoch.load(std::memory_order_acquire) < epoch)
              pes.push_back(team.members[i]);
        });
      });
  return peer;
}

// Every member's call, gathered over the team's communicator for one report.
[[noreturn]] void report_over_mpi(Team &team, const char *what) {
  char my_name[kNameBytes] = {0};
  copy_name(my_name, what);
  std::vector<char> all(kNameBytes * team.members.size());
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Iallgather(my_name, kNameBytes, MPI_CHAR, all.data(), kNameBytes, MPI_CHAR,
                                   team.comm, &req));
  watch_complete(req, "MPI_Iallgather");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < team.members.size(); ++i)
    names.emplace_back(&all[i * kNameBytes], strnlen(&all[i * kNameBytes], kNameBytes));
  report_calls(team, what, names);
}

// A bitwise OR over `comm` of the call's hash, its complement and `differ`: true when any
// member's call differs from another's, or any member already saw a difference.
bool calls_differ_over_mpi(MPI_Comm comm, std::uint64_t call, bool differ) {
  std::uint64_t mine[3] = {call, ~call, differ ? 1u : 0u}, any[3] = {0, 0, 0};
  MPI_Request req;
  // Node-local members may still read and write each other's heaps by loads and stores: what
  // this PE stored before the sync is seen by the others after it.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  ISHMEMI_CHECK_MPI(MPI_Iallreduce(mine, any, 3, MPI_UINT64_T, MPI_BOR, comm, &req));
  watch_complete(req, "MPI_Iallreduce");
  std::atomic_thread_fence(std::memory_order_seq_cst);
  return (any[0] & any[1]) != 0 || any[2] != 0;
}

// A team spanning nodes: the node's members arrive in their words (odd epochs), the node's
// leader waits for them and meets the other leaders over MPI, then releases its node (even
// epochs) with the outcome. Members whose calls differ anywhere all fail, naming every call.
void sync_across_nodes(Team &team, const char *what) {
  Team &node = *team.node;
  const std::uint64_t release = node.sync_epoch += 2;
  const int parity = static_cast<int>((release / 2) & 1);
  const std::uint64_t call = publish_call(node, what, parity);
  SyncWords *mine = sync_words(node.area);
  SpinDeadline deadline(what);
  bool differ = false;
  if (node.my_index != 0) {
    mine->epoch.store(release - 1, std::memory_order_release);
    differ = wait_epoch(node, 0, release, deadline)->differ != 0;
  } else {
    for (int i = 1; i < node.n_pes(); ++i)
      differ = wait_epoch(node, i, release - 1, deadline)->call[parity] != call || differ;
    differ = calls_differ_over_mpi(team.leaders->comm, call, differ);
    mine->differ = differ ? 1 : 0;
    mine->epoch.store(release, std::memory_order_release);
  }
  if (differ) report_over_mpi(team, what);
}

void sync_in_area(Team &team, const char *what) {
  const std::uint64_t epoch = ++team.sync_epoch;
  const int parity = static_cast<int>(epoch & 1);
  const std::uint64_t call = publish_call(team, what, parity);
  sync_words(team.area)->epoch.store(epoch, std::memory_order_release);
  SpinDeadline deadline(what);
  bool same = true;
  const int n = team.n_pes();
  for (int step = 1; step < n; ++step)  // from the next member on: arrivals spread out
    same =
        wait_epoch(team, (team.my_index + step) % n, epoch, deadline)->call[parity] == call && same;
  if (same) return;
  std::vector<std::string> names;
  for (int i = 0; i < n; ++i) {
    const SyncWords *w = sync_words(team.peer(team.area, i));
    names.emplace_back(w->name[parity], strnlen(w->name[parity], kNameBytes));
  }
  report_calls(team, what, names);
}

void free_comm(MPI_Comm &comm) {
  if (comm == MPI_COMM_NULL) return;
  int rc = MPI_Comm_free(&comm);
  if (rc != MPI_SUCCESS) log(LogLevel::warn, "MPI_Comm_free of a team's communicator failed");
  comm = MPI_COMM_NULL;
}

}  // namespace

Team::~Team() {
  free_comm(comm);
}

void report_calls(const Team &team, const char *what, const std::vector<std::string> &names) {
  fail(ISHMEM_ERR_MISMATCH, "%s on team %d: its members made different collective calls: %s", what,
       team.slot, calls_text(team, names).c_str());
}

Team &add_team(Runtime &rt, int slot, std::vector<int> members, int my_index, MPI_Comm comm) {
  auto team = std::make_unique<Team>();
  team->comm = comm;
  // Errors come back as codes, so that a failure becomes an ishmem error, not an abort.
  ISHMEMI_CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
  team->members = std::move(members);
  team->my_index = my_index;
  team->slot = slot;
  team->node_local = true;
  for (int pe : team->members) team->node_local = team->node_local && rt.pe_slot[pe] >= 0;
  team->area = rt.teams->area(slot);
  for (int pe : team->members) team->heaps.push_back(peer_address(rt, rt.heap->local_base(), pe));
  if (!team->node_local && rt.teams->host_heap) build_hierarchy(rt, *team);
  if (!team->node_local && !rt.teams->host_heap) {
    auto proxied = std::make_unique<Team>();
    ISHMEMI_CHECK_MPI(MPI_Comm_dup(comm, &proxied->comm));
    proxied->members = team->members;
    proxied->my_index = my_index;
    proxied->slot = slot;
    team->proxied = std::move(proxied);
  }
  rt.teams->slots[slot] = std::move(team);
  return *rt.teams->slots[slot];
}

int Team::index_of(int pe) const {
  for (int i = 0; i < n_pes(); ++i)
    if (members[i] == pe) return i;
  return -1;
}

void teams_init(Runtime &rt) {
  const Config &config = rt.config;
  auto teams = std::make_unique<Teams>();
  teams->area_bytes =
      (kTeamSyncBytes + config.collective_scratch + kAreaAlign - 1) / kAreaAlign * kAreaAlign;
  teams->slots.resize(static_cast<std::size_t>(config.max_teams));
  teams->host_heap = rt.backend->host_accessible();
  // The heap's library area: the same offset on every PE, zero sync words in every backend,
  // and out of reach of the user's calls.
  try {
    std::size_t bytes = 0;
    if (__builtin_mul_overflow(static_cast<std::size_t>(config.max_teams), teams->area_bytes,
                               &bytes))
      bytes = SIZE_MAX;
    teams->areas = rt.heap->library_area(bytes);
  } catch (const Error &e) {
    fail(e.code(),
         "the areas of ISHMEM_MAX_TEAMS=%ld teams (%zu bytes each, with "
         "ISHMEM_COLLECTIVE_SCRATCH=%zu) do not fit the heap: %s",
         config.max_teams, teams->area_bytes, config.collective_scratch, e.what());
  }
  rt.teams = std::move(teams);
  const Topology &topo = rt.boot->topology();
  std::vector<int> world(static_cast<std::size_t>(topo.n_pes));
  for (int pe = 0; pe < topo.n_pes; ++pe) world[pe] = pe;
  MPI_Comm comm = MPI_COMM_NULL;
  ISHMEMI_CHECK_MPI(MPI_Comm_dup(rt.boot->world(), &comm));
  add_team(rt, ISHMEM_TEAM_WORLD, std::move(world), topo.my_pe, comm);
  // The node communicator ranks the node's PEs by world PE, as local_pes lists them.
  ISHMEMI_CHECK_MPI(MPI_Comm_dup(rt.boot->node(), &comm));
  add_team(rt, ISHMEM_TEAM_SHARED, topo.local_pes, topo.local_rank, comm);
}

Team &team_of(Runtime &rt, ishmem_team_t team, const char *fn) {
  Team *found = rt.teams ? rt.teams->find(team) : nullptr;
  if (found) return *found;
  if (team == ISHMEM_TEAM_INVALID)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: team is ISHMEM_TEAM_INVALID", fn);
  fail(ISHMEM_ERR_INVALID_ARG,
       "%s: team %d is not a team of this PE (destroyed, not a member, or outside 0..%ld)", fn,
       team, rt.config.max_teams - 1);
}

char *peer_address(const Runtime &rt, const void *p, int pe) {
  const int slot = rt.pe_slot[pe];
  if (slot < 0) return nullptr;
  const std::size_t offset =
      static_cast<std::size_t>(static_cast<const char *>(p) - rt.heap->local_base());
  return rt.heap->window() + rt.heap->stride() * static_cast<std::size_t>(slot) + offset;
}

void team_sync(Runtime &rt, Team &team, const char *what) {
  if (team.n_pes() == 1) return;
  watch_enter_team(what);  // a PE lost in it is reported in this call
  if (team.node_local && rt.teams->host_heap) return sync_in_area(team, what);
  if (team.node) return sync_across_nodes(team, what);
  team_sync_over_mpi(team, what);
}

void team_sync_over_mpi(Team &team, const char *what) {
  // A bitwise OR of the call's hash and of its complement: both keep a bit only where the
  // members' calls differ. Every member sees the difference: all gather the names.
  if (calls_differ_over_mpi(team.comm, name_hash(what), false)) report_over_mpi(team, what);
}

}  // namespace ishmem::detail
