// RMA, atomics, signals and waits on addresses that the heap reserves but has not committed:
// never allocated, or freed and trimmed. Node-local such an access would fault; every call
// must return ISHMEM_ERR_NOT_SYMMETRIC instead, write nothing, and leave later calls working.
// The same for the library's own area below the user's heap (team sync words and scratch).
// ishmem_addr_accessible says 0 and ishmem_ptr NULL there. Run node-local and, with
// ISHMEM_MAX_LOCAL_PES=1, through MPI; ctest sets ISHMEM_SYMMETRIC_SIZE=64M (and the default
// ISHMEM_CHUNK_SIZE of 2M). Its own program, so that no earlier test shapes the heap.
#include <cstdint>
#include <cstring>
#include <string>

#include "mpi_test_util.h"
#include "runtime/runtime.h"  // g_fast.committed, g_rt->teams

using namespace ishmem_test;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

bool error_mentions(const std::string &text) {
  return std::string(ishmemx_last_error()).find(text) != std::string::npos;
}

// What the errors of the calls on the target below say.
std::string g_expected = "reserved but uncommitted";

void expect_uncommitted_error(int rc, const char *call) {
  EXPECT_EQ(rc, ISHMEM_ERR_NOT_SYMMETRIC) << call;
  EXPECT_TRUE(error_mentions(g_expected)) << call << ": " << ishmemx_last_error();
}

// Every kind of call on `target` fails; `live` (a live block of 8 longs, zero on every PE)
// is the data of the put-with-signal, which must not move either.
void expect_every_call_rejected(long *target, long *live, const std::string &expected) {
  g_expected = expected;
  const int pe = right_pe();
  for (int p = 0; p < n_pes(); ++p) {
    EXPECT_EQ(ishmem_addr_accessible(target, p), 0) << "PE " << p;
    EXPECT_EQ(ishmem_ptr(target, p), nullptr) << "PE " << p;
  }
  long value = 42, got = -1;
  expect_uncommitted_error(ishmem_putmem(target, &value, sizeof value, pe), "ishmem_putmem");
  expect_uncommitted_error(ishmem_getmem(&got, target, sizeof got, pe), "ishmem_getmem");
  EXPECT_EQ(got, -1);
  expect_uncommitted_error(ishmem_long_put_nbi(target, &value, 1, pe), "ishmem_long_put_nbi");
  expect_uncommitted_error(ishmem_long_iput(target, &value, 2, 1, 1, pe), "ishmem_long_iput");
  expect_uncommitted_error(ishmem_long_p(target, value, pe), "ishmem_long_p");
  EXPECT_EQ(ishmem_long_g(target, pe), 0);
  EXPECT_TRUE(error_mentions("ishmem_g")) << ishmemx_last_error();
  expect_uncommitted_error(ishmem_long_atomic_add(target, 1, pe), "ishmem_long_atomic_add");
  expect_uncommitted_error(
      ishmem_putmem_signal(live, &value, sizeof value, reinterpret_cast<std::uint64_t *>(target), 1,
                           ISHMEM_SIGNAL_SET, pe),
      "ishmem_putmem_signal");
  EXPECT_EQ(ishmem_long_test(target, ISHMEM_CMP_EQ, 0), 0);
  EXPECT_TRUE(error_mentions(expected)) << ishmemx_last_error();
  EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  for (int i = 0; i < 8; ++i) EXPECT_EQ(live[i], 0) << "the signal's data moved, element " << i;
  ishmem_barrier_all();
}

