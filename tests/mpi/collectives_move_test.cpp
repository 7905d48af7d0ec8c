// broadcast, collect, fcollect, alltoall and alltoalls on teams, typed and _mem forms, on
// random data at sizes on both sides of the staging threshold, checked against MPI_Bcast,
// MPI_Allgather(v) and MPI_Alltoall of the same data on the team's communicator.
#include <functional>
#include <string>
#include <vector>

#include "collectives_forms.h"
#include "collectives_util.h"
#include "mpi_test_util.h"

namespace ishmem_test {
namespace {

const std::size_t kSizes[] = {0, 1, 7, 129};  // elements per PE (129 * 16 > 256 bytes)
// Elements per buffer: alltoalls takes n PEs * 129 * stride 3, collect n * (129 + n).
std::size_t max_elements() {
  const auto n = static_cast<std::size_t>(n_pes());
  return n * (129 + n) * 3;
}
constexpr unsigned char kUntouched = 0xa5;

template <class T>
struct MoveCalls {
  int (*broadcast)(ishmem_team_t, T *, const T *, size_t, int);
  int (*collect)(ishmem_team_t, T *, const T *, size_t);
  int (*fcollect)(ishmem_team_t, T *, const T *, size_t);
  int (*alltoall)(ishmem_team_t, T *, const T *, size_t);
  int (*alltoalls)(ishmem_team_t, T *, const T *, ptrdiff_t, ptrdiff_t, size_t);
};

// Symmetric buffers for every type, allocated by every PE (members of a shape or not).
struct Buffers {
  Buffers() {
    source = static_cast<unsigned char *>(ishmem_malloc(max_elements() * 16));
    dest = static_cast<unsigned char *>(ishmem_malloc(max_elements() * 16));
  }
  ~Buffers() {
    ishmem_free(dest);
    ishmem_free(source);
  }
  unsigned char *source, *dest;
};

template <class T>
void check_moves(const TeamUnderTest &t, Buffers &b, const std::string &type,
                 const MoveCalls<T> &calls) {
  int me, n;
  MPI_Comm_rank(t.comm, &me);
  MPI_Comm_size(t.comm, &n);
  const std::size_t max_bytes = max_elements() * sizeof(T);
  unsigned char *source = b.source, *dest = b.dest;
  ASSERT_TRUE(source && dest);
  std::vector<unsigned char> want(max_bytes), packed(max_bytes), got(max_bytes);
  T *s = reinterpret_cast<T *>(source);
  T *d = reinterpret_cast<T *>(dest);
  auto check = [&](const std::string &what, std::size_t bytes, int rc) {
    ASSERT_EQ(rc, ISHMEM_SUCCESS) << what << ": " << ishmemx_last_error();
    expect_same_bytes(dest, want.data(), bytes, what);
  };
  for (std::size_t nelems : kSizes) {
    const std::size_t bytes = nelems * sizeof(T);
    const std::string tag = type + " of " + std::to_string(nelems) + " on " + t.name;
    auto fresh = [&](const std::string &call, std::size_t count) {
      fill_random(source, count * sizeof(T), std::hash<std::string>()(call + tag) + 31 * me, 0, 0,
                  true);
      memset(dest, kUntouched, max_bytes);
      memset(want.data(), kUntouched, max_bytes);
    };
    for (int root = 0; root < n; ++root) {
      fresh("broadcast" + std::to_string(root), nelems);
      if (me == root) memcpy(want.data(), source, bytes);
      ASSERT_EQ(MPI_Bcast(want.data(), static_cast<int>(bytes), MPI_BYTE, root, t.comm), 0);
      check("broadcast from " + std::to_string(root) + " " + tag, max_bytes,
            calls.broadcast(t.team, d, s, nelems, root));
    }
    fresh("fcollect", nelems);
    MPI_Allgather(source, static_cast<int>(bytes), MPI_BYTE, want.data(), static_cast<int>(bytes),
                  MPI_BYTE, t.comm);
    check("fcollect " + tag, max_bytes, calls.fcollect(t.team, d, s, nelems));
    // collect: PE i gives nelems + i elements.
    const std::size_t mine = nelems + static_cast<std::size_t>(me);
    fresh("collect", mine);
    std::vector<int> counts(n), displs(n);
    for (int i = 0; i < n; ++i) {
      counts[i] = static_cast<int>((nelems + i) * sizeof(T));
      displs[i] = i ? displs[i - 1] + counts[i - 1] : 0;
    }
    MPI_Allgatherv(source, counts[me], MPI_BYTE, want.data(), counts.data(), displs.data(),
                   MPI_BYTE, t.comm);
    check("collect " + tag, max_bytes, calls.collect(t.team, d, s, mine));
    fresh("alltoall", nelems * n);
    MPI_Alltoall(source, static_cast<int>(bytes), MPI_BYTE, want.data(), static_cast<int>(bytes),
                 MPI_BYTE, t.comm);
    check("alltoall " + tag, max_bytes, calls.alltoall(t.team, d, s, nelems));
    // alltoalls, dest stride 2 and source stride 3: the gaps of dest stay untouched.
    fresh("alltoalls", nelems * n * 3);
    for (std::size_t k = 0; k < nelems * n; ++k)
      memcpy(&packed[k * sizeof(T)], source + 3 * k * sizeof(T), sizeof(T));
    MPI_Alltoall(packed.data(), static_cast<int>(bytes), MPI_BYTE, got.data(),
                 static_cast<int>(bytes), MPI_BYTE, t.comm);
    for (std::size_t k = 0; k < nelems * n; ++k)
      memcpy(&want[2 * k * sizeof(T)], &got[k * sizeof(T)], sizeof(T));
    check("alltoalls " + tag, max_bytes, calls.alltoalls(t.team, d, s, 2, 3, nelems));
  }
}

void check_all_moves(const TeamUnderTest &t, Buffers &b) {
#define CHECK_TYPE(T, N)                                                               \
  check_moves<T>(t, b, #N,                                                             \
                 {ishmem_##N##_broadcast, ishmem_##N##_collect, ishmem_##N##_fcollect, \
                  ishmem_##N##_alltoall, ishmem_##N##_alltoalls});
  ISHMEMX_RMA_TYPES(CHECK_TYPE)
#undef CHECK_TYPE
  // The _mem forms count bytes.
  using Byte = unsigned char;
  check_moves<Byte>(t, b, "mem",
                    {[](ishmem_team_t team, Byte *d, const Byte *s, size_t n, int root) {
                       return ishmem_broadcastmem(team, d, s, n, root);
                     },
                     [](ishmem_team_t team, Byte *d, const Byte *s, size_t n) {
                       return ishmem_collectmem(team, d, s, n);
                     },
                     [](ishmem_team_t team, Byte *d, const Byte *s, size_t n) {
                       return ishmem_fcollectmem(team, d, s, n);
                     },
                     [](ishmem_team_t team, Byte *d, const Byte *s, size_t n) {
                       return ishmem_alltoallmem(team, d, s, n);
                     },
                     [](ishmem_team_t team, Byte *d, const Byte *s, ptrdiff_t dst, ptrdiff_t sst,
                        size_t n) { return ishmem_alltoallsmem(team, d, s, dst, sst, n); }});
}

TEST(Collectives, EveryMoveOnEveryTeamShape) {
  Buffers b;
  TeamShapes shapes;
  shapes.for_each_member([&](const TeamUnderTest &t) { check_all_moves(t, b); });
}

}  // namespace
}  // namespace ishmem_test
