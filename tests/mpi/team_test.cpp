// Teams: WORLD and SHARED, strided splits (positive, negative and zero strides, one-PE
// teams, a split of a split), 2d splits, translation between every pair of teams,
// ishmem_team_ptr, slot agreement, the slot limit and slot reuse, invalid handles and
// arguments, mismatched calls, and team_sync ordering data. Every expectation is computed
// here from the split's arguments, never read back from the library.
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/config.h"
#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

constexpr ishmem_team_t kUnset = 12345;  // what a split must overwrite on every PE

// A team and the world PEs the test expects in it, by team index.
struct Shape {
  ishmem_team_t team = ISHMEM_TEAM_INVALID;
  std::vector<int> pes;
  int index_of(int pe) const {
    auto it = std::find(pes.begin(), pes.end(), pe);
    return it == pes.end() ? -1 : static_cast<int>(it - pes.begin());
  }
  bool has_me() const { return index_of(my_pe()) >= 0; }
};

// A strided split's arguments and what the test says of them.
struct Args {
  int start, stride, size;
  const char *text;
};

bool error_mentions(const std::string &text) {
  return std::string(ishmemx_last_error()).find(text) != std::string::npos;
}

Shape world() {
  Shape shape{ISHMEM_TEAM_WORLD, {}};
  for (int pe = 0; pe < n_pes(); ++pe) shape.pes.push_back(pe);
  return shape;
}

Shape shared() {
  // The PEs of this machine, as MPI sees it, in groups of ISHMEM_MAX_LOCAL_PES consecutive
  // ones (0: one group).
  const long k = ishmem::detail::load_config().max_local_pes;
  MPI_Comm machine;
  int n_machine = 0, me_machine = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, my_pe(), MPI_INFO_NULL, &machine);
  MPI_Comm_size(machine, &n_machine);
  MPI_Comm_rank(machine, &me_machine);
  std::vector<int> ranks(static_cast<std::size_t>(n_machine));
  int me = my_pe();
  MPI_Allgather(&me, 1, MPI_INT, ranks.data(), 1, MPI_INT, machine);
  MPI_Comm_free(&machine);
  Shape shape{ISHMEM_TEAM_SHARED, {}};
  for (int i = 0; i < n_machine; ++i)
    if (k == 0 || i / k == me_machine / k) shape.pes.push_back(ranks[static_cast<std::size_t>(i)]);
  return shape;
}

long max_teams() {
  return ishmem::detail::load_config().max_teams;
}

// The team's queries agree with `shape` on this PE; non-members hold ISHMEM_TEAM_INVALID.
void expect_shape(const Shape &shape, const std::string &what) {
  SCOPED_TRACE(what);
  const int me = shape.index_of(my_pe());
  if (me < 0) {
    EXPECT_EQ(shape.team, ISHMEM_TEAM_INVALID);
    return;
  }
  ASSERT_NE(shape.team, ISHMEM_TEAM_INVALID);
  EXPECT_EQ(ishmem_team_my_pe(shape.team), me);
  EXPECT_EQ(ishmem_team_n_pes(shape.team), static_cast<int>(shape.pes.size()));
  for (int pe = 0; pe < n_pes(); ++pe)
    EXPECT_EQ(ishmem_team_translate_pe(ISHMEM_TEAM_WORLD, pe, shape.team), shape.index_of(pe))
        << "world PE " << pe;
  for (std::size_t i = 0; i < shape.pes.size(); ++i)
    EXPECT_EQ(ishmem_team_translate_pe(shape.team, static_cast<int>(i), ISHMEM_TEAM_WORLD),
              shape.pes[i]);
  EXPECT_EQ(ishmem_team_translate_pe(shape.team, -1, ISHMEM_TEAM_WORLD), -1);
  const int past_end = static_cast<int>(shape.pes.size());
  EXPECT_EQ(ishmem_team_translate_pe(shape.team, past_end, ISHMEM_TEAM_WORLD), -1);
}

