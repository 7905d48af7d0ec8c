#include "bootstrap/mpi_bootstrap.h"

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstring>

#include "bootstrap/stall_watch.h"
#include "common/error.h"

namespace ishmem::detail {

std::string read_boot_id() {
  FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
  if (!f) return "";
  char buf[64] = {0};
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = '\0';
  return buf;
}

namespace {

struct PeLocation {
  int node_leader;  // world rank of the node's local rank 0: names the node
  int local_rank;
  int pid;
};

constexpr std::size_t kBootIdLen = 48;

// The PEs of this machine: MPI's shared-memory group, confirmed by the kernel's boot id.
MPI_Comm machine_group(MPI_Comm world, int my_pe) {
  MPI_Comm shared;
  ISHMEMI_CHECK_MPI(
      MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, my_pe, MPI_INFO_NULL, &shared));
  // A shared-memory communicator is MPI's guess; the kernel's boot id is proof that the
  // processes run under one kernel and can pass fds to each other.
  int shared_rank = 0, shared_size = 1;
  int rc = MPI_Comm_rank(shared, &shared_rank);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_size(shared, &shared_size);
  std::vector<char> ids(kBootIdLen * shared_size);
  char mine[kBootIdLen] = {0};
  std::string boot = read_boot_id();
  snprintf(mine, sizeof mine, "%s", boot.empty() ? "unknown" : boot.c_str());
  if (rc == MPI_SUCCESS)
    rc = MPI_Allgather(mine, kBootIdLen, MPI_CHAR, ids.data(), kBootIdLen, MPI_CHAR, shared);
  int color = shared_rank;
  for (int r = 0; r < shared_size && rc == MPI_SUCCESS; ++r)
    if (strncmp(&ids[r * kBootIdLen], mine, kBootIdLen) == 0) {
      color = r;
      break;
    }
  if (rc == MPI_SUCCESS && color != 0)
    log(LogLevel::warn, "MPI put PEs of different machines (boot ids) in one node group");
  MPI_Comm machine = MPI_COMM_NULL;
  if (rc == MPI_SUCCESS) rc = MPI_Comm_split(shared, color, shared_rank, &machine);
  MPI_Comm_free(&shared);
  ISHMEMI_CHECK_MPI(rc);
  return machine;
}

}  // namespace

MpiBootstrap::MpiBootstrap(MPI_Comm user_comm, int max_local_pes) {
  ISHMEMI_CHECK_MPI(MPI_Comm_dup(user_comm, &world_));
  MPI_Comm machine = MPI_COMM_NULL;
  try {
    // Errors come back as codes, so that a failure becomes an ishmem error, not an abort.
    ISHMEMI_CHECK_MPI(MPI_Comm_set_errhandler(world_, MPI_ERRORS_RETURN));
    ISHMEMI_CHECK_MPI(MPI_Comm_rank(world_, &topo_.my_pe));
    ISHMEMI_CHECK_MPI(MPI_Comm_size(world_, &topo_.n_pes));
    set_log_pe(topo_.my_pe);

    machine = machine_group(world_, topo_.my_pe);
    ISHMEMI_CHECK_MPI(MPI_Comm_rank(machine, &topo_.device_rank));
    int machine_size = 0;
    ISHMEMI_CHECK_MPI(MPI_Comm_size(machine, &machine_size));
    topo_.one_machine = machine_size == topo_.n_pes;
    // Split mode: groups of `max_local_pes` consecutive PEs of the machine, each a node of its
    // own, so that one machine exercises the off-node paths (docs/MULTI_NODE.md).
    const int group = max_local_pes > 0 ? topo_.device_rank / max_local_pes : 0;
    ISHMEMI_CHECK_MPI(MPI_Comm_split(machine, group, topo_.device_rank, &node_));
    ISHMEMI_CHECK_MPI(MPI_Comm_free(&machine));
    ISHMEMI_CHECK_MPI(MPI_Comm_set_errhandler(node_, MPI_ERRORS_RETURN));
    ISHMEMI_CHECK_MPI(MPI_Comm_rank(node_, &topo_.local_rank));
    ISHMEMI_CHECK_MPI(MPI_Comm_size(node_, &topo_.n_local));

    int leader = topo_.my_pe;
    ISHMEMI_CHECK_MPI(MPI_Bcast(&leader, 1, MPI_INT, 0, node_));
    PeLocation mine{leader, topo_.local_rank, static_cast<int>(getpid())};
    std::vector<PeLocation> all(topo_.n_pes);
    allgather(&mine, all.data(), sizeof mine, false);
    topo_.pe_slot.assign(topo_.n_pes, -1);
    topo_.node_leader.resize(topo_.n_pes);
    topo_.local_pes.assign(topo_.n_local, -1);
    topo_.local_pids.assign(topo_.n_local, 0);
    topo_.n_nodes = 0;
    for (int pe = 0; pe < topo_.n_pes; ++pe) {
      if (all[pe].node_leader == pe) ++topo_.n_nodes;
      topo_.node_leader[pe] = all[pe].node_leader;
      if (all[pe].node_leader != leader) continue;
      int slot = all[pe].local_rank;
      if (slot < 0 || slot >= topo_.n_local || topo_.local_pes[slot] != -1)
        fail(ISHMEM_ERR_INTERNAL, "inconsistent node-local ranks from MPI (pe %d slot %d)", pe,
             slot);
      topo_.pe_slot[pe] = slot;
      topo_.local_pes[slot] = pe;
      topo_.local_pids[slot] = all[pe].pid;
    }
  } catch (...) {
    if (machine != MPI_COMM_NULL) MPI_Comm_free(&machine);
    if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
    MPI_Comm_free(&world_);
    throw;
  }
}

MpiBootstrap::~MpiBootstrap() {
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
  if (world_ != MPI_COMM_NULL) MPI_Comm_free(&world_);
}

void MpiBootstrap::allgather(const void *mine, void *all, std::size_t bytes, bool node_only) const {
  if (bytes > INT_MAX) fail(ISHMEM_ERR_INTERNAL, "allgather of %zu bytes", bytes);
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Iallgather(mine, static_cast<int>(bytes), MPI_BYTE, all,
                                   static_cast<int>(bytes), MPI_BYTE, node_only ? node_ : world_,
                                   &req));
  watch_complete(req, "MPI_Iallgather");
}

void MpiBootstrap::broadcast(void *buf, std::size_t bytes, int root) const {
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Ibcast(buf, static_cast<int>(bytes), MPI_BYTE, root, world_, &req));
  watch_complete(req, "MPI_Ibcast");
}

}  // namespace ishmem::detail
