#include "heap/symmetric_heap.h"

#include <cstdint>

#include "runtime/error.h"

namespace ishmem::detail {
namespace {

std::size_t round_up(std::size_t value, std::size_t unit) {
  return (value + unit - 1) / unit * unit;
}

}  // namespace

SymmetricHeap::SymmetricHeap(Backend &backend, PeerMesh &mesh, const MpiBootstrap &boot,
                             std::size_t capacity, std::size_t min_growth)
    : backend_(backend),
      mesh_(mesh),
      boot_(boot),
      my_slot_(boot.topology().local_rank),
      n_slots_(boot.topology().n_local),
      stride_(round_up(capacity, backend.granularity())),
      min_growth_(round_up(min_growth, backend.granularity())),
      base_align_(stride_ & (~stride_ + 1)) {
  // Reserve room to start the window at a multiple of base_align_: the reservation itself is
  // only page (or GPU granule) aligned, and ishmem_align promises aligned addresses.
  const std::size_t room = base_align_ > backend.granularity() ? base_align_ : 0;
  if (stride_ > (SIZE_MAX - room) / static_cast<std::size_t>(n_slots_))
    fail(ISHMEM_ERR_CONFIG, "ISHMEM_SYMMETRIC_SIZE=%zu times %d local PEs overflows", capacity,
         n_slots_);
  reserved_bytes_ = stride_ * static_cast<std::size_t>(n_slots_) + room;
  reservation_ = static_cast<char *>(backend_.reserve(reserved_bytes_));
  const std::size_t misalign = reinterpret_cast<std::uintptr_t>(reservation_) % base_align_;
  window_ = reservation_ + (misalign ? base_align_ - misalign : 0);
}

SymmetricHeap::~SymmetricHeap() {
  try {
    trim(0);
    backend_.unreserve(reservation_, reserved_bytes_);
  } catch (const Error &e) {
    log(LogLevel::error, "releasing the heap: %s", e.what());
  }
}

void SymmetricHeap::commit(std::size_t bytes) {
  if (bytes <= committed_) return;
  if (bytes > stride_)
    fail(ISHMEM_ERR_NOMEM, "heap needs %zu bytes, more than ISHMEM_SYMMETRIC_SIZE (%zu)", bytes,
         stride_);
  const std::size_t granule = backend_.granularity();
  std::size_t growth = round_up(bytes - committed_, granule);
  if (growth < min_growth_) growth = min_growth_;
  if (growth > stride_ - committed_) growth = stride_ - committed_;

  // This step's chunks, all the same on every PE.
  std::vector<Chunk> step;
  for (std::size_t off = committed_; off < committed_ + growth; off += kMaxChunkBytes)
    step.push_back({off, std::min(kMaxChunkBytes, committed_ + growth - off)});
  if (step.size() > kMaxFdsPerMessage)
    fail(ISHMEM_ERR_NOMEM, "heap growth of %zu bytes exceeds %zu chunks", growth,
         kMaxFdsPerMessage);

  // Every PE goes through every step, even after a local failure, so that its peers hear of
  // the failure instead of waiting for a timeout, and all agree on the outcome at the end.
  int code = ISHMEM_SUCCESS;
  std::string error;
  auto record = [&](const Error &e) {
    if (code == ISHMEM_SUCCESS) {
      code = e.code();
      error = e.what();
    }
  };
  std::vector<ChunkHandle> own;
  std::vector<UniqueFd> exported;
  std::vector<std::vector<bool>> mapped(step.size(), std::vector<bool>(n_slots_, false));
  try {
    for (const Chunk &c : step) {
      own.push_back(backend_.create(c.bytes));
      exported.emplace_back(backend_.export_fd(own.back()));
    }
  } catch (const Error &e) {
    record(e);
  }
  std::vector<int> fds;
  if (code == ISHMEM_SUCCESS)
    for (const UniqueFd &fd : exported) fds.push_back(fd.get());
  ChunkMessage msg{kChunkMagic,
                   ++exchange_tag_,
                   step.front().offset,
                   step.front().bytes,
                   code,
                   static_cast<std::uint32_t>(fds.size())};
  std::vector<std::vector<UniqueFd>> received;
  try {
    received = mesh_.exchange(msg, fds);
  } catch (const Error &e) {
    record(e);
  }
  exported.clear();  // peers hold their own references now
  if (code == ISHMEM_SUCCESS) {
    try {
      for (std::size_t i = 0; i < step.size(); ++i) {
        const Chunk &c = step[i];
        for (int slot = 0; slot < n_slots_; ++slot) {
          char *addr = window_ + stride_ * static_cast<std::size_t>(slot) + c.offset;
          ChunkHandle handle;
          if (slot == my_slot_) {
            handle = own[i];
            own[i] = 0;
          } else {
            if (received[slot].size() != step.size())
              fail(ISHMEM_ERR_INTERNAL, "pe slot %d sent %zu fds for %zu chunks", slot,
                   received[slot].size(), step.size());
            handle = backend_.import_fd(received[slot][i].get(), c.bytes);
          }
          // The mapping keeps the memory alive, so the handle is dropped at once: the heap
          // holds no fd or handle per chunk.
          try {
            backend_.map(addr, c.bytes, handle);
          } catch (...) {
            backend_.release(handle);
            throw;
          }
          backend_.release(handle);
          mapped[i][slot] = true;
        }
        if (on_local_chunk) on_local_chunk(local_base() + c.offset, c.bytes, true);
      }
    } catch (const Error &e) {
      record(e);
    }
  }
  for (ChunkHandle h : own)
    if (h) backend_.release(h);
  received.clear();

  bool all_ok = boot_.all_true(code == ISHMEM_SUCCESS, true);
  if (!all_ok) {
    for (std::size_t i = 0; i < step.size(); ++i) {
      if (mapped[i][my_slot_] && on_local_chunk)
        on_local_chunk(local_base() + step[i].offset, step[i].bytes, false);
      unmap_chunk(step[i], mapped[i]);
    }
    if (code != ISHMEM_SUCCESS) throw Error(code, error);
    fail(ISHMEM_ERR_NOMEM, "a node-local peer could not grow the heap to %zu bytes",
         committed_ + growth);
  }
  for (const Chunk &c : step) chunks_.push_back(c);
  committed_ += growth;
}

void SymmetricHeap::unmap_chunk(const Chunk &chunk, const std::vector<bool> &slots) {
  for (int slot = 0; slot < n_slots_; ++slot)
    if (slots[slot])
      backend_.unmap(window_ + stride_ * static_cast<std::size_t>(slot) + chunk.offset,
                     chunk.bytes);
}

void SymmetricHeap::trim(std::size_t bytes) {
  const std::vector<bool> all(n_slots_, true);
  while (!chunks_.empty() && chunks_.back().offset >= bytes) {
    Chunk c = chunks_.back();
    if (on_local_chunk) on_local_chunk(local_base() + c.offset, c.bytes, false);
    unmap_chunk(c, all);
    chunks_.pop_back();
    committed_ = c.offset;
  }
}

}  // namespace ishmem::detail