// Members of `parent` split it; the others do nothing.
Shape split_strided(const Shape &parent, int start, int stride, int size) {
  Shape shape;
  if (!parent.has_me()) return shape;
  for (int i = 0; i < size; ++i) shape.pes.push_back(parent.pes[start + i * stride]);
  shape.team = kUnset;
  EXPECT_EQ(ishmem_team_split_strided(parent.team, start, stride, size, nullptr, 0, &shape.team),
            ISHMEM_SUCCESS)
      << ishmemx_last_error();
  return shape;
}

// The rows (x) and columns (y) of `parent` in rows of xrange PEs.
std::pair<Shape, Shape> split_2d(const Shape &parent, int xrange) {
  Shape x{kUnset, {}}, y{kUnset, {}};
  EXPECT_EQ(ishmem_team_split_2d(parent.team, xrange, nullptr, 0, &x.team, nullptr, 0, &y.team),
            ISHMEM_SUCCESS)
      << ishmemx_last_error();
  const int n = static_cast<int>(parent.pes.size()), width = std::min(xrange, n);
  const int me = parent.index_of(my_pe()), row = me / width, column = me % width;
  for (int i = row * width; i < std::min(n, (row + 1) * width); ++i) x.pes.push_back(parent.pes[i]);
  for (int i = column; i < n; i += width) y.pes.push_back(parent.pes[i]);
  return {x, y};
}

void destroy(const Shape &shape) {
  if (shape.has_me()) {
    EXPECT_EQ(ishmem_team_destroy(shape.team), ISHMEM_SUCCESS);
  }
}

// Rounds of puts to every member, then team_sync: a member that left the sync early would
// read a slot its late peer has not written yet, and one member is late in every round. Two
// halves of `buf` (2 * n_pes longs) alternate; `tag` keeps the values of each call apart.
void expect_sync_orders_puts(const Shape &shape, long *buf, int rounds, int tag) {
  if (!shape.has_me()) return;
  const int m = static_cast<int>(shape.pes.size()), me = shape.index_of(my_pe());
  auto value = [&](int round, int index) { return (tag * 1000L + round) * 1000 + index; };
  int wrong = 0;
  for (int r = 1; r <= rounds; ++r) {
    long *half = buf + (r % 2) * n_pes();
    if (me == r % m) usleep(2000);
    for (int k = 0; k < m; ++k)
      EXPECT_EQ(ishmem_long_p(half + me, value(r, me), shape.pes[(me + k) % m]), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_team_sync(shape.team), ISHMEM_SUCCESS) << ishmemx_last_error();
    for (int i = 0; i < m; ++i)
      if (half[i] != value(r, i) && ++wrong <= 3)
        ADD_FAILURE() << "team " << shape.team << " round " << r << ": slot of member " << i
                      << " holds " << half[i];
  }
  EXPECT_EQ(wrong, 0);
}

TEST(Teams, WorldAndShared) {
  expect_shape(world(), "world");
  expect_shape(shared(), "shared");
  ishmem_team_config_t config{-7};
  EXPECT_EQ(ishmem_team_get_config(ISHMEM_TEAM_WORLD, ISHMEM_TEAM_NUM_CONTEXTS, &config),
            ISHMEM_SUCCESS);
  EXPECT_EQ(config.num_contexts, 0);
  EXPECT_EQ(ishmem_team_sync(ISHMEM_TEAM_WORLD), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_team_sync(ISHMEM_TEAM_SHARED), ISHMEM_SUCCESS);
}

TEST(Teams, StridedSplits) {
  const int n = n_pes();
  std::vector<Args> cases = {{0, 1, n, "all"},
                             {0, 2, (n + 1) / 2, "even PEs"},
                             {n - 1, -1, n, "reversed"},
                             {n - 1, -2, (n + 1) / 2, "every other one from the end"},
                             {n / 2, 0, 1, "stride 0, one PE"},
                             {n - 1, 1, 1, "the last PE alone"}};
  if (n >= 2) cases.push_back({1, 2, n / 2, "odd PEs"});
  for (const Args &a : cases) {
    const Shape shape = split_strided(world(), a.start, a.stride, a.size);
    expect_shape(shape, a.text);
    if (shape.has_me()) {
      EXPECT_EQ(ishmem_team_sync(shape.team), ISHMEM_SUCCESS);
    }
    destroy(shape);
  }
}

