// Checks of a collective's result against MPI's on the same random data, for any way of
// calling it: the host forms (blocking, _on_stream) and, in tests/gpu, kernels. The memory is
// reached through a HeapAccess, so that the same checks run on host heaps (plain copies; the
// host backend runs an _on_stream call at once, whatever the stream) and on GPU heaps
// (copies through the GPU, a real stream). Each check names the collective, type, size, form,
// team and PE that failed, and never returns early on one PE only (the others would wait).
#pragma once

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "collectives_util.h"
#include "mpi_test_util.h"

namespace ishmem_test {

// How a test reads and writes symmetric memory and waits for a stream's work.
struct HeapAccess {
  void (*write)(void *sym, const void *host, std::size_t bytes);
  void (*read)(void *host, const void *sym, std::size_t bytes);
  void (*sync)(void *stream);
  void *stream;  // the stream of the _on_stream forms
};

// Host heaps: plain copies, no stream (NULL). An empty vector's data() may be NULL, which
// memcpy must not get even for 0 bytes.
inline void host_heap_write(void *sym, const void *host, std::size_t bytes) {
  if (bytes) memcpy(sym, host, bytes);
}
inline void host_heap_read(void *host, const void *sym, std::size_t bytes) {
  if (bytes) memcpy(host, sym, bytes);
}
inline void no_stream_sync(void *) {}
inline HeapAccess host_heap_access() {
  return {host_heap_write, host_heap_read, no_stream_sync, nullptr};
}

// Symmetric source and dest of `bytes` each, allocated by every PE (members of a team or not).
struct SymmetricPair {
  explicit SymmetricPair(std::size_t bytes)
      : source(ishmem_malloc(bytes)), dest(ishmem_malloc(bytes)), bytes(bytes) {}
  ~SymmetricPair() {
    ishmem_free(dest);
    ishmem_free(source);
  }
  SymmetricPair(const SymmetricPair &) = delete;
  SymmetricPair &operator=(const SymmetricPair &) = delete;
  void *source, *dest;
  std::size_t bytes;
};

// Bytes after each result (and in alltoalls' gaps), which no collective may write.
constexpr std::size_t kGuardBytes = 16;
constexpr unsigned char kDestGuard = 0xEE;

// The values a reduction's sources take: any bits (and, or, xor), or small integers (exact in
// every floating type, and no integer overflows at 8 PEs: sums of +-20, products of +-3).
enum class Values { bits, minmax, sum, prod };

inline Values values_of(MPI_Op op) {
  if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) return Values::bits;
  if (op == MPI_SUM) return Values::sum;
  if (op == MPI_PROD) return Values::prod;
  return Values::minmax;
}

// Reduction sizes in elements: 0, 1, 7, exactly `oneshot_bytes` and one element more (odd:
// the first size past the one-shot algorithm), and with `large` about 100 KiB (odd too).
inline std::vector<std::size_t> reduce_sizes(std::size_t elem, std::size_t oneshot_bytes,
                                             bool large) {
  std::vector<std::size_t> sizes = {0, 1, 7, oneshot_bytes / elem, oneshot_bytes / elem + 1};
  if (large) sizes.push_back((100 << 10) / elem + 3);
  return sizes;
}

// Seeds the random data of one call from its description and this PE.
inline std::uint64_t seed_of(const std::string &what) {
  return std::hash<std::string>()(what) + 7919u * static_cast<unsigned>(ishmem_my_pe());
}

// Reports bytes of `got` that differ from `want`.
inline void expect_same_bytes(const unsigned char *got, const unsigned char *want,
                              std::size_t bytes, const std::string &what) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < bytes; ++i)
    if (got[i] != want[i] && ++bad <= 3)
      ADD_FAILURE() << "PE " << ishmem_my_pe() << ": " << what << ": byte " << i << " of " << bytes
                    << " is " << +got[i] << ", expected " << +want[i];
  EXPECT_EQ(bad, 0u) << what;
}

// One way of calling a reduction: (team, dest, source, nreduce) -> return code. It returns
// once the result is in dest (an _on_stream run waits for its stream).
template <class T>
using ReduceRun = std::function<int(ishmem_team_t, T *, const T *, std::size_t)>;

