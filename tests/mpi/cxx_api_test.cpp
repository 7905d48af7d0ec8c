// The C++ API (ishmem.hpp) on every PE: symmetric arrays and spans, RMA, atomics, waits, the
// errors it throws and the memory its destructors give back. Its own main: the library lives
// in an ishmem::runtime, whose end (and a second runtime at a thread level) is checked last.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "ishmem.hpp"
#include "mpi_test_util.h"

using ishmem_test::left_pe;
using ishmem_test::my_pe;
using ishmem_test::n_pes;
using ishmem_test::right_pe;

namespace {

// Runs `call`, which must throw ishmem::error with `status` and a message that names this PE
// first, then `text`.
template <class Call>
void expect_error(Call &&call, int status, const std::string &text) {
  try {
    call();
    ADD_FAILURE() << "no ishmem::error thrown (expected status " << status << ")";
  } catch (const ishmem::error &e) {
    EXPECT_EQ(e.status(), status) << e.what();
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos)
        << "message \"" << e.what() << "\" does not name \"" << text << "\"";
    const std::string where = "[ishmem pe " + std::to_string(ishmem_my_pe()) + "] ";
    EXPECT_EQ(std::string(e.what()).rfind(where, 0), 0u)
        << e.what() << " does not start with " << where;
  }
}

TEST(CxxApi, QueriesMatchTheCApi) {
  EXPECT_EQ(ishmem::my_pe(), ishmem_my_pe());
  EXPECT_EQ(ishmem::n_pes(), ishmem_n_pes());
  ishmem::quiet();
  ishmem::fence();
  ishmem::sync_all();
  ishmem::barrier_all();
}

TEST(CxxApi, ArrayIsZeroedContainerOfSymmetricMemory) {
  ishmem::symmetric_array<int> a(10);
  ASSERT_EQ(a.size(), 10u);
  ASSERT_NE(a.data(), nullptr);
  EXPECT_TRUE(ishmem_addr_accessible(a.data(), right_pe()));
  EXPECT_EQ(std::accumulate(a.begin(), a.end(), 0), 0);  // ishmem_calloc
  std::iota(a.begin(), a.end(), 1);
  EXPECT_EQ(a[9], 10);
  EXPECT_EQ(std::accumulate(a.begin(), a.end(), 0), 55);
  ishmem::symmetric_span<int> s = a;
  EXPECT_EQ(s.data(), a.data());
  EXPECT_EQ(s.size(), 10u);
  auto mid = a.subspan(2, 3);
  EXPECT_EQ(mid.data(), a.data() + 2);
  EXPECT_EQ(mid.size(), 3u);
  EXPECT_EQ(a.subspan(8).size(), 2u);  // the rest
  EXPECT_EQ(mid[0], 3);
  expect_error([&] { a.subspan(11); }, ISHMEM_ERR_INVALID_ARG, "offset 11");
  ishmem::symmetric_array<double> empty(0);
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.data(), nullptr);
  ishmem::barrier_all();
}

TEST(CxxApi, PutAndGetRanges) {
  const int n = 8;
  ishmem::symmetric_array<long> a(n);
  std::vector<long> mine(n);
  for (int i = 0; i < n; ++i) mine[i] = my_pe() * 100 + i;
  a.put(mine, right_pe());
  ishmem::barrier_all();  // quiet, then every PE has arrived
  for (int i = 0; i < n; ++i) EXPECT_EQ(a[i], left_pe() * 100 + i) << "element " << i;

  std::vector<long> got(n);
  a.get(got, right_pe());  // right's array holds my values
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], my_pe() * 100 + i) << "element " << i;
  ishmem::barrier_all();

  // A span moves only its part; the nbi forms complete at quiet.
  const long three[3] = {-1, -2, -3};
  a.subspan(2, 3).put_nbi(three, right_pe());
  ishmem::quiet();
  ishmem::barrier_all();
  EXPECT_EQ(a[1], left_pe() * 100 + 1);
  EXPECT_EQ(a[2], -1);
  EXPECT_EQ(a[4], -3);
  EXPECT_EQ(a[5], left_pe() * 100 + 5);
  long back[3] = {};
  a.subspan(2, 3).get_nbi(back, left_pe());
  ishmem::quiet();
  EXPECT_EQ(back[0], -1);
  EXPECT_EQ(back[2], -3);
  ishmem::barrier_all();
}

