// Many malloc/free cycles must not leak: the process's open fds and the bytes of heap memory
// it maps are the same before and after. Run once with the defaults (freed memory is mostly
// kept for reuse) and once with ISHMEM_TRIM_THRESHOLD=0 ISHMEM_TRIM_INTERVAL=0, where every
// free returns memory and every malloc grows the heap again through the fd exchange between
// node-local PEs.
#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "mpi_test_util.h"
#include "common/config.h"

using namespace ishmem_test;

namespace {

// Deterministic sizes, from a few bytes to a few megabytes, the same on every PE.
std::size_t size_of_cycle(unsigned i) {
  unsigned x = i * 2654435761u;
  switch (x % 7) {
    case 0:
      return 1 + x % 64;
    case 1:
    case 2:
      return 64 + x % 4096;
    case 3:
    case 4:
      return 4096 + x % 65536;
    case 5:
      return (1 << 20) + x % (1 << 20);
    default:
      return (3 << 20) + x % 4096;  // past the first heap chunk
  }
}

struct Usage {
  int fds;
  std::size_t mapped;
};

Usage usage() {
  return {open_fd_count(), heap_mapped_bytes()};
}

// A word of the block is written by the right neighbour; check that it arrived.
void touch_block(char *p, std::size_t bytes, unsigned cycle) {
  const long value = static_cast<long>(cycle) * 64 + my_pe();
  long *last = reinterpret_cast<long *>(p + (bytes / sizeof(long) - 1) * sizeof(long));
  EXPECT_EQ(ishmem_long_p(last, value, right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(*last, static_cast<long>(cycle) * 64 + left_pe()) << "cycle " << cycle;
}

TEST(Churn, TenThousandMallocFreeCycles) {
  const unsigned cycles = 10000;
  // MPI and the library may open fds lazily on first use; warm both up.
  ishmem_barrier_all();
  EXPECT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS);
  all_true(true);
  const Usage before = usage();
  std::deque<char *> live;  // a few blocks stay alive, so the heap fragments and merges
  std::vector<std::size_t> live_sizes;
  bool ok = true;
  std::size_t peak_mapped = 0;
  for (unsigned i = 0; i < cycles && ok; ++i) {
    const std::size_t bytes = size_of_cycle(i) < sizeof(long) ? sizeof(long) : size_of_cycle(i);
    char *p = static_cast<char *>(ishmem_malloc(bytes));
    ok = p != nullptr;  // the same on every PE: malloc agrees before it allocates
    EXPECT_TRUE(ok) << "cycle " << i << ": " << ishmemx_last_error();
    if (!ok) break;
    if (i % 500 == 0) touch_block(p, bytes, i);
    live.push_back(p);
    if (live.size() > 1 + i % 8) {
      EXPECT_EQ(ishmem_free(live.front()), ISHMEM_SUCCESS);
      live.pop_front();
    }
    if (i % 1000 == 999) {
      EXPECT_EQ(open_fd_count(), before.fds) << "cycle " << i;
      peak_mapped = std::max(peak_mapped, heap_mapped_bytes());
    }
  }
  while (!live.empty()) {
    EXPECT_EQ(ishmem_free(live.front()), ISHMEM_SUCCESS);
    live.pop_front();
  }
  EXPECT_GT(peak_mapped, before.mapped) << "the heap never grew";
  EXPECT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS);
  const Usage after = usage();
  EXPECT_EQ(after.fds, before.fds);
  EXPECT_EQ(after.mapped, before.mapped);
}

TEST(Churn, TrimOnEveryFree) {
  const ishmem::detail::Config config = ishmem::detail::load_config();
  if (!all_true(config.trim_threshold == 0 && config.trim_interval <= 1))
    GTEST_SKIP() << "needs ISHMEM_TRIM_THRESHOLD=0 ISHMEM_TRIM_INTERVAL=0 (ctest runs it as "
                    "mpi_churn_trim_np*)";
  const unsigned cycles = 300;
  ishmem_barrier_all();
  EXPECT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS);
  all_true(true);
  const Usage before = usage();
  for (unsigned i = 0; i < cycles; ++i) {
    const std::size_t bytes = 4096 + size_of_cycle(i);
    char *p = static_cast<char *>(ishmem_malloc(bytes));
    EXPECT_TRUE(all_true(p != nullptr)) << "cycle " << i << ": " << ishmemx_last_error();
    if (!p) break;
    // The heap grew: this PE maps a chunk of its own and one of each node-local peer's.
    const Usage grown = usage();
    EXPECT_GE(grown.mapped, before.mapped + bytes) << "cycle " << i;
    EXPECT_EQ(grown.fds, before.fds) << "cycle " << i;
    touch_block(p, bytes, i);
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);  // all have checked before the free
    EXPECT_EQ(ishmem_free(p), ISHMEM_SUCCESS);
    const Usage freed = usage();
    EXPECT_EQ(freed.mapped, before.mapped) << "cycle " << i;
    EXPECT_EQ(freed.fds, before.fds) << "cycle " << i;
    if (!all_true(!HasFailure())) break;  // one report is enough; all PEs stop together
  }
  const Usage after = usage();
  EXPECT_EQ(after.fds, before.fds);
  EXPECT_EQ(after.mapped, before.mapped);
}

}  // namespace
