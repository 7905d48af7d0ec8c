#include "runtime/gpu_runtime.h"

#include <atomic>
#include <mutex>
#include <vector>

#include "bootstrap/stall_watch.h"
#include "common/error.h"
#include "device/device_hooks.h"
#include "runtime/sync.h"

namespace ishmem::detail {
namespace {

// Stream and device barriers meet in a page of host memory shared by the node's PEs, which
// each PE also maps for its GPU: slot j's first word counts the barriers PE slot j has
// entered, by kernels (ishmem_barrier_all on the device) and by host functions on a stream
// (ishmemx_barrier_all_on_stream) alike, so the two kinds form one sequence and match each
// other. Never the control segment's barrier counter, because stream barriers run on the GPU
// runtime's thread, beside the application's thread (which owns that counter).
constexpr std::size_t kSyncBytes = 4096;

struct GpuRuntime {
  ~GpuRuntime() {
    if (!backend) return;
    backend->device_free(pe_slot_device);
    if (handle.barrier) backend->unregister_host(sync_heap->window());
  }
  GpuBackend *backend = nullptr;
  int *pe_slot_device = nullptr;
  ishmemx_device_handle_t handle{};
  std::unique_ptr<Backend> sync_backend;
  std::unique_ptr<SymmetricHeap> sync_heap;
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

std::atomic<std::uint64_t> &sync_word(int slot) {
  SymmetricHeap &heap = *g_gpu->sync_heap;
  return *reinterpret_cast<std::atomic<std::uint64_t> *>(
      heap.window() + heap.stride() * static_cast<std::size_t>(slot));
}

struct BarrierCall {
  int my_slot;
  int n_local;
  int first_local_pe;  // GPU heaps number node-local PEs like their slots
};

// Runs on the GPU runtime's host-function thread when the stream reaches the barrier.
void run_stream_barrier(void *arg) {
  std::unique_ptr<BarrierCall> call(static_cast<BarrierCall *>(arg));
  if (!g_gpu) return;  // finalized with the stream still running: nothing to meet
  // The next barrier in this PE's sequence, which its kernels' device barriers advance too;
  // the stream has completed them (they came before), and only this PE writes its word.
  std::atomic<std::uint64_t> &mine = sync_word(call->my_slot);
  const std::uint64_t epoch = mine.load(std::memory_order_acquire) + 1;
  mine.store(epoch, std::memory_order_release);
  // Past ISHMEM_COLLECTIVE_TIMEOUT, or when an awaited PE has exited, the job is aborted with
  // a report: the stream cannot be given an error.
  SpinDeadline deadline("ishmemx_barrier_all_on_stream");
  auto late = [&](std::vector<int> &pes) {
    for (int slot = 0; slot < call->n_local; ++slot)
      if (sync_word(slot).load(std::memory_order_acquire) < epoch)
        pes.push_back(call->first_local_pe + slot);
  };
  for (int slot = 0; slot < call->n_local; ++slot) {
    std::atomic<std::uint64_t> &word = sync_word(slot);
    wait_for([&] { return word.load(std::memory_order_acquire) >= epoch; },
             [&] { deadline.poll(late); });
  }
}

}  // namespace

GpuBackend *gpu_backend(const Runtime &rt) {
  return dynamic_cast<GpuBackend *>(rt.backend);
}

// The layout part of the handle is the fast path's own (one struct); the host backend has no
// device table nor barrier page.
namespace {
ishmemx_device_handle_t handle_from(const FastPath &fast) {
  ishmemx_device_handle_t h = fast;
  h.pe_slot = nullptr;
  h.barrier = nullptr;
  h.barrier_step = 0;
  return h;
}
}  // namespace

ishmemx_device_handle_t device_handle(const FastPath &fast) {
  return g_gpu ? g_gpu->handle : handle_from(fast);
}

void gpu_runtime_init(Runtime &rt, const FastPath &fast) {
  GpuBackend *gpu = gpu_backend(rt);
  if (!gpu) return;
  // The device calls translate addresses as a + (pe - my_pe) * stride (ishmem/device.h).
  if (!fast.contiguous || fast.n_local != fast.n_pes)
    fail(ISHMEM_ERR_INTERNAL, "a GPU heap needs every PE on one node, numbered by slot");
  auto state = std::make_unique<GpuRuntime>();
  state->backend = gpu;
  // The PE -> slot table in device memory, for layouts that are not contiguous.
  const std::size_t table_bytes = sizeof(int) * rt.pe_slot.size();
  state->pe_slot_device = static_cast<int *>(gpu->device_alloc(table_bytes));
  gpu->copy(state->pe_slot_device, rt.pe_slot.data(), table_bytes);
  ishmemx_device_handle_t h = handle_from(fast);
  h.pe_slot = state->pe_slot_device;
  state->handle = h;
  // Collective over the node: every PE has the GPU backend (the runtime agreed on it).
  state->sync_backend = make_host_backend();
  state->sync_heap = std::make_unique<SymmetricHeap>(*state->sync_backend, *rt.mesh, *rt.boot,
                                                     kSyncBytes, kSyncBytes);
  state->sync_heap->commit(kSyncBytes);
  // The GPU reaches every PE's barrier word through its own mapping of the whole window.
  // Without it only the device barriers are lost (they return ISHMEM_ERR_UNSUPPORTED).
  const std::size_t sync_window_bytes =
      state->sync_heap->stride() * static_cast<std::size_t>(fast.n_local);
  try {
    state->handle.barrier = static_cast<unsigned long long *>(
        gpu->register_host(state->sync_heap->window(), sync_window_bytes));
    state->handle.barrier_step = state->sync_heap->stride() / sizeof(unsigned long long);
  } catch (const Error &e) {
    log(LogLevel::warn, "device barriers are unavailable: the GPU cannot map the barrier page: %s",
        e.what());
  }
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
    log(LogLevel::warn, "%s", e.what());
  }
  g_gpu.reset();
}

void stream_barrier(Runtime &rt, void *stream) {
  if (!g_gpu) fail(ISHMEM_ERR_INTERNAL, "stream barrier without the GPU runtime");
  const Topology &topo = rt.boot->topology();
  auto call =
      std::make_unique<BarrierCall>(BarrierCall{topo.local_rank, topo.n_local, topo.local_pes[0]});
  g_gpu->backend->host_call(stream, run_stream_barrier, call.get());
  call.release();  // the host function owns it now
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
