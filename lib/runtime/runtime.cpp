#include "runtime/runtime.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <functional>

#include "bootstrap/agreed_step.h"
#include "bootstrap/stall_watch.h"
#include "common/error.h"
#include "runtime/gpu_runtime.h"
#include "runtime/progress.h"
#include "runtime/served_off_node.h"
#include "runtime/sync.h"

namespace ishmem::detail {

FastPath g_fast;
Runtime *g_rt = nullptr;

namespace {

LogLevel level_of(const std::string &name) {
  if (name == "none") return LogLevel::none;
  if (name == "error") return LogLevel::error;
  if (name == "info") return LogLevel::info;
  if (name == "debug") return LogLevel::debug;
  return LogLevel::warn;
}

// Picks the backend the same way on every PE: a GPU one only if every PE can use one.
std::unique_ptr<Backend> choose_backend(const Runtime &rt) {
  const Topology &topo = rt.boot->topology();
  const std::string &wanted = rt.config.backend;
  std::unique_ptr<Backend> gpu;
  std::string why;
  if (wanted != "host") {
    GpuOptions options;
    options.local_rank = topo.device_rank;  // split groups of one machine share its GPUs
    options.device = rt.config.device;
    options.bind = rt.config.bind != "none";
    try {
      gpu = make_gpu_backend(options, why);
    } catch (const Error &e) {  // every PE must reach the agreement below
      gpu.reset();
      why = e.what();
    }
  }
  if (gpu && rt.multi_node() && rt.config.off_node == "window") {
    gpu.reset();
    why = "ISHMEM_OFF_NODE=window reaches off-node PEs through an MPI window over host memory";
  }
  // A vote, not an error: a PE without a GPU counts as a failing status.
  const bool everyone =
      lowest_status(rt.boot->world(), gpu ? ISHMEM_SUCCESS : ISHMEM_ERR_UNSUPPORTED) ==
      ISHMEM_SUCCESS;
  if (wanted == "gpu" && !everyone)
    fail(ISHMEM_ERR_UNSUPPORTED, "ISHMEM_BACKEND=gpu but %s",
         gpu ? "another PE has no usable GPU" : why.c_str());
  if (everyone) return gpu;
  if (wanted == "auto" && !why.empty()) log(LogLevel::info, "host backend: %s", why.c_str());
  return make_host_backend();
}

std::uint64_t text_hash(const std::string &text) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

// Variables that shape the heap must be equal on every PE: different values would make
// heaps diverge (trimming, chunking, backend) or PEs take different collective paths.
void check_config_agrees(MPI_Comm comm, const Config &config) {
  const std::pair<const char *, std::uint64_t> shared[] = {
      {"ISHMEM_SYMMETRIC_SIZE", config.symmetric_size},
      {"ISHMEM_CHUNK_SIZE", config.chunk_size},
      {"ISHMEM_TRIM_THRESHOLD", config.trim_threshold},
      {"ISHMEM_TRIM_INTERVAL", static_cast<std::uint64_t>(config.trim_interval)},
      {"ISHMEM_BACKEND", text_hash(config.backend)},
      {"ISHMEM_NODE_LOCAL", text_hash(config.node_local)},
      {"ISHMEM_MAX_LOCAL_PES", static_cast<std::uint64_t>(config.max_local_pes)},
      {"ISHMEM_OFF_NODE", text_hash(config.off_node)},
      {"ISHMEM_MAX_TEAMS", static_cast<std::uint64_t>(config.max_teams)},
      {"ISHMEM_COLLECTIVE_SCRATCH", config.collective_scratch},
  };
  constexpr int n = sizeof shared / sizeof shared[0];
  std::uint64_t lo[n], hi[n], min[n], max[n];
  for (int i = 0; i < n; ++i) lo[i] = hi[i] = shared[i].second;
  MPI_Request req[2];
  ISHMEMI_CHECK_MPI(MPI_Iallreduce(lo, min, n, MPI_UINT64_T, MPI_MIN, comm, &req[0]));
  ISHMEMI_CHECK_MPI(MPI_Iallreduce(hi, max, n, MPI_UINT64_T, MPI_MAX, comm, &req[1]));
  for (MPI_Request &r : req) watch_complete(r, "MPI_Iallreduce");
  for (int i = 0; i < n; ++i)
    if (min[i] != max[i])
      fail(ISHMEM_ERR_CONFIG, "%s differs between PEs (this PE: %s); set it the same everywhere",
           shared[i].first, config_value_text(config, shared[i].first).c_str());
}

// Warns, once for the PEs sharing one memory (from the first of them), when
// ISHMEM_SYMMETRIC_SIZE exceeds their share of it. Not an error: the heap is address space at
// init and memory only as blocks are allocated, so a job that sets a generous size and fills
// a part of it runs. One that fills it would fail far from the cause: a device allocation, or
// the kernel's OOM killer for host memory. Collective over the node.
void warn_if_heap_exceeds_memory(const Runtime &rt) {
  const MemorySource source = rt.heap->backend().memory_source();
  const auto key = static_cast<unsigned long long>(std::hash<std::string>{}(source.key));
  const Topology &topo = rt.boot->topology();
  std::vector<unsigned long long> keys(static_cast<std::size_t>(topo.n_local));
  ISHMEMI_CHECK_MPI(MPI_Allgather(&key, 1, MPI_UNSIGNED_LONG_LONG, keys.data(), 1,
                                  MPI_UNSIGNED_LONG_LONG, rt.boot->node()));
  const auto sharers = std::count(keys.begin(), keys.end(), key);
  const bool first = std::find(keys.begin(), keys.end(), key) - keys.begin() == topo.local_rank;
  const std::size_t share = source.bytes / static_cast<std::size_t>(sharers);
  if (first && source.bytes && rt.config.symmetric_size > share)
    log(LogLevel::warn,
        "ISHMEM_SYMMETRIC_SIZE=%zu is more than each PE can ever back: %s holds %zu bytes, %zu "
        "for each of the %ld PEs sharing it; allocations past that fail late (on host memory "
        "the kernel may end the job)",
        rt.config.symmetric_size, source.what.c_str(), source.bytes, share,
        static_cast<long>(sharers));
}

// The range checks and the fast paths' limits follow the committed size, never the reserved
// stride: past it an access would fault node-local. ISHMEM_DEBUG=1 sends every call to the
// slow path, where its checks are, at no cost to the fast path.
void set_committed(FastPath &fast, std::size_t committed) {
  fast.committed = committed;
  fast.direct_bytes = fast.host_access && !fast.debug ? committed : 0;
  fast.atomic_bytes = fast.direct_atomics && !fast.debug ? committed : 0;
}

// The collective waits' work for peers (bootstrap/stall_watch.h): their atomics on this PE's
// static data may wait for it, and so may their served requests, which this thread then
// executes at once instead of the server thread (one switch less on a busy core). Best effort:
// a failed MPI call here must not end the wait, whose deadline names the PE it waits for (a
// dead peer may be why MPI fails).
void serve_peers() {
  static bool reported = false;
  try {
    g_rt->statics->progress();
    if (g_rt->served) g_rt->served->progress();
  } catch (const Error &e) {
    if (!reported) log(LogLevel::warn, "serving peers' operations while waiting: %s", e.what());
    reported = true;
  }
}

}  // namespace

void heap_changed(Runtime &rt) {
  set_committed(g_fast, rt.heap->user_committed());
  gpu_heap_changed(rt);
}

int mpi_thread_level() {
  int provided = MPI_THREAD_SINGLE;
  ISHMEMI_CHECK_MPI(MPI_Query_thread(&provided));
  return provided;
}

void require_mpi_multiple(const char *what) {
  const int provided = mpi_thread_level();
  if (provided != MPI_THREAD_MULTIPLE)
    fail(ISHMEM_ERR_UNSUPPORTED,
         "%s needs MPI_THREAD_MULTIPLE, but MPI provides level %d: start MPI with "
         "MPI_Init_thread(..., MPI_THREAD_MULTIPLE, ...) or let ishmem_init start it",
         what, provided);
}

Runtime &runtime() {
  if (!g_rt) fail(ISHMEM_ERR_NOT_INITIALIZED, "ishmem is not initialized (call ishmem_init)");
  return *g_rt;
}

void runtime_init(MPI_Comm comm, bool owns_mpi) {
  if (g_rt) fail(ISHMEM_ERR_INVALID_ARG, "ishmem is already initialized");
  struct ForgetPeersOnFailure {  // the topology the deadline checks read goes with `rt`
    ~ForgetPeersOnFailure() {
      if (!g_rt) watch_peers(nullptr);
    }
  } forget_peers;
  auto rt = std::make_unique<Runtime>();
  rt->owns_mpi = owns_mpi;
  // Every message, the config's errors included, names this PE from the start.
  int rank = -1;
  ISHMEMI_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  set_log_pe(rank);
  // Every step that can fail on one PE alone is agreed on before the next collective one,
  // so that a failure fails every PE at the same point instead of leaving the others waiting.
  // Until this PE has read ISHMEM_BOOTSTRAP_TIMEOUT, setup waits as long as its default.
  watch_configure(
      comm, load_config([](const char *) -> const char * { return nullptr; }).bootstrap_timeout,
      "ISHMEM_BOOTSTRAP_TIMEOUT");
  watch_enter(CollectiveOp::init);
  agreed_setup_step(comm, "reading the ISHMEM_* variables", [&] {
    rt->config = load_config();
    watch_configure(comm, rt->config.bootstrap_timeout, "ISHMEM_BOOTSTRAP_TIMEOUT");
  });
  check_config_agrees(comm, rt->config);
  set_log_level(level_of(rt->config.log));
  rt->service =
      std::make_unique<ServiceThread>(std::chrono::microseconds(rt->config.progress_interval));

  agreed_setup_step(comm, "MPI setup", [&] {
    rt->boot = std::make_unique<MpiBootstrap>(
        comm, static_cast<int>(std::min<long>(rt->config.max_local_pes, INT_MAX)));
  });
  const Topology &topo = rt->boot->topology();
  watch_peers(&topo);
  if (topo.n_nodes > 1)
    agreed_setup_step(comm, "connecting the liveness ring", [&] {
      rt->liveness = std::make_unique<LivenessRing>(*rt->boot, rt->config.bootstrap_timeout);
    });
  agreed_setup_step(comm, "connecting node-local PEs", [&] {
    rt->mesh = std::make_unique<PeerMesh>(*rt->boot, rt->config.bootstrap_timeout);
  });
  std::unique_ptr<Backend> backend = choose_backend(*rt);
  // Collective: the control segment, the heap's window and the MPI window; agrees on each.
  rt->heap = std::make_unique<Heap>(std::move(backend), *rt->mesh, *rt->boot, rt->config);
  agreed_setup_step(comm, "comparing the heap with memory",
                    [&] { warn_if_heap_exceeds_memory(*rt); });
  rt->backend = &rt->heap->backend();
  rt->remote = rt->heap->transport();
  rt->pe_slot = topo.pe_slot;
  // Without the heap's MPI window, off-node PEs are served (ISHMEM_OFF_NODE).
  if (rt->multi_node() && !rt->remote) start_served_off_node(*rt);
  // Collective: the window over the program's static data. Where the PEs' executables differ
  // or MPI cannot make it, static data is unusable (each call on it says why), not fatal.
  rt->statics = std::make_unique<StaticData>(rt->boot->world());
  // The teams' areas come first in the heap: the same offset on every PE.
  agreed_setup_step(comm, "building the teams", [&] { teams_init(*rt); });
  // Before the first barrier: from there on peers may aim operations at this PE.
  agreed_setup_step(comm, "starting the progress thread", [&] { start_progress_thread(*rt); });

  bool contiguous = true;
  for (int slot = 0; slot < topo.n_local; ++slot)
    contiguous = contiguous && topo.local_pes[slot] == topo.local_pes[0] + slot;
  FastPath fast;
  // The user's heap only: the library's area lies below it, outside every range check. The
  // addresses computed from the layout are the same (base and window move together).
  fast.local_base = rt->heap->user_base();
  fast.window = rt->heap->user_window();
  fast.stride = rt->heap->stride();
  fast.pe_slot = rt->pe_slot.data();
  fast.my_pe = topo.my_pe;
  fast.n_pes = topo.n_pes;
  fast.my_slot = topo.local_rank;
  fast.n_local = topo.n_local;
  fast.first_local_pe = topo.local_pes[0];
  fast.contiguous = contiguous;
  fast.contiguous_byte = contiguous;
  fast.host_access = rt->backend->host_accessible();
  // The served path runs its atomics with CPU atomics too; MPI's window has atomics of its own.
  fast.direct_atomics = fast.host_access && !rt->heap->transport();
  fast.debug = rt->config.debug == "1";
  set_committed(fast, rt->heap->user_committed());
  fast.initialized = true;
  // Device state and stream barriers (GPU backends only).
  agreed_setup_step(comm, "setting up the GPU state", [&] { gpu_runtime_init(*rt, fast); });
  sync_all(*rt, CollectiveOp::init);
  if (rt->liveness) rt->liveness->arm();
  watch_configure(rt->boot->world(), rt->config.collective_timeout, "ISHMEM_COLLECTIVE_TIMEOUT");
  log(LogLevel::info, "initialized: %d PEs, %d on this node (slot %d), %s backend, heap %zu bytes",
      topo.n_pes, topo.n_local, topo.local_rank, rt->backend->name(), rt->heap->capacity());
  g_rt = rt.release();
  g_fast = fast;
  watch_serve(serve_peers);
}

void runtime_finalize() {
  Runtime &rt = runtime();
  quiet(rt);
  // The heap is unmapped below: every PE's queued device work completes before the barrier
  // that precedes it. A device error is reported once finalize is done, since the peers are
  // already on their way to that barrier.
  FirstError device;
  device.attempt([&] { rt.backend->quiesce(); });
  sync_all(rt, CollectiveOp::finalize);
  if (rt.liveness) rt.liveness->leave();
  // Past the barrier no peer's operation still needs this PE's progress or service.
  rt.service->stop();
  watch_serve(nullptr);
  // Past the barrier no peer reaches this PE's static data; freeing its window is collective.
  FirstError statics;
  statics.attempt([&] { rt.statics->close(); });
  gpu_runtime_finalize();
  rt.teams.reset();  // every team's communicator, before the heap and MPI go
  g_fast = FastPath{};
  g_rt = nullptr;
  std::unique_ptr<Runtime> owned(&rt);
  bool owns_mpi = rt.owns_mpi;
  // With an MPI window, unmap (and detach) every chunk while it still exists, so that an error
  // reaches the caller; the heap then frees the window before the backend.
  if (rt.heap->transport()) rt.heap->unmap_all();
  owned.reset();
  watch_peers(nullptr);
  if (owns_mpi) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) ISHMEMI_CHECK_MPI(MPI_Finalize());
  }
  device.rethrow();
  statics.rethrow();
}

}  // namespace ishmem::detail
