// Whether the PEs of other nodes still run. In a job that spans nodes every PE holds a TCP
// connection to the next PE in world order and one from the previous, watched by a thread
// that sleeps in poll() until one of them changes. A PE whose process ends without
// ishmem_finalize (killed, crashed, its node's processes gone) has its sockets closed by the
// kernel, and a machine that vanishes stops answering TCP keepalives. Its neighbour then
// reports it, naming the PEs of its node, and aborts the job: a PE blocked in an operation on
// a dead PE (an MPI RMA call, a served request, a collective) would otherwise never return,
// since MPI has no way to tell it. Any set of dead PEs short of all of them has a live
// neighbour, so two connections and one sleeping thread per PE cover every failure at any
// scale (docs/MULTI_NODE.md, "A lost node").
#pragma once

#include "ishmem.h"  // brings in mpi.h without the C++ bindings

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "bootstrap/fd_channel.h"

namespace ishmem::detail {

class MpiBootstrap;

class LivenessRing {
 public:
  // Collective over the bootstrap's world: connects to both neighbours within `timeout_s`
  // and starts watching them, unarmed: until arm(), a neighbour that closes its connection
  // (as every PE does when setup fails) is only dropped. Throws Error.
  LivenessRing(const MpiBootstrap &boot, double timeout_s);
  // Stops watching without a word to the neighbours.
  ~LivenessRing();
  LivenessRing(const LivenessRing &) = delete;
  LivenessRing &operator=(const LivenessRing &) = delete;

  // Setup is done: from here on a neighbour that ends without leave() aborts the job.
  void arm() { armed_.store(true, std::memory_order_release); }
  // An orderly end, past finalize's barrier: tells both neighbours, then stops watching.
  void leave();

 private:
  struct Neighbour {
    int pe = -1;
    int pid = 0;
    std::string host;
    UniqueFd sock;
  };
  void watch();
  // Sends `what` and a status byte (the job's exit status, for kAbort) to both neighbours.
  void tell_neighbours(char what, int status = 0);
  void report_lost(const Neighbour &who, int err);
  void end_job(int status);  // passes the abort on and aborts with `status`
  void stop();

  friend void liveness_announce_abort(int status);

  MPI_Comm world_;
  int keepalive_s_ = 0;           // how long a vanished machine goes unnoticed, at most
  std::vector<int> node_leader_;  // of every PE: names the lost PE's node-mates
  Neighbour next_, prev_;         // next_ is the PE this one connected to
  UniqueFd wake_;                 // an eventfd: stop() ends the watch
  std::atomic<bool> armed_{false};
  std::atomic<bool> aborting_{false};  // this PE ends the job: its peers' ends are due
  std::thread thread_;
};

// This PE is about to abort the job itself (ishmem_global_exit, an expired deadline): tells
// its neighbours, which abort too and pass it on (a launcher that keeps the survivors of a
// dead PE, as under orte_enable_recovery, ends only the PE that called MPI_Abort), and stops
// reporting its own. Every PE that hears it aborts with the same `status` (the job's exit
// status, as the shell sees it: status & 0xff). Safe without a ring and from any thread.
void liveness_announce_abort(int status);

}  // namespace ishmem::detail
