// Deterministic offset allocator for the symmetric heap: first fit over an address-ordered
// free list whose neighbouring blocks are merged on free. The same call sequence gives the
// same offsets on every PE. It manages offsets only; it never touches memory.
#pragma once

#include <cstddef>
#include <map>
#include <optional>

namespace ishmem::detail {

class Allocator {
 public:
  // Every block's size and offset are multiples of this.
  static constexpr std::size_t kMinAlign = 64;

  explicit Allocator(std::size_t capacity);

  // Lowest offset where `size` bytes aligned to `align` (a power of two) fit; no state change.
  std::optional<std::size_t> find(std::size_t size, std::size_t align) const;
  // Marks [offset, offset + size) used; it must lie in one free block (from find()).
  void take(std::size_t offset, std::size_t size);
  // Frees the block starting at `offset`; returns its size, or 0 if no block starts there.
  std::size_t release(std::size_t offset);
  // Size of the used block starting at `offset`, 0 if none.
  std::size_t block_size(std::size_t offset) const;
  // True if [offset, offset + bytes) lies inside the bytes requested for one used block (not
  // its rounding); O(log n). The checks of ISHMEM_DEBUG=1.
  bool in_live_block(std::size_t offset, std::size_t bytes) const;
  // Calls f(offset, requested bytes) for every used block, by offset.
  template <class F>
  void for_each_live_block(F &&f) const {
    for (const auto &[offset, block] : used_) f(offset, block.requested);
  }
  // True if resize_in_place(offset, new_size) would succeed; no state change.
  bool can_resize_in_place(std::size_t offset, std::size_t new_size) const;
  // Grows or shrinks a used block in place if the space after it allows; true on success.
  bool resize_in_place(std::size_t offset, std::size_t new_size);

  // Start of the free block that reaches the end of the heap (capacity if none).
  std::size_t free_tail_start() const;
  std::size_t capacity() const { return capacity_; }
  std::size_t used_bytes() const { return used_bytes_; }
  std::size_t used_blocks() const { return used_.size(); }
  std::size_t free_blocks() const { return free_.size(); }
  // Size of the largest free block (0 if none); O(free blocks), for the error of a failed find.
  std::size_t largest_free_block() const;

  static std::size_t round_size(std::size_t size);

 private:
  void insert_free(std::size_t offset, std::size_t size);  // merges neighbours

  std::size_t capacity_;
  std::size_t used_bytes_ = 0;
  std::map<std::size_t, std::size_t> free_;  // offset -> size, never adjacent
  struct UsedBlock {
    std::size_t size;       // rounded to kMinAlign: what the block takes
    std::size_t requested;  // what the caller asked for
  };
  std::map<std::size_t, UsedBlock> used_;  // by offset
};

}  // namespace ishmem::detail
