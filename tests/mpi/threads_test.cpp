// ISHMEM_THREAD_MULTIPLE: four threads per PE at once, each with a team of its own (a split of
// WORLD) and a private context: puts and gets to other PEs, atomics on one counter of PE 0,
// team syncs and reductions. Every value is checked. Its own main: ishmem_init_thread.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "ishmem.h"
#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

constexpr int kThreads = 4;
constexpr int kWords = 256;  // per thread
constexpr int kRounds = 20;

TEST(Threads, QueryReportsMultiple) {
  int provided = -1;
  EXPECT_EQ(ishmem_query_thread(&provided), ISHMEM_SUCCESS);
  EXPECT_EQ(provided, ISHMEM_THREAD_MULTIPLE);
  EXPECT_EQ(ishmem_query_thread(nullptr), ISHMEM_ERR_INVALID_ARG);
}

// What one thread checks; failures are counted here and reported by the main thread, since
// GoogleTest's assertions are for the main thread only when threads race.
struct ThreadResult {
  long bad_rma = 0, bad_reduce = 0, bad_status = 0;
  std::string first;
};

void note(ThreadResult &r, long &counter, const std::string &what) {
  if (counter++ == 0 && r.first.empty()) r.first = what;
}

void thread_body(int t, ishmem_team_t team, long *buf, long *counter, long *red_src, long *red_dst,
                 ThreadResult &r) {
  const int me = my_pe(), right = right_pe(), left = left_pe();
  long *mine = buf + t * kWords;
  ishmem_ctx_t ctx = ISHMEM_CTX_INVALID;
  if (ishmem_team_create_ctx(team, ISHMEM_CTX_PRIVATE, &ctx) != ISHMEM_SUCCESS)
    return note(r, r.bad_status, std::string("create_ctx: ") + ishmemx_last_error());
  std::vector<long> out(kWords), in(kWords);
  for (int round = 0; round < kRounds; ++round) {
    for (int i = 0; i < kWords; ++i) out[i] = ((round * 16L + me) * kThreads + t) * kWords + i;
    // Half through the context (team PEs are world PEs here), half through the default one.
    int rc = ishmem_ctx_long_put(ctx, mine, out.data(), kWords / 2, right);
    rc |= ishmem_long_put_nbi(mine + kWords / 2, out.data() + kWords / 2, kWords / 2, right);
    rc |= ishmem_ctx_quiet(ctx) | ishmem_quiet();
    rc |= ishmem_long_atomic_add(counter, 1, 0);
    rc |= ishmem_team_sync(team);
    // The left PE's values for this round and thread are here now; the right PE's get back.
    for (int i = 0; i < kWords; ++i)
      if (mine[i] != ((round * 16L + left) * kThreads + t) * kWords + i)
        note(r, r.bad_rma, "round " + std::to_string(round) + " word " + std::to_string(i));
    rc |= ishmem_long_get(in.data(), mine, kWords, right);
    for (int i = 0; i < kWords; ++i)
      if (in[i] != out[i]) note(r, r.bad_rma, "get back, word " + std::to_string(i));
    red_src[t] = me + round * t;
    rc |= ishmem_long_sum_reduce(team, red_dst + t, red_src + t, 1);
    const long n = n_pes();
    if (red_dst[t] != n * (n - 1) / 2 + n * round * t) note(r, r.bad_reduce, "sum_reduce");
    rc |= ishmem_team_sync(team);  // nobody overwrites `mine` before every PE checked it
    if (rc != ISHMEM_SUCCESS) note(r, r.bad_status, ishmemx_last_error());
  }
  if (ishmem_ctx_destroy(ctx) != ISHMEM_SUCCESS) note(r, r.bad_status, ishmemx_last_error());
}

TEST(Threads, RmaAtomicsAndTeamCollectivesAtOnce) {
  long *buf = static_cast<long *>(ishmem_calloc(kThreads * kWords, sizeof(long)));
  long *counter = static_cast<long *>(ishmem_calloc(1, sizeof(long)));
  long *red = static_cast<long *>(ishmem_calloc(2 * kThreads, sizeof(long)));
  ASSERT_TRUE(all_true(buf && counter && red));
  ishmem_team_t teams[kThreads];
  for (ishmem_team_t &team : teams)
    ASSERT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 0, 1, n_pes(), nullptr, 0, &team),
              ISHMEM_SUCCESS)
        << ishmemx_last_error();
  ThreadResult results[kThreads];
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back(thread_body, t, teams[t], buf, counter, red, red + kThreads,
                         std::ref(results[t]));
  for (std::thread &th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(results[t].bad_rma, 0) << "thread " << t << ": " << results[t].first;
    EXPECT_EQ(results[t].bad_reduce, 0) << "thread " << t << ": " << results[t].first;
    EXPECT_EQ(results[t].bad_status, 0) << "thread " << t << ": " << results[t].first;
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (my_pe() == 0) {
    EXPECT_EQ(*counter, static_cast<long>(kThreads) * kRounds * n_pes());
  }
  for (ishmem_team_t team : teams) EXPECT_EQ(ishmem_team_destroy(team), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  ishmem_free(red);
  ishmem_free(counter);
  ishmem_free(buf);
}

}  // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int provided = -1;
  if (ishmem_init_thread(ISHMEM_THREAD_MULTIPLE, &provided) != ISHMEM_SUCCESS) {
    fprintf(stderr, "ishmem_init_thread failed: %s\n", ishmemx_last_error());
    return 1;
  }
  if (provided != ISHMEM_THREAD_MULTIPLE) {
    fprintf(stderr, "ishmem_init_thread provided %d, not MULTIPLE\n", provided);
    ishmem_finalize();
    return 1;
  }
  const int failed = RUN_ALL_TESTS() != 0;
  const bool all_passed = all_true(!failed);
  const int rc = ishmem_finalize();
  if (rc != ISHMEM_SUCCESS) fprintf(stderr, "ishmem_finalize: %s\n", ishmemx_last_error());
  return all_passed && rc == ISHMEM_SUCCESS ? 0 : 1;
}
