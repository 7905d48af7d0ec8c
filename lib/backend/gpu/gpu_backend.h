// What a GPU backend offers beyond the narrow Backend interface: its device, and work
// enqueued on the user's stream (stream-ordered RMA and barriers). Vendor-neutral: streams
// travel as void* (a cudaStream_t or hipStream_t; nullptr is the default stream).
#pragma once

#include <string>

#include "backend/backend.h"

namespace ishmem::detail {

class GpuBackend : public Backend {
 public:
  // The device ordinal this PE uses (among the visible ones).
  virtual int device() const = 0;
  // PCI bus id of that device ("0000:1a:00.0").
  virtual const std::string &bus_id() const = 0;
  // Ticks per second of the device timer that device code reads (ishmem/detail/atomics.h
  // timer_now).
  virtual double timer_hz() const = 0;
  // Enqueues a copy between any mapped or host addresses on `stream`; returns at once.
  virtual void copy_async(void *dst, const void *src, std::size_t bytes, void *stream) = 0;
  // Enqueues fn(arg) on `stream`: it runs on a runtime thread once earlier work is done, and
  // later work waits for it. fn must not call the GPU runtime.
  virtual void host_call(void *stream, void (*fn)(void *), void *arg) = 0;
  // Device memory private to this PE (not symmetric): tables the device API reads.
  virtual void *device_alloc(std::size_t bytes) = 0;
  virtual void device_free(void *ptr) noexcept = 0;
  // Makes host memory [ptr, ptr + bytes), mapped in this process (shared memory included),
  // reachable from the device: pins it and returns the address kernels use for it.
  virtual void *register_host(void *ptr, std::size_t bytes) = 0;
  virtual void unregister_host(void *ptr) noexcept = 0;
};

}  // namespace ishmem::detail
