// The state ishmem_init builds. `g_fast` holds what every RMA call reads (two cache lines);
// `g_rt` owns everything else: the MPI side, the node's fd mesh and the heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "backend/backend.h"
#include "bootstrap/liveness_ring.h"
#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/peer_mesh.h"
#include "common/config.h"
#include "common/service_thread.h"
#include "heap/heap.h"
#include "ishmem/device_handle.h"
#include "runtime/active_set.h"
#include "runtime/static_data.h"
#include "runtime/team.h"
#include "transport/mpi_transport.h"

namespace ishmem::detail {

// The PE layout (window, stride, this PE, slots) is the device handle's: one struct serves the
// host fast path and, copied whole, the kernels (runtime/gpu_runtime.cpp). The handle's barrier
// fields stay empty here.
struct alignas(64) FastPath : ishmemx_device_handle_t {
  constexpr FastPath()
      : ishmemx_device_handle_t{nullptr, 0, nullptr, nullptr, -1,      0, 0,       0,
                                0,       0, 0,       0,       nullptr, 0, nullptr, 0} {}
  // Limits of the fast paths, folded into the range check: `committed` when the CPU may load
  // and store the heap (RMA) or run its atomics on it (AMO, no MPI window in use), else 0,
  // which sends every call to the slow path (as ISHMEM_DEBUG=1 does, whose checks live there).
  // Past `committed` the window is only reserved: an access there would fault.
  std::size_t direct_bytes = 0;
  std::size_t atomic_bytes = 0;
  std::size_t committed = 0;  // bytes of each slot backed by memory; equal on every PE
  // The layout's `contiguous` again, as a byte: x86 tests a byte in memory in one instruction,
  // an int (the handle's C type) in two, and ishmem_p is a few dozen instructions.
  bool contiguous_byte = false;
  bool host_access = false;  // heap is CPU-addressable: RMA by loads and stores
  // CPU atomics serve node-local targets; false with an MPI window, whose atomics would not
  // be atomic with respect to ours.
  bool direct_atomics = false;
  bool initialized = false;
};
static_assert(sizeof(FastPath) <= 128, "the fast path's state spans two cache lines");
extern FastPath g_fast __attribute__((visibility("hidden")));

struct Runtime {
  Config config;
  bool owns_mpi = false;
  std::unique_ptr<MpiBootstrap> boot;
  // Where the job spans nodes: the watch that aborts it when a PE is lost
  // (bootstrap/liveness_ring.h). Declared after `boot`, so it goes first.
  std::unique_ptr<LivenessRing> liveness;
  std::unique_ptr<PeerMesh> mesh;
  std::unique_ptr<Heap> heap;  // with the backend, the control segment and the MPI window
  // The served off-node path (runtime/served_off_node.h) where the heap has no MPI window;
  // declared after the heap, so it goes first (it stages through the heap's backend).
  std::unique_ptr<OffNode> served;
  // The heap's backend and the off-node path (nullptr with one node): the heap's MPI window,
  // or the served path below. The RMA, atomic and wait slow paths reach them here in one load.
  Backend *backend = nullptr;
  OffNode *remote = nullptr;
  std::vector<int> pe_slot;
  // The program's global and static variables: their MPI window (every PE, every backend).
  std::unique_ptr<StaticData> statics;
  // The team table; declared after the heap, so it goes first (its areas are heap memory).
  std::unique_ptr<Teams> teams;
  // The active sets of the deprecated collectives; their communicators go first of all.
  ActiveSets active_sets;
  // The background thread (common/service_thread.h); it starts with its first poller and is
  // stopped first at finalize, before anything its pollers use goes away.
  std::unique_ptr<ServiceThread> service;

  bool multi_node() const { return boot->topology().n_nodes > 1; }
};
extern Runtime *g_rt;

// The thread level MPI provides (MPI_Query_thread).
int mpi_thread_level();
// Throws ISHMEM_ERR_UNSUPPORTED naming `what` unless MPI provides MPI_THREAD_MULTIPLE, which
// a service thread calling MPI beside the program's threads needs.
void require_mpi_multiple(const char *what);

// Builds and tears down the runtime. Throw Error.
void runtime_init(MPI_Comm comm, bool owns_mpi);
void runtime_finalize();
// After every call that may change the heap (allocation, free, trim; failed ones too): updates
// the committed size in the fast path and, on a GPU, the device's heap map. Throws Error.
void heap_changed(Runtime &rt);
// Throws ISHMEM_ERR_NOT_INITIALIZED unless initialized.
Runtime &runtime();

}  // namespace ishmem::detail
