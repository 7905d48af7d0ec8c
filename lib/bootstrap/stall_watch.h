// Deadlines of the collective waits. Every wait for other PEs (an MPI collective, the node
// barrier) goes through here: past ISHMEM_BOOTSTRAP_TIMEOUT during setup, or
// ISHMEM_COLLECTIVE_TIMEOUT after it, or as soon as a node-local PE it waits for has exited,
// the PE reports whom it waited for and what they last did, and aborts the job. A collective
// cannot be left half-way (MPI cannot cancel a collective request, and a late peer would pair
// with the wrong call), so returning an error would only move the hang to the next call.
#pragma once

#include "ishmem.h"  // brings in mpi.h without the C++ bindings

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ishmem::detail {

struct Topology;

// The collective calls, as PEs compare and report them.
enum class CollectiveOp : std::uint64_t {
  none = 0,
  init,
  barrier,  // ishmem_barrier_all and ishmem_sync_all
  finalize,
  malloc,
  calloc,
  free,
  realloc,
  trim,
};
const char *collective_op_name(std::uint64_t op);

// A PE's last collective call as its node-local peers read it: (op << 48) | call number,
// the number counting this PE's collective calls from 1.
using ActivityWord = std::atomic<std::uint64_t>;

// Process-wide: ishmem runs one instance per process.
// Sets the communicator to abort and the deadline of the waits that follow.
void watch_configure(MPI_Comm world, double timeout_s, const char *timeout_variable);
// The node-local PEs, whose pids tell whether they still run (NULL: none known).
void watch_peers(const Topology *topo);
// The node-local PEs' activity words, at board + slot * step; this PE writes its own (NULL:
// none, as during setup).
void watch_board(ActivityWord *board, std::size_t step);
// Work that every spin wait for other PEs does while it yields (nullptr: none): MPI progress
// on static data's window and the served off-node path's requests, where a peer's operation
// may be waiting for this PE while this PE waits for that peer.
void watch_serve(void (*serve)());
// This PE enters collective call `op`; returns its call number.
std::uint64_t watch_enter(CollectiveOp op);
// The calling thread enters the collective `name` (its API name, a string that outlives the
// call) on a team: a report from its waits names that call until the thread's next collective
// call. Per thread and not counted, since threads may run collectives on different teams at
// once; the activity words keep every PE's last call of the others.
void watch_enter_team(const char *name);

// Waits for `req` (of MPI call `mpi_call`) within the deadline.
void watch_complete(MPI_Request &req, const char *mpi_call);

// A wait that ran elsewhere (a device barrier) gave up on `missing_pes`: reports and aborts
// the job as an expired deadline does.
[[noreturn]] void watch_expired(const char *what, const std::vector<int> &missing_pes);

// A spin wait for node-local PEs. poll() is called from the wait's slow path (it reads the
// clock); `missing(pes)` fills the PEs still awaited when the wait is reported.
class SpinDeadline {
 public:
  // `serve_peers`: do watch_serve's work while waiting; false on a thread that must not call
  // MPI (the GPU runtime's, which runs host functions of streams).
  explicit SpinDeadline(const char *what, bool serve_peers = true)
      : what_(what), serve_peers_(serve_peers) {}
  template <class Missing>
  void poll(Missing &&missing) {
    if (serve_peers_) serve();
    if (!due()) return;
    std::vector<int> pes;
    missing(pes);
    check(pes);
  }

 private:
  void serve();  // watch_serve's work
  bool due();    // time for a liveness or deadline check
  void check(const std::vector<int> &missing_pes);

  const char *what_;
  bool serve_peers_;
  std::chrono::steady_clock::time_point start_{}, next_{};
};

}  // namespace ishmem::detail