TEST(Teams, SplitOfASplitReversed) {
  const Shape evens = split_strided(world(), 0, 2, (n_pes() + 1) / 2);
  const int m = static_cast<int>(evens.pes.size());
  const Shape reversed = split_strided(evens, m - 1, -1, m);  // only the even PEs call it
  expect_shape(evens, "even PEs");
  expect_shape(reversed, "even PEs, reversed");
  if (reversed.has_me()) {
    EXPECT_EQ(reversed.pes[0], 2 * (m - 1));
  }
  destroy(reversed);
  destroy(evens);
}

TEST(Teams, TwoDimensional) {
  const int n = n_pes();
  // 1 and n + 1 give one-PE teams; with 3 and 4 PEs, 2 and 3 leave a short last row.
  for (int xrange : {1, 2, 3, n, n + 1}) {
    SCOPED_TRACE("xrange " + std::to_string(xrange));
    const auto [x, y] = split_2d(world(), xrange);
    expect_shape(x, "x");
    expect_shape(y, "y");
    const int width = std::min(xrange, n);
    EXPECT_EQ(ishmem_team_translate_pe(x.team, my_pe() % width, y.team), my_pe() / width);
    EXPECT_EQ(ishmem_team_sync(x.team), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_team_sync(y.team), ISHMEM_SUCCESS);
    destroy(x);
    destroy(y);
  }
}

TEST(Teams, TranslateBetweenEveryPair) {
  const int n = n_pes();
  const auto [x, y] = split_2d(world(), 2);
  std::vector<Shape> shapes = {world(),
                               shared(),
                               split_strided(world(), 0, 2, (n + 1) / 2),
                               split_strided(world(), n - 1, -1, n),
                               split_strided(world(), n - 1, 0, 1),
                               x,
                               y};
  for (std::size_t a = 0; a < shapes.size(); ++a)
    for (std::size_t b = 0; b < shapes.size(); ++b) {
      const Shape &src = shapes[a], &dest = shapes[b];
      if (!src.has_me()) continue;
      for (std::size_t i = 0; i < src.pes.size(); ++i) {
        const int want = dest.has_me() ? dest.index_of(src.pes[i]) : -1;
        EXPECT_EQ(ishmem_team_translate_pe(src.team, static_cast<int>(i), dest.team), want)
            << "teams " << a << " -> " << b << ", PE " << i;
      }
    }
  for (std::size_t s = 2; s < shapes.size(); ++s) destroy(shapes[s]);
}

TEST(Teams, TeamPtrAddressesMembers) {
  const int n = n_pes();
  long *buf = static_cast<long *>(ishmem_calloc(static_cast<std::size_t>(n), sizeof(long)));
  ASSERT_TRUE(all_true(buf != nullptr));
  const Shape reversed = split_strided(world(), n - 1, -1, n);
  for (int i = 0; i < n; ++i) {
    long *p = static_cast<long *>(ishmem_team_ptr(reversed.team, buf, i));
    EXPECT_EQ(p, ishmem_ptr(buf, n - 1 - i)) << "member " << i;
    const bool reachable = node_local(n - 1 - i);
    EXPECT_EQ(p != nullptr, reachable) << "member " << i;
    if (p) p[my_pe()] = 100 + my_pe();
  }
  ishmem_barrier_all();
  for (int pe = 0; pe < n; ++pe)
    if (node_local(pe)) {
      EXPECT_EQ(buf[pe], 100 + pe) << "from PE " << pe;
    }
  long on_stack = 0;
  EXPECT_EQ(ishmem_team_ptr(reversed.team, buf, n), nullptr);
  EXPECT_EQ(ishmem_team_ptr(reversed.team, buf, -1), nullptr);
  EXPECT_EQ(ishmem_team_ptr(ISHMEM_TEAM_WORLD, &on_stack, my_pe()), nullptr);
  EXPECT_EQ(ishmem_team_ptr(ISHMEM_TEAM_INVALID, buf, 0), nullptr);
  destroy(reversed);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(buf), ISHMEM_SUCCESS);
}

