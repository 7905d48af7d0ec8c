// Collective symmetric allocation: each call is one call into the heap's owner (lib/heap),
// which checks that every PE made the same call before it changes the heap.
#include "api/guard.h"
#include "runtime/runtime.h"

using namespace ishmem::detail;

namespace {

template <class F>
void *guarded_pointer(F &&body) {
  void *result = nullptr;
  guard([&] { result = body(); });
  return result;
}

}  // namespace

extern "C" {

void *ishmem_malloc(size_t size) {
  return guarded_pointer([&] { return runtime().heap->malloc(size); });
}

void *ishmem_align(size_t alignment, size_t size) {
  return guarded_pointer([&] { return runtime().heap->align(alignment, size); });
}

void *ishmem_calloc(size_t count, size_t size) {
  return guarded_pointer([&] { return runtime().heap->calloc(count, size); });
}

void *ishmem_realloc(void *ptr, size_t size) {
  return guarded_pointer([&] { return runtime().heap->realloc(ptr, size); });
}

int ishmem_free(void *ptr) {
  return guard([ptr] { runtime().heap->free(ptr); });
}

int ishmemx_heap_trim(void) {
  return guard([] { runtime().heap->trim(); });
}

}  // extern "C"
