#include "heap/symmetric_heap.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>

#include "bootstrap/agreed_step.h"
#include "common/error.h"

namespace ishmem::detail {
namespace {

std::size_t round_up(std::size_t value, std::size_t unit) {
  return (value + unit - 1) / unit * unit;
}

}  // namespace

SymmetricHeap::SymmetricHeap(Backend &backend, PeerMesh &mesh, const MpiBootstrap &boot,
                             std::size_t capacity, std::size_t min_growth, std::size_t slot_unit)
    : backend_(backend),
      mesh_(mesh),
      boot_(boot),
      my_slot_(boot.topology().local_rank),
      n_slots_(boot.topology().n_local),
      capacity_(round_up(capacity, backend.granularity())),
      stride_(slot_unit ? round_up(capacity_, slot_unit) : capacity_),
      min_growth_(round_up(min_growth, backend.granularity())),
      base_align_(capacity_ & (~capacity_ + 1)) {
  // Reserve room to start the window at a multiple of the largest power of two dividing the
  // stride, which base_align_ divides: the reservation itself is only page (or GPU granule)
  // aligned, and ishmem_align promises equally aligned addresses on every PE.
  const std::size_t window_align = stride_ & (~stride_ + 1);
  const std::size_t room = window_align > backend.granularity() ? window_align : 0;
  if (slot_unit % backend.granularity() != 0 || (slot_unit & (slot_unit - 1)) != 0)
    fail(ISHMEM_ERR_INTERNAL,
         "a heap slot unit of %zu bytes is no power-of-two multiple of the %s backend's "
         "granularity (%zu)",
         slot_unit, backend.name(), backend.granularity());
  if (stride_ < capacity_ || stride_ > (SIZE_MAX - room) / static_cast<std::size_t>(n_slots_))
    fail(ISHMEM_ERR_CONFIG, "ISHMEM_SYMMETRIC_SIZE=%zu times %d local PEs overflows", capacity,
         n_slots_);
  reserved_bytes_ = stride_ * static_cast<std::size_t>(n_slots_) + room;
  try {
    reservation_ = static_cast<char *>(backend_.reserve(reserved_bytes_));
  } catch (const Error &e) {
    fail(e.code(),
         "reserving %zu bytes of address space for the heap (ISHMEM_SYMMETRIC_SIZE=%zu for each "
         "of %d PEs on this node) failed: %s",
         reserved_bytes_, capacity, n_slots_, without_prefix(e.what()).c_str());
  }
  const std::size_t misalign = reinterpret_cast<std::uintptr_t>(reservation_) % window_align;
  window_ = reservation_ + (misalign ? window_align - misalign : 0);
}

SymmetricHeap::~SymmetricHeap() {
  try {
    trim(0);
    backend_.unreserve(reservation_, reserved_bytes_);
  } catch (const Error &e) {
    log(LogLevel::error, "releasing the heap: %s", e.what());
  }
}

void SymmetricHeap::set_transport(MpiTransport *transport) {
  if (committed_ > 0)
    fail(ISHMEM_ERR_INTERNAL, "the heap's transport changes with %zu bytes committed", committed_);
  transport_ = transport;
}

void SymmetricHeap::commit(std::size_t bytes) {
  if (bytes <= committed_) return;
  if (bytes > capacity_)
    fail(ISHMEM_ERR_NOMEM, "heap needs %zu bytes, more than ISHMEM_SYMMETRIC_SIZE (%zu)", bytes,
         capacity_);
  const std::size_t granule = backend_.granularity();
  std::size_t growth = round_up(bytes - committed_, granule);
  if (growth < min_growth_) growth = min_growth_;
  if (growth > capacity_ - committed_) growth = capacity_ - committed_;

  // This step's chunks, all the same on every PE. Chunks are at most kMaxChunkBytes unless the
  // growth would then need more fds than one message carries: then they grow instead, so that
  // any growth takes at most kMaxFdsPerMessage chunks.
  const std::size_t per_message =
      round_up((growth + kMaxFdsPerMessage - 1) / kMaxFdsPerMessage, granule);
  const std::size_t chunk_bytes = std::max(kMaxChunkBytes, per_message);
  const std::size_t n_chunks = (growth + chunk_bytes - 1) / chunk_bytes;
  if (n_chunks > kMaxFdsPerMessage)
    fail(ISHMEM_ERR_INTERNAL, "heap growth of %zu bytes takes %zu chunks, more than %zu", growth,
         n_chunks, kMaxFdsPerMessage);
  const Chunk head{committed_, std::min(chunk_bytes, growth)};
  // Lists that may fail to allocate: this PE still takes part in the exchange, as a failing one.
  FirstError plan;
  std::vector<Chunk> step;
  StepProgress done;
  plan.attempt([&] {
    step.reserve(n_chunks);
    for (std::size_t off = committed_; off < committed_ + growth; off += chunk_bytes)
      step.push_back({off, std::min(chunk_bytes, committed_ + growth - off)});
    done.mapped.assign(step.size(), std::vector<bool>(n_slots_));
    done.attached.assign(step.size(), false);
    chunks_.reserve(chunks_.size() + step.size());  // recording a mapped step cannot throw
  });

  // Node-local PEs agree first, as they exchanged the chunks and undo a failed step together.
  // PEs of other nodes agree then; that all-reduce also orders every MPI_Win_attach before any
  // use of the new memory.
  const std::size_t grown = committed_ + growth;
  auto on_node = [&] {
    try {
      agreed_step(
          boot_.node(), [&] { map_step(head, step, done, plan); },
          [&](int) {
            fail(ISHMEM_ERR_NOMEM, "a node-local peer could not grow the heap to %zu bytes", grown);
          });
    } catch (...) {
      rollback(step, done);
      throw;
    }
    chunks_.insert(chunks_.end(), step.begin(), step.end());
    committed_ = grown;
  };
  if (boot_.topology().n_nodes == 1) return on_node();
  const std::size_t before = committed_;
  try {
    agreed_step(boot_.world(), on_node, [&](int) {
      fail(ISHMEM_ERR_NOMEM, "a PE on another node could not grow its heap to %zu bytes", bytes);
    });
  } catch (...) {
    trim(before);  // this node's part, where it succeeded
    throw;
  }
}

void SymmetricHeap::map_step(const Chunk &head, const std::vector<Chunk> &step, StepProgress &done,
                             const FirstError &before) {
  // Every PE goes through every step, even after a local failure (an out-of-memory one
  // included, or one in `before` already), so that its peers hear of the failure instead of
  // waiting for a timeout, and all agree on the outcome at the end. Every fd is owned by a
  // UniqueFd from the call that makes it.
  FirstError first;
  if (!before.ok()) first.record(before.code(), before.text());
  // Handles of this PE's own chunks until they are mapped. Any value, 0 included, is a valid
  // handle (the host backend's are fds), so emptiness is kept apart from the value.
  std::vector<std::optional<ChunkHandle>> own;
  std::vector<UniqueFd> exported;
  std::vector<int> fds;
  if (first.ok())
    first.attempt([&] {
      own.resize(step.size());
      exported.reserve(step.size());
      fds.reserve(step.size());
      for (std::size_t i = 0; i < step.size(); ++i) {
        own[i] = backend_.create(step[i].bytes);
        UniqueFd fd(backend_.export_fd(*own[i]));
        exported.push_back(std::move(fd));  // reserved: cannot throw
      }
      for (const UniqueFd &fd : exported) fds.push_back(fd.get());
    });
  if (!first.ok()) fds.clear();
  ChunkMessage msg{kChunkMagic, ++exchange_tag_, head.offset,
                   head.bytes,  first.code(),    static_cast<std::uint32_t>(fds.size())};
  std::vector<std::vector<UniqueFd>> received;
  first.attempt([&] { received = mesh_.exchange(msg, fds); });
  exported.clear();  // peers hold their own references now
  if (first.ok()) first.attempt([&] { map_chunks(step, own, received, done); });
  for (std::optional<ChunkHandle> &h : own) {
    if (!h) continue;
    try {
      backend_.release(*h);
    } catch (const std::exception &e) {
      log(LogLevel::error, "releasing an unused heap chunk: %s", e.what());
    }
  }
  first.rethrow();
}

void SymmetricHeap::map_chunks(const std::vector<Chunk> &step,
                               std::vector<std::optional<ChunkHandle>> &own,
                               const std::vector<std::vector<UniqueFd>> &received,
                               StepProgress &done) {
  for (std::size_t i = 0; i < step.size(); ++i) {
    const Chunk &c = step[i];
    for (int slot = 0; slot < n_slots_; ++slot) {
      char *addr = window_ + stride_ * static_cast<std::size_t>(slot) + c.offset;
      ChunkHandle handle;
      if (slot == my_slot_) {
        handle = *own[i];
        own[i].reset();
      } else {
        if (received[slot].size() != step.size())
          fail(ISHMEM_ERR_INTERNAL, "pe slot %d sent %zu fds for %zu chunks", slot,
               received[slot].size(), step.size());
        handle = backend_.import_fd(received[slot][i].get(), c.bytes);
      }
      // The mapping keeps the memory alive, so the handle is dropped at once: the heap holds
      // no fd or handle per chunk.
      try {
        backend_.map(addr, c.bytes, handle);
      } catch (...) {
        backend_.release(handle);
        throw;
      }
      backend_.release(handle);
      done.mapped[i][slot] = true;
    }
    if (transport_) {
      transport_->attach(local_base() + c.offset, c.bytes);
      done.attached[i] = true;
    }
  }
}

void SymmetricHeap::rollback(const std::vector<Chunk> &step, const StepProgress &done) {
  // Undoes exactly what happened, and never stops early: an error here is logged, so that
  // every other chunk is still released and the caller reports the error that caused this.
  // After a failure to allocate the lists themselves, `done` may be shorter than `step`.
  const std::size_t n = std::min({step.size(), done.attached.size(), done.mapped.size()});
  for (std::size_t i = 0; i < n; ++i) {
    if (done.attached[i]) {
      try {
        transport_->detach(local_base() + step[i].offset);
      } catch (const std::exception &e) {
        log(LogLevel::error, "undoing heap growth: detaching the chunk at offset %zu: %s",
            step[i].offset, e.what());
      }
    }
    try {
      unmap_chunk(step[i], done.mapped[i]);
    } catch (const std::exception &e) {
      log(LogLevel::error, "undoing heap growth: unmapping the chunk at offset %zu: %s",
          step[i].offset, e.what());
    }
  }
}

void SymmetricHeap::unmap_chunk(const Chunk &chunk, const std::vector<bool> &slots) {
  // Every slot is tried; the first error, if any, is thrown after the last.
  std::exception_ptr first;
  for (int slot = 0; slot < n_slots_; ++slot) {
    if (!slots[slot]) continue;
    try {
      backend_.unmap(window_ + stride_ * static_cast<std::size_t>(slot) + chunk.offset,
                     chunk.bytes);
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

void SymmetricHeap::trim(std::size_t bytes) {
  const std::vector<bool> all(n_slots_, true);
  while (!chunks_.empty() && chunks_.back().offset >= bytes) {
    Chunk c = chunks_.back();
    // Trimming is deterministic and sends no messages, so every PE must drop the same chunks:
    // a failed detach is logged, and the chunk goes all the same.
    if (transport_) {
      try {
        transport_->detach(local_base() + c.offset);
      } catch (const std::exception &e) {
        log(LogLevel::error, "trimming the heap: detaching the chunk at offset %zu: %s", c.offset,
            e.what());
      }
    }
    unmap_chunk(c, all);
    chunks_.pop_back();
    committed_ = c.offset;
  }
}

}  // namespace ishmem::detail
