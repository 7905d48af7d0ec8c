// Reductions on teams: every operation and type of OpenSHMEM 1.5, at sizes on both sides of
// the one-shot threshold (the tests run with ISHMEM_REDUCE_ONESHOT_MAX=256), on random data,
// checked against MPI_Allreduce of the same data on the team's communicator; in place too.
#include <functional>
#include <string>
#include <vector>

#include "collectives_forms.h"
#include "collectives_util.h"
#include "mpi_test_util.h"

namespace ishmem_test {
namespace {

// Elements per call: empty, one, odd, and past the threshold for every element size.
const std::size_t kSizes[] = {0, 1, 7, 63, 257, 1001};
constexpr std::size_t kMaxBytes = 1001 * 16;

enum class Range { bits, minmax, sum, prod };

struct Buffers {
  Buffers() {
    source = ishmem_malloc(kMaxBytes);
    dest = ishmem_malloc(kMaxBytes);
  }
  ~Buffers() {
    ishmem_free(dest);
    ishmem_free(source);
  }
  void *source, *dest;
};

template <class T>
using ReduceFn = int (*)(ishmem_team_t, T *, const T *, size_t);

template <class T>
void check_reduce(const TeamUnderTest &t, Buffers &b, const char *name, ReduceFn<T> fn, MPI_Op op,
                  Range range) {
  long lo = -100, hi = 100;
  if (range == Range::sum) lo = -20, hi = 20;
  if (range == Range::prod) lo = -3, hi = 3;
  if (std::is_unsigned_v<T> || std::is_same_v<T, char>) lo = 0;  // char's sign varies
  T *source = static_cast<T *>(b.source);
  T *dest = static_cast<T *>(b.dest);
  std::vector<T> want(1001), mine(1001);
  for (std::size_t n : kSizes) {
    const std::string what = std::string(name) + " of " + std::to_string(n) + " on " + t.name;
    fill_random(source, n, std::hash<std::string>()(what) + 7919 * ishmem_my_pe(), lo, hi,
                range == Range::bits);
    mine.assign(source, source + n);
    ASSERT_EQ(MPI_Allreduce(source, want.data(), static_cast<int>(n), mpi_of<T>(), twin_op<T>(op),
                            t.comm),
              MPI_SUCCESS);
    ASSERT_EQ(fn(t.team, dest, source, n), ISHMEM_SUCCESS) << what << ": " << ishmemx_last_error();
    expect_same(dest, want.data(), n, what);
    expect_same(source, mine.data(), n, what + " (source kept)");
    // In place: dest == source.
    ASSERT_EQ(fn(t.team, source, source, n), ISHMEM_SUCCESS)
        << what << " in place: " << ishmemx_last_error();
    expect_same(source, want.data(), n, what + " in place");
  }
}

void check_all_reductions(const TeamUnderTest &t, Buffers &b) {
#define CHECK_BITWISE(T, N)                                                                       \
  check_reduce<T>(t, b, "ishmem_" #N "_and_reduce", ishmem_##N##_and_reduce, MPI_BAND,            \
                  Range::bits);                                                                   \
  check_reduce<T>(t, b, "ishmem_" #N "_or_reduce", ishmem_##N##_or_reduce, MPI_BOR, Range::bits); \
  check_reduce<T>(t, b, "ishmem_" #N "_xor_reduce", ishmem_##N##_xor_reduce, MPI_BXOR, Range::bits);
#define CHECK_MINMAX(T, N)                                                            \
  check_reduce<T>(t, b, "ishmem_" #N "_max_reduce", ishmem_##N##_max_reduce, MPI_MAX, \
                  Range::minmax);                                                     \
  check_reduce<T>(t, b, "ishmem_" #N "_min_reduce", ishmem_##N##_min_reduce, MPI_MIN, \
                  Range::minmax);
#define CHECK_ARITH(T, N)                                                                          \
  check_reduce<T>(t, b, "ishmem_" #N "_sum_reduce", ishmem_##N##_sum_reduce, MPI_SUM, Range::sum); \
  check_reduce<T>(t, b, "ishmem_" #N "_prod_reduce", ishmem_##N##_prod_reduce, MPI_PROD,           \
                  Range::prod);
  ISHMEMX_REDUCE_BITWISE_TYPES(CHECK_BITWISE)
  ISHMEMX_REDUCE_MINMAX_TYPES(CHECK_MINMAX)
  ISHMEMX_REDUCE_ARITH_TYPES(CHECK_ARITH)
#undef CHECK_BITWISE
#undef CHECK_MINMAX
#undef CHECK_ARITH
}

TEST(Collectives, EveryReductionOnEveryTeamShape) {
  Buffers b;  // allocated by every PE, members of a shape or not
  TeamShapes shapes;
  shapes.for_each_member([&](const TeamUnderTest &t) { check_all_reductions(t, b); });
}

// Sums of 8- and 16-bit integers that overflow wrap around on every path, node-local and
// through MPI (whose AVX operations saturate them in Open MPI 4.1): 63 elements, past the
// width of one vector, each PE adding the same value.
template <class T>
void expect_wrapping_sum(T value, ReduceFn<T> fn, const char *name) {
  constexpr std::size_t kN = 63;
  T *buf = static_cast<T *>(ishmem_malloc(2 * kN * sizeof(T)));
  ASSERT_TRUE(all_true(buf != nullptr));
  for (std::size_t i = 0; i < kN; ++i) buf[i] = value;
  ASSERT_EQ(fn(ISHMEM_TEAM_WORLD, buf + kN, buf, kN), ISHMEM_SUCCESS) << ishmemx_last_error();
  const T want = static_cast<T>(static_cast<unsigned long>(value) * static_cast<unsigned>(n_pes()));
  std::size_t bad = 0;
  for (std::size_t i = 0; i < kN; ++i) bad += buf[kN + i] != want;
  EXPECT_EQ(bad, 0u) << name << ": element 0 is " << +buf[kN] << ", expected " << +want;
  EXPECT_EQ(ishmem_free(buf), ISHMEM_SUCCESS);
}

TEST(Collectives, NarrowIntegerSumsWrapAround) {
  if (n_pes() < 2) GTEST_SKIP() << "needs 2 PEs";
  expect_wrapping_sum<signed char>(100, ishmem_schar_sum_reduce, "schar");
  expect_wrapping_sum<std::int8_t>(-100, ishmem_int8_sum_reduce, "int8");
  expect_wrapping_sum<unsigned char>(200, ishmem_uchar_sum_reduce, "uchar");
  expect_wrapping_sum<short>(20000, ishmem_short_sum_reduce, "short");
  expect_wrapping_sum<std::uint16_t>(40000, ishmem_uint16_sum_reduce, "uint16");
}

// Reductions back to back with no barrier between them, alternating the one-shot and the
// reduce-scatter sizes and reusing the buffers: each result is computed locally from every
// PE's (deterministic) data, so no MPI call synchronizes the PEs between the calls.
TEST(Collectives, BackToBackWithoutBarriers) {
  constexpr std::size_t kLarge = 1500;  // 6000 bytes: past the threshold
  long *source = static_cast<long *>(ishmem_malloc(kLarge * sizeof(long)));
  long *dest = static_cast<long *>(ishmem_malloc(kLarge * sizeof(long)));
  long *gathered = static_cast<long *>(ishmem_malloc(n_pes() * sizeof(long)));
  ASSERT_TRUE(source && dest && gathered);
  auto value = [](int pe, int round, std::size_t i) {
    return static_cast<long>((pe + 1) * 1000003L * (round + 1) + static_cast<long>(i) * 7);
  };
  std::size_t bad = 0;
  for (int round = 0; round < 60; ++round) {
    const std::size_t n = round % 2 ? kLarge : 3 + round % 5;
    for (std::size_t i = 0; i < n; ++i) source[i] = value(my_pe(), round, i);
    ASSERT_EQ(ishmem_long_sum_reduce(ISHMEM_TEAM_WORLD, dest, source, n), ISHMEM_SUCCESS)
        << ishmemx_last_error();
    for (std::size_t i = 0; i < n; ++i) {
      long want = 0;
      for (int pe = 0; pe < n_pes(); ++pe) want += value(pe, round, i);
      if (dest[i] != want && ++bad <= 3)
        ADD_FAILURE() << "round " << round << " element " << i << ": " << dest[i] << " != " << want;
    }
    // Something else in between, on the same team, also without a barrier.
    const long mine = value(my_pe(), round, 0);
    ASSERT_EQ(ishmem_long_fcollect(ISHMEM_TEAM_WORLD, gathered, &source[0], 1), ISHMEM_SUCCESS)
        << ishmemx_last_error();
    for (int pe = 0; pe < n_pes(); ++pe)
      if (gathered[pe] != value(pe, round, 0) && ++bad <= 3)
        ADD_FAILURE() << "round " << round << " fcollect from PE " << pe << ": " << gathered[pe];
    EXPECT_EQ(source[0], mine);
  }
  EXPECT_EQ(bad, 0u);
  ishmem_free(gathered);
  ishmem_free(dest);
  ishmem_free(source);
}

// The _on_stream forms on the host backend run the blocking collective at once, whatever the
// stream (NULL here): every reduction with device forms and every data mover, against MPI.
TEST(Collectives, OnStreamFormsRunAtOnce) {
  constexpr std::size_t kOneShot = 256;  // ISHMEM_REDUCE_ONESHOT_MAX in the tests' environment
  const HeapAccess host = host_heap_access();
  SymmetricPair b(move_bytes(8, 2 * kOneShot));
  ASSERT_TRUE(b.source && b.dest) << ishmemx_last_error();
  TeamShapes shapes;
  shapes.for_each_member([&](const TeamUnderTest &t) {
    const std::string name = t.name;
    if (name != "world" && name != "every PE backwards (stride -1)") return;
    check_host_reductions(t, b, host, false, true, kOneShot, false);
    check_host_moves(t, b, host, true, {0, 1, 7, 2 * kOneShot + 1}, {3});
  });
}

}  // namespace
}  // namespace ishmem_test