TEST(Teams, SlotIsFreeOnEveryMember) {
  if (!all_true(n_pes() > 1)) GTEST_SKIP() << "needs two PEs";
  // Slot 2 goes to the even PEs' team; the next team of all PEs takes slot 3, the lowest
  // slot free on every member, though 2 is free on the odd PEs.
  const Shape evens = split_strided(world(), 0, 2, (n_pes() + 1) / 2);
  if (evens.has_me()) {
    EXPECT_EQ(evens.team, 2);
  }
  const Shape all = split_strided(world(), 0, 1, n_pes());
  EXPECT_EQ(all.team, 3);
  destroy(evens);
  // Slot 2 is free everywhere again.
  const Shape again = split_strided(world(), 0, 1, n_pes());
  EXPECT_EQ(again.team, 2);
  destroy(all);
  destroy(again);
}

TEST(Teams, LimitReachedAndSlotsReused) {
  const long limit = max_teams();
  for (int pass = 0; pass < 2; ++pass) {  // the second pass finds every slot freed
    std::vector<Shape> made;
    for (long i = 2; i < limit; ++i) {
      made.push_back(split_strided(world(), 0, 1, n_pes()));
      EXPECT_EQ(made.back().team, i);
    }
    ishmem_team_t extra = kUnset, x = kUnset, y = kUnset;
    EXPECT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 0, 1, 1, nullptr, 0, &extra),
              ISHMEM_ERR_NOMEM);
    EXPECT_EQ(extra, ISHMEM_TEAM_INVALID);
    EXPECT_TRUE(error_mentions("team limit ISHMEM_MAX_TEAMS=" + std::to_string(limit) + " reached"))
        << ishmemx_last_error();
    EXPECT_EQ(ishmem_team_split_2d(ISHMEM_TEAM_WORLD, 1, nullptr, 0, &x, nullptr, 0, &y),
              ISHMEM_ERR_NOMEM);
    EXPECT_EQ(x, ISHMEM_TEAM_INVALID);
    EXPECT_EQ(y, ISHMEM_TEAM_INVALID);
    // A destroyed team's slot is the next split's.
    const std::size_t middle = made.size() / 2;
    const ishmem_team_t freed = made[middle].team;
    destroy(made[middle]);
    EXPECT_EQ(ishmem_team_n_pes(freed), -1);
    made[middle] = split_strided(world(), n_pes() - 1, -1, n_pes());
    EXPECT_EQ(made[middle].team, freed);
    expect_shape(made[middle], "reversed, in a reused slot");
    EXPECT_EQ(ishmem_team_sync(freed), ISHMEM_SUCCESS);
    for (const Shape &shape : made) destroy(shape);
  }
}

