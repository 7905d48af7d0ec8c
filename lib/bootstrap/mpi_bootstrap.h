// The MPI side of bootstrap: a private duplicate of the user's communicator, the node-local
// group (MPI_COMM_TYPE_SHARED, confirmed by boot_id) and the few collectives setup needs.
#pragma once

#include "ishmem.h"  // brings in mpi.h without the C++ bindings

#include <cstddef>
#include <string>
#include <vector>

namespace ishmem::detail {

struct Topology {
  int my_pe = -1;
  int n_pes = 0;
  int local_rank = 0;   // this PE's slot in the node-local heap window
  int n_local = 1;      // PEs sharing this node (and mapping each other's heaps)
  int device_rank = 0;  // rank among the PEs of this machine, split mode or not: picks the GPU
  int n_nodes = 1;
  // Every PE runs on this machine and in MPI's shared-memory group (split mode), so MPI's
  // one-sided calls between ishmem's nodes go through shared memory, not a network.
  bool one_machine = true;
  std::vector<int> pe_slot;      // slot of every PE, -1 for PEs on other nodes
  std::vector<int> node_leader;  // of every PE: the first PE of its node, which names the node
  std::vector<int> local_pes;    // PE of every slot
  std::vector<int> local_pids;   // process id of every slot
};

class MpiBootstrap {
 public:
  // Duplicates `user_comm`. `max_local_pes` > 0 caps a node at that many consecutive PEs of a
  // machine (ISHMEM_MAX_LOCAL_PES, split mode; 1: every PE its own node); 0: no cap.
  MpiBootstrap(MPI_Comm user_comm, int max_local_pes);
  ~MpiBootstrap();
  MpiBootstrap(const MpiBootstrap &) = delete;
  MpiBootstrap &operator=(const MpiBootstrap &) = delete;

  const Topology &topology() const { return topo_; }
  MPI_Comm world() const { return world_; }
  MPI_Comm node() const { return node_; }

  // Byte-wise allgather over the world or the node, and broadcast over the world; both
  // within the deadline of bootstrap/stall_watch.h.
  void allgather(const void *mine, void *all, std::size_t bytes, bool node_only) const;
  void broadcast(void *buf, std::size_t bytes, int root) const;

 private:
  MPI_Comm world_ = MPI_COMM_NULL;
  MPI_Comm node_ = MPI_COMM_NULL;
  Topology topo_;
};

// This machine's boot id (/proc/sys/kernel/random/boot_id), or "" if it cannot be read.
std::string read_boot_id();

}  // namespace ishmem::detail
