// Symmetric allocation: malloc, realloc (grow, move, shrink), calloc (zeroed, even over dirty
// memory), ishmem_align. Each allocation must give the same offset on every PE and be usable
// by the other PEs over its whole length.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

unsigned char byte_of(std::size_t i, int pe) {
  return static_cast<unsigned char>((i * 7 + static_cast<std::size_t>(pe) * 29 + 1) % 251);
}

void fill(void *p, std::size_t bytes, int pe) {
  auto *c = static_cast<unsigned char *>(p);
  for (std::size_t i = 0; i < bytes; ++i) c[i] = byte_of(i, pe);
}

// `bytes` bytes at `p` hold `pe`'s pattern, locally or (pe != me) read with getmem.
void expect_pattern(const void *p, std::size_t bytes, int pe, int from_pe,
                    const std::string &what) {
  std::vector<unsigned char> got(bytes);
  EXPECT_EQ(ishmem_getmem(got.data(), p, bytes, from_pe), ISHMEM_SUCCESS);
  expect_elements(
      got.data(), bytes, [&](std::size_t i) { return byte_of(i, pe); }, what);
}

TEST(Memory, MallocGivesSameOffsetsAndUsableBlocks) {
  std::vector<char *> blocks;
  std::vector<std::size_t> sizes = {1, 64, 100, 4096, 5000, 1 << 20, 3, (3 << 20) + 5};
  for (std::size_t s : sizes) {
    char *p = static_cast<char *>(ishmem_malloc(s));
    ASSERT_TRUE(all_true(p != nullptr)) << ishmemx_last_error();
    EXPECT_TRUE(all_equal(heap_offset(p))) << "size " << s;
    blocks.push_back(p);
  }
  // No two blocks overlap.
  for (std::size_t i = 0; i < blocks.size(); ++i)
    for (std::size_t j = i + 1; j < blocks.size(); ++j) {
      EXPECT_TRUE(blocks[i] + sizes[i] <= blocks[j] || blocks[j] + sizes[j] <= blocks[i]);
    }
  // The right neighbour fills each block over its whole length.
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    std::vector<unsigned char> src(sizes[i]);
    fill(src.data(), sizes[i], my_pe());
    EXPECT_EQ(ishmem_putmem(blocks[i], src.data(), sizes[i], right_pe()), ISHMEM_SUCCESS);
  }
  ishmem_barrier_all();
  for (std::size_t i = 0; i < blocks.size(); ++i)
    expect_pattern(blocks[i], sizes[i], left_pe(), my_pe(), "block " + std::to_string(i));
  ishmem_barrier_all();
  for (char *p : blocks) EXPECT_EQ(ishmem_free(p), ISHMEM_SUCCESS);
}

