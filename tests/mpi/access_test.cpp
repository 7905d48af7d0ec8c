// Setup queries and direct access: my_pe/n_pes, ishmem_ptr, ishmem_addr_accessible,
// ishmem_pe_accessible. In split mode (ISHMEM_MAX_LOCAL_PES) the PEs outside this PE's group
// are "off-node": ishmem_ptr gives NULL for them, and RMA to them goes through MPI.
#include <climits>
#include <cstring>

#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

TEST(Access, Identity) {
  int rank = -1, size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(ishmem_my_pe(), rank);
  EXPECT_EQ(ishmem_n_pes(), size);
  int major = 0, minor = 0;
  ishmem_info_get_version(&major, &minor);
  EXPECT_EQ(major, ISHMEM_MAJOR_VERSION);
  EXPECT_EQ(minor, ISHMEM_MINOR_VERSION);
  char name[ISHMEM_MAX_NAME_LEN] = {};
  ishmem_info_get_name(name);
  EXPECT_STREQ(name, ISHMEM_VENDOR_STRING);
  EXPECT_STREQ(ishmemx_backend_name(), "host");
}

TEST(Access, PeAccessible) {
  for (int pe = 0; pe < n_pes(); ++pe) EXPECT_EQ(ishmem_pe_accessible(pe), 1) << pe;
  EXPECT_EQ(ishmem_pe_accessible(-1), 0);
  EXPECT_EQ(ishmem_pe_accessible(n_pes()), 0);
  EXPECT_EQ(ishmem_pe_accessible(INT_MAX), 0);
  EXPECT_EQ(ishmem_pe_accessible(INT_MIN), 0);
}

TEST(Access, AddrAccessible) {
  const std::size_t bytes = 10000;
  char *sym = static_cast<char *>(ishmem_malloc(bytes));
  ASSERT_TRUE(all_true(sym != nullptr));
  int on_stack = 0;
  std::vector<char> on_host(64);
  for (int pe = 0; pe < n_pes(); ++pe) {
    EXPECT_EQ(ishmem_addr_accessible(sym, pe), 1) << pe;
    EXPECT_EQ(ishmem_addr_accessible(sym + bytes - 1, pe), 1) << pe;
    EXPECT_EQ(ishmem_addr_accessible(&on_stack, pe), 0) << pe;
    EXPECT_EQ(ishmem_addr_accessible(on_host.data(), pe), 0) << pe;
    EXPECT_EQ(ishmem_addr_accessible(nullptr, pe), 0) << pe;
  }
  EXPECT_EQ(ishmem_addr_accessible(sym, -1), 0);
  EXPECT_EQ(ishmem_addr_accessible(sym, n_pes()), 0);
  EXPECT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

TEST(Access, PtrIsNonNullExactlyForNodeLocalPes) {
  int *sym = static_cast<int *>(ishmem_malloc(4096));
  ASSERT_TRUE(all_true(sym != nullptr));
  EXPECT_EQ(ishmem_ptr(sym, my_pe()), sym);
  for (int pe = 0; pe < n_pes(); ++pe) {
    int *p = static_cast<int *>(ishmem_ptr(sym, pe));
    if (!node_local(pe)) {
      EXPECT_EQ(p, nullptr) << pe;
      continue;
    }
    EXPECT_NE(p, nullptr) << pe;
    if (!p) continue;  // no early return: every PE must reach the ishmem_free below
    if (pe != my_pe()) {
      EXPECT_NE(p, sym) << pe;
    }
    // Interior addresses translate by the same displacement.
    EXPECT_EQ(static_cast<int *>(ishmem_ptr(sym + 100, pe)), p + 100) << pe;
  }
  int on_stack = 0;
  EXPECT_EQ(ishmem_ptr(&on_stack, my_pe()), nullptr);
  EXPECT_EQ(ishmem_ptr(nullptr, my_pe()), nullptr);
  EXPECT_EQ(ishmem_ptr(sym, -1), nullptr);
  EXPECT_EQ(ishmem_ptr(sym, n_pes()), nullptr);
  EXPECT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

TEST(Access, DirectStoresThroughPtrAreSeenAfterBarrier) {
  const std::size_t n = 1000;
  int *sym = static_cast<int *>(ishmem_malloc(n * sizeof(int)));
  ASSERT_TRUE(all_true(sym != nullptr));
  for (std::size_t i = 0; i < n; ++i) sym[i] = -1;
  ishmem_barrier_all();
  // Every PE stores into its right neighbour's heap through ishmem_ptr where it can, and with
  // ishmem_int_put where it cannot; either way the neighbour sees the data after the barrier.
  int *peer = static_cast<int *>(ishmem_ptr(sym, right_pe()));
  std::vector<int> src(n);
  for (std::size_t i = 0; i < n; ++i) src[i] = my_pe() * 100000 + static_cast<int>(i);
  if (peer) {
    for (std::size_t i = 0; i < n; ++i) peer[i] = src[i];
  } else {
    EXPECT_EQ(ishmem_int_put(sym, src.data(), n, right_pe()), ISHMEM_SUCCESS);
  }
  ishmem_barrier_all();
  const int left = left_pe();
  expect_elements(
      sym, n, [&](std::size_t i) { return left * 100000 + static_cast<int>(i); },
      "stores from the left neighbour");
  // Direct loads see the neighbour's memory too, the same as ishmem_g.
  if (peer) {
    for (std::size_t i = 0; i < n; i += 97) EXPECT_EQ(peer[i], ishmem_int_g(sym + i, right_pe()));
    EXPECT_EQ(peer[0], my_pe() * 100000);
  }
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

TEST(Access, EveryPeWritesEveryPe) {
  // All-to-all: PE p puts its number into slot p of every PE (itself included).
  const int n = n_pes();
  long *sym = static_cast<long *>(ishmem_malloc(static_cast<std::size_t>(n) * sizeof(long)));
  ASSERT_TRUE(all_true(sym != nullptr));
  for (int i = 0; i < n; ++i) sym[i] = -1;
  ishmem_barrier_all();
  for (int pe = 0; pe < n; ++pe)
    EXPECT_EQ(ishmem_long_p(sym + my_pe(), 1000L + my_pe(), pe), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  expect_elements(
      sym, static_cast<std::size_t>(n), [](std::size_t i) { return 1000L + static_cast<long>(i); },
      "all-to-all");
  for (int pe = 0; pe < n; ++pe) EXPECT_EQ(ishmem_long_g(sym + pe, pe), 1000L + pe);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

}  // namespace
