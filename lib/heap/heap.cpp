#include "heap/heap.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "bootstrap/agreed_step.h"
#include "common/error.h"

namespace ishmem::detail {
namespace {

constexpr std::uint64_t kNoOffset = ~std::uint64_t{0};
// Device code translates a symmetric address by adding to its high 32 bits only
// (ishmem/detail/rma_impl.h), so the slots of a heap that kernels reach are 4 GiB apart or a
// multiple of that. This costs only address space: memory is committed by capacity.
constexpr std::size_t kDeviceSlotUnit = std::size_t{1} << 32;

// Why off-node PEs are to be served (runtime/served_off_node.h) rather than reached through
// an MPI window over the heap, or NULL for the window. ISHMEM_OFF_NODE=auto serves GPU heaps,
// and host heaps where the nodes are joined by a network: over TCP, ob1's one-sided calls
// refuse MPI_THREAD_MULTIPLE and UCX's are emulated at milliseconds each, while a served
// request costs one message each way (docs/OFF_NODE.md). Between split-mode nodes of one
// machine the window goes through shared memory and wins. The server thread needs
// MPI_THREAD_MULTIPLE; below it a host heap keeps the window, driven by the PE's own calls.
const char *served_path_reason(const Config &config, const Backend &backend, const Topology &topo) {
  if (config.off_node == "served") return "ISHMEM_OFF_NODE=served";
  if (config.off_node == "window") return nullptr;
  if (!backend.host_accessible()) return "the heap is on a GPU";
  int level = MPI_THREAD_SINGLE;
  if (MPI_Query_thread(&level) != MPI_SUCCESS || level != MPI_THREAD_MULTIPLE) return nullptr;
  if (topo.one_machine) return nullptr;
  return "the nodes are joined by a network, where MPI's one-sided calls are slower than "
         "served requests (ISHMEM_OFF_NODE=window chooses them)";
}

}  // namespace

Heap::Heap(std::unique_ptr<Backend> backend, PeerMesh &mesh, const MpiBootstrap &boot,
           const Config &config)
    : backend_(std::move(backend)),
      boot_(boot),
      trim_threshold_(config.trim_threshold),
      trim_interval_(config.trim_interval) {
  control_ = std::make_unique<ControlSegment>(mesh, boot);
  check_ = std::make_unique<CollectiveCheck>(boot, *control_);
  agreed_setup_step(boot.world(), "reserving the heap", [&] {
    window_ = std::make_unique<SymmetricHeap>(*backend_, mesh, boot, config.symmetric_size,
                                              config.chunk_size,
                                              backend_->host_accessible() ? 0 : kDeviceSlotUnit);
    allocator_ = std::make_unique<Allocator>(window_->capacity());
  });
  const Topology &topo = boot.topology();
  if (topo.n_nodes == 1) return;
  if (const char *why = served_path_reason(config, *backend_, topo)) {
    served_reason_ = why;
    return;
  }
  open_window(config.off_node == "auto");
}

// Makes the MPI window on every PE. Where no PE could make it and `may_serve` (ISHMEM_OFF_NODE
// =auto; no one-sided component for MPI_THREAD_MULTIPLE, say), off-node PEs are served
// instead; any other failure fails every PE.
void Heap::open_window(bool may_serve) {
  MPI_Comm world = boot_.world();
  FirstError mine;
  mine.attempt([&] { transport_ = std::make_unique<MpiTransport>(world, window_->local_base()); });
  const int worst = lowest_status(world, mine.code());
  if (worst == ISHMEM_SUCCESS) {
    window_->set_transport(transport_.get());
    return;
  }
  const bool none_made =
      lowest_status(world, mine.ok() ? ISHMEM_ERR_SYSTEM : ISHMEM_SUCCESS) == ISHMEM_SUCCESS;
  if (may_serve && none_made) {
    served_reason_ = "MPI could not make the window: " + without_prefix(mine.text());
    window_refused_ = true;
    return;
  }
  // Where the window exists on some PEs only, freeing it is collective over all of them, so
  // it is left to MPI_Finalize rather than risk a hang in a failing init.
  (void)transport_.release();
  mine.rethrow();
  fail(worst, "ishmem_init: another PE failed while %s", "creating the MPI window");
}

void Heap::check_call(CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1) {
  quiet_rma(transport_.get());  // the check is a barrier, which completes this PE's RMA
  check_->check(op, arg0, arg1);
}

template <class Fill>
void Heap::agreed_fill(const char *fn, Fill &&fill) {
  agreed_step(boot_.world(), fill, [fn](int) {
    fail(ISHMEM_ERR_SYSTEM, "%s: another PE failed to fill its copy of the block", fn);
  });
}

void *Heap::malloc(std::size_t size) {
  return aligned_malloc(size, Allocator::kMinAlign, "ishmem_malloc", CollectiveOp::malloc);
}

void *Heap::align(std::size_t alignment, std::size_t size) {
  return aligned_malloc(size, alignment, "ishmem_align", CollectiveOp::malloc);
}

void *Heap::calloc(std::size_t count, std::size_t size) {
  std::size_t bytes = 0;
  // An overflowing product is agreed on as SIZE_MAX, which no heap can hold.
  if (__builtin_mul_overflow(count, size, &bytes)) bytes = SIZE_MAX;
  char *p = static_cast<char *>(
      aligned_malloc(bytes, Allocator::kMinAlign, "ishmem_calloc", CollectiveOp::calloc));
  if (!p) return nullptr;
  // No peer may write the block before every PE has zeroed its copy.
  try {
    agreed_fill("ishmem_calloc", [&] { zero_local(p, bytes); });
  } catch (...) {
    release_block(static_cast<std::size_t>(p - local_base()));
    throw;
  }
  after_call("ishmem_calloc", true);
  return p;
}

void *Heap::realloc(void *ptr, std::size_t size) {
  std::uint64_t off = offset_of(ptr);
  check_call(CollectiveOp::realloc, off, size);
  if (!ptr) {
    char *p = size ? local_base() + allocate(size, 0, "ishmem_realloc") : nullptr;
    after_call("ishmem_realloc", p != nullptr);
    return p;
  }
  std::size_t old_size = checked_block(off, ptr, "ishmem_realloc");
  if (size == 0) {
    release_block(off);
    after_call("ishmem_realloc", false);
    return nullptr;
  }
  if (allocator_->can_resize_in_place(off, size)) {
    window_->commit(off + Allocator::round_size(size));  // collective, same on every PE
    allocator_->resize_in_place(off, size);
    after_call("ishmem_realloc", true);
    return ptr;
  }
  std::size_t fresh = allocate(size, 0, "ishmem_realloc");
  char *base = local_base();
  // The copy sees every write queued before this call, on any PE, and every PE has copied
  // before any peer writes the new block.
  try {
    quiesce_all("ishmem_realloc");
    agreed_fill("ishmem_realloc", [&] {
      backend_->copy(base + fresh, base + off, std::min(old_size, Allocator::round_size(size)));
    });
  } catch (...) {
    release_block(fresh);
    throw;
  }
  release_block(off);
  after_call("ishmem_realloc", true);
  return base + fresh;
}

void Heap::free(void *ptr) {
  std::uint64_t off = offset_of(ptr);
  check_call(CollectiveOp::free, off, 0);
  if (!ptr) return;
  checked_block(off, ptr, "ishmem_free");
  release_block(off);
  after_call("ishmem_free", false);
}

void Heap::trim() {
  check_call(CollectiveOp::trim, 0, 0);
  period_calls_ = 0;  // a new period of the policy starts
  period_peak_ = 0;
  release_past(allocator_->free_tail_start(), "ishmemx_heap_trim");
}

void *Heap::aligned_malloc(std::size_t size, std::size_t align, const char *fn, CollectiveOp op) {
  check_call(op, size, align);
  if (size == 0) return nullptr;
  if (align == 0 || (align & (align - 1)) != 0)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: alignment %zu is not a power of two", fn, align);
  if (align > window_->base_alignment())
    fail(ISHMEM_ERR_INVALID_ARG,
         "%s: alignment %zu exceeds the heap's base alignment %zu (the largest power of two "
         "dividing ISHMEM_SYMMETRIC_SIZE)",
         fn, align, window_->base_alignment());
  char *p = local_base() + allocate(size, align, fn);
  if (op != CollectiveOp::calloc) after_call(fn, true);  // calloc's own ends after the fill
  return p;
}

std::size_t Heap::allocate(std::size_t size, std::size_t align, const char *fn) {
  auto offset = allocator_->find(size, align);
  if (!offset) {
    // Whether freeing elsewhere could help: with enough free bytes in all but no block large
    // enough, the free space is fragmented (or the alignment asked for leaves no room).
    const std::size_t in_use = allocator_->used_bytes(), capacity = allocator_->capacity();
    const std::size_t largest = allocator_->largest_free_block();
    const bool fragmented = capacity - in_use >= Allocator::round_size(size);
    fail(ISHMEM_ERR_NOMEM,
         "%s(%zu): the symmetric heap has no room: %zu of %zu bytes in use, %zu free in all, "
         "the largest free block %zu bytes (%s)",
         fn, size, in_use, capacity, capacity - in_use, largest,
         fragmented ? "the free space is fragmented: free blocks next to each other, or raise "
                      "ISHMEM_SYMMETRIC_SIZE"
                    : "raise ISHMEM_SYMMETRIC_SIZE");
  }
  try {
    window_->commit(*offset + Allocator::round_size(size));  // collective; agrees itself
  } catch (...) {
    // Every PE failed to grow. A block that grows the heap starts in its free tail, so the
    // memory kept there was the first this one took: releasing it could not make room for
    // it. It goes back now, so that whatever else needs the memory gets it.
    release_past_logged(allocator_->free_tail_start(), fn);
    throw;
  }
  allocator_->take(*offset, size);
  return *offset;
}

std::uint64_t Heap::offset_of(const void *ptr) const {
  if (!ptr) return kNoOffset;
  std::size_t off = static_cast<const char *>(ptr) - local_base();
  return off < capacity() ? off : kNoOffset - 1;
}

char *Heap::library_area(std::size_t bytes) {
  if (allocator_->used_blocks() != 0)
    fail(ISHMEM_ERR_INTERNAL, "the library's heap area is asked for after other blocks");
  char *area = static_cast<char *>(calloc(1, bytes));
  user_offset_ = static_cast<std::size_t>(area - local_base()) + Allocator::round_size(bytes);
  return area;
}

std::size_t Heap::checked_block(std::uint64_t off, const void *ptr, const char *fn) const {
  // The library's area is no block of the user's.
  std::size_t size = off < capacity() && off >= user_offset_ ? allocator_->block_size(off) : 0;
  if (size == 0)
    fail(ISHMEM_ERR_NOT_SYMMETRIC, "%s(%p): not an address returned by ishmem_malloc", fn, ptr);
  return size;
}

void Heap::after_call(const char *fn, bool gave_block) {
  // A period of ISHMEM_TRIM_INTERVAL calls: what no block used after any of them goes back
  // at its end. A loop that allocates and frees a large block each step uses the memory in
  // every period, so it is never unmapped; 0 or 1 make every call a period of its own.
  period_peak_ = std::max(period_peak_, allocator_->free_tail_start());
  if (++period_calls_ < trim_interval_) return;
  const std::size_t keep = period_peak_;
  period_calls_ = 0;
  period_peak_ = 0;
  if (committed() <= keep || committed() - keep <= trim_threshold_) return;
  if (gave_block) return release_past_logged(keep, fn);
  release_past(keep, fn);
}

void Heap::release_past_logged(std::size_t bytes, const char *fn) noexcept {
  try {
    release_past(bytes, fn);
  } catch (const std::exception &e) {
    log(LogLevel::error, "%s: releasing the heap's unused memory: %s", fn, e.what());
  }
}

void Heap::release_past(std::size_t bytes, const char *fn) {
  if (!window_->has_chunks_past(bytes)) return;
  quiesce_all(fn);
  window_->trim(bytes);
}

void Heap::quiesce_all(const char *fn) {
  agreed_step(
      boot_.world(), [&] { backend_->quiesce(); },
      [fn](int code) {
        fail(code, "%s: another PE's device failed while the heap waited for its queued work", fn);
      });
}

void Heap::zero_local(char *dest, std::size_t bytes) {
  if (backend_->host_accessible()) {
    memset(dest, 0, bytes);
    return;
  }
  std::vector<char> zeros(std::min<std::size_t>(bytes, 1 << 20), 0);
  for (std::size_t done = 0; done < bytes; done += zeros.size())
    backend_->copy(dest + done, zeros.data(), std::min(zeros.size(), bytes - done));
}

}  // namespace ishmem::detail
