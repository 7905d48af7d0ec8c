#include "runtime/barrier_rows.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bootstrap/stall_watch.h"
#include "common/error.h"
#include "common/spin_wait.h"
#include "runtime/sync.h"
#if defined(ISHMEM_GPU_CUDA) || defined(ISHMEM_GPU_HIP)
#include "device/stream_kernels.h"
#define ISHMEMI_STREAM_KERNELS 1
#endif

namespace ishmem::detail {
namespace {

constexpr std::size_t kRowBytes = 4096;  // room for 512 node-local PEs

// Whether every node-local PE drives a GPU of its own (collective over the node).
bool own_gpus(const Runtime &rt, const GpuBackend &gpu) {
  const Topology &topo = rt.boot->topology();
  const std::uint64_t mine = std::hash<std::string>{}(gpu.placement());
  std::vector<std::uint64_t> all(static_cast<std::size_t>(topo.n_local));
  rt.boot->allgather(&mine, all.data(), sizeof mine, true);
  for (std::size_t i = 0; i < all.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (all[i] == all[j]) return false;
  return true;
}

std::atomic<std::uint64_t> &host_word(const SymmetricHeap &rows, int row, int slot) {
  char *base = rows.window() + rows.stride() * static_cast<std::size_t>(row);
  return reinterpret_cast<std::atomic<std::uint64_t> *>(base)[slot];
}

}  // namespace

BarrierRows::BarrierRows(Runtime &rt, GpuBackend &gpu) : gpu_(gpu) {
  const Topology &topo = rt.boot->topology();
  my_slot_ = topo.local_rank;
  n_local_ = topo.n_local;
  first_local_pe_ = topo.local_pes[0];
  if (static_cast<std::size_t>(n_local_) * sizeof(std::uint64_t) > kRowBytes)
    fail(ISHMEM_ERR_UNSUPPORTED, "device barriers support at most %zu PEs per node, not %d",
         kRowBytes / sizeof(std::uint64_t), n_local_);
  on_gpu_ = own_gpus(rt, gpu);
  if (!on_gpu_) host_backend_ = make_host_backend();
  Backend &memory = on_gpu_ ? static_cast<Backend &>(gpu) : *host_backend_;
  rows_ = std::make_unique<SymmetricHeap>(memory, *rt.mesh, *rt.boot, kRowBytes, kRowBytes);
  rows_->commit(kRowBytes);
  if (on_gpu_) {
    const std::vector<unsigned char> zeros(kRowBytes, 0);
    gpu.copy(rows_->local_base(), zeros.data(), kRowBytes);
    device_rows_ = reinterpret_cast<unsigned long long *>(rows_->window());
  } else {
    std::memset(rows_->local_base(), 0, kRowBytes);
    device_rows_ = static_cast<unsigned long long *>(
        gpu.register_host(rows_->window(), rows_->stride() * static_cast<std::size_t>(n_local_)));
  }
  status_host_ = static_cast<int *>(std::aligned_alloc(4096, 4096));
  if (!status_host_) {
    if (!on_gpu_) gpu.unregister_host(rows_->window());
    fail(ISHMEM_ERR_NOMEM, "could not allocate the stream barriers' status page");
  }
  *status_host_ = 0;
  try {
    status_ = static_cast<int *>(gpu.register_host(status_host_, sizeof(int)));
    sync_all(rt, CollectiveOp::init);  // every row is zero before any PE can enter a barrier
  } catch (...) {
    if (status_) gpu.unregister_host(status_host_);
    if (!on_gpu_) gpu.unregister_host(rows_->window());
    std::free(status_host_);
    throw;
  }
  if (on_gpu_) watcher_ = std::thread([this] { watch_status(); });
}

BarrierRows::~BarrierRows() {
  if (watcher_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(stop_mutex_);
      stop_ = true;
    }
    stop_signal_.notify_one();
    watcher_.join();
  }
  gpu_.unregister_host(status_host_);
  std::free(status_host_);
  if (!on_gpu_) gpu_.unregister_host(rows_->window());
}

void BarrierRows::enqueue(const ishmemx_device_handle_t &h, void *stream) {
  if (on_gpu_) {
#ifdef ISHMEMI_STREAM_KERNELS
    enqueue_barrier(h, status_, stream);
#else
    (void)h;
    fail(ISHMEM_ERR_INTERNAL,
         "ishmemx_barrier_all_on_stream: a GPU backend without stream kernels");
#endif
  } else {
    gpu_.host_call(stream, host_barrier, this);
  }
}

// The device barrier's algorithm on the host's view of the rows; the stream's earlier work has
// completed, and only this PE writes its own count.
void BarrierRows::host_barrier(void *arg) {
  const BarrierRows &self = *static_cast<const BarrierRows *>(arg);
  const SymmetricHeap &rows = *self.rows_;
  const int me = self.my_slot_;
  std::atomic<std::uint64_t> &mine = host_word(rows, me, me);
  const std::uint64_t epoch = mine.load(std::memory_order_relaxed) + 1;
  mine.store(epoch, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  for (int slot = 0; slot < self.n_local_; ++slot)
    if (slot != me) host_word(rows, slot, me).store(epoch, std::memory_order_relaxed);
  // A host function of a stream: the GPU runtime's thread, which must not call MPI.
  SpinDeadline deadline("ishmemx_barrier_all_on_stream", false);
  auto late = [&](std::vector<int> &pes) {
    for (int slot = 0; slot < self.n_local_; ++slot)
      if (host_word(rows, me, slot).load(std::memory_order_acquire) < epoch)
        pes.push_back(self.first_local_pe_ + slot);
  };
  for (int slot = 0; slot < self.n_local_; ++slot) {
    const std::atomic<std::uint64_t> &word = host_word(rows, me, slot);
    wait_for([&] { return word.load(std::memory_order_acquire) >= epoch; },
             [&] { deadline.poll(late); });
  }
}

void BarrierRows::watch_status() {
  std::unique_lock<std::mutex> lock(stop_mutex_);
  while (!stop_signal_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; })) {
    const int late = __atomic_load_n(status_host_, __ATOMIC_ACQUIRE);
    if (late > 0) watch_expired("ishmemx_barrier_all_on_stream", {first_local_pe_ + late - 1});
  }
}

}  // namespace ishmem::detail
