// The deprecated calls of OpenSHMEM 1.5 (ishmem/deprecated.h): the collectives over active
// sets, defined from the lists of that header, the argument checks, then the team collective of
// ISHMEM_TEAM_WORLD when the set is the world and the buffers are in the heap, else one
// run_over_set (runtime/active_set.cpp); ishmem_pcontrol.
#define ISHMEMI_KEEP_COLLECTIVE_LISTS 1

#include <cstdint>
#include <type_traits>

#include "api/calls.h"
#include "api/checks.h"
#include "api/collective_args.h"
#include "api/guard.h"
#include "runtime/active_set.h"
#include "runtime/collectives.h"
#include "runtime/sync.h"

using namespace ishmem::detail;

namespace ishmem::detail::host {
namespace {

// The element of the sized forms: 4 or 8 bytes.
template <std::size_t BYTES>
using Sized = std::conditional_t<BYTES == 4, std::uint32_t, std::uint64_t>;

// A buffer of this PE that the call reads or writes `bytes` of: any host memory.
void check_local(const void *p, std::size_t bytes, const char *fn, const char *what) {
  if (bytes && !p) fail(ISHMEM_ERR_INVALID_ARG, "%s: %s is NULL (%zu bytes)", fn, what, bytes);
  check_host_buffer(p, bytes, fn, what);
}

// Whether `call` over `team` (the set's, from ActiveSets::get) runs as the team collective of
// ISHMEM_TEAM_WORLD (node-local shared memory, two levels across nodes) rather than on MPI: the
// set is the world and dest and source lie in a heap the CPU addresses. Both are the same on
// every member of a program that passes symmetric buffers, as OpenSHMEM requires of it.
bool over_world(const Team &team, const CollectiveCall &call) {
  std::size_t off;
  return team.slot == ISHMEM_TEAM_WORLD && g_fast.host_access && in_heap(call.dest, 0, off) &&
         (call.nelems == 0 || in_heap(call.source, 0, off));
}

// Runs `checks(team)` (which throw), then `call` over the active set, collective over its
// members: as ISHMEM_TEAM_WORLD's team collective (see over_world) or on MPI over the set's
// communicator.
template <class Checks>
int over_set(const char *fn, const ActiveSet &active, CollectiveCall call,
             Checks &&checks) noexcept {
  return guard([&] {
    Runtime &rt = runtime();
    Team &team = rt.active_sets.get(rt, active, fn);
    call.fn = fn;
    call.launch.fn = fn;
    // The team algorithms copy source to dest at the root unless they are the same buffer:
    // given its source as dest, the root's dest is left alone, as broadcast32/64 require.
    if (call.kind == CollectiveKind::broadcast && team.my_index == call.root)
      call.dest = const_cast<void *>(call.source);
    FirstError outcome;
    outcome.attempt([&] { checks(team); });
    if (over_world(team, call))
      run_collective(rt, team, call, outcome);
    else
      run_over_set(rt, team, call, outcome);
  });
}

// collect, fcollect, alltoall: blocks of nelems elements per member.
template <std::size_t BYTES>
int set_blocks(CollectiveKind kind, const char *fn, void *dest, const void *source,
               std::size_t nelems, int start, int log_stride, int size) noexcept {
  using T = Sized<BYTES>;
  const CollectiveCall call =
      call_of(kind, static_cast<T *>(dest), static_cast<const T *>(source), nelems);
  return over_set(fn, {start, log_stride, size}, call, [&](const Team &set) {
    const std::size_t bytes = bytes_of(nelems, BYTES, fn, "source");
    // collect: the others' counts are not known yet; a dest for this PE's own part here, the
    // total on the MPI path (which also takes a NULL dest while the members collect nothing).
    const std::size_t dest_bytes =
        kind == CollectiveKind::collect ? bytes : bytes_of(set.members.size(), bytes, fn, "dest");
    const std::size_t source_bytes = kind == CollectiveKind::alltoall ? dest_bytes : bytes;
    check_local(dest, dest_bytes, fn, "dest");
    check_local(source, source_bytes, fn, "source");
    check_overlap(dest, dest_bytes, source, source_bytes, false, fn);
  });
}

}  // namespace

template <std::size_t BYTES>
int set_broadcast(const char *fn, void *dest, const void *source, std::size_t nelems, int root,
                  int start, int log_stride, int size, long *) noexcept {
  using T = Sized<BYTES>;
  CollectiveCall call = call_of(CollectiveKind::broadcast, static_cast<T *>(dest),
                                static_cast<const T *>(source), nelems);
  call.root = root;
  return over_set(fn, {start, log_stride, size}, call, [&](const Team &set) {
    if (root < 0 || root >= set.n_pes())
      fail(ISHMEM_ERR_INVALID_ARG, "%s: PE_root %d is not an index of the active set (%d PEs)", fn,
           root, set.n_pes());
    const std::size_t bytes = bytes_of(nelems, BYTES, fn, "dest");
    // The root reads its source; the others write their dest.
    if (set.my_index == root)
      check_local(source, bytes, fn, "source");
    else
      check_local(dest, bytes, fn, "dest");
    check_overlap(dest, bytes, source, bytes, true, fn);
  });
}

// set_collect, set_fcollect, set_alltoall: blocks of nelems elements per member.
#define ISHMEMI_SET_BLOCKS_ENTRY(KIND)                                                          \
  template <std::size_t BYTES>                                                                  \
  int set_##KIND(const char *fn, void *dest, const void *source, std::size_t nelems, int start, \
                 int log_stride, int size, long *) noexcept {                                   \
    return set_blocks<BYTES>(CollectiveKind::KIND, fn, dest, source, nelems, start, log_stride, \
                             size);                                                             \
  }