TEST(Teams, InvalidHandles) {
  long word = 0;
  const int never_made = static_cast<int>(max_teams()) - 1;
  for (int team : {ISHMEM_TEAM_INVALID, -5, never_made, static_cast<int>(max_teams()), 1 << 20}) {
    SCOPED_TRACE("team " + std::to_string(team));
    EXPECT_EQ(ishmem_team_my_pe(team), -1);
    EXPECT_EQ(ishmem_team_n_pes(team), -1);
    EXPECT_EQ(ishmem_team_translate_pe(team, 0, ISHMEM_TEAM_WORLD), -1);
    EXPECT_EQ(ishmem_team_translate_pe(ISHMEM_TEAM_WORLD, 0, team), -1);
    EXPECT_EQ(ishmem_team_ptr(team, &word, 0), nullptr);
    EXPECT_EQ(ishmem_team_sync(team), ISHMEM_ERR_INVALID_ARG);
    // OpenSHMEM 1.5: destroying ISHMEM_TEAM_INVALID does nothing; any other bad handle fails.
    EXPECT_EQ(ishmem_team_destroy(team),
              team == ISHMEM_TEAM_INVALID ? ISHMEM_SUCCESS : ISHMEM_ERR_INVALID_ARG);
    ishmem_team_config_t config{0};
    EXPECT_EQ(ishmem_team_get_config(team, 0, &config), ISHMEM_ERR_INVALID_ARG);
    ishmem_team_t child = kUnset;
    EXPECT_EQ(ishmem_team_split_strided(team, 0, 1, 1, nullptr, 0, &child), ISHMEM_ERR_INVALID_ARG);
    EXPECT_EQ(child, ISHMEM_TEAM_INVALID);
  }
  EXPECT_TRUE(error_mentions("is not a team of this PE")) << ishmemx_last_error();
  EXPECT_EQ(ishmem_team_sync(ISHMEM_TEAM_INVALID), ISHMEM_ERR_INVALID_ARG);
  EXPECT_TRUE(error_mentions("ishmem_team_sync: team is ISHMEM_TEAM_INVALID"));
  EXPECT_EQ(ishmem_team_destroy(ISHMEM_TEAM_WORLD), ISHMEM_ERR_INVALID_ARG);
  EXPECT_TRUE(error_mentions("ISHMEM_TEAM_WORLD cannot be destroyed")) << ishmemx_last_error();
  EXPECT_EQ(ishmem_team_destroy(ISHMEM_TEAM_SHARED), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_team_n_pes(ISHMEM_TEAM_WORLD), n_pes()) << "a refused destroy destroyed it";
  // A team this PE is not in: the odd PEs hold no team in the even PEs' slot.
  const Shape evens = split_strided(world(), 0, 2, (n_pes() + 1) / 2);
  const int slot = static_cast<int>(allgather(evens.has_me() ? evens.team : -1)[0]);
  if (!evens.has_me()) {
    EXPECT_EQ(ishmem_team_my_pe(slot), -1);
    EXPECT_EQ(ishmem_team_sync(slot), ISHMEM_ERR_INVALID_ARG);
  }
  destroy(evens);
  EXPECT_EQ(ishmem_team_n_pes(slot), -1) << "destroyed";
  EXPECT_EQ(ishmem_team_sync(slot), ISHMEM_ERR_INVALID_ARG);
}

TEST(Teams, ConfigIsKept) {
  ishmem_team_config_t asked{3}, got{-1};
  ishmem_team_t team = kUnset;
  EXPECT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 0, 1, n_pes(), &asked,
                                      ISHMEM_TEAM_NUM_CONTEXTS, &team),
            ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_team_get_config(team, ISHMEM_TEAM_NUM_CONTEXTS, &got), ISHMEM_SUCCESS);
  EXPECT_EQ(got.num_contexts, 3);
  got.num_contexts = -1;
  EXPECT_EQ(ishmem_team_get_config(team, 0, &got), ISHMEM_SUCCESS);
  EXPECT_EQ(got.num_contexts, -1) << "mask 0 fetches nothing";
  EXPECT_EQ(ishmem_team_get_config(team, ISHMEM_TEAM_NUM_CONTEXTS, nullptr),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_team_get_config(team, 2, &got), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_team_destroy(team), ISHMEM_SUCCESS);
}

// Each bad split fails every PE alike, and takes no slot: the good split after them gets 2.
TEST(Teams, InvalidSplitArgumentsFailEveryMember) {
  const int n = n_pes();
  const Args bad[] = {{n, 1, 1, "start"},
                      {-1, 1, 1, "start"},
                      {0, 1, 0, "size 0"},
                      {0, 1, n + 1, "size"},
                      {0, 0, 2, n >= 2 ? "stride 0" : "size"},
                      {n - 1, 1, 2, n >= 2 ? "last PE" : "size"},
                      {0, -1, 2, n >= 2 ? "last PE" : "size"}};
  for (const Args &a : bad) {
    ishmem_team_t team = kUnset;
    EXPECT_EQ(
        ishmem_team_split_strided(ISHMEM_TEAM_WORLD, a.start, a.stride, a.size, nullptr, 0, &team),
        ISHMEM_ERR_INVALID_ARG)
        << a.start << "," << a.stride << "," << a.size;
    EXPECT_EQ(team, ISHMEM_TEAM_INVALID);
    EXPECT_TRUE(error_mentions(a.text)) << ishmemx_last_error();
  }
  ishmem_team_t team = kUnset, x = kUnset, y = kUnset;
  ishmem_team_config_t config{1};
  EXPECT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 0, 1, 1, &config, 4, &team),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 0, 1, 1, nullptr, ISHMEM_TEAM_NUM_CONTEXTS,
                                      &team),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_team_split_2d(ISHMEM_TEAM_WORLD, 0, nullptr, 0, &x, nullptr, 0, &y),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_TRUE(error_mentions("xrange 0 is not positive")) << ishmemx_last_error();
  EXPECT_EQ(x, ISHMEM_TEAM_INVALID);
  EXPECT_EQ(y, ISHMEM_TEAM_INVALID);
  // One PE's output pointer is NULL: it names it, the others name their team.
  const bool null_here = my_pe() == 0;
  EXPECT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 0, 1, 1, nullptr, 0,
                                      null_here ? nullptr : &team),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_TRUE(error_mentions(null_here ? "new_team is NULL"
                                       : "another member of team 0 passed invalid arguments"))
      << ishmemx_last_error();
  const Shape good = split_strided(world(), 0, 1, n);
  EXPECT_EQ(good.team, 2) << "a failed split kept a slot";
  destroy(good);
}

