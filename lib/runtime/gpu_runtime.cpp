#include "runtime/gpu_runtime.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "common/error.h"
#include "device/device_hooks.h"
#include "runtime/barrier_rows.h"
#include "runtime/device_proxy.h"
#include "runtime/team.h"

namespace ishmem::detail {
namespace {

// ISHMEM_DEBUG=1's table of live allocations starts with room for this many.
constexpr std::size_t kFirstLiveCapacity = 64;

struct GpuRuntime {
  ~GpuRuntime() {
    if (!backend) return;
    backend->device_free(pe_slot_device);
    backend->device_free(heap_map_device);
    backend->device_free(team_maps_device);
    backend->device_free(team_pes_device);
    for (void *table : live_tables) backend->device_free(table);
    if (status_device) backend->unregister_host(status_host);
    std::free(status_host);
  }
  GpuBackend *backend = nullptr;
  int *pe_slot_device = nullptr;
  ishmemx_heap_map_t *heap_map_device = nullptr;
  ishmemx_heap_map_t heap_map{};  // what the device's copy holds
  // ISHMEM_DEBUG=1: two tables of live allocations, written in turn so that a kernel reading
  // the published one during an allocation call reads a whole table. Outgrown ones stay
  // allocated until finalize, for the same reason.
  std::vector<void *> live_tables;
  std::size_t live_capacity = 0;  // blocks per table
  int next_table = 0;
  // The team table kernels read: one entry per slot, and slot s's members at
  // team_pes_device + s * n_pes (a team has at most every PE).
  ishmemx_team_map_t *team_maps_device = nullptr;
  int *team_pes_device = nullptr;
  ishmemx_device_handle_t handle{};
  std::unique_ptr<BarrierRows> barrier_rows;  // where device and stream barriers meet
  int *status_host = nullptr;                 // collective_status(), a page of its own
  int *status_device = nullptr;
  std::unique_ptr<DeviceProxy> proxy;  // with off-node PEs: device calls to them
};

std::unique_ptr<GpuRuntime> g_gpu;

// Updaters registered by device libraries, and the state they were last given.
std::mutex g_hooks_mutex;
std::vector<ishmemi_device_update_fn> &hooks() {
  static std::vector<ishmemi_device_update_fn> list;
  return list;
}

void publish(const ishmemx_device_handle_t &state) {
  std::lock_guard<std::mutex> lock(g_hooks_mutex);
  for (ishmemi_device_update_fn update : hooks()) {
    int rc = update(&state);
    if (rc != 0)
      fail(ISHMEM_ERR_BACKEND, "could not copy the device state to a device library (status %d)",
           rc);
  }
}

// Writes `live`, the count and then the (offset, bytes) pairs, into the table not published,
// growing both when it has no room; returns its device address.
const std::size_t *write_live_table(GpuRuntime &g, const std::vector<std::size_t> &live) {
  const std::size_t blocks = live[0];
  if (g.live_tables.empty() || blocks > g.live_capacity) {  // the first call has no table yet
    const std::size_t capacity = std::max(kFirstLiveCapacity, 2 * blocks);
    std::vector<void *> fresh;
    try {
      for (int i = 0; i < 2; ++i)
        fresh.push_back(g.backend->device_alloc(sizeof(std::size_t) * (1 + 2 * capacity)));
    } catch (...) {
      for (void *table : fresh) g.backend->device_free(table);
      throw;
    }
    g.live_tables.insert(g.live_tables.end(), fresh.begin(), fresh.end());
    g.live_capacity = capacity;
  }
  g.next_table ^= 1;
  void *table = g.live_tables[g.live_tables.size() - 2 + g.next_table];
  g.backend->copy(table, live.data(), sizeof(std::size_t) * live.size());
  return static_cast<const std::size_t *>(table);
}

// Brings the device's heap map up to date with `heap`: the committed size always, the table
// of live allocations with ISHMEM_DEBUG=1.
void write_heap_map(GpuRuntime &g, const Heap &heap) {
  ishmemx_heap_map_t map = g.heap_map;
  // Offsets from the user's heap, where the handle's layout starts (runtime.cpp): the library's
  // area below it is no live allocation of the user's.
  map.committed = heap.user_committed();
  if (g.handle.debug) {
    std::vector<std::size_t> live{0};
    const std::size_t user = heap.user_offset();
    heap.allocator().for_each_live_block([&live, user](std::size_t offset, std::size_t bytes) {
      if (offset < user) return;
      live.push_back(offset - user);
      live.push_back(bytes);
    });
    live[0] = (live.size() - 1) / 2;
    map.live = write_live_table(g, live);
  }
  if (map.committed != g.heap_map.committed || map.live != g.heap_map.live)
    g.backend->copy(g.heap_map_device, &map, sizeof map);
  g.heap_map = map;
}

}  // namespace

namespace {
// Rewrites the device's entry of team slot `slot` from this PE's table.
void write_team(GpuRuntime &g, const Runtime &rt, int slot) {
  const std::size_t n_pes = rt.pe_slot.size();
  ishmemx_team_map_t map{};
  if (const Team *team = rt.teams->find(slot)) {
    int *pes = g.team_pes_device + n_pes * static_cast<std::size_t>(slot);
    g.backend->copy(pes, team->members.data(), sizeof(int) * team->members.size());
    map = ishmemx_team_map_t{team->n_pes(), team->my_index, pes,
                             team->node_local ? team->area : nullptr};
  }
  g.backend->copy(g.team_maps_device + slot, &map, sizeof map);
}
}  // namespace

void gpu_team_changed(Runtime &rt, int slot) {
  if (g_gpu) write_team(*g_gpu, rt, slot);
}

void gpu_heap_changed(Runtime &rt) {
  if (g_gpu) write_heap_map(*g_gpu, *rt.heap);
}

int *collective_status(int **device) {
  if (!g_gpu) fail(ISHMEM_ERR_INTERNAL, "device collectives without a GPU runtime");
  *device = g_gpu->status_device;
  return g_gpu->status_host;
}

GpuBackend *gpu_backend(const Runtime &rt) {
  return dynamic_cast<GpuBackend *>(rt.backend);
}

// The layout part of the handle is the fast path's own (one struct); the host backend has no
// device table nor barrier rows.
namespace {
ishmemx_device_handle_t handle_from(const FastPath &fast) {
  ishmemx_device_handle_t h = fast;
  h.pe_slot = nullptr;
  h.barrier = nullptr;
  h.barrier_step = 0;
  h.barrier_timeout = 0;
  return h;
}
}  // namespace

ishmemx_device_handle_t device_handle(const FastPath &fast) {
  return g_gpu ? g_gpu->handle : handle_from(fast);
}

void gpu_runtime_init(Runtime &rt, const FastPath &fast) {
  GpuBackend *gpu = gpu_backend(rt);
  if (!gpu) return;
  // The device calls translate node-local addresses as a + (pe - my_pe) * stride, adding to
  // the high 32 bits only (ishmem/detail/rma_impl.h); PEs of other nodes go through the device
  // proxy.
  if (!fast.contiguous || fast.first_local_pe + fast.my_slot != fast.my_pe)
    fail(ISHMEM_ERR_INTERNAL, "a GPU heap needs its node's PEs numbered by slot");
  if (fast.stride % (std::size_t{1} << 32) != 0)
    fail(ISHMEM_ERR_INTERNAL, "a GPU heap's slots are %zu bytes apart, not a multiple of 4 GiB",
         fast.stride);
  auto state = std::make_unique<GpuRuntime>();
  state->backend = gpu;
  // The PE -> slot table in device memory, for layouts that are not contiguous.
  const std::size_t table_bytes = sizeof(int) * rt.pe_slot.size();
  state->pe_slot_device = static_cast<int *>(gpu->device_alloc(table_bytes));
  gpu->copy(state->pe_slot_device, rt.pe_slot.data(), table_bytes);
  ishmemx_device_handle_t h = handle_from(fast);
  h.pe_slot = state->pe_slot_device;
  state->heap_map_device =
      static_cast<ishmemx_heap_map_t *>(gpu->device_alloc(sizeof(ishmemx_heap_map_t)));
  h.heap_map = state->heap_map_device;
  const int max_teams = static_cast<int>(rt.teams->slots.size());
  state->team_maps_device = static_cast<ishmemx_team_map_t *>(
      gpu->device_alloc(sizeof(ishmemx_team_map_t) * static_cast<std::size_t>(max_teams)));
  state->team_pes_device =
      static_cast<int *>(gpu->device_alloc(table_bytes * static_cast<std::size_t>(max_teams)));
  for (int slot = 0; slot < max_teams; ++slot) write_team(*state, rt, slot);
  state->heap_map.teams = state->team_maps_device;
  state->heap_map.collective_scratch = rt.config.collective_scratch;
  state->heap_map.device_oneshot_max = rt.config.device_oneshot_max;
  state->status_host = static_cast<int *>(std::aligned_alloc(4096, 4096));
  if (!state->status_host)
    fail(ISHMEM_ERR_NOMEM, "could not allocate the device collectives' status page");
  std::memset(state->status_host, 0, 4096);
  state->status_device = static_cast<int *>(gpu->register_host(state->status_host, 4096));
  h.max_teams = max_teams;
  state->handle = h;
  if (fast.n_local < fast.n_pes) {
    state->proxy =
        std::make_unique<DeviceProxy>(rt, *gpu, static_cast<std::size_t>(rt.config.proxy_ring));
    state->proxy->describe(state->heap_map);
  }
  // The device's map is written whole once (it starts as uninitialized memory), then kept.
  state->heap_map.committed = ~std::size_t{0};
  write_heap_map(*state, *rt.heap);
  // Collective over the node: every PE has the GPU backend (the runtime agreed on it).
  state->barrier_rows = std::make_unique<BarrierRows>(rt, *gpu);
  state->handle.barrier = state->barrier_rows->device_rows();
  state->handle.barrier_step = state->barrier_rows->step();
  state->handle.barrier_timeout =
      static_cast<unsigned long long>(rt.config.collective_timeout * gpu->timer_hz());
  g_gpu = std::move(state);
  try {
    publish(g_gpu->handle);
  } catch (...) {
    g_gpu.reset();
    throw;
  }
}

void gpu_runtime_finalize() noexcept {
  if (!g_gpu) return;
  try {
    publish(ishmemx_device_handle_t{});
  } catch (const Error &e) {
    log_error(LogLevel::warn, e);
  }
  g_gpu.reset();
}

void device_proxy_drain() {
  if (g_gpu && g_gpu->proxy) g_gpu->proxy->drain();
}

void stream_barrier(Runtime &, void *stream) {
  if (!g_gpu) fail(ISHMEM_ERR_INTERNAL, "stream barrier without the GPU runtime");
  g_gpu->barrier_rows->enqueue(g_gpu->handle, stream);
}

}  // namespace ishmem::detail

extern "C" void ishmemi_device_register(ishmemi_device_update_fn update) {
  using namespace ishmem::detail;
  if (!update) return;
  {
    std::lock_guard<std::mutex> lock(g_hooks_mutex);
    hooks().push_back(update);
  }
  if (g_gpu) {
    int rc = update(&g_gpu->handle);
    if (rc != 0) log(LogLevel::error, "could not copy the device state to a device library");
  }
}
