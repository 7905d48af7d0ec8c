// Splits and destroy. A split starts with a team_sync of the parent, which fails the members
// if any of them is in another call. Then one MPI_Iallreduce (bitwise OR) over the parent's
// communicator of every member's used-slot bitmap, its arguments and their complements, and a
// flag of bad arguments: the lowest slot free on every member is the new team's, arguments
// that differ leave a bit set in both an argument and its complement, and every member sees
// the same result, so every member fails the same way or none does. Only then is the
// communicator split, so a failed split makes nothing.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "bootstrap/stall_watch.h"
#include "common/error.h"
#include "runtime/gpu_runtime.h"
#include "runtime/runtime.h"
#include "runtime/split_args.h"
#include "runtime/team.h"

namespace ishmem::detail {
namespace {

constexpr int kArgs = 4;  // the split's kind, then start, stride, size (or xrange)
enum : std::int64_t { kStrided = 1, k2d = 2 };

struct SplitCall {
  const char *fn;
  std::int64_t args[kArgs];
  std::string bad;  // what is wrong with this PE's arguments; empty if nothing
};

std::string call_text(const std::int64_t *args) {
  char text[160];
  if (args[0] == kStrided)
    snprintf(text, sizeof text,
             "ishmem_team_split_strided(start %" PRId64 ", stride %" PRId64 ", size %" PRId64 ")",
             args[1], args[2], args[3]);
  else
    snprintf(text, sizeof text, "ishmem_team_split_2d(xrange %" PRId64 ")", args[1]);
  return text;
}

// Every member's arguments, for the report of a mismatch that every member has seen.
[[noreturn]] void report_arguments(const Team &parent, const SplitCall &call) {
  std::vector<std::int64_t> all(kArgs * parent.members.size());
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Iallgather(call.args, kArgs, MPI_INT64_T, all.data(), kArgs, MPI_INT64_T,
                                   parent.comm, &req));
  watch_complete(req, "MPI_Iallgather");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < parent.members.size(); ++i)
    names.push_back(call_text(&all[i * kArgs]));
  report_calls(parent, call.fn, names);
}

// The agreement of a split; returns the slots used on any member, as a bitmap. It starts
// with the parent's team_sync, which fails every member that meets another call there (a
// member in ishmem_team_sync, or in the other split) instead of pairing it with this one.
std::vector<std::uint64_t> agree(Runtime &rt, Team &parent, const SplitCall &call) {
  team_sync(rt, parent, call.fn);
  const std::size_t n_slots = rt.teams->slots.size(), words = (n_slots + 63) / 64;
  std::vector<std::uint64_t> mine(words + 2 * kArgs + 1, 0), any(mine.size(), 0);
  for (std::size_t s = 0; s < n_slots; ++s)
    if (rt.teams->slots[s]) mine[s / 64] |= std::uint64_t{1} << (s % 64);
  for (int i = 0; i < kArgs; ++i) {
    mine[words + i] = static_cast<std::uint64_t>(call.args[i]);
    mine[words + kArgs + i] = ~static_cast<std::uint64_t>(call.args[i]);
  }
  mine.back() = call.bad.empty() ? 0 : 1;
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Iallreduce(mine.data(), any.data(), static_cast<int>(mine.size()),
                                   MPI_UINT64_T, MPI_BOR, parent.comm, &req));
  watch_complete(req, "MPI_Iallreduce");
  for (int i = 0; i < kArgs; ++i)
    if (any[words + i] & any[words + kArgs + i]) report_arguments(parent, call);
  if (!call.bad.empty()) fail(ISHMEM_ERR_INVALID_ARG, "%s: %s", call.fn, call.bad.c_str());
  if (any.back())
    fail(ISHMEM_ERR_INVALID_ARG, "%s: another member of team %d passed invalid arguments", call.fn,
         parent.slot);
  any.resize(words);
  return any;
}

// The lowest `count` slots free on every member.
std::vector<int> free_slots(const std::vector<std::uint64_t> &used, std::size_t count,
                            std::size_t n_slots, const char *fn) {
  std::vector<int> slots;
  for (std::size_t s = 0; s < n_slots && slots.size() < count; ++s)
    if (!(used[s / 64] >> (s % 64) & 1)) slots.push_back(static_cast<int>(s));
  if (slots.size() < count)
    fail(ISHMEM_ERR_NOMEM,
         "%s: team limit ISHMEM_MAX_TEAMS=%zu reached (ISHMEM_TEAM_WORLD and ISHMEM_TEAM_SHARED "
         "included); destroy a team or raise the limit",
         fn, n_slots);
  return slots;
}

// Splits the parent's communicator: members pass color 0 and their new index, the others
// MPI_UNDEFINED. Returns the new team's handle, ISHMEM_TEAM_INVALID on non-members.
ishmem_team_t make_team(Runtime &rt, const Team &parent, int slot, int color,
                        std::vector<int> members, int my_index, const ishmem_team_config_t *config,
                        long mask) {
  MPI_Comm comm = MPI_COMM_NULL;
  ISHMEMI_CHECK_MPI(MPI_Comm_split(parent.comm, color, my_index < 0 ? 0 : my_index, &comm));
  if (my_index < 0) return ISHMEM_TEAM_INVALID;
  Team &team = add_team(rt, slot, std::move(members), my_index, comm);
  try {
    gpu_team_changed(rt, slot);  // kernels see the team (GPU backends)
  } catch (...) {
    rt.teams->slots[slot].reset();
    throw;
  }
  team.config_mask = mask;
  if (mask & ISHMEM_TEAM_NUM_CONTEXTS) team.config.num_contexts = config->num_contexts;
  return slot;
}