TEST(Memory, ReallocKeepsContents) {
  const std::size_t small = 1000, big = (3 << 20) + 100;
  char *a = static_cast<char *>(ishmem_malloc(small));
  char *fence = static_cast<char *>(ishmem_malloc(64));  // right after a: a cannot grow in place
  ASSERT_TRUE(all_true(a && fence));
  fill(a, small, my_pe());
  ishmem_barrier_all();

  // Grow past the other allocation (and past the committed heap): the block moves.
  char *grown = static_cast<char *>(ishmem_realloc(a, big));
  ASSERT_TRUE(all_true(grown != nullptr)) << ishmemx_last_error();
  EXPECT_NE(grown, a);
  EXPECT_TRUE(all_equal(heap_offset(grown)));
  EXPECT_TRUE(grown + big <= fence || fence + 64 <= grown);
  expect_pattern(grown, small, my_pe(), my_pe(), "grown, local");
  expect_pattern(grown, small, right_pe(), right_pe(), "grown, at the right neighbour");
  // The new tail is usable by peers.
  std::vector<unsigned char> tail(100);
  fill(tail.data(), tail.size(), my_pe());
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_putmem(grown + big - 100, tail.data(), 100, right_pe()), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  expect_pattern(grown + big - 100, 100, left_pe(), my_pe(), "tail from the left");

  // Shrink: in place, the first bytes kept.
  char *shrunk = static_cast<char *>(ishmem_realloc(grown, 500));
  ASSERT_TRUE(all_true(shrunk != nullptr));
  EXPECT_EQ(shrunk, grown);
  expect_pattern(shrunk, 500, my_pe(), my_pe(), "shrunk");

  // Grow in place into the space the shrink gave back.
  char *regrown = static_cast<char *>(ishmem_realloc(shrunk, 2000));
  ASSERT_TRUE(all_true(regrown != nullptr));
  EXPECT_EQ(regrown, shrunk);
  expect_pattern(regrown, 500, my_pe(), my_pe(), "regrown");
  EXPECT_TRUE(all_equal(heap_offset(regrown)));

  // realloc(NULL, n) allocates; realloc(p, 0) frees and returns NULL.
  char *fresh = static_cast<char *>(ishmem_realloc(nullptr, 128));
  ASSERT_TRUE(all_true(fresh != nullptr));
  EXPECT_TRUE(all_equal(heap_offset(fresh)));
  const std::ptrdiff_t fresh_offset = heap_offset(fresh);
  EXPECT_EQ(ishmem_realloc(fresh, 0), nullptr);
  char *again = static_cast<char *>(ishmem_malloc(128));  // takes the freed space again
  EXPECT_EQ(heap_offset(again), fresh_offset);
  EXPECT_EQ(ishmem_free(again), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(regrown), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(fence), ISHMEM_SUCCESS);
}

TEST(Memory, CallocZeroesReusedMemory) {
  const std::size_t bytes = 200000;
  char *dirty = static_cast<char *>(ishmem_malloc(bytes));
  ASSERT_TRUE(all_true(dirty != nullptr));
  memset(dirty, 0xAB, bytes);
  const std::ptrdiff_t offset = heap_offset(dirty);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(dirty), ISHMEM_SUCCESS);
  char *zeroed = static_cast<char *>(ishmem_calloc(bytes / 8, 8));
  ASSERT_TRUE(all_true(zeroed != nullptr));
  EXPECT_EQ(heap_offset(zeroed), offset) << "calloc did not reuse the freed block";
  expect_elements(
      zeroed, bytes, [](std::size_t) { return '\0'; }, "calloc, local");
  // Zeroed on every PE before calloc returns anywhere.
  std::vector<char> peer(bytes, 1);
  EXPECT_EQ(ishmem_getmem(peer.data(), zeroed, bytes, right_pe()), ISHMEM_SUCCESS);
  expect_elements(
      peer.data(), bytes, [](std::size_t) { return '\0'; }, "calloc, at the right");
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(zeroed), ISHMEM_SUCCESS);
  // Zero elements give NULL; an overflowing product gives NULL on every PE.
  EXPECT_EQ(ishmem_calloc(0, 8), nullptr);
  EXPECT_EQ(ishmem_calloc(SIZE_MAX / 2, 4), nullptr);
  EXPECT_NE(std::string(ishmemx_last_error()), "");
}