TEST(CxxApi, SingleElementsAndStructs) {
  struct point {
    int x;
    double y;
  };
  ishmem::symmetric_array<point> pts(4);
  pts.p(3, point{my_pe(), 0.5 * my_pe()}, right_pe());
  ishmem::barrier_all();
  EXPECT_EQ(pts[3].x, left_pe());
  EXPECT_EQ(pts[3].y, 0.5 * left_pe());
  const point far = pts.g(3, right_pe());
  EXPECT_EQ(far.x, my_pe());  // right's element 3 came from me
  ishmem::barrier_all();
}

TEST(CxxApi, AtomicsOnOneElementOfPeZero) {
  ishmem::symmetric_array<long> counter(2);
  ishmem::symmetric_array<unsigned long> bits(1);
  ishmem::symmetric_array<double> real(1);
  ishmem::barrier_all();
  const long old = counter.fetch_add(0, my_pe() + 1, 0);
  EXPECT_GE(old, 0);
  counter.add(1, 10, 0);
  counter.inc(1, 0);
  // Non-fetching atomics complete at quiet: the value each PE fetches here is not ordered.
  counter.fetch_inc(1, 0);
  bits.or_(0, 1ul << my_pe(), 0);
  ishmem::barrier_all();
  const long n = n_pes();
  EXPECT_EQ(counter.fetch(0, 0), n * (n + 1) / 2);
  EXPECT_EQ(counter.fetch(1, 0), 12 * n);
  EXPECT_EQ(bits.fetch(0, 0), (1ul << n) - 1);
  ishmem::barrier_all();
  if (my_pe() == 0) {
    EXPECT_EQ(counter.swap(0, 7, 0), n * (n + 1) / 2);
    EXPECT_EQ(counter.compare_swap(0, 7, 8, 0), 7);  // swapped
    EXPECT_EQ(counter.compare_swap(0, 7, 9, 0), 8);  // not: the value is 8
    counter.set(1, -5, 0);
    EXPECT_EQ(counter.fetch(1, 0), -5);
    EXPECT_EQ(bits.fetch_xor(0, 1ul, 0), (1ul << n) - 1);
    EXPECT_EQ(bits.fetch_and(0, 6ul, 0), (1ul << n) - 2);
    EXPECT_EQ(bits.fetch_or(0, 1ul, 0), ((1ul << n) - 2) & 6ul);
    bits.and_(0, 1ul, 0);
    bits.xor_(0, 3ul, 0);
    EXPECT_EQ(bits.fetch(0, 0), 2ul);
    real.set(0, 2.5, 0);
    EXPECT_EQ(real.swap(0, 4.0, 0), 2.5);
    EXPECT_EQ(real.fetch(0, 0), 4.0);
  }
  ishmem::barrier_all();
  EXPECT_EQ(counter.fetch(0, 0), 8);
  ishmem::barrier_all();
}

TEST(CxxApi, WaitUntilAndTestSeeAPeersStore) {
  ishmem::symmetric_array<int> flag(1);
  ishmem::barrier_all();
  EXPECT_FALSE(flag.test(0, ishmem::cmp::eq, left_pe() + 1));
  ishmem::barrier_all();  // no PE signals before every PE has tested
  flag.p(0, my_pe() + 1, right_pe());
  flag.wait_until(0, ishmem::cmp::eq, left_pe() + 1);
  EXPECT_EQ(flag[0], left_pe() + 1);
  EXPECT_TRUE(flag.test(0, ishmem::cmp::ge, 1));
  ishmem::barrier_all();
}

TEST(CxxApi, FailedCallsThrowWithStatusAndMessage) {
  ishmem::symmetric_array<long> a(4);
  const int bad = n_pes();
  expect_error([&] { a.p(0, 1, bad); }, ISHMEM_ERR_INVALID_PE, "PE " + std::to_string(bad));
  expect_error([&] { a.g(0, -1); }, ISHMEM_ERR_INVALID_PE, "PE -1");
  expect_error([&] { a.fetch_add(0, 1, bad); }, ISHMEM_ERR_INVALID_PE, "ishmem atomic_fetch_add");
  expect_error([&] { a.fetch(0, bad); }, ISHMEM_ERR_INVALID_PE, "ishmem atomic_fetch");
  expect_error([&] { a.put(std::vector<long>(4), bad); }, ISHMEM_ERR_INVALID_PE, "ishmem put");
  expect_error([&] { a.p(4, 1, 0); }, ISHMEM_ERR_INVALID_ARG, "index 4 past the size 4");
  expect_error([&] { a.put(std::vector<long>(3), 0); }, ISHMEM_ERR_INVALID_ARG, "3 local elements");
  expect_error([&] { a.wait_until(0, static_cast<ishmem::cmp>(99), 0); }, ISHMEM_ERR_INVALID_ARG,
               "wait_until");
  // Collective failures: every PE passes the same sizes, so every PE throws.
  expect_error([] { ishmem::symmetric_array<char> huge(std::size_t{1} << 50); }, ISHMEM_ERR_NOMEM,
               "ishmem_calloc");
  expect_error([] { ishmem::symmetric_array<long> wraps(SIZE_MAX / 4); }, ISHMEM_ERR_NOMEM,
               "ishmem_calloc");
  // The library works on after them.
  a.p(0, 42, right_pe());
  ishmem::barrier_all();
  EXPECT_EQ(a[0], 42);
  ishmem::barrier_all();
}