template <class T>
ReduceRun<T> blocking_run(int (*fn)(ishmem_team_t, T *, const T *, size_t)) {
  return [fn](ishmem_team_t team, T *d, const T *s, std::size_t n) { return fn(team, d, s, n); };
}
template <class T>
ReduceRun<T> on_stream_run(int (*fn)(ishmem_team_t, T *, const T *, size_t, void *),
                           const HeapAccess &a) {
  return [fn, a](ishmem_team_t team, T *d, const T *s, std::size_t n) {
    const int rc = fn(team, d, s, n, a.stream);
    a.sync(a.stream);
    return rc;
  };
}

// `what` (e.g. "int_sum_reduce block") at each size on team t: random sources, MPI_Allreduce
// of the same data as the reference, the source kept, nothing written past the result. In
// place (dest == source) with `in_place`.
template <class T>
void check_reduce(const TeamUnderTest &t, const SymmetricPair &b, const HeapAccess &a,
                  const std::string &what, MPI_Op op, const ReduceRun<T> &run,
                  const std::vector<std::size_t> &sizes, bool in_place = false) {
  const Values values = values_of(op);
  long lo = values == Values::sum ? -20 : values == Values::prod ? -3 : -100;
  const long hi = -lo;
  if (std::is_unsigned_v<T> || std::is_same_v<T, char>) lo = 0;  // char's sign varies
  T *source = static_cast<T *>(b.source);
  T *out = in_place ? source : static_cast<T *>(b.dest);
  for (std::size_t n : sizes) {
    const std::size_t bytes = n * sizeof(T);
    const std::string call =
        what + (in_place ? " in place" : "") + " of " + std::to_string(n) + " on " + t.name;
    if (bytes + kGuardBytes > b.bytes) {  // the same on every PE
      ADD_FAILURE() << call << ": the buffers hold " << b.bytes << " bytes";
      continue;
    }
    std::vector<T> mine(n + 1), want(n + 1);
    fill_random(mine.data(), n, seed_of(call), lo, hi, values == Values::bits);
    a.write(source, mine.data(), bytes);
    const std::vector<unsigned char> guard(kGuardBytes, kDestGuard);
    if (!in_place) {
      const std::vector<unsigned char> fresh(bytes, kDestGuard);
      a.write(out, fresh.data(), bytes);
    }
    a.write(reinterpret_cast<unsigned char *>(out) + bytes, guard.data(), kGuardBytes);
    // MPI's reference; it also makes every member's dest ready before any member calls.
    EXPECT_EQ(MPI_Allreduce(mine.data(), want.data(), static_cast<int>(n), mpi_of<T>(),
                            twin_op<T>(op), t.comm),
              MPI_SUCCESS)
        << call;
    EXPECT_EQ(run(t.team, out, source, n), ISHMEM_SUCCESS) << call << ": " << ishmemx_last_error();
    std::vector<unsigned char> got(bytes + kGuardBytes);
    a.read(got.data(), out, got.size());
    std::vector<T> result(n + 1);
    memcpy(result.data(), got.data(), bytes);
    expect_same(result.data(), want.data(), n, call);
    expect_same_bytes(got.data() + bytes, guard.data(), kGuardBytes, call + ", past the result");
    if (!in_place) {
      a.read(result.data(), source, bytes);
      expect_same(result.data(), mine.data(), n, call + ", the source after it");
    }
  }
}

// The data movers.
enum class Move { broadcast, collect, fcollect, alltoall, alltoalls };
inline const char *move_name(Move m) {
  static const char *const names[] = {"broadcast", "collect", "fcollect", "alltoall", "alltoalls"};
  return names[static_cast<int>(m)];
}
// One call's arguments: nelems (collect: this PE's count), root (broadcast, a team index),
// dst and sst (alltoalls).
struct MoveArgs {
  Move kind;
  std::size_t nelems;
  int root;
  ptrdiff_t dst, sst;
};
constexpr ptrdiff_t kDestStride = 2, kSourceStride = 3;  // alltoalls

// One way of calling the data movers of T: (team, dest, source, args) -> return code, once
// the result is in dest.
template <class T>
using MoveRun = std::function<int(ishmem_team_t, T *, const T *, const MoveArgs &)>;