TEST(Teams, MismatchedCallsFailEveryMember) {
  if (!all_true(n_pes() > 1)) GTEST_SKIP() << "needs two PEs";
  const bool first = my_pe() == 0;
  ishmem_team_t team = kUnset, x = kUnset, y = kUnset;
  // Different arguments.
  EXPECT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, first ? 0 : 1, 1, 1, nullptr, 0, &team),
            ISHMEM_ERR_MISMATCH);
  EXPECT_EQ(team, ISHMEM_TEAM_INVALID);
  EXPECT_TRUE(error_mentions("PE 0 called ishmem_team_split_strided(start 0, stride 1, size 1)"))
      << ishmemx_last_error();
  EXPECT_TRUE(error_mentions("called ishmem_team_split_strided(start 1, stride 1, size 1)"));
  // Different splits.
  const int rc = first ? ishmem_team_split_2d(ISHMEM_TEAM_WORLD, 1, nullptr, 0, &x, nullptr, 0, &y)
                       : ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 0, 1, 1, nullptr, 0, &team);
  EXPECT_EQ(rc, ISHMEM_ERR_MISMATCH);
  EXPECT_TRUE(error_mentions("PE 0 called ishmem_team_split_2d")) << ishmemx_last_error();
  // A split against a team_sync.
  EXPECT_EQ(first ? ishmem_team_sync(ISHMEM_TEAM_WORLD)
                  : ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 0, 1, 1, nullptr, 0, &team),
            ISHMEM_ERR_MISMATCH);
  EXPECT_TRUE(error_mentions("PE 0 called ishmem_team_sync")) << ishmemx_last_error();
  EXPECT_EQ(team, ISHMEM_TEAM_INVALID);
  // A destroy against a team_sync: nothing is destroyed, and the destroy after it works.
  const Shape all = split_strided(world(), 0, 1, n_pes());
  EXPECT_EQ(all.team, 2) << "a mismatched split kept a slot";
  EXPECT_EQ(first ? ishmem_team_sync(all.team) : ishmem_team_destroy(all.team),
            ISHMEM_ERR_MISMATCH);
  EXPECT_TRUE(error_mentions("called ishmem_team_destroy")) << ishmemx_last_error();
  EXPECT_EQ(ishmem_team_n_pes(all.team), n_pes());
  EXPECT_EQ(ishmem_team_sync(all.team), ISHMEM_SUCCESS);
  destroy(all);
}

TEST(Teams, SyncOrdersPuts) {
  const int n = n_pes();
  long *buf = static_cast<long *>(ishmem_calloc(2 * static_cast<std::size_t>(n), sizeof(long)));
  ASSERT_TRUE(all_true(buf != nullptr));
  const auto [x, y] = split_2d(world(), 2);
  const std::vector<Shape> shapes = {world(),
                                     shared(),
                                     split_strided(world(), 0, 2, (n + 1) / 2),
                                     split_strided(world(), n - 1, -1, n),
                                     x,
                                     y};
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    expect_sync_orders_puts(shapes[s], buf, 20, static_cast<int>(s));
    ishmem_barrier_all();  // the next shape's members write the same slots
  }
  for (std::size_t s = 2; s < shapes.size(); ++s) destroy(shapes[s]);
  EXPECT_EQ(ishmem_free(buf), ISHMEM_SUCCESS);
}

}  // namespace
