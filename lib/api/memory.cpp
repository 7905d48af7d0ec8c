// Collective symmetric allocation. Each call first runs agree(): a barrier that also checks
// that every PE made the same call with the same arguments after the same history. Only then
// does it touch the allocator, which is deterministic, so every PE gets the same offset.
#include <cstring>
#include <vector>

#include "api/guard.h"
#include "runtime/runtime.h"
#include "runtime/sync.h"

using namespace ishmem::detail;

namespace {

constexpr std::uint64_t kNoOffset = ~std::uint64_t{0};

void check_agreement(Runtime &rt, CollectiveOp op, std::uint64_t a, std::uint64_t b) {
  std::string disagreement = agree(rt, op, a, b);
  if (!disagreement.empty())
    fail(ISHMEM_ERR_MISMATCH, "%s: %s", collective_op_name(static_cast<std::uint64_t>(op)),
         disagreement.c_str());
}

// Backs [0, end) on every PE. Node-local PEs agree inside commit(); PEs of other nodes agree
// here, and the all-reduce also orders every MPI_Win_attach before any use.
void commit_heap(Runtime &rt, std::size_t end) {
  if (end <= rt.heap->committed()) return;
  const std::size_t before = rt.heap->committed();
  int code = ISHMEM_SUCCESS;
  std::string error;
  try {
    rt.heap->commit(end);
  } catch (const Error &e) {
    code = e.code();
    error = e.what();
  }
  if (rt.multi_node() && !rt.boot->all_true(code == ISHMEM_SUCCESS, false)) {
    rt.heap->trim(before);
    if (code == ISHMEM_SUCCESS)
      fail(ISHMEM_ERR_NOMEM, "a PE on another node could not grow its heap to %zu bytes", end);
  }
  if (code != ISHMEM_SUCCESS) throw Error(code, error);
}

std::size_t allocate(Runtime &rt, std::size_t size, std::size_t align, const char *fn) {
  auto offset = rt.allocator->find(size, align);
  if (!offset)
    fail(ISHMEM_ERR_NOMEM,
         "%s(%zu): the symmetric heap has no room: %zu of %zu bytes in use "
         "(raise ISHMEM_SYMMETRIC_SIZE)",
         fn, size, rt.allocator->used_bytes(), rt.allocator->capacity());
  commit_heap(rt, *offset + Allocator::round_size(size));
  rt.allocator->take(*offset, size);
  return *offset;
}

void *aligned_malloc(std::size_t size, std::size_t align, const char *fn,
                     CollectiveOp op = CollectiveOp::malloc) {
  Runtime &rt = runtime();
  check_agreement(rt, op, size, align);
  if (size == 0) return nullptr;
  if (align == 0 || (align & (align - 1)) != 0)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: alignment %zu is not a power of two", fn, align);
  if (align > rt.heap->base_alignment())
    fail(ISHMEM_ERR_INVALID_ARG,
         "%s: alignment %zu exceeds the heap's base alignment %zu (the largest power of two "
         "dividing ISHMEM_SYMMETRIC_SIZE)",
         fn, align, rt.heap->base_alignment());
  return rt.heap->local_base() + allocate(rt, size, align, fn);
}

std::uint64_t offset_of(Runtime &rt, const void *ptr) {
  if (!ptr) return kNoOffset;
  std::size_t off = static_cast<const char *>(ptr) - rt.heap->local_base();
  return off < rt.heap->stride() ? off : kNoOffset - 1;
}

std::size_t checked_block(Runtime &rt, std::uint64_t off, const void *ptr, const char *fn) {
  std::size_t size = off < rt.heap->stride() ? rt.allocator->block_size(off) : 0;
  if (size == 0)
    fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s(%p): not an address returned by ishmem_malloc", fn, ptr);
  return size;
}

void release_block(Runtime &rt, std::size_t off) {
  rt.allocator->release(off);
  std::size_t tail = rt.allocator->free_tail_start();
  if (rt.heap->committed() > tail && rt.heap->committed() - tail > rt.config.trim_threshold)
    rt.heap->trim(tail);
}

void zero_local(Runtime &rt, char *dest, std::size_t bytes) {
  if (rt.backend->host_accessible()) {
    memset(dest, 0, bytes);
    return;
  }
  std::vector<char> zeros(std::min<std::size_t>(bytes, 1 << 20), 0);
  for (std::size_t done = 0; done < bytes; done += zeros.size())
    rt.backend->copy(dest + done, zeros.data(), std::min(zeros.size(), bytes - done));
}

// Runs a local step that follows an agreed allocation (zeroing, copying) and agrees on its
// outcome, so that a failure on one PE (a GPU copy, say) fails every PE; also a barrier.
template <class F>
void agreed_local_step(Runtime &rt, const char *fn, F &&step) {
  int code = ISHMEM_SUCCESS;
  std::string text;
  try {
    step();
  } catch (const Error &e) {
    code = e.code();
    text = e.what();
  }
  if (rt.boot->all_true(code == ISHMEM_SUCCESS, false)) return;
  if (code != ISHMEM_SUCCESS) throw Error(code, text);
  fail(ISHMEM_ERR_SYSTEM, "%s: another PE failed to fill its copy of the block", fn);
}

template <class F>
void *guarded_pointer(F &&body) {
  void *result = nullptr;
  guard([&] { result = body(); });
  return result;
}

}  // namespace