// A ring of puts and an atomic on a live block work after the errors.
void expect_rma_works(long *live) {
  EXPECT_EQ(ishmem_long_p(live, 100 + my_pe(), right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_atomic_add(live + 1, 1, right_pe()), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  EXPECT_EQ(live[0], 100 + left_pe());
  EXPECT_EQ(live[1], 1);
  ishmem_barrier_all();
}

TEST(Bounds, NeverAllocatedAddressIsAnError) {
  ASSERT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS);  // only what `live` needs stays committed
  long *live = static_cast<long *>(ishmem_calloc(8, sizeof(long)));
  ASSERT_TRUE(all_true(live != nullptr)) << ishmemx_last_error();
  // Half-way into the 64M reservation, far past the first chunk: never committed.
  char *base = reinterpret_cast<char *>(live) - heap_offset(live);
  long *never = reinterpret_cast<long *>(base + symmetric_size() / 2);
  expect_every_call_rejected(never, live, "reserved but uncommitted");
  // A range that starts in the committed part and runs into the uncommitted one.
  long *last = reinterpret_cast<long *>(ishmem::detail::g_fast.local_base +
                                        ishmem::detail::g_fast.committed) -
               1;
  EXPECT_EQ(ishmem_addr_accessible(last, my_pe()), 1);
  long pair[2] = {1, 2};
  expect_uncommitted_error(ishmem_long_put(last, pair, 2, right_pe()), "straddling put");
  expect_rma_works(live);
  EXPECT_EQ(ishmem_free(live), ISHMEM_SUCCESS);
}

TEST(Bounds, FreedAndTrimmedAddressIsAnError) {
  ASSERT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS);
  long *live = static_cast<long *>(ishmem_calloc(8, sizeof(long)));
  char *big = static_cast<char *>(ishmem_malloc(8 * kMiB));
  ASSERT_TRUE(all_true(live && big)) << ishmemx_last_error();
  // 6M into the block: in a chunk of its own, past the one that holds `live`.
  long *inside = reinterpret_cast<long *>(big + 6 * kMiB);
  EXPECT_EQ(ishmem_addr_accessible(inside, right_pe()), 1);
  EXPECT_EQ(ishmem_long_p(inside, 7, right_pe()), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  EXPECT_EQ(*inside, 7);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(big), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_heap_trim(), ISHMEM_SUCCESS);
  expect_every_call_rejected(inside, live, "reserved but uncommitted");
  // Nothing was written: the same block again, on fresh (zeroed) memory, holds no 42.
  char *again = static_cast<char *>(ishmem_malloc(8 * kMiB));
  ASSERT_TRUE(all_true(again == big)) << ishmemx_last_error();
  EXPECT_EQ(ishmem_addr_accessible(inside, right_pe()), 1);
  ishmem_barrier_all();
  EXPECT_EQ(*inside, 0);
  expect_rma_works(live);
  EXPECT_EQ(ishmem_long_p(inside, 9, right_pe()), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  EXPECT_EQ(*inside, 9);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(again), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(live), ISHMEM_SUCCESS);
}

// The library's own area, below the first block ishmem_malloc gives: every call on it fails as
// on an address outside the heap, and nothing in it changes. The target is in the scratch of
// the last team slot, which no team uses here, so that only a stray write could change it.
TEST(Bounds, LibraryAreaIsOutOfReach) {
  long *live = static_cast<long *>(ishmem_calloc(8, sizeof(long)));
  ASSERT_TRUE(all_true(live != nullptr)) << ishmemx_last_error();
  const ishmem::detail::Teams &teams = *ishmem::detail::g_rt->teams;
  long *target =
      reinterpret_cast<long *>(teams.area(static_cast<int>(teams.slots.size()) - 1) + 4096);
  long before[4];
  std::memcpy(before, target, sizeof before);
  expect_every_call_rejected(target, live, "ishmem's own area of the heap");
  // The sync words at the area's start too.
  long value = 1;
  expect_uncommitted_error(ishmem_putmem(teams.areas, &value, sizeof value, right_pe()),
                           "ishmem_putmem to the sync words");
  // Nor is it a block to free or resize.
  EXPECT_EQ(ishmem_free(teams.areas), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(ishmem_realloc(teams.areas, 64), nullptr);
  ishmem_barrier_all();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(target[i], before[i]) << "element " << i;
  expect_rma_works(live);
  EXPECT_EQ(ishmem_free(live), ISHMEM_SUCCESS);
}

}  // namespace