ISHMEMI_SET_BLOCKS_ENTRY(collect)
ISHMEMI_SET_BLOCKS_ENTRY(fcollect)
ISHMEMI_SET_BLOCKS_ENTRY(alltoall)
#undef ISHMEMI_SET_BLOCKS_ENTRY

template <std::size_t BYTES>
int set_alltoalls(const char *fn, void *dest, const void *source, std::ptrdiff_t dst,
                  std::ptrdiff_t sst, std::size_t nelems, int start, int log_stride, int size,
                  long *) noexcept {
  using T = Sized<BYTES>;
  CollectiveCall call = call_of(CollectiveKind::alltoalls, static_cast<T *>(dest),
                                static_cast<const T *>(source), nelems);
  call.dst = dst;
  call.sst = sst;
  return over_set(fn, {start, log_stride, size}, call, [&](const Team &set) {
    const std::size_t count = bytes_of(set.members.size(), nelems, fn, "the blocks");
    const std::size_t dest_bytes = strided_bytes(count, dst, BYTES, fn, "dest");
    const std::size_t source_bytes = strided_bytes(count, sst, BYTES, fn, "source");
    check_local(dest, dest_bytes, fn, "dest");
    check_local(source, source_bytes, fn, "source");
    check_overlap(dest, dest_bytes, source, source_bytes, false, fn);
  });
}

// TYPE_OP_to_all: a reduction over the set; pWrk and pSync are not used.
template <ReduceOp Op, class T>
int to_all(const char *fn, T *dest, const T *source, int nreduce, int start, int log_stride,
           int size) noexcept {
  static const Reduction reduction = reduction_of<Op, T>();
  CollectiveCall call = call_of(CollectiveKind::reduce, dest, source,
                                nreduce < 0 ? 0 : static_cast<std::size_t>(nreduce));
  call.reduction = &reduction;
  return over_set(fn, {start, log_stride, size}, call, [&](const Team &) {
    if (nreduce < 0) fail(ISHMEM_ERR_INVALID_ARG, "%s: nreduce %d is negative", fn, nreduce);
    const std::size_t bytes = bytes_of(call.nelems, sizeof(T), fn, "dest");
    check_local(dest, bytes, fn, "dest");
    check_local(source, bytes, fn, "source");
    check_overlap(dest, bytes, source, bytes, true, fn);
  });
}

#define ISHMEMI_TO_ALL_ENTRY(OP, ENUM)                                                    \
  template <class T>                                                                      \
  int OP##_to_all(const char *fn, T *dest, const T *source, int nreduce, int start,       \
                  int log_stride, int size, T *, long *) noexcept {                       \
    return to_all<ReduceOp::ENUM, T>(fn, dest, source, nreduce, start, log_stride, size); \
  }
ISHMEMI_TO_ALL_ENTRY(and, and_)
ISHMEMI_TO_ALL_ENTRY(or, or_)
ISHMEMI_TO_ALL_ENTRY(xor, xor_)
ISHMEMI_TO_ALL_ENTRY(max, max)
ISHMEMI_TO_ALL_ENTRY(min, min)
ISHMEMI_TO_ALL_ENTRY(sum, sum)
ISHMEMI_TO_ALL_ENTRY(prod, prod)
#undef ISHMEMI_TO_ALL_ENTRY

}  // namespace ishmem::detail::host

namespace {

// ishmem_barrier (with `complete`: quiet first) and ishmem_sync over an active set: over
// the world, the barrier of ishmem_barrier_all and ishmem_sync_all.
int set_barrier(const char *fn, bool complete, int start, int log_stride, int size) noexcept {
  return guard([&] {
    Runtime &rt = runtime();
    Team &set = rt.active_sets.get(rt, {start, log_stride, size}, fn);
    if (complete) quiet(rt);
    if (set.slot == ISHMEM_TEAM_WORLD)
      sync_all(rt);
    else
      team_sync_over_mpi(set, fn);
  });
}

}  // namespace

extern "C" {

int ishmem_barrier(int PE_start, int logPE_stride, int PE_size, long *) {
  return set_barrier("ishmem_barrier", true, PE_start, logPE_stride, PE_size);
}

int ishmem_sync(int PE_start, int logPE_stride, int PE_size, long *) {
  return set_barrier("ishmem_sync", false, PE_start, logPE_stride, PE_size);
}

#define ISHMEMI_DEFINE_ACTIVE_SET_SIZED(BITS, BYTES) \
  ISHMEMI_ACTIVE_SET_SIZED_CALLS(ISHMEMI_DEFINE_CALL, BITS, BYTES)
ISHMEMI_DEFINE_ACTIVE_SET_SIZED(32, 4)
ISHMEMI_DEFINE_ACTIVE_SET_SIZED(64, 8)
ISHMEMI_TO_ALL_CALLS(ISHMEMI_DEFINE_CALL)

int ishmem_pcontrol(int, ...) {
  return ISHMEM_SUCCESS;
}

}  // extern "C"
