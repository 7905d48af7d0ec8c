// Host collective entry points and their stream-ordered twins, defined from the signature
// lists of ishmem/collectives.h over the type tables of ishmem/types.h: the argument checks,
// then one run_collective.
#define ISHMEMI_KEEP_COLLECTIVE_LISTS 1

#include <string>
#include <type_traits>

#include "api/calls.h"
#include "api/checks.h"
#include "api/collective_args.h"
#include "api/guard.h"
#include "runtime/collectives.h"

using namespace ishmem::detail;

namespace ishmem::detail::host {
namespace {

// Bytes of an element: 1 for the _mem forms (T = void).
template <class T>
constexpr std::size_t size_of() {
  if constexpr (std::is_void_v<T>)
    return 1;
  else
    return sizeof(T);
}

// A symmetric buffer of this PE, named in the message. The name is built only on the slow
// path (outside the heap, or ISHMEM_DEBUG=1's live-block test): not on every call.
void check_buffer(const void *p, std::size_t bytes, const char *fn, const char *what) {
  std::size_t off;
  if (bytes == 0) return;  // nothing is read or written
  if (in_heap(p, bytes, off) && !g_fast.debug) return;
  if (static_window(p, bytes, off, fn)) return;  // the program's static data: the MPI path
  const std::string name = std::string(fn) + " (" + what + ")";
  check_symmetric(p, bytes, ishmem_my_pe(), name.c_str());
}

// Runs `checks` (which throw), then the collective on every member; see run_collective.
template <class Checks>
int collective(const Launch &launch, ishmem_team_t handle, CollectiveCall call,
               Checks &&checks) noexcept {
  return guard([&] {
    Runtime &rt = runtime();
    Team &team = team_of(rt, handle, launch.fn);
    call.fn = launch.fn;
    call.launch = launch;
    // Buffers in the program's static data are not mapped between PEs: MPI moves them.
    std::size_t off;
    call.heap_dest =
        !rt.statics->contains(call.dest, 0, off) && !rt.statics->contains(call.source, 0, off);
    FirstError outcome;
    outcome.attempt([&] { checks(team, call); });
    run_collective(rt, team, call, outcome);
  });
}

}  // namespace

template <class T>
int broadcast(const Launch &launch, ishmem_team_t team, T *dest, const T *source,
              std::size_t nelems, int root) noexcept {
  CollectiveCall call = call_of(CollectiveKind::broadcast, dest, source, nelems);
  call.root = root;
  const char *fn = launch.fn;
  return collective(launch, team, call, [&](const Team &t, const CollectiveCall &) {
    if (root < 0 || root >= static_cast<int>(t.members.size()))
      fail(ISHMEM_ERR_INVALID_ARG, "%s: PE_root %d is not an index of the team (%zu PEs)", fn, root,
           t.members.size());
    const std::size_t bytes = bytes_of(nelems, size_of<T>(), fn, "dest");
    check_buffer(dest, bytes, fn, "dest");
    check_buffer(source, bytes, fn, "source");
    check_overlap(dest, bytes, source, bytes, true, fn);
  });
}

template <class T>
int collect_call(CollectiveKind kind, const Launch &launch, ishmem_team_t team, T *dest,
                 const T *source, std::size_t nelems) noexcept {
  const char *fn = launch.fn;
  return collective(
      launch, team, call_of(kind, dest, source, nelems),
      [&](const Team &t, const CollectiveCall &) {
        const std::size_t bytes = bytes_of(nelems, size_of<T>(), fn, "source");
        // collect: the others' counts are not known yet (run_collective checks
        // the total); fcollect and alltoall: n_pes blocks.
        const std::size_t dest_bytes =
            kind == CollectiveKind::collect ? bytes : bytes_of(t.members.size(), bytes, fn, "dest");
        const std::size_t source_bytes = kind == CollectiveKind::alltoall ? dest_bytes : bytes;
        check_buffer(dest, dest_bytes, fn, "dest");
        check_buffer(source, source_bytes, fn, "source");
        check_overlap(dest, dest_bytes, source, source_bytes, false, fn);
      });
}

template <class T>
int collect(const Launch &launch, ishmem_team_t team, T *dest, const T *source,
            std::size_t nelems) noexcept {
  return collect_call(CollectiveKind::collect, launch, team, dest, source, nelems);
}
template <class T>
int fcollect(const Launch &launch, ishmem_team_t team, T *dest, const T *source,
             std::size_t nelems) noexcept {
  return collect_call(CollectiveKind::fcollect, launch, team, dest, source, nelems);
}
template <class T>
int alltoall(const Launch &launch, ishmem_team_t team, T *dest, const T *source,
             std::size_t nelems) noexcept {
  return collect_call(CollectiveKind::alltoall, launch, team, dest, source, nelems);
}

template <class T>
int alltoalls(const Launch &launch, ishmem_team_t team, T *dest, const T *source,
              std::ptrdiff_t dst, std::ptrdiff_t sst, std::size_t nelems) noexcept {
  CollectiveCall call = call_of(CollectiveKind::alltoalls, dest, source, nelems);
  call.dst = dst;
  call.sst = sst;
  const char *fn = launch.fn;
  return collective(launch, team, call, [&](const Team &t, const CollectiveCall &) {
    const std::size_t count = bytes_of(t.members.size(), nelems, fn, "the blocks");
    const std::size_t dest_bytes = strided_bytes(count, dst, size_of<T>(), fn, "dest");
    const std::size_t source_bytes = strided_bytes(count, sst, size_of<T>(), fn, "source");
    check_buffer(dest, dest_bytes, fn, "dest");
    check_buffer(source, source_bytes, fn, "source");
    check_overlap(dest, dest_bytes, source, source_bytes, false, fn);
  });
}

template <ReduceOp Op, class T>
int reduce(const Launch &launch, ishmem_team_t team, T *dest, const T *source,
           std::size_t nreduce) noexcept {
  static const Reduction reduction = reduction_of<Op, T>();
  CollectiveCall call = call_of(CollectiveKind::reduce, dest, source, nreduce);
  call.reduction = &reduction;
  const char *fn = launch.fn;
  return collective(launch, team, call, [&](const Team &, const CollectiveCall &) {
    const std::size_t bytes = bytes_of(nreduce, size_of<T>(), fn, "dest");
    check_buffer(dest, bytes, fn, "dest");
    check_buffer(source, bytes, fn, "source");
    check_overlap(dest, bytes, source, bytes, true, fn);
  });
}

#define ISHMEMI_REDUCE_ENTRY(OP, ENUM)                                                \
  template <class T>                                                                  \
  int OP##_reduce(const Launch &launch, ishmem_team_t team, T *dest, const T *source, \
                  std::size_t nreduce) noexcept {                                     \
    return reduce<ReduceOp::ENUM, T>(launch, team, dest, source, nreduce);            \
  }
