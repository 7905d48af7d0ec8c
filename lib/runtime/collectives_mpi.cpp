// The collectives of teams with members on other nodes: MPI's non-blocking collectives on the
// team's communicator (ranked by team index), completed within the collective deadline.
#include <climits>
#include <cstring>
#include <vector>

#include "bootstrap/stall_watch.h"
#include "runtime/collectives.h"

namespace ishmem::detail {
namespace {

// MPI counts are ints; larger calls are split where the data is contiguous (broadcast,
// reduce) and refused elsewhere.
constexpr std::size_t kMaxPiece = std::size_t{1} << 30;

int mpi_count(std::size_t n, const CollectiveCall &call) {
  if (n > INT_MAX)
    fail(ISHMEM_ERR_UNSUPPORTED,
         "%s: %zu bytes per PE exceed the off-node path's limit of INT_MAX bytes", call.fn, n);
  return static_cast<int>(n);
}

class Datatype {
 public:
  Datatype() = default;
  Datatype(const Datatype &) = delete;
  Datatype &operator=(const Datatype &) = delete;
  ~Datatype() {
    if (type_ != MPI_DATATYPE_NULL && MPI_Type_free(&type_) != MPI_SUCCESS)
      log(LogLevel::warn, "MPI_Type_free of an alltoalls datatype failed");
  }
  // `count` elements of `size` bytes, `stride` bytes apart, spanning count * stride bytes
  // (so that consecutive blocks of an alltoall follow each other).
  void strided(std::size_t count, std::ptrdiff_t stride, std::size_t size) {
    MPI_Datatype element, vector;
    ISHMEMI_CHECK_MPI(MPI_Type_contiguous(static_cast<int>(size), MPI_BYTE, &element));
    const int rc = MPI_Type_create_hvector(static_cast<int>(count), 1, stride, element, &vector);
    ISHMEMI_CHECK_MPI(MPI_Type_free(&element));
    if (rc != MPI_SUCCESS) fail_mpi(rc, "MPI_Type_create_hvector", __FILE__, __LINE__);
    const int resized =
        MPI_Type_create_resized(vector, 0, stride * static_cast<MPI_Aint>(count), &type_);
    ISHMEMI_CHECK_MPI(MPI_Type_free(&vector));
    if (resized != MPI_SUCCESS) fail_mpi(resized, "MPI_Type_create_resized", __FILE__, __LINE__);
    ISHMEMI_CHECK_MPI(MPI_Type_commit(&type_));
  }
  MPI_Datatype get() const { return type_; }

