// Barriers: ishmem_barrier_all completes puts and separates rounds; ishmem_sync_all separates
// rounds once the puts are completed by ishmem_quiet. Two buffers alternate between rounds,
// so a barrier that let any PE through early would show up as a wrong or missing value.
#include <vector>

#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

long round_value(int round, int pe) {
  return 1000L * round + pe + 1;
}

// Each round, every PE writes its value into slot [round % 2][me] of every PE; after the
// barrier each PE checks that every slot of that round's buffer holds that round's values.
template <class Sync>
void all_to_all_rounds(int rounds, bool quiet_first, Sync &&sync) {
  const int n = n_pes();
  long *slots = static_cast<long *>(ishmem_calloc(2 * static_cast<std::size_t>(n), sizeof(long)));
  ASSERT_TRUE(all_true(slots != nullptr));
  int wrong = 0;
  for (int r = 1; r <= rounds; ++r) {
    long *buf = slots + (r % 2) * n;
    for (int k = 0; k < n; ++k) {
      int pe = (my_pe() + k) % n;  // start with a different target on each PE
      EXPECT_EQ(ishmem_long_p(buf + my_pe(), round_value(r, my_pe()), pe), ISHMEM_SUCCESS);
    }
    if (quiet_first) {
      EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
    }
    EXPECT_EQ(sync(), ISHMEM_SUCCESS);
    for (int pe = 0; pe < n; ++pe) {
      if (buf[pe] == round_value(r, pe)) continue;
      if (++wrong <= 3)
        ADD_FAILURE() << "round " << r << ": slot of PE " << pe << " holds " << buf[pe];
    }
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(slots), ISHMEM_SUCCESS);
}

TEST(Barrier, BarrierAllRounds) {
  all_to_all_rounds(200, false, [] { return ishmem_barrier_all(); });
}

TEST(Barrier, SyncAllAfterQuietRounds) {
  all_to_all_rounds(200, true, [] { return ishmem_sync_all(); });
}

TEST(Barrier, NeighbourRoundsWithBulkData) {
  // Each round the left neighbour sends a block whose contents depend on the round.
  const std::size_t n = 4096;
  int *buf = static_cast<int *>(ishmem_malloc(2 * n * sizeof(int)));
  ASSERT_TRUE(all_true(buf != nullptr));
  std::vector<int> src(n);
  for (int r = 1; r <= 50; ++r) {
    int *dest = buf + (r % 2) * n;
    for (std::size_t i = 0; i < n; ++i)
      src[i] = r * 100000 + my_pe() * 10000 + static_cast<int>(i % 9999);
    // Alternate blocking and non-blocking puts: barrier_all must complete both.
    int rc = r % 2 ? ishmem_int_put(dest, src.data(), n, right_pe())
                   : ishmem_int_put_nbi(dest, src.data(), n, right_pe());
    EXPECT_EQ(rc, ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    const int left = left_pe();
    expect_elements(
        dest, n,
        [&](std::size_t i) { return r * 100000 + left * 10000 + static_cast<int>(i % 9999); },
        "round " + std::to_string(r));
  }
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(buf), ISHMEM_SUCCESS);
}

TEST(Barrier, GetSeesStoresMadeBeforeTheBarrier) {
  long *word = static_cast<long *>(ishmem_malloc(sizeof(long)));
  ASSERT_TRUE(all_true(word != nullptr));
  for (int r = 1; r <= 100; ++r) {
    *word = round_value(r, my_pe());  // a plain local store
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_long_g(word, right_pe()), round_value(r, right_pe())) << "round " << r;
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);  // nobody stores before all have read
  }
  EXPECT_EQ(ishmem_free(word), ISHMEM_SUCCESS);
}

TEST(Barrier, QuietAndFenceWithNothingOutstanding) {
  EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_fence(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_sync_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
}

}  // namespace
