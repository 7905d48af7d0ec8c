// Collective symmetric allocation: each call is one call into the heap's owner (lib/heap),
// which checks that every PE made the same call before it changes the heap. Afterwards the
// range checks learn the committed size (and ISHMEM_DEBUG=1 the live allocations).
#include <atomic>

#include "api/guard.h"
#include "runtime/runtime.h"

using namespace ishmem::detail;

namespace {

// Runs body(heap) in guard(), then heap_changed, even when body threw: a failed call may still
// have changed the heap (a realloc whose copy failed frees the new block, and may trim).
template <class F>
int heap_call(F &&body) {
  return guard([&] {
    Runtime &rt = runtime();
    // The heap's check is a barrier, which completes this PE's RMA: the heap flushes its own
    // window, and static data's is flushed here.
    rt.statics->flush_all();
    try {
      body(*rt.heap);
    } catch (...) {
      heap_changed(rt);
      throw;
    }
    heap_changed(rt);
  });
}

template <class F>
void *heap_pointer(F &&body) {
  void *result = nullptr;
  heap_call([&](Heap &heap) { result = body(heap); });
  return result;
}

}  // namespace

extern "C" {

void *ishmem_malloc(size_t size) {
  return heap_pointer([&](Heap &heap) { return heap.malloc(size); });
}

void *ishmem_align(size_t alignment, size_t size) {
  return heap_pointer([&](Heap &heap) { return heap.align(alignment, size); });
}

void *ishmem_calloc(size_t count, size_t size) {
  return heap_pointer([&](Heap &heap) { return heap.calloc(count, size); });
}

void *ishmem_realloc(void *ptr, size_t size) {
  return heap_pointer([&](Heap &heap) { return heap.realloc(ptr, size); });
}

int ishmem_free(void *ptr) {
  return heap_call([ptr](Heap &heap) { heap.free(ptr); });
}

// The hints change nothing here: every block is reachable by every PE's atomics and signals.
// Unknown bits are no hint either, as OpenSHMEM says; the first call with them is logged.
void *ishmem_malloc_with_hints(size_t size, long hints) {
  static std::atomic<bool> unknown_logged{false};
  const long unknown =
      hints & ~static_cast<long>(ISHMEM_MALLOC_ATOMICS_REMOTE | ISHMEM_MALLOC_SIGNAL_REMOTE);
  if (unknown && !unknown_logged.exchange(true, std::memory_order_relaxed))
    log(LogLevel::debug,
        "ishmem_malloc_with_hints: hint bits %#lx are no ISHMEM_MALLOC_* hint; allocating as "
        "ishmem_malloc (logged once)",
        static_cast<unsigned long>(unknown));
  return heap_pointer([&](Heap &heap) -> void * { return heap.malloc(size); });
}

int ishmemx_heap_trim(void) {
  return heap_call([](Heap &heap) { heap.trim(); });
}

}  // extern "C"