TEST(Memory, AlignGivesAlignedAddresses) {
  std::vector<void *> blocks;
  char *pad = static_cast<char *>(ishmem_malloc(100));  // so offset 0 is taken
  ASSERT_TRUE(all_true(pad != nullptr));
  // The heap's base is aligned to the largest power of two dividing its size (a page at least).
  const std::size_t heap = symmetric_size(), base_align = heap & (~heap + 1);
  for (std::size_t align :
       {std::size_t{1}, std::size_t{8}, std::size_t{64}, std::size_t{128}, std::size_t{4096},
        std::size_t{1} << 16, std::size_t{1} << 21, std::size_t{1} << 24, base_align}) {
    if (align > base_align || align >= heap || align > (std::size_t{1} << 26)) continue;
    void *p = ishmem_align(align, 100);
    ASSERT_TRUE(all_true(p != nullptr)) << "alignment " << align << ": " << ishmemx_last_error();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u) << "alignment " << align;
    EXPECT_EQ(static_cast<std::size_t>(heap_offset(p)) % align, 0u) << "alignment " << align;
    EXPECT_TRUE(all_equal(heap_offset(p)));
    blocks.push_back(p);
    EXPECT_EQ(ishmem_int_p(static_cast<int *>(p), my_pe(), right_pe()), ISHMEM_SUCCESS);
  }
  ishmem_barrier_all();
  for (void *p : blocks) EXPECT_EQ(*static_cast<int *>(p), left_pe());
  ishmem_barrier_all();
  for (void *p : blocks) EXPECT_EQ(ishmem_free(p), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(pad), ISHMEM_SUCCESS);
  // Not a power of two: NULL on every PE, with the reason.
  EXPECT_EQ(ishmem_align(48, 100), nullptr);
  EXPECT_NE(std::string(ishmemx_last_error()).find("power of two"), std::string::npos)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_align(0, 100), nullptr);
  // More than the base alignment cannot be honoured on every PE: refused everywhere.
  EXPECT_EQ(ishmem_align(2 * base_align, 100), nullptr);
  EXPECT_NE(std::string(ishmemx_last_error()).find("alignment"), std::string::npos)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_align(64, 0), nullptr);
}

TEST(Memory, FreeNullIsNoOpAndTrimWorks) {
  EXPECT_EQ(ishmem_free(nullptr), ISHMEM_SUCCESS);
  char *p = static_cast<char *>(ishmem_malloc(8 << 20));
  ASSERT_TRUE(all_true(p != nullptr));
  EXPECT_EQ(ishmem_free(p), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS);
  // After a trim the heap grows again on demand, and the memory works.
  p = static_cast<char *>(ishmem_malloc(8 << 20));
  ASSERT_TRUE(all_true(p != nullptr));
  fill(p, 8 << 20, my_pe());
  ishmem_barrier_all();
  expect_pattern(p, 8 << 20, right_pe(), right_pe(), "after trim");
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(p), ISHMEM_SUCCESS);
}

// A malloc that fails says how much is free and how large the largest free block is, and
// whether fragmentation is the cause: here a hole of two fifths of the heap (the largest free
// block) and a tail of about a fifth hold more than half of it in all, but neither holds half.
TEST(Memory, FailedMallocNamesFreeBytesAndFragmentation) {
  const std::size_t two_fifths = user_heap_size() / 5 * 2 / 4096 * 4096;
  void *hole = ishmem_malloc(two_fifths);
  void *pin = ishmem_malloc(64);
  void *kept = ishmem_malloc(two_fifths);
  ASSERT_TRUE(all_true(hole && pin && kept));
  ASSERT_EQ(ishmem_free(hole), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_malloc(user_heap_size() / 2), nullptr);
  EXPECT_EQ(ishmemx_last_status(), ISHMEM_ERR_NOMEM);
  std::string what = ishmemx_last_error();
  EXPECT_NE(
      what.find("free in all, the largest free block " + std::to_string(two_fifths) + " bytes"),
      std::string::npos)
      << what;
  EXPECT_NE(what.find("the free space is fragmented"), std::string::npos) << what;
  // Larger than all the free bytes: no fragmentation hint, only the size to raise.
  EXPECT_EQ(ishmem_malloc(user_heap_size()), nullptr);
  what = ishmemx_last_error();
  EXPECT_EQ(what.find("fragmented"), std::string::npos) << what;
  EXPECT_NE(what.find("(raise ISHMEM_SYMMETRIC_SIZE)"), std::string::npos) << what;
  // The heap works on: the hole is reused.
  void *again = ishmem_malloc(two_fifths);
  EXPECT_TRUE(all_true(again == hole));
  EXPECT_EQ(ishmem_free(again), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(kept), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(pin), ISHMEM_SUCCESS);
}

}  // namespace