// The dest bytes a move of `nelems` elements of `elem` bytes per PE may write on a team of n
// (the most: alltoalls, or collect's growing counts), and the guard after them.
inline std::size_t move_span(std::size_t elem, std::size_t nelems, std::size_t n) {
  return (n * (nelems + n) * kDestStride + 1) * elem + kGuardBytes;
}
// Bytes each buffer of a SymmetricPair needs for the moves of up to `max_nelems` per PE.
inline std::size_t move_bytes(std::size_t elem, std::size_t max_nelems) {
  const std::size_t n = static_cast<std::size_t>(ishmem_n_pes());
  return std::max(n * max_nelems * kSourceStride * elem, move_span(elem, max_nelems, n));
}

// Expected dest of one move, from MPI on the same data; `source` holds this PE's elements
// (alltoalls: strided); `want` holds the guard where the move must not write.
template <class T>
void expected_move(const TeamUnderTest &t, const MoveArgs &m, const std::vector<T> &source,
                   std::vector<unsigned char> &want) {
  int me = 0, n = 1;
  MPI_Comm_rank(t.comm, &me);
  MPI_Comm_size(t.comm, &n);
  const int bytes = static_cast<int>(m.nelems * sizeof(T));
  const auto *src = reinterpret_cast<const unsigned char *>(source.data());
  std::vector<unsigned char> packed(n * m.nelems * sizeof(T) + 1), got(packed.size());
  switch (m.kind) {
    case Move::broadcast:
      if (me == m.root && bytes) memcpy(want.data(), src, bytes);
      EXPECT_EQ(MPI_Bcast(want.data(), bytes, MPI_BYTE, m.root, t.comm), MPI_SUCCESS);
      return;
    case Move::collect: {  // counts differ between PEs
      std::vector<int> counts(n), displs(n);
      EXPECT_EQ(MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, t.comm), MPI_SUCCESS);
      for (int i = 1; i < n; ++i) displs[i] = displs[i - 1] + counts[i - 1];
      EXPECT_EQ(MPI_Allgatherv(src, bytes, MPI_BYTE, want.data(), counts.data(), displs.data(),
                               MPI_BYTE, t.comm),
                MPI_SUCCESS);
      return;
    }
    case Move::fcollect:
      EXPECT_EQ(MPI_Allgather(src, bytes, MPI_BYTE, want.data(), bytes, MPI_BYTE, t.comm),
                MPI_SUCCESS);
      return;
    case Move::alltoall:
      EXPECT_EQ(MPI_Alltoall(src, bytes, MPI_BYTE, want.data(), bytes, MPI_BYTE, t.comm),
                MPI_SUCCESS);
      return;
    case Move::alltoalls: {  // element k at k * sst in the source, at k * dst in dest
      const std::size_t total = n * m.nelems;
      for (std::size_t k = 0; k < total; ++k)
        memcpy(&packed[k * sizeof(T)], src + k * m.sst * sizeof(T), sizeof(T));
      EXPECT_EQ(MPI_Alltoall(packed.data(), bytes, MPI_BYTE, got.data(), bytes, MPI_BYTE, t.comm),
                MPI_SUCCESS);
      for (std::size_t k = 0; k < total; ++k)
        memcpy(&want[k * m.dst * sizeof(T)], &got[k * sizeof(T)], sizeof(T));
      return;
    }
  }
}

