// The barrier rows of the device and stream barriers: one row of n_local 64-bit counts per
// node-local PE, in a symmetric segment every PE maps, with the layout and algorithm of
// include/ishmem/detail/sync_impl.h (a PE stores its count into every peer's row and polls
// its own). Where every PE has a GPU of its own, the rows are GPU memory, so that a waiting
// kernel polls its own GPU, and a stream barrier is a kernel. Where PEs share a GPU, their
// kernels take turns on it, so a kernel cannot wait for another process's kernel without
// waiting for a time slice (milliseconds): the rows are then host memory that the GPUs map, and
// a stream barrier is a host function on the stream, which runs the same algorithm. Either way
// device and stream barriers form one sequence. The host barrier's counts (the control segment)
// are separate: the application's thread owns them.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "backend/gpu/gpu_backend.h"
#include "heap/symmetric_heap.h"
#include "ishmem/device_handle.h"
#include "runtime/runtime.h"

namespace ishmem::detail {

class BarrierRows {
 public:
  // Collective over the node (a part of ishmem_init): creates, maps and zeroes the rows, and
  // returns once every PE has. Throws Error.
  BarrierRows(Runtime &rt, GpuBackend &gpu);
  ~BarrierRows();
  BarrierRows(const BarrierRows &) = delete;
  BarrierRows &operator=(const BarrierRows &) = delete;

  // Where kernels find the rows (the handle's `barrier` and `barrier_step`).
  unsigned long long *device_rows() const { return device_rows_; }
  std::size_t step() const { return rows_->stride() / sizeof(unsigned long long); }
  bool on_gpu() const { return on_gpu_; }
  // Enqueues a barrier on `stream` in the sequence of the device barriers of `h`. A PE that
  // does not arrive within the deadline ends the job with a report, as every collective wait
  // does: the stream cannot be given an error.
  void enqueue(const ishmemx_device_handle_t &h, void *stream);

 private:
  static void host_barrier(void *self);  // a host function on the stream (rows in host memory)
  // Rows in GPU memory: a thread that checks, every 0.1 s, whether a stream barrier kernel gave
  // up, and then reports and ends the job. A host function after each kernel would do the same
  // at ten times the cost of the barrier itself.
  void watch_status();

  GpuBackend &gpu_;
  bool on_gpu_;
  int my_slot_, n_local_, first_local_pe_;
  std::unique_ptr<Backend> host_backend_;  // the rows' memory when it is host memory
  std::unique_ptr<SymmetricHeap> rows_;
  unsigned long long *device_rows_ = nullptr;
  // A stream barrier kernel that gave up stores the late PE's slot + 1 here (host memory the
  // GPU maps: status_ is its device address).
  int *status_host_ = nullptr;
  int *status_ = nullptr;
  std::thread watcher_;
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stop_ = false;
};

}  // namespace ishmem::detail
