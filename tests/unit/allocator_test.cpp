// The symmetric heap's offset allocator: first fit, alignment, determinism, coalescing.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "heap/allocator.h"

using ishmem::detail::Allocator;

namespace {

constexpr std::size_t kA = Allocator::kMinAlign;

// find + take, as the library does; returns SIZE_MAX when there is no room.
std::size_t alloc(Allocator &a, std::size_t size, std::size_t align = kA) {
  auto off = a.find(size, align);
  if (!off) return SIZE_MAX;
  a.take(*off, size);
  return *off;
}

TEST(Allocator, FreshAllocatorIsOneFreeBlock) {
  Allocator a(1 << 20);
  EXPECT_EQ(a.capacity(), 1u << 20);
  EXPECT_EQ(a.used_bytes(), 0u);
  EXPECT_EQ(a.used_blocks(), 0u);
  EXPECT_EQ(a.free_blocks(), 1u);
  EXPECT_EQ(a.free_tail_start(), 0u);
}

TEST(Allocator, CapacityRoundsDownToMinAlign) {
  Allocator a(1000);
  EXPECT_EQ(a.capacity(), 1000 / kA * kA);
}

TEST(Allocator, RoundSize) {
  EXPECT_EQ(Allocator::round_size(0), 0u);
  EXPECT_EQ(Allocator::round_size(1), kA);
  EXPECT_EQ(Allocator::round_size(kA), kA);
  EXPECT_EQ(Allocator::round_size(kA + 1), 2 * kA);
  EXPECT_EQ(Allocator::round_size(SIZE_MAX) % kA, 0u);  // no wrap to a small size
  EXPECT_GT(Allocator::round_size(SIZE_MAX), SIZE_MAX / 2);
}

TEST(Allocator, FirstFitTakesLowestHole) {
  Allocator a(1 << 20);
  std::size_t x = alloc(a, 100);   // [0, 128)
  std::size_t y = alloc(a, 1000);  // [128, 1152)
  std::size_t z = alloc(a, 64);    // [1152, 1216)
  EXPECT_EQ(x, 0u);
  EXPECT_EQ(y, 128u);
  EXPECT_EQ(z, 1152u);
  EXPECT_EQ(a.block_size(y), 1024u);
  ASSERT_EQ(a.release(x), 128u);
  ASSERT_EQ(a.release(y), 1024u);  // merges with x's hole: [0, 1152) free
  // A small request goes to the first (lowest) hole, not the larger tail.
  EXPECT_EQ(alloc(a, 64), 0u);
  EXPECT_EQ(alloc(a, 512), 64u);
  // Too big for what is left of the hole: goes past z.
  EXPECT_EQ(alloc(a, 1024), 1216u);
}

TEST(Allocator, Alignment) {
  Allocator a(1 << 24);
  EXPECT_EQ(alloc(a, 1), 0u);
  for (std::size_t align : {std::size_t{64}, std::size_t{128}, std::size_t{4096},
                            std::size_t{1} << 16, std::size_t{1} << 20}) {
    std::size_t off = alloc(a, 100, align);
    ASSERT_NE(off, SIZE_MAX) << align;
    EXPECT_EQ(off % align, 0u) << align;
  }
  // Alignments below kMinAlign still give kMinAlign-aligned offsets.
  for (std::size_t align : {1, 2, 8, 32}) EXPECT_EQ(alloc(a, 3, align) % kA, 0u);
  // The padding before an aligned block stays usable.
  Allocator b(1 << 20);
  alloc(b, 64);
  EXPECT_EQ(alloc(b, 64, 4096), 4096u);
  EXPECT_EQ(alloc(b, 64), 64u);
}

TEST(Allocator, FindDoesNotChangeState) {
  Allocator a(4096);
  auto off = a.find(128, kA);
  ASSERT_TRUE(off.has_value());
  EXPECT_EQ(a.find(128, kA), off);
  EXPECT_EQ(a.used_blocks(), 0u);
}

TEST(Allocator, DeterministicForSameSequence) {
  Allocator a(1 << 26), b(1 << 26);
  std::mt19937_64 rng(12345);
  std::vector<std::size_t> live_a, live_b;
  for (int i = 0; i < 5000; ++i) {
    if (!live_a.empty() && rng() % 3 == 0) {
      std::size_t k = rng() % live_a.size();
      EXPECT_EQ(a.release(live_a[k]), b.release(live_b[k]));
      live_a.erase(live_a.begin() + k);
      live_b.erase(live_b.begin() + k);
      continue;
    }
    std::size_t size = 1 + rng() % 20000, align = std::size_t{1} << (rng() % 14);
    std::size_t oa = alloc(a, size, align), ob = alloc(b, size, align);
    ASSERT_EQ(oa, ob) << "step " << i;
    if (oa != SIZE_MAX) {
      live_a.push_back(oa);
      live_b.push_back(ob);
    }
  }
  EXPECT_EQ(a.used_bytes(), b.used_bytes());
  EXPECT_EQ(a.free_blocks(), b.free_blocks());
  for (std::size_t off : live_a) a.release(off);
  EXPECT_EQ(a.used_bytes(), 0u);
  EXPECT_EQ(a.free_blocks(), 1u);  // everything merged back into one block
}

TEST(Allocator, CoalescesLeftAndRight) {
  Allocator a(1 << 20);
  std::size_t b0 = alloc(a, 64), b1 = alloc(a, 64), b2 = alloc(a, 64), b3 = alloc(a, 64),
              b4 = alloc(a, 64);
  EXPECT_EQ(a.free_blocks(), 1u);  // the tail
  a.release(b1);
  a.release(b3);
  EXPECT_EQ(a.free_blocks(), 3u);  // b1, b3, tail
  a.release(b2);                   // merges left (b1) and right (b3)
  EXPECT_EQ(a.free_blocks(), 2u);
  EXPECT_EQ(alloc(a, 192), b1);  // the merged hole holds exactly three blocks
  a.release(b1);
  a.release(b4);  // merges with b1..b3 on the left and the tail on the right
  EXPECT_EQ(a.free_blocks(), 1u);
  EXPECT_EQ(a.free_tail_start(), b1);
  a.release(b0);
  EXPECT_EQ(a.free_blocks(), 1u);
  EXPECT_EQ(a.free_tail_start(), 0u);
  EXPECT_EQ(a.used_bytes(), 0u);
}

TEST(Allocator, ReleaseUnknownOffsetReturnsZero) {
  Allocator a(1 << 20);
  std::size_t x = alloc(a, 256);
  EXPECT_EQ(a.release(x + 64), 0u);  // inside a block
  EXPECT_EQ(a.release(4096), 0u);    // free space
  EXPECT_EQ(a.release(1u << 30), 0u);
  EXPECT_EQ(a.release(x), 256u);
  EXPECT_EQ(a.release(x), 0u);  // double free
  EXPECT_EQ(a.used_bytes(), 0u);
  EXPECT_EQ(a.block_size(x), 0u);
}

TEST(Allocator, ResizeInPlace) {
  Allocator a(1 << 20);
  std::size_t x = alloc(a, 128);
  EXPECT_TRUE(a.resize_in_place(x, 1000));  // grows into the free tail
  EXPECT_EQ(a.block_size(x), 1024u);
  EXPECT_EQ(a.used_bytes(), 1024u);
  std::size_t y = alloc(a, 64);
  EXPECT_EQ(y, 1024u);
  EXPECT_FALSE(a.resize_in_place(x, 1100));  // y is in the way
  EXPECT_EQ(a.block_size(x), 1024u);
  EXPECT_TRUE(a.resize_in_place(x, 200));  // shrink frees [256, 1024)
  EXPECT_EQ(a.block_size(x), 256u);
  EXPECT_EQ(a.used_bytes(), 256u + 64u);
  EXPECT_EQ(alloc(a, 768), 256u);                // the freed part is reusable
  EXPECT_TRUE(a.resize_in_place(x, 256));        // same size
  EXPECT_FALSE(a.resize_in_place(x + 64, 512));  // not a block
  // Shrinking a block whose right neighbour is free merges the freed part into it.
  Allocator b(1 << 20);
  std::size_t p = alloc(b, 1024);
  EXPECT_EQ(b.free_blocks(), 1u);
  EXPECT_TRUE(b.resize_in_place(p, 64));
  EXPECT_EQ(b.free_blocks(), 1u);
  EXPECT_EQ(b.free_tail_start(), 64u);
  // Growing exactly into the whole of the free space.
  EXPECT_TRUE(b.resize_in_place(p, b.capacity()));
  EXPECT_EQ(b.free_blocks(), 0u);
  EXPECT_EQ(b.free_tail_start(), b.capacity());
  EXPECT_FALSE(b.resize_in_place(p, b.capacity() + kA));
}

TEST(Allocator, FreeTailStart) {
  Allocator a(1 << 20);
  std::size_t x = alloc(a, 1000), y = alloc(a, 1000);
  EXPECT_EQ(a.free_tail_start(), 2048u);
  a.release(x);  // a hole below y does not move the tail
  EXPECT_EQ(a.free_tail_start(), 2048u);
  a.release(y);
  EXPECT_EQ(a.free_tail_start(), 0u);
  alloc(a, a.capacity());  // full: no free tail
  EXPECT_EQ(a.free_tail_start(), a.capacity());
}

TEST(Allocator, ExhaustingCapacity) {
  Allocator a(64 * 16);
  std::vector<std::size_t> blocks;
  for (int i = 0; i < 16; ++i) blocks.push_back(alloc(a, 64));
  EXPECT_EQ(blocks.back(), 64u * 15);
  EXPECT_FALSE(a.find(1, kA).has_value());
  EXPECT_EQ(a.free_blocks(), 0u);
  EXPECT_EQ(a.used_bytes(), a.capacity());
  a.release(blocks[5]);
  EXPECT_FALSE(a.find(65, kA).has_value());  // one 64-byte hole only
  EXPECT_EQ(a.find(64, kA), std::optional<std::size_t>(64 * 5));
  // Requests larger than the heap, including ones that overflow when rounded or aligned.
  Allocator b(1 << 20);
  EXPECT_FALSE(b.find((1 << 20) + 1, kA).has_value());
  EXPECT_FALSE(b.find(SIZE_MAX, kA).has_value());
  EXPECT_FALSE(b.find(SIZE_MAX / 2, kA).has_value());
  EXPECT_EQ(b.find(64, std::size_t{1} << 63), std::optional<std::size_t>(0));  // 0 fits any
  EXPECT_TRUE(b.find(1 << 20, kA).has_value());
}

TEST(Allocator, ZeroCapacity) {
  Allocator a(0);
  EXPECT_EQ(a.free_blocks(), 0u);
  EXPECT_FALSE(a.find(64, kA).has_value());
  EXPECT_EQ(a.free_tail_start(), 0u);
}

}  // namespace
