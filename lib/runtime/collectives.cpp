#include "runtime/collectives.h"

#include <cstring>
#include <string>
#include <vector>

#include "bootstrap/stall_watch.h"
#include "runtime/gpu_collectives.h"

namespace ishmem::detail {

const char *reduce_op_name(ReduceOp op) {
  static const char *const names[] = {"", "and", "or", "xor", "max", "min", "sum", "prod"};
  return names[static_cast<int>(op)];
}

const char *element_kind_name(ElementKind kind) {
  static const char *const names[] = {"byte", "signed integer", "unsigned integer", "real",
                                      "complex"};
  return names[static_cast<int>(kind)];
}

namespace {

const char *kind_name(CollectiveKind kind) {
  static const char *const names[] = {"none",      "broadcast", "collect",  "fcollect", "alltoall",
                                      "alltoalls", "reduce",    "rejected", "team_sync"};
  return names[static_cast<int>(kind)];
}

CollectiveKind kind_of(const CallRecord &r) {
  return static_cast<CollectiveKind>(r.what & 0xff);
}

// "sum reduce of 10 4-byte signed integer elements", "broadcast of 8 bytes from root 1".
std::string describe(const CallRecord &r) {
  const CollectiveKind kind = kind_of(r);
  if (kind == CollectiveKind::rejected) return "a call whose arguments it rejected";
  if (kind == CollectiveKind::sync) return "team_sync";
  const auto op = static_cast<ReduceOp>((r.what >> 8) & 0xff);
  const auto type = static_cast<ElementKind>((r.what >> 24) & 0xff);  // ElementType::code()
  const unsigned long size = (r.what >> 16) & 0xff;
  char text[160];
  int n = snprintf(text, sizeof text, "%s%s%s of %llu %lu-byte %s elements", reduce_op_name(op),
                   op == ReduceOp::none ? "" : " ", kind_name(kind),
                   static_cast<unsigned long long>(r.nelems), size, element_kind_name(type));
  if (kind == CollectiveKind::broadcast && n > 0 && n < static_cast<int>(sizeof text))
    snprintf(text + n, sizeof text - n, " from root %llu", static_cast<unsigned long long>(r.root));
  if (kind == CollectiveKind::alltoalls && n > 0 && n < static_cast<int>(sizeof text))
    snprintf(text + n, sizeof text - n, ", strides %d and %d",
             static_cast<std::int32_t>(r.strides >> 32), static_cast<std::int32_t>(r.strides));
  return text;
}

bool same_call(const CallRecord &a, const CallRecord &b) {
  if (a.what != b.what || a.root != b.root || a.strides != b.strides) return false;
  return kind_of(a) == CollectiveKind::collect || a.nelems == b.nelems;
}

}  // namespace

CallRecord record_of(const CollectiveCall &call) {
  const std::uint64_t op = call.reduction ? static_cast<std::uint64_t>(call.reduction->op) : 0;
  const std::uint64_t strides =
      call.kind == CollectiveKind::alltoalls
          ? static_cast<std::uint64_t>(static_cast<std::uint32_t>(call.dst)) << 32 |
                static_cast<std::uint32_t>(call.sst)
          : 0;
  return {static_cast<std::uint64_t>(call.kind) | op << 8 | call.type.code() << 16, call.nelems,
          static_cast<std::uint64_t>(call.root), strides};
}

bool records_agree(const CallRecord &a, const CallRecord &b) {
  return kind_of(a) != CollectiveKind::rejected && kind_of(b) != CollectiveKind::rejected &&
         same_call(a, b);
}

void compare_records(const Team &team, const CallRecord *all, const char *fn) {
  const int n = static_cast<int>(team.members.size());
  bool agree = true;
  for (int i = 0; i < n && agree; ++i)
    agree = kind_of(all[i]) != CollectiveKind::rejected && same_call(all[i], all[0]);
  if (agree) return;
  // One entry per distinct call, with the world PEs that made it.
  std::vector<bool> done(n, false);
  std::string text;
  for (int i = 0; i < n; ++i) {
    if (done[i]) continue;
    std::string pes;
    for (int j = i; j < n; ++j) {
      if (done[j] || !(kind_of(all[j]) == kind_of(all[i]) && same_call(all[j], all[i]))) continue;
      done[j] = true;
      pes += (pes.empty() ? "" : ",") + std::to_string(team.world_pe(j));
    }
    text += (text.empty() ? "" : "; ") + std::string("PE ") + pes + ": " + describe(all[i]);
  }
  fail(ISHMEM_ERR_MISMATCH, "%s: the team's PEs made different collective calls: %s", fn,
       text.c_str());
}

void run_collective(Runtime &rt, Team &team, const CollectiveCall &call, const FirstError &checks) {
  watch_enter_team(call.fn);  // a PE lost in it is reported in this call
  CollectiveCall mine = call;
  if (!checks.ok()) {
    mine = CollectiveCall{};
    mine.kind = CollectiveKind::rejected;
    mine.fn = call.fn;
    mine.launch = call.launch;
    mine.heap_dest = call.heap_dest;
  }
  // A heap the CPU cannot address (a GPU one, the same on every PE): the device algorithm on
  // node-local teams and for stream-ordered calls (on teams that span nodes it posts to the
  // device proxy), host copies and MPI for host calls on teams that span nodes. Buffers
  // outside the heap (static data, active sets) always take the MPI path.
  const bool gpu_heap = !g_fast.host_access && call.heap_dest;
  if (gpu_heap && (team.node_local || call.launch.on_stream)) {
    run_device_collective(rt, team, mine);
    checks.rethrow();
    return;
  }
  ++team.calls;
  const CollectivePath &path = !call.heap_dest   ? kMpiCollectives
                               : gpu_heap        ? kStagedCollectives
                               : team.node_local ? kNodeCollectives
                               : team.node       ? kHierCollectives
                                                 : kMpiCollectives;
  switch (mine.kind) {
    case CollectiveKind::broadcast:
      path.broadcast(rt, team, mine);
      break;
    case CollectiveKind::collect:
    case CollectiveKind::fcollect:
      path.collect(rt, team, mine);
      break;
    case CollectiveKind::alltoall:
    case CollectiveKind::alltoalls:
      path.alltoall(rt, team, mine);
      break;
    case CollectiveKind::reduce:
      path.reduce(rt, team, mine);
      break;
    default:
      path.rejected(rt, team, mine);
  }
  checks.rethrow();
}

void check_collect_room(const CollectiveCall &call, std::size_t total) {
  if (!call.heap_dest) return;
  const auto offset =
      static_cast<std::size_t>(static_cast<const char *>(call.dest) - g_fast.local_base);
  if (total > g_fast.committed - offset)
    fail(ISHMEM_ERR_NOT_SYMMETRIC,
         "%s: dest (heap offset %zu) cannot hold the %zu bytes the team collects", call.fn, offset,
         total);
}

void copy_strided(char *dest, std::ptrdiff_t dest_stride, const char *source,
                  std::ptrdiff_t source_stride, std::size_t count, std::size_t size) {
  if (dest_stride == static_cast<std::ptrdiff_t>(size) &&
      source_stride == static_cast<std::ptrdiff_t>(size)) {
    if (count) memcpy(dest, source, count * size);
    return;
  }
  for (std::size_t i = 0; i < count; ++i)
    memcpy(dest + static_cast<std::ptrdiff_t>(i) * dest_stride,
           source + static_cast<std::ptrdiff_t>(i) * source_stride, size);
}

}  // namespace ishmem::detail