// More than half the heap: two such arrays cannot live at once, so each allocation below
// succeeds only if the previous one was freed.
std::size_t over_half_heap() {
  return ishmem_test::user_heap_size() / 2 + (std::size_t{1} << 20);
}

TEST(CxxApi, DestructorsAndResetFreeTheHeap) {
  const std::size_t big = over_half_heap();
  for (int round = 0; round < 3; ++round) {
    ishmem::symmetric_array<char> a(big);  // freed at the end of each round
    a[big - 1] = 1;
  }
  ishmem::symmetric_array<char> b(big);
  expect_error([&] { ishmem::symmetric_array<char> second(big); }, ISHMEM_ERR_NOMEM,
               "ishmem_calloc");
  b.reset();
  EXPECT_EQ(b.data(), nullptr);
  EXPECT_EQ(b.size(), 0u);
  ishmem::symmetric_array<char> c(big);  // b's memory came back
  c = ishmem::symmetric_array<char>();   // move-assignment frees c's block
  ishmem::symmetric_array<char> d(big);
  d = ishmem::symmetric_array<char>(16);  // frees the big block, then takes the small
  EXPECT_EQ(d.size(), 16u);
  ishmem::symmetric_array<char> e(big);
  ishmem::barrier_all();
}

TEST(CxxApi, MovesTransferOwnership) {
  ishmem::symmetric_array<int> a(5);
  std::iota(a.begin(), a.end(), 10);
  ishmem::barrier_all();  // no peer writes this PE's array before it is filled
  int *const block = a.data();
  ishmem::symmetric_array<int> b(std::move(a));
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(b.data(), block);
  EXPECT_EQ(b[4], 14);
  ishmem::symmetric_array<int> c;
  c = std::move(b);
  EXPECT_EQ(b.data(), nullptr);
  EXPECT_EQ(c.data(), block);
  // The moved array still reaches the same place on the peers.
  c.p(0, my_pe(), right_pe());
  ishmem::barrier_all();
  EXPECT_EQ(c[0], left_pe());
  std::vector<ishmem::symmetric_array<int>> many;  // a container of arrays reallocates by moving
  for (int i = 0; i < 5; ++i) many.emplace_back(3);
  many.front().p(2, 77, right_pe());
  ishmem::barrier_all();
  EXPECT_EQ(many.front()[2], 77);
  ishmem::barrier_all();
}

}  // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) return 1;
  int failed = 0, failed_pes = 0, rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  try {
    {
      ishmem::runtime rt(MPI_COMM_WORLD);
      failed = RUN_ALL_TESTS() != 0;
    }
    // The runtime's destructor finalized the library (and left MPI up).
    if (ishmem_my_pe() != -1) failed = 1, fprintf(stderr, "[pe %d] still initialized\n", rank);
    try {
      ishmem::my_pe();
      failed = 1, fprintf(stderr, "[pe %d] my_pe after finalize did not throw\n", rank);
    } catch (const ishmem::error &e) {
      if (e.status() != ISHMEM_ERR_NOT_INITIALIZED) failed = 1;
    }
    // A second lifetime at a thread level: the library starts again over the running MPI.
    ishmem::runtime rt(ishmem::thread_level::serialized);
    if (rt.provided() != ishmem::thread_level::serialized || rt.query_thread() != rt.provided())
      failed = 1,
      fprintf(stderr, "[pe %d] thread level %d\n", rank, static_cast<int>(rt.provided()));
    ishmem::symmetric_array<int> a(1);
    a.p(0, rank, (rank + 1) % ishmem::n_pes());
    ishmem::barrier_all();
    if (a[0] != (rank + ishmem::n_pes() - 1) % ishmem::n_pes()) failed = 1;
    a.reset();
    rt.finalize();
  } catch (const ishmem::error &e) {
    fprintf(stderr, "[pe %d] ishmem::error: %s\n", rank, e.what());
    failed = 1;
  }
  MPI_Allreduce(&failed, &failed_pes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && failed_pes > 0) fprintf(stderr, "%d PEs had failures\n", failed_pes);
  MPI_Finalize();
  return failed_pes > 0 ? 1 : 0;
}