extern "C" {

void *ishmem_malloc(size_t size) {
  return guarded_pointer(
      [&] { return aligned_malloc(size, Allocator::kMinAlign, "ishmem_malloc"); });
}

void *ishmem_align(size_t alignment, size_t size) {
  return guarded_pointer([&] { return aligned_malloc(size, alignment, "ishmem_align"); });
}

void *ishmem_calloc(size_t count, size_t size) {
  return guarded_pointer([&]() -> void * {
    std::size_t bytes = 0;
    // An overflowing product is agreed on as SIZE_MAX, which no heap can hold.
    if (__builtin_mul_overflow(count, size, &bytes)) bytes = SIZE_MAX;
    char *p = static_cast<char *>(
        aligned_malloc(bytes, Allocator::kMinAlign, "ishmem_calloc", CollectiveOp::calloc));
    if (!p) return nullptr;
    Runtime &rt = runtime();
    // No peer may write the block before every PE has zeroed its copy.
    try {
      agreed_local_step(rt, "ishmem_calloc", [&] { zero_local(rt, p, bytes); });
    } catch (...) {
      release_block(rt, static_cast<std::size_t>(p - rt.heap->local_base()));
      throw;
    }
    return p;
  });
}

void *ishmem_realloc(void *ptr, size_t size) {
  return guarded_pointer([&]() -> void * {
    Runtime &rt = runtime();
    std::uint64_t off = offset_of(rt, ptr);
    check_agreement(rt, CollectiveOp::realloc, off, size);
    if (!ptr)
      return size ? rt.heap->local_base() + allocate(rt, size, 0, "ishmem_realloc") : nullptr;
    std::size_t old_size = checked_block(rt, off, ptr, "ishmem_realloc");
    if (size == 0) {
      release_block(rt, off);
      return nullptr;
    }
    if (rt.allocator->can_resize_in_place(off, size)) {
      commit_heap(rt, off + Allocator::round_size(size));  // collective, same on every PE
      rt.allocator->resize_in_place(off, size);
      return ptr;
    }
    std::size_t fresh = allocate(rt, size, 0, "ishmem_realloc");
    char *base = rt.heap->local_base();
    // Every PE has copied before any peer writes the new block.
    try {
      agreed_local_step(rt, "ishmem_realloc", [&] {
        rt.backend->copy(base + fresh, base + off, std::min(old_size, Allocator::round_size(size)));
      });
    } catch (...) {
      release_block(rt, fresh);
      throw;
    }
    release_block(rt, off);
    return base + fresh;
  });
}

int ishmem_free(void *ptr) {
  return guard([ptr] {
    Runtime &rt = runtime();
    std::uint64_t off = offset_of(rt, ptr);
    check_agreement(rt, CollectiveOp::free, off, 0);
    if (!ptr) return;
    checked_block(rt, off, ptr, "ishmem_free");
    release_block(rt, off);
  });
}

int ishmemx_heap_trim(void) {
  return guard([] {
    Runtime &rt = runtime();
    check_agreement(rt, CollectiveOp::trim, 0, 0);
    rt.heap->trim(rt.allocator->free_tail_start());
  });
}

}  // extern "C"
