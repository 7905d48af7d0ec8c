#include "heap/allocator.h"

#include "common/error.h"

namespace ishmem::detail {

Allocator::Allocator(std::size_t capacity) : capacity_(capacity / kMinAlign * kMinAlign) {
  if (capacity_ > 0) free_.emplace(0, capacity_);
}

std::size_t Allocator::round_size(std::size_t size) {
  if (size > SIZE_MAX - kMinAlign) return SIZE_MAX / kMinAlign * kMinAlign;
  return (size + kMinAlign - 1) / kMinAlign * kMinAlign;
}

std::optional<std::size_t> Allocator::find(std::size_t size, std::size_t align) const {
  if (align < kMinAlign) align = kMinAlign;
  size = round_size(size);
  for (const auto &[offset, length] : free_) {
    std::size_t start = (offset + align - 1) & ~(align - 1);
    if (start < offset) continue;  // wrapped
    std::size_t pad = start - offset;
    if (pad <= length && size <= length - pad) return start;
  }
  return std::nullopt;
}

std::size_t Allocator::largest_free_block() const {
  std::size_t largest = 0;
  for (const auto &[offset, length] : free_) largest = length > largest ? length : largest;
  return largest;
}

void Allocator::take(std::size_t offset, std::size_t requested) {
  const std::size_t size = round_size(requested);
  auto it = free_.upper_bound(offset);
  if (it == free_.begin()) fail(ISHMEM_ERR_INTERNAL, "allocator: offset %zu is not free", offset);
  --it;
  const std::size_t block = it->first, length = it->second;
  if (offset + size > block + length)
    fail(ISHMEM_ERR_INTERNAL, "allocator: [%zu, +%zu) is not free", offset, size);
  free_.erase(it);
  if (offset > block) free_.emplace(block, offset - block);
  if (offset + size < block + length) free_.emplace(offset + size, block + length - offset - size);
  used_.emplace(offset, UsedBlock{size, requested});
  used_bytes_ += size;
}

void Allocator::insert_free(std::size_t offset, std::size_t size) {
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && offset + size == next->first) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == offset) {
      prev->second += size;
      return;
    }
  }
  free_.emplace_hint(next, offset, size);
}

std::size_t Allocator::release(std::size_t offset) {
  auto it = used_.find(offset);
  if (it == used_.end()) return 0;
  std::size_t size = it->second.size;
  used_.erase(it);
  used_bytes_ -= size;
  insert_free(offset, size);
  return size;
}

std::size_t Allocator::block_size(std::size_t offset) const {
  auto it = used_.find(offset);
  return it == used_.end() ? 0 : it->second.size;
}

bool Allocator::in_live_block(std::size_t offset, std::size_t bytes) const {
  auto it = used_.upper_bound(offset);  // the first block after the one holding offset
  if (it == used_.begin()) return false;
  --it;
  const std::size_t into = offset - it->first;
  return into < it->second.requested && bytes <= it->second.requested - into;
}

bool Allocator::can_resize_in_place(std::size_t offset, std::size_t new_size) const {
  auto it = used_.find(offset);
  if (it == used_.end()) return false;
  new_size = round_size(new_size);
  const std::size_t old_size = it->second.size;
  if (new_size <= old_size) return true;
  auto next = free_.find(offset + old_size);
  return next != free_.end() && next->second >= new_size - old_size;
}

bool Allocator::resize_in_place(std::size_t offset, std::size_t requested) {
  auto it = used_.find(offset);
  if (it == used_.end()) return false;
  const std::size_t new_size = round_size(requested);
  const std::size_t old_size = it->second.size;
  if (new_size <= old_size) {
    it->second.requested = requested;
    if (new_size < old_size) {
      it->second.size = new_size;
      used_bytes_ -= old_size - new_size;
      insert_free(offset + new_size, old_size - new_size);
    }
    return true;
  }
  auto next = free_.find(offset + old_size);
  if (next == free_.end() || next->second < new_size - old_size) return false;
  std::size_t grow = new_size - old_size;
  std::size_t rest = next->second - grow;
  free_.erase(next);
  if (rest > 0) free_.emplace(offset + new_size, rest);
  it->second = UsedBlock{new_size, requested};
  used_bytes_ += grow;
  return true;
}

std::size_t Allocator::free_tail_start() const {
  if (free_.empty()) return capacity_;
  auto last = std::prev(free_.end());
  return last->first + last->second == capacity_ ? last->first : capacity_;
}

}  // namespace ishmem::detail