// `what` (e.g. "int fcollect on_stream") for each of `moves` at each size (elements per PE;
// collect: PE i gives i more) on team t, broadcast from every root, against MPI; the bytes of
// dest past the result (and alltoalls' gaps) stay untouched.
template <class T>
void check_moves(const TeamUnderTest &t, const SymmetricPair &b, const HeapAccess &a,
                 const std::string &what, const MoveRun<T> &run, const std::vector<Move> &moves,
                 const std::vector<std::size_t> &sizes) {
  int me = 0, n = 1;
  MPI_Comm_rank(t.comm, &me);
  MPI_Comm_size(t.comm, &n);
  T *source = static_cast<T *>(b.source);
  T *dest = static_cast<T *>(b.dest);
  for (Move kind : moves) {
    for (std::size_t nelems : sizes) {
      for (int root = 0; root < (kind == Move::broadcast ? n : 1); ++root) {
        MoveArgs m{kind, kind == Move::collect ? nelems + me : nelems, root, kDestStride,
                   kSourceStride};
        const std::size_t count = kind == Move::alltoalls  ? n * nelems * kSourceStride
                                  : kind == Move::alltoall ? n * nelems
                                                           : m.nelems;
        const std::string call = what + " " + move_name(kind) + " of " + std::to_string(nelems) +
                                 (kind == Move::broadcast ? " from " + std::to_string(root) : "") +
                                 " on " + t.name;
        const std::size_t span = move_span(sizeof(T), nelems, n);
        if (count * sizeof(T) > b.bytes || span > b.bytes) {  // the same on every PE
          ADD_FAILURE() << call << ": the buffers hold " << b.bytes << " bytes";
          continue;
        }
        std::vector<T> mine(count + 1);
        fill_random(reinterpret_cast<unsigned char *>(mine.data()), count * sizeof(T),
                    seed_of(call), 0, 0, true);
        a.write(source, mine.data(), count * sizeof(T));
        std::vector<unsigned char> want(span, kDestGuard), got(span);
        a.write(dest, want.data(), span);
        expected_move(t, m, mine, want);
        // Every member's dest is ready before any member calls (MPI_Bcast does not see to it).
        EXPECT_EQ(MPI_Barrier(t.comm), MPI_SUCCESS);
        EXPECT_EQ(run(t.team, dest, source, m), ISHMEM_SUCCESS)
            << call << ": " << ishmemx_last_error();
        a.read(got.data(), dest, span);
        expect_same_bytes(got.data(), want.data(), span, call);
        std::vector<T> kept(count + 1);
        a.read(kept.data(), source, count * sizeof(T));
        expect_same_bytes(reinterpret_cast<unsigned char *>(kept.data()),
                          reinterpret_cast<unsigned char *>(mine.data()), count * sizeof(T),
                          call + ", the source after it");
      }
    }
  }
}