ISHMEMI_REDUCE_ENTRY(and, and_)
ISHMEMI_REDUCE_ENTRY(or, or_)
ISHMEMI_REDUCE_ENTRY(xor, xor_)
ISHMEMI_REDUCE_ENTRY(max, max)
ISHMEMI_REDUCE_ENTRY(min, min)
ISHMEMI_REDUCE_ENTRY(sum, sum)
ISHMEMI_REDUCE_ENTRY(prod, prod)
#undef ISHMEMI_REDUCE_ENTRY

}  // namespace ishmem::detail::host

extern "C" {

// The host call and its stream-ordered twin, from one list entry.
#define ISHMEMI_DEFINE_COLLECTIVE(RET, STEM, PARAMS, ARGS, OP, TARG)                             \
  RET ishmem_##STEM PARAMS {                                                                     \
    return ::ishmem::detail::host::OP<TARG>(Launch{"ishmem_" #STEM}, ISHMEMI_UNPAREN ARGS);      \
  }                                                                                              \
  RET ishmemx_##STEM##_on_stream(ISHMEMI_UNPAREN PARAMS, void *stream) {                         \
    return ::ishmem::detail::host::OP<TARG>(Launch{"ishmemx_" #STEM "_on_stream", stream, true}, \
                                            ISHMEMI_UNPAREN ARGS);                               \
  }
#define ISHMEMI_DEFINE_COLLECTIVES(T, N) \
  ISHMEMI_COLLECTIVE_TYPED_CALLS(ISHMEMI_DEFINE_COLLECTIVE, T, N)
#define ISHMEMI_DEFINE_REDUCE_BITWISE(T, N) \
  ISHMEMI_REDUCE_BITWISE_CALLS(ISHMEMI_DEFINE_COLLECTIVE, T, N)
#define ISHMEMI_DEFINE_REDUCE_MINMAX(T, N) \
  ISHMEMI_REDUCE_MINMAX_CALLS(ISHMEMI_DEFINE_COLLECTIVE, T, N)
#define ISHMEMI_DEFINE_REDUCE_ARITH(T, N) \
  ISHMEMI_REDUCE_ARITH_CALLS(ISHMEMI_DEFINE_COLLECTIVE, T, N)
ISHMEMI_COLLECTIVE_BYTES_CALLS(ISHMEMI_DEFINE_COLLECTIVE)
ISHMEMX_RMA_TYPES(ISHMEMI_DEFINE_COLLECTIVES)
ISHMEMX_REDUCE_BITWISE_TYPES(ISHMEMI_DEFINE_REDUCE_BITWISE)
ISHMEMX_REDUCE_MINMAX_TYPES(ISHMEMI_DEFINE_REDUCE_MINMAX)
ISHMEMX_REDUCE_ARITH_TYPES(ISHMEMI_DEFINE_REDUCE_ARITH)

}  // extern "C"
