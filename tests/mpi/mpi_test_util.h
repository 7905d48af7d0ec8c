// Helpers shared by the multi-process tests. Every test runs on every PE, and every collective
// call (ishmem_malloc, barriers, the helpers below) must be reached by all of them: a check
// whose outcome decides the path a test takes is agreed first (all_true), so that no PE
// returns early while the others wait in a barrier.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../fd_count.h"  // open_fd_count()
#include "ishmem.h"

namespace ishmem_test {

inline int my_pe() {
  return ishmem_my_pe();
}
inline int n_pes() {
  return ishmem_n_pes();
}
inline int right_pe() {
  return (my_pe() + 1) % n_pes();
}
inline int left_pe() {
  return (my_pe() + n_pes() - 1) % n_pes();
}

// True on every PE iff `ok` is true on every PE.
bool all_true(bool ok);
// Every PE's `value`, indexed by PE.
std::vector<long long> allgather(long long value);
// True iff every PE passed the same value.
bool all_equal(long long value);

// Bytes of this process's mappings of heap memory (memfds named "ishmem-heap").
std::size_t heap_mapped_bytes();
// Offset of symmetric `ptr` from the start of this PE's heap, the library's area included (the
// same on every PE for one allocation).
std::ptrdiff_t heap_offset(const void *ptr);
// The ISHMEM_SYMMETRIC_SIZE in effect (parsed from the environment as the library does).
std::size_t symmetric_size();
// Offset of the first byte the program can allocate: ishmem_init takes the teams' areas
// from the start of the heap.
std::ptrdiff_t first_user_offset();
// The bytes of the heap the program can allocate: ISHMEM_SYMMETRIC_SIZE less the teams' areas.
std::size_t user_heap_size();
// True when `pe` is on this PE's node (ISHMEM_TEAM_SHARED): its heap is mapped here. In split
// mode (ISHMEM_MAX_LOCAL_PES, docs/MULTI_NODE.md) the node is this PE's group.
bool node_local(int pe);
// True when every PE is on this PE's node: none is reached through MPI.
bool one_node();

// Counts elements of `got` that differ from `want(i)`, reporting the first few.
template <class T, class Want>
void expect_elements(const T *got, std::size_t count, Want &&want, const std::string &what) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (got[i] == want(i)) continue;
    if (++bad <= 3)
      ADD_FAILURE() << "PE " << my_pe() << ": " << what << ": element " << i << " of " << count
                    << " is " << +got[i] << ", expected " << +want(i);
  }
  EXPECT_EQ(bad, 0u) << what;
}

}  // namespace ishmem_test