// The host forms of T's data movers (T: a type name of the RMA tables), blocking or on a
// stream, as a MoveRun: ISHMEM_TEST_HOST_MOVES(T, N, on_stream, access).
#define ISHMEM_TEST_HOST_MOVE(N, S, A, call, ...) \
  (S ? [&] {                                                                              \
    const int rc = ishmemx_##N##_##call##_on_stream(__VA_ARGS__, A.stream);               \
    A.sync(A.stream);                                                                     \
    return rc;                                                                            \
  }()                                                                                     \
     : ishmem_##N##_##call(__VA_ARGS__))
#define ISHMEM_TEST_HOST_MOVES(T, N, S, A)                                                        \
  ::ishmem_test::MoveRun<T>(                                                                      \
      [=](ishmem_team_t team, T *d, const T *s, const ::ishmem_test::MoveArgs &m) -> int {        \
        switch (m.kind) {                                                                         \
          case ::ishmem_test::Move::broadcast:                                                    \
            return ISHMEM_TEST_HOST_MOVE(N, S, A, broadcast, team, d, s, m.nelems, m.root);       \
          case ::ishmem_test::Move::collect:                                                      \
            return ISHMEM_TEST_HOST_MOVE(N, S, A, collect, team, d, s, m.nelems);                 \
          case ::ishmem_test::Move::fcollect:                                                     \
            return ISHMEM_TEST_HOST_MOVE(N, S, A, fcollect, team, d, s, m.nelems);                \
          case ::ishmem_test::Move::alltoall:                                                     \
            return ISHMEM_TEST_HOST_MOVE(N, S, A, alltoall, team, d, s, m.nelems);                \
          case ::ishmem_test::Move::alltoalls:                                                    \
            return ISHMEM_TEST_HOST_MOVE(N, S, A, alltoalls, team, d, s, m.dst, m.sst, m.nelems); \
        }                                                                                         \
        return ISHMEM_ERR_INVALID_ARG;                                                            \
      })

// The same for the _mem forms (nelems in bytes).
inline MoveRun<unsigned char> host_mem_moves(bool on_stream, const HeapAccess &a) {
  return [on_stream, a](ishmem_team_t team, unsigned char *d, const unsigned char *s,
                        const MoveArgs &m) {
    int rc = ISHMEM_ERR_INVALID_ARG;
    void *q = a.stream;
    switch (m.kind) {
      case Move::broadcast:
        rc = on_stream ? ishmemx_broadcastmem_on_stream(team, d, s, m.nelems, m.root, q)
                       : ishmem_broadcastmem(team, d, s, m.nelems, m.root);
        break;
      case Move::collect:
        rc = on_stream ? ishmemx_collectmem_on_stream(team, d, s, m.nelems, q)
                       : ishmem_collectmem(team, d, s, m.nelems);
        break;
      case Move::fcollect:
        rc = on_stream ? ishmemx_fcollectmem_on_stream(team, d, s, m.nelems, q)
                       : ishmem_fcollectmem(team, d, s, m.nelems);
        break;
      case Move::alltoall:
        rc = on_stream ? ishmemx_alltoallmem_on_stream(team, d, s, m.nelems, q)
                       : ishmem_alltoallmem(team, d, s, m.nelems);
        break;
      case Move::alltoalls:  // the _mem form's strides count bytes
        rc = on_stream ? ishmemx_alltoallsmem_on_stream(team, d, s, m.dst, m.sst, m.nelems, q)
                       : ishmem_alltoallsmem(team, d, s, m.dst, m.sst, m.nelems);
        break;
    }
    if (on_stream) a.sync(q);
    return rc;
  };
}

// The host forms (blocking and/or _on_stream) of every reduction with device forms (the
// device tables of ishmem/types.h) on team t, at reduce_sizes(oneshot_bytes, large).
inline void check_host_reductions(const TeamUnderTest &t, const SymmetricPair &b,
                                  const HeapAccess &a, bool blocking, bool on_stream,
                                  std::size_t oneshot_bytes, bool large) {
#define ISHMEM_TEST_REDUCTION(T, N, OP, MPI_OP)                                           \
  {                                                                                       \
    const std::vector<std::size_t> sizes = reduce_sizes(sizeof(T), oneshot_bytes, large); \
    if (blocking)                                                                         \
      check_reduce<T>(t, b, a, #N "_" #OP "_reduce blocking", MPI_OP,                     \
                      blocking_run<T>(ishmem_##N##_##OP##_reduce), sizes);                \
    if (on_stream)                                                                        \
      check_reduce<T>(t, b, a, #N "_" #OP "_reduce on_stream", MPI_OP,                    \
                      on_stream_run<T>(ishmemx_##N##_##OP##_reduce_on_stream, a), sizes); \
  }
#define ISHMEM_TEST_BITWISE(T, N)            \
  ISHMEM_TEST_REDUCTION(T, N, and, MPI_BAND) \
  ISHMEM_TEST_REDUCTION(T, N, or, MPI_BOR)   \
  ISHMEM_TEST_REDUCTION(T, N, xor, MPI_BXOR)
#define ISHMEM_TEST_MINMAX(T, N)            \
  ISHMEM_TEST_REDUCTION(T, N, max, MPI_MAX) \
  ISHMEM_TEST_REDUCTION(T, N, min, MPI_MIN)
#define ISHMEM_TEST_ARITH(T, N)             \
  ISHMEM_TEST_REDUCTION(T, N, sum, MPI_SUM) \
  ISHMEM_TEST_REDUCTION(T, N, prod, MPI_PROD)
  ISHMEMX_REDUCE_BITWISE_TYPES(ISHMEM_TEST_BITWISE)
  ISHMEMX_REDUCE_MINMAX_DEVICE_TYPES(ISHMEM_TEST_MINMAX)
  ISHMEMX_REDUCE_ARITH_DEVICE_TYPES(ISHMEM_TEST_ARITH)
#undef ISHMEM_TEST_BITWISE
#undef ISHMEM_TEST_MINMAX
#undef ISHMEM_TEST_ARITH
#undef ISHMEM_TEST_REDUCTION
}

// The host forms (blocking or _on_stream) of every data mover on team t: the _mem forms at
// mem_sizes (bytes per PE), the typed forms of every device type at typed_sizes.
inline void check_host_moves(const TeamUnderTest &t, const SymmetricPair &b, const HeapAccess &a,
                             bool on_stream, const std::vector<std::size_t> &mem_sizes,
                             const std::vector<std::size_t> &typed_sizes) {
  const std::vector<Move> all = {Move::broadcast, Move::collect, Move::fcollect, Move::alltoall,
                                 Move::alltoalls};
  const std::string form = on_stream ? " on_stream" : " blocking";
  check_moves<unsigned char>(t, b, a, "mem" + form, host_mem_moves(on_stream, a), all, mem_sizes);
#define ISHMEM_TEST_TYPED_MOVES(T, N) \
  check_moves<T>(t, b, a, #N + form, ISHMEM_TEST_HOST_MOVES(T, N, on_stream, a), all, typed_sizes);
  ISHMEMX_RMA_DEVICE_TYPES(ISHMEM_TEST_TYPED_MOVES)
#undef ISHMEM_TEST_TYPED_MOVES
}

}  // namespace ishmem_test