 private:
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

void broadcast(Team &team, const CollectiveCall &call) {
  const std::size_t bytes = call.nelems * call.type.size;
  if (team.my_index == call.root && bytes && call.dest != call.source)
    memcpy(call.dest, call.source, bytes);
  char *dest = static_cast<char *>(call.dest);
  for (std::size_t done = 0; done < bytes; done += kMaxPiece) {
    const int n = static_cast<int>(std::min(kMaxPiece, bytes - done));
    MPI_Request req;
    ISHMEMI_CHECK_MPI(MPI_Ibcast(dest + done, n, MPI_BYTE, call.root, team.comm, &req));
    watch_complete(req, "MPI_Ibcast");
  }
}

void collect(Team &team, const CollectiveCall &call) {
  const std::size_t bytes = call.nelems * call.type.size;
  const int mine = mpi_count(bytes, call);
  MPI_Request req;
  if (call.kind == CollectiveKind::fcollect) {
    ISHMEMI_CHECK_MPI(
        MPI_Iallgather(call.source, mine, MPI_BYTE, call.dest, mine, MPI_BYTE, team.comm, &req));
    return watch_complete(req, "MPI_Iallgather");
  }
  const int n = static_cast<int>(team.members.size());
  // Each member's count and whether its dest is NULL, which is valid only while the members
  // collect nothing: known once every count is in, and then to every member alike.
  const int pair[2] = {mine, call.dest == nullptr};
  std::vector<int> pairs(2 * static_cast<std::size_t>(n)), counts(n), displs(n);
  ISHMEMI_CHECK_MPI(MPI_Iallgather(pair, 2, MPI_INT, pairs.data(), 2, MPI_INT, team.comm, &req));
  watch_complete(req, "MPI_Iallgather");
  std::size_t total = 0;
  int null_dest = -1;  // the first member whose dest is NULL
  for (int i = 0; i < n; ++i) {
    counts[i] = pairs[2 * i];
    if (pairs[2 * i + 1] && null_dest < 0) null_dest = i;
    displs[i] = static_cast<int>(std::min<std::size_t>(total, INT_MAX));
    total += static_cast<std::size_t>(counts[i]);
  }
  if (total && null_dest >= 0)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: PE %d passed a NULL dest, and the members collect %zu bytes",
         call.fn, team.world_pe(null_dest), total);
  mpi_count(total, call);
  check_collect_room(call, total);
  ISHMEMI_CHECK_MPI(MPI_Iallgatherv(call.source, mine, MPI_BYTE, call.dest, counts.data(),
                                    displs.data(), MPI_BYTE, team.comm, &req));
  watch_complete(req, "MPI_Iallgatherv");
}

void alltoall(Team &team, const CollectiveCall &call) {
  MPI_Request req;
  if (call.kind == CollectiveKind::alltoall || call.nelems == 0) {
    const int bytes = mpi_count(call.nelems * call.type.size, call);
    ISHMEMI_CHECK_MPI(
        MPI_Ialltoall(call.source, bytes, MPI_BYTE, call.dest, bytes, MPI_BYTE, team.comm, &req));
    return watch_complete(req, "MPI_Ialltoall");
  }
  mpi_count(call.nelems, call);
  const auto size = static_cast<std::ptrdiff_t>(call.type.size);
  Datatype send, recv;
  send.strided(call.nelems, call.sst * size, call.type.size);
  recv.strided(call.nelems, call.dst * size, call.type.size);
  ISHMEMI_CHECK_MPI(
      MPI_Ialltoall(call.source, 1, send.get(), call.dest, 1, recv.get(), team.comm, &req));
  watch_complete(req, "MPI_Ialltoall");
}

void reduce(Team &team, const CollectiveCall &call) {
  const Reduction &r = *call.reduction;
  const MPI_Op op = r.wrapping_mpi_op ? r.wrapping_mpi_op() : r.mpi_op;
  const std::size_t piece = kMaxPiece / r.type.size;
  const bool in_place = call.dest == call.source;
  for (std::size_t done = 0; done < call.nelems; done += piece) {
    const int n = static_cast<int>(std::min(piece, call.nelems - done));
    const std::size_t offset = done * r.type.size;
    const void *source = in_place ? MPI_IN_PLACE : static_cast<const char *>(call.source) + offset;
    MPI_Request req;
    ISHMEMI_CHECK_MPI(MPI_Iallreduce(source, static_cast<char *>(call.dest) + offset, n, r.mpi_type,
                                     op, team.comm, &req));
    watch_complete(req, "MPI_Iallreduce");
  }
}

// Without ISHMEM_DEBUG=1 the other members cannot be told; the caller throws this PE's error.
void rejected(Team &team, const CollectiveCall &call) {
  try {
    compare_over_mpi(team, call);
  } catch (const Error &) {
  }
}

template <void (*Algorithm)(Team &, const CollectiveCall &)>
void over_mpi(Runtime &rt, Team &team, const CollectiveCall &call) {
  const bool debug = rt.config.debug == "1";
  const bool rejected_call = call.kind == CollectiveKind::rejected;
  if (debug && !rejected_call) compare_over_mpi(team, call);
  if (debug || !rejected_call) Algorithm(team, call);
}

template <void (*Algorithm)(Team &, const CollectiveCall &)>
void step(Runtime &, Team &team, const CollectiveCall &call) {
  Algorithm(team, call);
}

}  // namespace

void compare_over_mpi(Team &team, const CollectiveCall &call) {
  const CallRecord mine = record_of(call);
  std::vector<CallRecord> all(team.members.size());
  MPI_Request req;
  ISHMEMI_CHECK_MPI(MPI_Iallgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE,
                                   team.comm, &req));
  watch_complete(req, "MPI_Iallgather");
  compare_records(team, all.data(), call.fn);
}

const CollectivePath kMpiSteps = {step<broadcast>, step<collect>, step<alltoall>, step<reduce>,
                                  step<rejected>};

const CollectivePath kMpiCollectives = {over_mpi<broadcast>, over_mpi<collect>, over_mpi<alltoall>,
                                        over_mpi<reduce>, over_mpi<rejected>};

}  // namespace ishmem::detail
