// Teams in kernels: the device team queries, in both forms, give what the host calls give,
// for the predefined teams, split teams (positive and negative stride, 2d, single PE), an
// invalid handle, and a destroyed team's slot.
#include "gpu_test_util.h"

using namespace gpu_test;

namespace {

constexpr int kMaxPes = 8;

// What a kernel (or the host) reports of one team: my_pe, n_pes, every member's world PE
// (translate to WORLD) and every world PE's number in the team (translate from WORLD).
struct TeamView {
  int my_pe, n_pes;
  int to_world[kMaxPes];
  int from_world[kMaxPes];
  bool operator==(const TeamView &o) const {
    if (my_pe != o.my_pe || n_pes != o.n_pes) return false;
    for (int i = 0; i < kMaxPes; ++i)
      if (to_world[i] != o.to_world[i] || from_world[i] != o.from_world[i]) return false;
    return true;
  }
};

template <bool HANDLE>
__global__ void view_teams(ishmemx_device_handle_t h, const ishmem_team_t *teams, int count,
                           int n_world, TeamView *out) {
  const int t = threadIdx.x;
  if (t >= count) return;
  const ishmem_team_t team = teams[t];
  TeamView v;
  v.my_pe = HANDLE ? ishmem_team_my_pe(h, team) : ishmem_team_my_pe(team);
  v.n_pes = HANDLE ? ishmem_team_n_pes(h, team) : ishmem_team_n_pes(team);
  for (int i = 0; i < kMaxPes; ++i) {
    v.to_world[i] = HANDLE ? ishmem_team_translate_pe(h, team, i, ISHMEM_TEAM_WORLD)
                           : ishmem_team_translate_pe(team, i, ISHMEM_TEAM_WORLD);
    v.from_world[i] = i < n_world
                          ? (HANDLE ? ishmem_team_translate_pe(h, ISHMEM_TEAM_WORLD, i, team)
                                    : ishmem_team_translate_pe(ISHMEM_TEAM_WORLD, i, team))
                          : -1;
  }
  out[t] = v;
}

TeamView host_view(ishmem_team_t team) {
  TeamView v;
  v.my_pe = ishmem_team_my_pe(team);
  v.n_pes = ishmem_team_n_pes(team);
  for (int i = 0; i < kMaxPes; ++i) {
    v.to_world[i] = ishmem_team_translate_pe(team, i, ISHMEM_TEAM_WORLD);
    v.from_world[i] = i < n_pes() ? ishmem_team_translate_pe(ISHMEM_TEAM_WORLD, i, team) : -1;
  }
  return v;
}

template <bool HANDLE>
void expect_device_matches_host(const std::vector<ishmem_team_t> &teams, const char *when) {
  DeviceBuffer list(sizeof(ishmem_team_t) * teams.size()), out(sizeof(TeamView) * teams.size());
  to_device(list.as<ishmem_team_t>(), teams);
  view_teams<HANDLE><<<1, 32>>>(handle(), list.as<ishmem_team_t>(), int(teams.size()), n_pes(),
                                out.as<TeamView>());
  if (!GPU_LAUNCHED()) return;
  const std::vector<TeamView> got = to_host(out.as<TeamView>(), teams.size());
  for (std::size_t i = 0; i < teams.size(); ++i) {
    const TeamView want = host_view(teams[i]);
    EXPECT_TRUE(got[i] == want) << when << (HANDLE ? " (handle)" : "") << ": team " << teams[i]
                                << " on PE " << my_pe() << ": device my_pe " << got[i].my_pe
                                << " n_pes " << got[i].n_pes << ", host my_pe " << want.my_pe
                                << " n_pes " << want.n_pes;
  }
}

TEST(DeviceTeams, QueriesMatchTheHost) {
  SKIP_WITHOUT_GPU();
  ASSERT_LE(n_pes(), kMaxPes);
  const int n = n_pes();
  ishmem_team_t evens = ISHMEM_TEAM_INVALID, reversed = ISHMEM_TEAM_INVALID,
                alone = ISHMEM_TEAM_INVALID, row = ISHMEM_TEAM_INVALID,
                column = ISHMEM_TEAM_INVALID;
  ASSERT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, nullptr, 0, &evens),
            ISHMEM_SUCCESS)
      << ishmemx_last_error();
  ASSERT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, n - 1, -1, n, nullptr, 0, &reversed),
            ISHMEM_SUCCESS)
      << ishmemx_last_error();
  ASSERT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, n - 1, 0, 1, nullptr, 0, &alone),
            ISHMEM_SUCCESS)
      << ishmemx_last_error();
  ASSERT_EQ(ishmem_team_split_2d(ISHMEM_TEAM_WORLD, 2, nullptr, 0, &row, nullptr, 0, &column),
            ISHMEM_SUCCESS)
      << ishmemx_last_error();
  // The host's own answers are what the device must give; check a few of them outright.
  EXPECT_EQ(ishmem_team_n_pes(reversed), n);
  EXPECT_EQ(ishmem_team_my_pe(reversed), n - 1 - my_pe());
  EXPECT_EQ(ishmem_team_my_pe(evens), my_pe() % 2 == 0 ? my_pe() / 2 : -1);
  const std::vector<ishmem_team_t> teams = {ISHMEM_TEAM_WORLD,
                                            ISHMEM_TEAM_SHARED,
                                            evens,
                                            reversed,
                                            alone,
                                            row,
                                            column,
                                            ISHMEM_TEAM_INVALID,
                                            999};
  expect_device_matches_host<false>(teams, "after the splits");
  expect_device_matches_host<true>(teams, "after the splits");

  // A destroyed team is gone on the device too (its slot reads as no team).
  const ishmem_team_t gone = reversed;
  ASSERT_EQ(ishmem_team_destroy(reversed), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_EQ(ishmem_team_n_pes(gone), -1);
  expect_device_matches_host<false>({gone, ISHMEM_TEAM_WORLD}, "after a destroy");
  expect_device_matches_host<true>({gone, ISHMEM_TEAM_WORLD}, "after a destroy");

  for (ishmem_team_t t : {evens, alone, row, column})
    if (t != ISHMEM_TEAM_INVALID) EXPECT_EQ(ishmem_team_destroy(t), ISHMEM_SUCCESS);
}

}  // namespace
