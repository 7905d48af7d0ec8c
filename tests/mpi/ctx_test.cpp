// Contexts: every family of calls through a context (RMA of every form, the AMO kinds,
// put-with-signal), team contexts with team-relative PEs, a context's quiet, and the errors
// of invalid, destroyed and badly created contexts.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "ishmem.h"
#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

// Zeroed symmetric memory; callers check it on every PE (all_true) before use.
template <class T>
T *sym_alloc(std::size_t count) {
  return static_cast<T *>(ishmem_calloc(count, sizeof(T)));
}

ishmem_ctx_t make_ctx(long options) {
  ishmem_ctx_t ctx = ISHMEM_CTX_INVALID;
  EXPECT_EQ(ishmem_ctx_create(options, &ctx), ISHMEM_SUCCESS) << ishmemx_last_error();
  return ctx;
}

TEST(Ctx, RmaFormsThroughAContext) {
  long *data = sym_alloc<long>(64);
  ASSERT_TRUE(all_true(data != nullptr));
  ishmem_ctx_t ctx = make_ctx(ISHMEM_CTX_SERIALIZED);
  const int me = my_pe(), right = right_pe(), left = left_pe();
  long src[16];
  for (int i = 0; i < 16; ++i) src[i] = me * 100 + i;
  // Typed, bytes, p, strided and sized puts into distinct parts of the right PE's array.
  EXPECT_EQ(ishmem_ctx_long_put(ctx, data, src, 4, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_putmem(ctx, data + 4, src + 4, 4 * sizeof(long), right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_long_p(ctx, data + 8, me * 100 + 8, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_long_iput(ctx, data + 10, src + 10, 2, 1, 3, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_put64(ctx, data + 16, src, 4, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_iput64(ctx, data + 20, src, 1, 2, 2, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_long_put_nbi(ctx, data + 24, src, 8, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_put32_nbi(ctx, data + 32, src, 4, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_quiet(ctx), ISHMEM_SUCCESS);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  const long base = left * 100;
  for (int i = 0; i < 9; ++i) EXPECT_EQ(data[i], base + i) << "element " << i;
  EXPECT_EQ(data[10], base + 10);
  EXPECT_EQ(data[12], base + 11);
  EXPECT_EQ(data[14], base + 12);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(data[16 + i], base + i);
  EXPECT_EQ(data[20], base + 0);
  EXPECT_EQ(data[21], base + 2);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(data[24 + i], base + i);
  EXPECT_EQ(data[32], base + 0);  // put32 of 4 elements: 16 bytes, two longs
  EXPECT_EQ(data[33], base + 1);
  // Gets of every form from the right PE, which holds its left neighbour's (this PE's) values.
  long got[16] = {};
  EXPECT_EQ(ishmem_ctx_long_get(ctx, got, data, 4, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_getmem(ctx, got + 4, data + 4, 2 * sizeof(long), right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_long_g(ctx, data + 8, right), me * 100 + 8);
  EXPECT_EQ(ishmem_ctx_long_iget(ctx, got + 6, data + 10, 1, 2, 3, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_get64(ctx, got + 9, data + 16, 2, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_long_get_nbi(ctx, got + 11, data + 24, 3, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_quiet(ctx), ISHMEM_SUCCESS);
  const long want[14] = {0, 1, 2, 3, 4, 5, 10, 11, 12, 0, 1, 0, 1, 2};
  for (int i = 0; i < 14; ++i) EXPECT_EQ(got[i], me * 100 + want[i]) << "got " << i;
  EXPECT_EQ(ishmem_ctx_destroy(ctx), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  ishmem_free(data);
}

TEST(Ctx, AtomicsAndSignalsThroughAContext) {
  unsigned long *word = sym_alloc<unsigned long>(8);
  std::uint64_t *sig = sym_alloc<std::uint64_t>(1);
  int *msg = sym_alloc<int>(4);
  ASSERT_TRUE(all_true(word && sig && msg));
  ishmem_ctx_t ctx = make_ctx(0);
  const int n = n_pes(), me = my_pe();
  // Every PE updates PE 0's words: add, inc, or, xor are each counted once per PE.
  EXPECT_EQ(ishmem_ctx_ulong_atomic_add(ctx, &word[0], 3, 0), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_ulong_atomic_inc(ctx, &word[1], 0), ISHMEM_SUCCESS);
  EXPECT_LT(ishmem_ctx_ulong_atomic_fetch_inc(ctx, &word[2], 0), static_cast<unsigned long>(n));
  unsigned long fetched = ~0ul;
  EXPECT_EQ(ishmem_ctx_ulong_atomic_fetch_add_nbi(ctx, &fetched, &word[3], 5, 0), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_ulong_atomic_or(ctx, &word[4], 1ul << me, 0), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_ulong_atomic_fetch_xor(ctx, &word[5], 1ul << me, 0) & (1ul << me), 0ul);
  EXPECT_EQ(ishmem_ctx_quiet(ctx), ISHMEM_SUCCESS);
  EXPECT_EQ(fetched % 5, 0ul);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (me == 0) {
    EXPECT_EQ(word[0], 3ul * n);
    EXPECT_EQ(word[1], static_cast<unsigned long>(n));
    EXPECT_EQ(word[2], static_cast<unsigned long>(n));
    EXPECT_EQ(word[3], 5ul * n);
    EXPECT_EQ(word[4], (1ul << n) - 1);
    EXPECT_EQ(word[5], (1ul << n) - 1);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  // Extended kinds on the right PE's word 6: set, fetch, swap, compare_swap, and.
  const int right = right_pe();
  EXPECT_EQ(ishmem_ctx_ulong_atomic_set(ctx, &word[6], 0xf0f0ul + me, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_ulong_atomic_fetch(ctx, &word[6], right), 0xf0f0ul + me);
  EXPECT_EQ(ishmem_ctx_ulong_atomic_swap(ctx, &word[6], 7, right), 0xf0f0ul + me);
  EXPECT_EQ(ishmem_ctx_ulong_atomic_compare_swap(ctx, &word[6], 8, 9, right), 7ul);  // no swap
  EXPECT_EQ(ishmem_ctx_ulong_atomic_compare_swap(ctx, &word[6], 7, 6, right), 7ul);
  EXPECT_EQ(ishmem_ctx_ulong_atomic_fetch_and(ctx, &word[6], 4, right), 6ul);
  double d = 0;
  EXPECT_EQ(ishmem_ctx_double_atomic_set(ctx, reinterpret_cast<double *>(&word[7]), 2.5, right),
            ISHMEM_SUCCESS);
  EXPECT_EQ(
      ishmem_ctx_double_atomic_fetch_nbi(ctx, &d, reinterpret_cast<double *>(&word[7]), right),
      ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_quiet(ctx), ISHMEM_SUCCESS);
  EXPECT_EQ(d, 2.5);
  // Put-with-signal, bytes and typed: the right PE sees the data once it sees the signal.
  const int out[2] = {me + 10, me + 20};
  EXPECT_EQ(ishmem_ctx_putmem_signal(ctx, msg, out, sizeof(int), sig, 1, ISHMEM_SIGNAL_ADD, right),
            ISHMEM_SUCCESS);
  EXPECT_EQ(
      ishmem_ctx_int_put_signal_nbi(ctx, msg + 1, out + 1, 1, sig, 1, ISHMEM_SIGNAL_ADD, right),
      ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_signal_wait_until(sig, ISHMEM_CMP_EQ, 2), 2u);
  EXPECT_EQ(msg[0], left_pe() + 10);
  EXPECT_EQ(msg[1], left_pe() + 20);
  EXPECT_EQ(ishmem_ctx_destroy(ctx), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  ishmem_free(msg);
  ishmem_free(sig);
  ishmem_free(word);
}

// A context of a team takes PE numbers of the team: the odd world PEs, 0 being world PE 1.
TEST(Ctx, TeamContextTakesTeamPes) {
  const int n = n_pes(), me = my_pe();
  if (n < 2) GTEST_SKIP() << "needs an odd PE";
  long *slot = sym_alloc<long>(1);
  ASSERT_TRUE(all_true(slot != nullptr));
  ishmem_team_t odd = ISHMEM_TEAM_INVALID;
  ASSERT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 1, 2, n / 2, nullptr, 0, &odd),
            ISHMEM_SUCCESS);
  ishmem_ctx_t ctx = ISHMEM_CTX_INVALID;
  if (odd != ISHMEM_TEAM_INVALID) {
    ASSERT_EQ(ishmem_team_create_ctx(odd, ISHMEM_CTX_PRIVATE, &ctx), ISHMEM_SUCCESS);
    ishmem_team_t got = ISHMEM_TEAM_INVALID;
    EXPECT_EQ(ishmem_ctx_get_team(ctx, &got), ISHMEM_SUCCESS);
    EXPECT_EQ(got, odd);
    const int size = ishmem_team_n_pes(odd), index = ishmem_team_my_pe(odd);
    EXPECT_EQ(ishmem_ctx_long_p(ctx, slot, 1000 + me, (index + 1) % size), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_ctx_long_p(ctx, slot, 0, size), ISHMEM_ERR_INVALID_PE);
    EXPECT_EQ(ishmem_ctx_long_p(ctx, slot, 0, -1), ISHMEM_ERR_INVALID_PE);
    EXPECT_EQ(ishmem_ctx_quiet(ctx), ISHMEM_SUCCESS);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (odd != ISHMEM_TEAM_INVALID) {
    const int size = ishmem_team_n_pes(odd), index = ishmem_team_my_pe(odd);
    EXPECT_EQ(*slot, 1000 + 1 + 2 * ((index + size - 1) % size));
    // Once the team is gone, its context fails instead of reaching another team's PEs.
    EXPECT_EQ(ishmem_team_destroy(odd), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_ctx_long_p(ctx, slot, 0, 0), ISHMEM_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(ishmemx_last_error(), "was destroyed"), nullptr) << ishmemx_last_error();
    EXPECT_EQ(ishmem_ctx_destroy(ctx), ISHMEM_SUCCESS);
  } else {
    EXPECT_EQ(*slot, 0);
  }
  ishmem_barrier_all();
  ishmem_free(slot);
}

TEST(Ctx, InvalidDestroyedAndBadContexts) {
  long *v = sym_alloc<long>(1);
  ASSERT_TRUE(all_true(v != nullptr));
  ishmem_ctx_t ctx = make_ctx(ISHMEM_CTX_NOSTORE);
  ASSERT_NE(ctx, ISHMEM_CTX_INVALID);
  // Unknown option bits, a NULL output, a bad team: INVALID_ARG and ISHMEM_CTX_INVALID.
  ishmem_ctx_t bad = ctx;
  EXPECT_EQ(ishmem_ctx_create(8, &bad), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(bad, ISHMEM_CTX_INVALID);
  EXPECT_EQ(ishmem_ctx_create(0, nullptr), ISHMEM_ERR_INVALID_ARG);
  bad = ctx;
  EXPECT_EQ(ishmem_team_create_ctx(ISHMEM_TEAM_INVALID, 0, &bad), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(bad, ISHMEM_CTX_INVALID);
  // The default context: WORLD, usable, not destroyable.
  ishmem_team_t team = ISHMEM_TEAM_INVALID;
  EXPECT_EQ(ishmem_ctx_get_team(ISHMEM_CTX_DEFAULT, &team), ISHMEM_SUCCESS);
  EXPECT_EQ(team, ISHMEM_TEAM_WORLD);
  EXPECT_EQ(ishmem_ctx_long_p(ISHMEM_CTX_DEFAULT, v, 5, my_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_quiet(ISHMEM_CTX_DEFAULT), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_fence(ISHMEM_CTX_DEFAULT), ISHMEM_SUCCESS);
  EXPECT_EQ(*v, 5);
  EXPECT_EQ(ishmem_ctx_destroy(ISHMEM_CTX_DEFAULT), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_ctx_fence(ctx), ISHMEM_SUCCESS);
  // ISHMEM_CTX_INVALID: RMA and atomics fail (status calls) or return 0 (fetching calls);
  // quiet, fence and destroy do nothing and succeed; get_team fails without an error report.
  EXPECT_EQ(ishmem_ctx_long_p(ISHMEM_CTX_INVALID, v, 6, my_pe()), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_ctx_long_g(ISHMEM_CTX_INVALID, v, my_pe()), 0);
  EXPECT_EQ(ishmem_ctx_long_atomic_fetch_add(ISHMEM_CTX_INVALID, v, 1, my_pe()), 0);
  const unsigned long errors = ishmemx_error_count();
  EXPECT_EQ(ishmem_ctx_quiet(ISHMEM_CTX_INVALID), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_fence(ISHMEM_CTX_INVALID), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_destroy(ISHMEM_CTX_INVALID), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_get_team(ISHMEM_CTX_INVALID, &team), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(team, ISHMEM_TEAM_INVALID);
  EXPECT_EQ(ishmemx_error_count(), errors);
  EXPECT_EQ(*v, 5);
  // A destroyed context: every call fails, naming it.
  EXPECT_EQ(ishmem_ctx_destroy(ctx), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_long_p(ctx, v, 7, my_pe()), ISHMEM_ERR_INVALID_ARG);
  EXPECT_NE(std::strstr(ishmemx_last_error(), "ishmem_ctx_long_p"), nullptr);
  EXPECT_NE(std::strstr(ishmemx_last_error(), "not a live context"), nullptr);
  EXPECT_EQ(ishmem_ctx_putmem_signal(ctx, v, v, 8, nullptr, 1, ISHMEM_SIGNAL_SET, my_pe()),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_ctx_quiet(ctx), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_ctx_destroy(ctx), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(*v, 5);
  // The call's own checks still run, under the context form's name.
  ishmem_ctx_t live = make_ctx(0);
  EXPECT_EQ(ishmem_ctx_putmem(live, v, v, 8, n_pes()), ISHMEM_ERR_INVALID_PE);
  EXPECT_NE(std::strstr(ishmemx_last_error(), "ishmem_ctx_putmem"), nullptr);
  EXPECT_EQ(ishmem_ctx_destroy(live), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  ishmem_free(v);
}

// Puts from several contexts, each quieted on its own, arrive before the flag that follows
// the quiet of the last one.
TEST(Ctx, QuietCompletesTheContextsPuts) {
  const std::size_t count = 1 << 16;
  long *data = sym_alloc<long>(2 * count);
  long *flag = sym_alloc<long>(1);
  ASSERT_TRUE(all_true(data && flag));
  std::vector<long> src(2 * count);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = my_pe() * 7 + static_cast<long>(i);
  ishmem_ctx_t a = make_ctx(0), b = make_ctx(0);
  const int right = right_pe();
  EXPECT_EQ(ishmem_ctx_long_put_nbi(a, data, src.data(), count, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_long_put_nbi(b, data + count, src.data() + count, count, right),
            ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_quiet(a), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_quiet(b), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_atomic_set(flag, 1, right), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_wait_until(flag, ISHMEM_CMP_EQ, 1), ISHMEM_SUCCESS);
  const long base = left_pe() * 7;
  expect_elements(
      data, 2 * count, [&](std::size_t i) { return base + static_cast<long>(i); },
      "data before the flag");
  EXPECT_EQ(ishmem_ctx_destroy(a), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_ctx_destroy(b), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  ishmem_free(flag);
  ishmem_free(data);
}

}  // namespace