void zero_area(Runtime &rt, char *area) {
  if (rt.teams->host_heap) {
    memset(area, 0, rt.teams->area_bytes);
    return;
  }
  const std::vector<char> zeros(rt.teams->area_bytes, 0);
  rt.backend->copy(area, zeros.data(), zeros.size());
}

}  // namespace

void team_split_strided(Runtime &rt, Team &parent, int start, int stride, int size,
                        const ishmem_team_config_t *config, long config_mask,
                        ishmem_team_t *new_team) {
  SplitCall call{"ishmem_team_split_strided", {kStrided, start, stride, size}, ""};
  if (new_team) *new_team = ISHMEM_TEAM_INVALID;
  call.bad =
      !new_team ? "new_team is NULL" : strided_split_problem(start, stride, size, parent.n_pes());
  if (call.bad.empty()) call.bad = config_problem(config, config_mask, "");
  const std::vector<std::uint64_t> used = agree(rt, parent, call);
  const int slot = free_slots(used, 1, rt.teams->slots.size(), call.fn)[0];
  int my_index = -1;
  std::vector<int> members;
  for (int i = 0; i < size; ++i) {
    const int index = start + i * stride;
    if (index == parent.my_index) my_index = i;
    members.push_back(parent.members[index]);
  }
  *new_team = make_team(rt, parent, slot, my_index < 0 ? MPI_UNDEFINED : 0, std::move(members),
                        my_index, config, config_mask);
}

void team_split_2d(Runtime &rt, Team &parent, int xrange, const ishmem_team_config_t *x_config,
                   long x_mask, ishmem_team_t *x_team, const ishmem_team_config_t *y_config,
                   long y_mask, ishmem_team_t *y_team) {
  SplitCall call{"ishmem_team_split_2d", {k2d, xrange, 0, 0}, ""};
  if (x_team) *x_team = ISHMEM_TEAM_INVALID;
  if (y_team) *y_team = ISHMEM_TEAM_INVALID;
  if (!x_team || !y_team)
    call.bad = "xaxis_team or yaxis_team is NULL";
  else if (xrange < 1)
    call.bad = "xrange " + std::to_string(xrange) + " is not positive";
  else
    call.bad = config_problem(x_config, x_mask, "xaxis ");
  if (call.bad.empty()) call.bad = config_problem(y_config, y_mask, "yaxis ");
  const std::vector<std::uint64_t> used = agree(rt, parent, call);
  const std::vector<int> slots = free_slots(used, 2, rt.teams->slots.size(), call.fn);
  const Split2dPlace place = split_2d_place(parent.n_pes(), xrange, parent.my_index);
  std::vector<int> row_pes, column_pes;
  for (int i : place.row) row_pes.push_back(parent.members[i]);
  for (int i : place.column) column_pes.push_back(parent.members[i]);
  const int row = place.row_number, column = place.column_number;
  *x_team = make_team(rt, parent, slots[0], row, std::move(row_pes), column, x_config, x_mask);
  try {
    *y_team = make_team(rt, parent, slots[1], column, std::move(column_pes), row, y_config, y_mask);
  } catch (...) {
    rt.teams->slots[slots[0]].reset();
    *x_team = ISHMEM_TEAM_INVALID;
    try {
      gpu_team_changed(rt, slots[0]);
    } catch (const Error &e) {  // the first error is the one to report
      log(LogLevel::warn, "undoing ishmem_team_split_2d: %s", e.what());
    }
    throw;
  }
}

void team_destroy(Runtime &rt, Team &team) {
  if (team.slot == ISHMEM_TEAM_WORLD || team.slot == ISHMEM_TEAM_SHARED)
    fail(ISHMEM_ERR_INVALID_ARG, "ishmem_team_destroy: %s cannot be destroyed",
         team.slot == ISHMEM_TEAM_WORLD ? "ISHMEM_TEAM_WORLD" : "ISHMEM_TEAM_SHARED");
  // team_sync compares the call with the other members' (a member in another call fails
  // them all, and nothing is destroyed). A barrier over MPI follows: once every member has
  // arrived there, none reads this PE's area any more, so it can be zeroed for the slot's
  // next team.
  team_sync(rt, team, "ishmem_team_destroy");
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Ibarrier(team.comm, &req));
  watch_complete(req, "MPI_Ibarrier");
  zero_area(rt, team.area);
  MPI_Comm comm = team.comm;
  team.comm = MPI_COMM_NULL;
  const int slot = team.slot;
  rt.teams->slots[slot].reset();
  ISHMEMI_CHECK_MPI(MPI_Comm_free(&comm));
  gpu_team_changed(rt, slot);
}

}  // namespace ishmem::detail
