// The C++ API's teams, contexts and collectives (ishmem.hpp), against values each PE can
// compute. Part of the mpi_cxx_api program (main in cxx_api_test.cpp).
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <vector>

#include "ishmem.hpp"
#include "mpi_test_util.h"

using ishmem_test::left_pe;
using ishmem_test::my_pe;
using ishmem_test::n_pes;
using ishmem_test::right_pe;

namespace {

TEST(CxxTeam, WorldSharedAndSplits) {
  const ishmem::team world = ishmem::team::world();
  EXPECT_EQ(world.my_pe(), my_pe());
  EXPECT_EQ(world.n_pes(), n_pes());
  const ishmem::team shared = ishmem::team::shared();
  EXPECT_EQ(shared.my_pe(), ishmem_team_my_pe(ISHMEM_TEAM_SHARED));
  // The even PEs.
  ishmem::team evens = world.split_strided(0, 2, (n_pes() + 1) / 2);
  EXPECT_EQ(evens.valid(), my_pe() % 2 == 0);
  if (evens) {
    EXPECT_EQ(evens.my_pe(), my_pe() / 2);
    EXPECT_EQ(evens.n_pes(), (n_pes() + 1) / 2);
    EXPECT_EQ(evens.translate(evens.my_pe(), world), my_pe());
    evens.sync();
  } else {
    try {
      evens.my_pe();
      ADD_FAILURE() << "my_pe of a team this PE is not in did not throw";
    } catch (const ishmem::error &e) {
      EXPECT_EQ(e.status(), ISHMEM_ERR_INVALID_ARG);
    }
  }
  EXPECT_EQ(world.translate(my_pe(), evens), my_pe() % 2 == 0 ? my_pe() / 2 : -1);
  // Rows of two PEs and their columns.
  auto [row, column] = world.split_2d(2);
  ASSERT_TRUE(row && column);
  EXPECT_EQ(row.my_pe(), my_pe() % 2);
  EXPECT_EQ(column.my_pe(), my_pe() / 2);
  EXPECT_EQ(row.n_pes(), my_pe() / 2 * 2 + 1 < n_pes() ? 2 : 1);
  ishmem::barrier_all();
}

TEST(CxxTeam, DestroyedTeamsFreeTheirSlots) {
  // ISHMEM_MAX_TEAMS is 32 by default: without the destructors the loop runs out of slots.
  for (int i = 0; i < 40; ++i) {
    ishmem::team all = ishmem::team::world().split_strided(0, 1, n_pes());
    ASSERT_TRUE(all.valid()) << "round " << i;
    ishmem::team moved = std::move(all);  // one owner: destroyed once
    EXPECT_FALSE(all.valid());
    EXPECT_EQ(moved.n_pes(), n_pes());
  }
  ishmem::team explicit_end = ishmem::team::world().split_strided(0, 1, n_pes());
  explicit_end.destroy();
  EXPECT_FALSE(explicit_end.valid());
  ishmem::barrier_all();
}

TEST(CxxContext, RmaThroughAContext) {
  ishmem::symmetric_array<int> a(4);
  ishmem::symmetric_array<long> counter(1);
  {
    ishmem::context ctx;
    const int mine[4] = {my_pe(), my_pe() + 1, my_pe() + 2, my_pe() + 3};
    ctx.put(a.span(), mine, right_pe());
    ctx.p(counter.span(), 0, -1, right_pe());  // an int: stored as the long -1, all 8 bytes
    ctx.fence();
    ctx.quiet();
    ishmem::barrier_all();
    EXPECT_EQ(a[3], left_pe() + 3);
    EXPECT_EQ(ctx.g(a.span(), 0, right_pe()), my_pe());
    int back[4] = {};
    ctx.get_nbi(back, a.span(), left_pe());
    ctx.quiet();
    const int left_of_left = (my_pe() + 2 * n_pes() - 2) % n_pes();  // who wrote left's array
    EXPECT_EQ(back[1], left_of_left + 1);
    int right_copy[4] = {};
    ctx.get(right_copy, a, right_pe());  // right's array came from me
    EXPECT_EQ(right_copy[2], my_pe() + 2);
    ishmem::barrier_all();  // every get is done before the next put
    ctx.fetch_add(counter.span(), 0, 1, 0);
    ctx.put_nbi(a.subspan(0, 1), mine + 3, right_pe());
    ctx.quiet();
    ishmem::barrier_all();
    EXPECT_EQ(a[0], left_pe() + 3);
    if (my_pe() == 0) {
      EXPECT_EQ(counter[0], n_pes() - 1);  // -1 from the p, then one add per PE
    }
    ishmem::context moved = std::move(ctx);
    EXPECT_EQ(ctx.handle(), ISHMEM_CTX_INVALID);
    EXPECT_NE(moved.handle(), ISHMEM_CTX_INVALID);
  }
  // A context over a team takes the team's PE numbers: a ring over the odd PEs.
  ishmem::team odds = ishmem::team::world().split_strided(1, 2, n_pes() / 2);
  if (odds) {
    const int size = odds.n_pes(), mine = odds.my_pe();
    ishmem::context on_odds(odds);
    on_odds.p(a, 2, 1000 + my_pe(), (mine + 1) % size);
    on_odds.quiet();
    try {  // PE numbers are the team's: its size is past the end
      on_odds.g(a, 0, size);
      ADD_FAILURE() << "a PE past the context's team did not throw";
    } catch (const ishmem::error &e) {
      EXPECT_EQ(e.status(), ISHMEM_ERR_INVALID_PE) << e.what();
    }
    try {
      on_odds.g(a, 4, 0);
      ADD_FAILURE() << "an index past the array did not throw";
    } catch (const ishmem::error &e) {
      EXPECT_EQ(e.status(), ISHMEM_ERR_INVALID_ARG) << e.what();
    }
  }
  ishmem::barrier_all();
  if (odds) {
    const int size = odds.n_pes(), left = (odds.my_pe() + size - 1) % size;
    EXPECT_EQ(a[2], 1000 + 2 * left + 1);
  }
  ishmem::barrier_all();
}

TEST(CxxCollectives, DataMovers) {
  const int n = n_pes();
  const ishmem::team world = ishmem::team::world();
  ishmem::symmetric_array<int> src(3), dest(3 * n);
  for (int i = 0; i < 3; ++i) src[i] = my_pe() * 10 + i;
  ishmem::broadcast(world, dest.subspan(0, 3), src, n - 1);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(dest[i], (n - 1) * 10 + i);
  ishmem::fcollect(world, dest, src);
  for (int i = 0; i < 3 * n; ++i) EXPECT_EQ(dest[i], i / 3 * 10 + i % 3) << "element " << i;
  // collect: PE p gives p + 1 elements.
  ishmem::symmetric_array<long> var(n), all(n * (n + 1) / 2);
  for (int i = 0; i < n; ++i) var[i] = my_pe();
  ishmem::collect(world, all, var.subspan(0, my_pe() + 1));
  for (int p = 0, at = 0; p < n; ++p)
    for (int k = 0; k <= p; ++k, ++at) EXPECT_EQ(all[at], p) << "element " << at;
  // alltoall: block j of my source goes to PE j.
  ishmem::symmetric_array<int> blocks(2 * n), got(2 * n);
  for (int j = 0; j < n; ++j) blocks[2 * j] = my_pe() * 100 + j, blocks[2 * j + 1] = -my_pe();
  ishmem::alltoall(world, got, blocks);
  for (int j = 0; j < n; ++j) {
    EXPECT_EQ(got[2 * j], j * 100 + my_pe());
    EXPECT_EQ(got[2 * j + 1], -j);
  }
  // Sizes that cannot be right throw on every PE before any data moves.
  try {
    ishmem::fcollect(world, dest.subspan(0, 3 * n - 1), src);
    ADD_FAILURE() << "fcollect into a short dest did not throw";
  } catch (const ishmem::error &e) {
    EXPECT_EQ(e.status(), ISHMEM_ERR_INVALID_ARG);
  }
  ishmem::barrier_all();
}

TEST(CxxCollectives, Reductions) {
  const long n = n_pes();
  const ishmem::team world = ishmem::team::world();
  ishmem::symmetric_array<long> l(2), lr(2);
  l[0] = my_pe() + 1;
  l[1] = -(my_pe() + 1);
  ishmem::sum_reduce(world, lr, l);
  EXPECT_EQ(lr[0], n * (n + 1) / 2);
  EXPECT_EQ(lr[1], -n * (n + 1) / 2);
  ishmem::max_reduce(world, lr, l);
  EXPECT_EQ(lr[0], n);
  EXPECT_EQ(lr[1], -1);
  ishmem::min_reduce(world, lr, l);
  EXPECT_EQ(lr[0], 1);
  EXPECT_EQ(lr[1], -n);
  ishmem::prod_reduce(world, l, l);  // in place
  long factorial = 1;
  for (long k = 2; k <= n; ++k) factorial *= k;
  EXPECT_EQ(l[0], factorial);
  ishmem::symmetric_array<double> d(1);
  d[0] = 0.5 * (my_pe() + 1);
  ishmem::sum_reduce(world, d, d);
  EXPECT_DOUBLE_EQ(d[0], 0.25 * n * (n + 1));
  ishmem::symmetric_array<std::uint32_t> u(1), ur(1);
  u[0] = 1u << my_pe() | 0x100u;
  ishmem::or_reduce(world, ur, u);
  EXPECT_EQ(ur[0], ((1u << n) - 1) | 0x100u);
  ishmem::and_reduce(world, ur, u);
  EXPECT_EQ(ur[0], n == 1 ? 0x101u : 0x100u);
  ishmem::xor_reduce(world, ur, u);
  EXPECT_EQ(ur[0], ((1u << n) - 1) | (n % 2 ? 0x100u : 0u));
  ishmem::symmetric_array<std::complex<double>> z(1);
  z[0] = {1.0, double(my_pe())};
  ishmem::sum_reduce(world, z, z);
  EXPECT_EQ(z[0], std::complex<double>(double(n), 0.5 * n * (n - 1)));
  // On a team: the sum over the even PEs.
  ishmem::team evens = world.split_strided(0, 2, (n_pes() + 1) / 2);
  ishmem::symmetric_array<int> e(1);
  e[0] = my_pe();
  if (evens) {
    ishmem::sum_reduce(evens, e, e);
    int want = 0;
    for (int p = 0; p < n; p += 2) want += p;
    EXPECT_EQ(e[0], want);
  }
  ishmem::barrier_all();
}

}  // namespace
