#include "runtime/runtime.h"

#include <cstring>

#include "runtime/error.h"
#include "runtime/gpu_runtime.h"
#include "runtime/sync.h"

namespace ishmem::detail {

FastPath g_fast;
Runtime *g_rt = nullptr;

namespace {

constexpr std::size_t kControlBytes = 64 * 1024;

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
  if (wanted != "host") gpu = make_gpu_backend(topo.local_rank, topo.n_local, why);
  if (gpu && rt.multi_node()) {
    gpu.reset();
    why = "off-node PEs are reached through MPI, which is given host memory only";
  }
  bool everyone = rt.boot->all_true(gpu != nullptr, false);
  if (wanted == "gpu" && !everyone)
    fail(ISHMEM_ERR_UNSUPPORTED, "ISHMEM_BACKEND=gpu but %s",
         gpu ? "another PE has no usable GPU" : why.c_str());
  if (everyone) return gpu;
  if (wanted == "auto" && !why.empty()) log(LogLevel::info, "host backend: %s", why.c_str());
  return make_host_backend();
}

}  // namespace

Runtime &runtime() {
  if (!g_rt) fail(ISHMEM_ERR_NOT_INITIALIZED, "ishmem is not initialized (call ishmem_init)");
  return *g_rt;
}

void runtime_init(MPI_Comm comm, bool owns_mpi) {
  if (g_rt) fail(ISHMEM_ERR_INVALID_ARG, "ishmem is already initialized");
  auto rt = std::make_unique<Runtime>();
  rt->owns_mpi = owns_mpi;
  // A bad variable on one PE must fail every PE, not leave the others waiting in MPI.
  std::string config_error;
  try {
    rt->config = load_config();
  } catch (const Error &e) {
    config_error = e.what();
  }
  int ok = config_error.empty() ? 1 : 0, all_ok = 0;
  ISHMEMI_CHECK_MPI(MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm));
  if (!ok) throw Error(ISHMEM_ERR_CONFIG, config_error);
  if (!all_ok) fail(ISHMEM_ERR_CONFIG, "another PE has a bad ISHMEM_* environment variable");
  set_log_level(level_of(rt->config.log));

  rt->boot = std::make_unique<MpiBootstrap>(comm, rt->config.node_local == "self");
  const Topology &topo = rt->boot->topology();
  rt->mesh = std::make_unique<PeerMesh>(*rt->boot, rt->config.bootstrap_timeout);
  rt->control_backend = make_host_backend();
  rt->control = std::make_unique<SymmetricHeap>(*rt->control_backend, *rt->mesh, *rt->boot,
                                                kControlBytes, kControlBytes);
  rt->control->commit(kControlBytes);
  new (rt->control_block(topo.local_rank)) ControlBlock{};

  rt->backend = choose_backend(*rt);
  rt->heap = std::make_unique<SymmetricHeap>(*rt->backend, *rt->mesh, *rt->boot,
                                             rt->config.symmetric_size, rt->config.chunk_size);
  rt->allocator = std::make_unique<Allocator>(rt->heap->stride());
  if (rt->multi_node()) {
    rt->remote = std::make_unique<MpiTransport>(rt->boot->world(), rt->heap->local_base());
    MpiTransport *remote = rt->remote.get();
    rt->heap->on_local_chunk = [remote](char *addr, std::size_t bytes, bool mapped) {
      if (mapped)
        remote->attach(addr, bytes);
      else
        remote->detach(addr);
    };
  }

  rt->pe_slot = topo.pe_slot;
  bool contiguous = true;
  for (int slot = 0; slot < topo.n_local; ++slot)
    contiguous = contiguous && topo.local_pes[slot] == topo.local_pes[0] + slot;
  FastPath fast;
  fast.local_base = rt->heap->local_base();
  fast.window = rt->heap->window();
  fast.stride = rt->heap->stride();
  fast.pe_slot = rt->pe_slot.data();
  fast.my_pe = topo.my_pe;
  fast.n_pes = topo.n_pes;
  fast.my_slot = topo.local_rank;
  fast.n_local = topo.n_local;
  fast.first_local_pe = topo.local_pes[0];
  fast.contiguous = contiguous;
  fast.host_access = rt->backend->host_accessible();
  fast.direct_atomics = fast.host_access && !rt->remote;
  fast.initialized = true;
  gpu_runtime_init(*rt, fast);  // device state and stream barriers (GPU backends only)
  sync_all(*rt);
  log(LogLevel::info, "initialized: %d PEs, %d on this node (slot %d), %s backend, heap %zu bytes",
      topo.n_pes, topo.n_local, topo.local_rank, rt->backend->name(), rt->heap->stride());
  g_rt = rt.release();
  g_fast = fast;
}

void runtime_finalize() {
  Runtime &rt = runtime();
  quiet(rt);
  sync_all(rt);
  gpu_runtime_finalize();
  g_fast = FastPath{};
  g_rt = nullptr;
  std::unique_ptr<Runtime> owned(&rt);
  bool owns_mpi = rt.owns_mpi;
  if (rt.remote) {
    // Unmap (and detach) every chunk while the MPI window still exists.
    rt.heap->trim(0);
    rt.remote.reset();
  }
  owned.reset();
  if (owns_mpi) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) ISHMEMI_CHECK_MPI(MPI_Finalize());
  }
}

}  // namespace ishmem::detail
