// The host side of device calls to off-node PEs (ishmem/detail/proxy.h has the device side):
// kernels write requests into a ring of ishmemx_proxy_slot_t in pinned host memory that the
// device maps; a poller on the service thread (common/service_thread.h) drains them in ticket
// order, executes each through the off-node transport (Runtime::remote), or hands a
// collective to a thread of its own (proxied_collectives.h), and publishes its completion. Set up
// by the GPU runtime when the heap is on a GPU and some PEs are off-node.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>

#include "backend/gpu/gpu_backend.h"
#include "ishmem/device_handle.h"
#include "runtime/proxied_collectives.h"
#include "runtime/runtime.h"

namespace ishmem::detail {

class DeviceProxy {
 public:
  // Collective over the world (its communicator is duplicated for the device barriers).
  // Throws ISHMEM_ERR_UNSUPPORTED unless MPI provides MPI_THREAD_MULTIPLE: the service thread
  // calls MPI beside the program's threads. `entries` is a power of two.
  DeviceProxy(Runtime &rt, GpuBackend &gpu, std::size_t entries);
  ~DeviceProxy();
  DeviceProxy(const DeviceProxy &) = delete;
  DeviceProxy &operator=(const DeviceProxy &) = delete;

  // Fills the proxy fields of the device's heap map.
  void describe(ishmemx_heap_map_t &map) const;
  // Waits until every request the device has written so far is executed (the host's quiet,
  // after a kernel ended, then flushes them). Throws the proxy's error if it stopped, or
  // ISHMEM_ERR_TIMEOUT past ISHMEM_COLLECTIVE_TIMEOUT.
  void drain();

 private:
  // The service thread's poller: executes the requests that are ready; true if it did work
  // or waits on a barrier.
  bool poll();
  // Executes `req`, the request of ticket `ticket`; false if it is a barrier still running.
  bool serve(const ishmemx_proxy_slot_t &req, unsigned long long ticket);
  bool barrier_done();
  void release() noexcept;  // what the constructor made, in reverse
  void publish(ishmemx_proxy_slot_t &slot, unsigned long long ticket, unsigned op,
               unsigned long long value);
  std::size_t offset_of(unsigned long long address, std::size_t bytes, int pe) const;

  Runtime &rt_;
  GpuBackend &gpu_;
  const std::size_t entries_;
  ishmemx_proxy_slot_t *slots_ = nullptr;         // host memory; slots_device_ for kernels
  ishmemx_proxy_slot_t *slots_device_ = nullptr;  // (followed by the status word)
  int *status_ = nullptr;
  unsigned long long *tickets_device_ = nullptr;
  MPI_Comm comm_ = MPI_COMM_NULL;  // the device barriers'
  MPI_Request barrier_ = MPI_REQUEST_NULL;
  bool barrier_started_ = false;
  // Tickets below it are executed, collectives handed to their thread (written by the
  // service thread, read by drain(), which runs once the kernels that wait on them ended).
  std::atomic<unsigned long long> executed_{0};
  std::unique_ptr<ProxiedCollectives> collectives_;
  int poller_ = 0;
};

}  // namespace ishmem::detail
