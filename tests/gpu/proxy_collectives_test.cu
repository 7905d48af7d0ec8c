// Device collectives on teams that span nodes, which the device proxy runs over MPI
// (docs/MULTI_NODE.md): run in split mode (ISHMEM_MAX_LOCAL_PES), on the tested team shapes
// (world, strided, single PE, 2d rows; the node-local ones take the device algorithm). Every
// reduction operation of a representative set of types and every data mover, in a block and
// in a warp, both forms; the stream-ordered forms; team_sync ordering a store before a peer's
// get; two teams' collectives posted in opposite orders; and the errors: _grid forms are
// refused on every thread, and a PE's rejected arguments, a team_sync against a reduction, or
// a source outside a PE's heap fail every member without a hang. Results are checked against
// MPI's.
#include <chrono>
#include <cstdlib>
#include <thread>
#include <utility>

#include "collectives_device.h"

using namespace gpu_test;
using ishmem_test::check_moves;
using ishmem_test::check_reduce;

namespace {

// Whether some member of team t is on another node than this PE.
bool spans_nodes(const TeamUnderTest &t) {
  const ishmemx_device_handle_t h = handle();
  for (int i = 0; i < ishmem_team_n_pes(t.team); ++i) {
    const int pe = ishmem_team_translate_pe(t.team, i, ISHMEM_TEAM_WORLD);
    if (pe < h.first_local_pe || pe >= h.first_local_pe + h.n_local) return true;
  }
  return false;
}

__global__ void team_sync_kernel(ishmemx_device_handle_t h, ishmem_team_t team, int *rc) {
  const int r = ishmemx_team_sync_block(h, team);
  if (threadIdx.x == 0) *rc = r;
}

__global__ void sum_kernel(ishmemx_device_handle_t h, ishmem_team_t team, int *dest,
                           const int *source, size_t n, int *rc) {
  const int r = ishmemx_int_sum_reduce_block(h, team, dest, source, n);
  if (threadIdx.x == 0) *rc = r;
}

class ProxyCollectives : public GpuCollectives {
 protected:
  void SetUp() override {
    GpuCollectives::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (handle().n_local == n_pes()) {
      ASSERT_EQ(std::getenv("ISHMEM_TEST_SPLIT"), nullptr) << "no PE is off-node";
      GTEST_SKIP() << "every PE is node-local";
    }
  }
};

// D's reduction O in a block at `sizes`; the form alternates with the operation.
template <class D, Op O>
void block_reduction(const TeamUnderTest &t, const SymmetricPair &b, const HeapAccess &a,
                     const std::vector<std::size_t> &sizes) {
  if constexpr (D::ops >> O & 1)
    check_reduce<typename D::type>(
        t, b, a, std::string(D::name) + "_" + op_name(O) + "_reduce " + form_of(kBlock, O % 2),
        mpi_op(O), device_reduce<D, O, kBlock, O % 2 == 0>(), sizes);
}

// Every operation of D in a block (sum on both sides of the one-shot size), sum in a warp.
template <class D, int... O>
void reductions_of(const TeamUnderTest &t, const SymmetricPair &b, const HeapAccess &a,
                   std::integer_sequence<int, O...>) {
  using T = typename D::type;
  (block_reduction<D, Op(O)>(t, b, a,
                             O == kSum ? std::vector<std::size_t>{1, 7, kOneShot / sizeof(T) + 1}
                                       : std::vector<std::size_t>{7}),
   ...);
  check_reduce<T>(t, b, a, std::string(D::name) + "_sum_reduce warp", MPI_SUM,
                  device_reduce<D, kSum, kWarp, false>(), {7});
}

TEST_F(ProxyCollectives, DeviceReductions) {
  const SymmetricPair &b = this->b();
  const auto ops = std::make_integer_sequence<int, kProd + 1>();
  int spanning = 0;
  on_every_shape([&](const TeamUnderTest &t) {
    spanning += spans_nodes(t);
    for_each_reduction_type(
        [&](auto d) { reductions_of<typename decltype(d)::type>(t, b, gpu, ops); });
  });
  EXPECT_GT(spanning, 0) << "no tested team spans nodes";
}

TEST_F(ProxyCollectives, DeviceMoves) {
  const SymmetricPair &b = this->b();
  const std::vector<Move> all = moves_of(kAllMoves);
  on_every_shape([&](const TeamUnderTest &t) {
    check_moves<unsigned char>(t, b, gpu, "mem block (handle)",
                               device_moves<DevMem, kBlock, true>(), all, {0, 1, 7, kOneShot + 1});
    check_moves<unsigned char>(t, b, gpu, "mem warp", device_moves<DevMem, kWarp, false>(), all,
                               {7});
    check_moves<int>(t, b, gpu, "int block", device_moves<DevInt, kBlock, false>(), all, {1, 7});
    check_moves<double>(t, b, gpu, "double warp (handle)", device_moves<DevDouble, kWarp, true>(),
                        all, {7});
  });
}

// The stream-ordered forms launch the device algorithm, which posts to the proxy here.
TEST_F(ProxyCollectives, StreamOrderedForms) {
  const SymmetricPair &b = this->b();
  on_every_shape([&](const TeamUnderTest &t) {
    if (!spans_nodes(t)) return;
    if (is_world(t)) ishmem_test::check_host_reductions(t, b, gpu, false, true, kOneShot, false);
    ishmem_test::check_host_moves(t, b, gpu, true, {0, 7, kOneShot + 1}, {7});
    // A stream-ordered call that failed is reported by the next one: two, then a wait.
    for (int i = 0; i < 2; ++i)
      EXPECT_EQ(ishmemx_team_sync_on_stream(t.team, stream()), ISHMEM_SUCCESS)
          << "team_sync_on_stream " << i << " on " << t.name << ": " << ishmemx_last_error();
    GPU_OK(gpuStreamSynchronize(stream()));
  });
}

// Each PE stores its number + 1 in its own word, syncs the world team in the kernel, and gets
// the word of the PE `n_local` further on (on another node). The PEs of even nodes store
// late (after some 5 ms), so that a sync that did not wait for them reads 0.
__global__ void store_sync_get(ishmemx_device_handle_t h, int *word, int *got, int *rc) {
  if (threadIdx.x == 0) {
    if (h.my_pe / h.n_local % 2 == 0)
      for (const long long start = clock64(); clock64() - start < 10000000;) {
      }
    *(volatile int *)word = h.my_pe + 1;
  }
  const int synced = ishmemx_team_sync_block(h, ISHMEM_TEAM_WORLD);
  if (threadIdx.x == 0) {
    rc[0] = synced;
    got[0] = ishmem_int_g(h, word, (h.my_pe + h.n_local) % h.n_pes);
  }
}

TEST_F(ProxyCollectives, TeamSyncOrdersAStoreBeforeAPeersGet) {
  const ishmemx_device_handle_t h = handle();
  int *word = static_cast<int *>(ishmem_calloc(1, sizeof(int)));
  ASSERT_NE(word, nullptr) << ishmemx_last_error();
  DeviceBuffer out(2 * sizeof(int));
  for (int round = 0; round < 3; ++round) {
    GPU_OK(gpuMemset(word, 0, sizeof(int)));
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    store_sync_get<<<1, 128>>>(h, word, out.as<int>(), out.as<int>() + 1);
    ASSERT_TRUE(GPU_LAUNCHED());
    const std::vector<int> got = to_host(out.as<int>(), 2);
    EXPECT_EQ(got[1], ISHMEM_SUCCESS) << "team_sync, round " << round;
    EXPECT_EQ(got[0], (my_pe() + h.n_local) % n_pes() + 1) << "the peer's word, round " << round;
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);  // every get is done before the next reset
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(word);
}

TEST_F(ProxyCollectives, GridFormsAreRefusedOnTeamsThatSpanNodes) {
  const SymmetricPair &b = this->b();
  int *d = static_cast<int *>(b.dest);
  const int *s = static_cast<const int *>(b.source);
  EXPECT_EQ((device_reduce<DevInt, kSum, kGrid, true>()(ISHMEM_TEAM_WORLD, d, s, 7)),
            ISHMEM_ERR_UNSUPPORTED);
  const MoveArgs m = {Move::fcollect, 7, 0, 1, 1};
  EXPECT_EQ((device_moves<DevInt, kGrid, false>()(ISHMEM_TEAM_WORLD, d, s, m)),
            ISHMEM_ERR_UNSUPPORTED);
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
}

// PE 0 names a root outside the team: it fails with ISHMEM_ERR_INVALID_ARG, every other PE
// with ISHMEM_ERR_MISMATCH, and the next collective runs in step.
TEST_F(ProxyCollectives, RejectedArgumentsFailEveryMember) {
  const SymmetricPair &b = this->b();
  int *d = static_cast<int *>(b.dest);
  const int *s = static_cast<const int *>(b.source);
  const MoveArgs m = {Move::broadcast, 7, my_pe() == 0 ? n_pes() : 0, 1, 1};
  EXPECT_EQ((device_moves<DevInt, kBlock, true>()(ISHMEM_TEAM_WORLD, d, s, m)),
            my_pe() == 0 ? ISHMEM_ERR_INVALID_ARG : ISHMEM_ERR_MISMATCH);
  TeamUnderTest world = {ISHMEM_TEAM_WORLD, MPI_COMM_WORLD, "world"};
  check_reduce<int>(world, b, gpu, "int_sum_reduce block after a rejected call", MPI_SUM,
                    device_reduce<DevInt, kSum, kBlock, false>(), {7});
}

// PE 0 calls team_sync where the others reduce: every member fails with ISHMEM_ERR_MISMATCH,
// and the next collective runs in step.
TEST_F(ProxyCollectives, TeamSyncAgainstAReductionIsAMismatch) {
  const SymmetricPair &b = this->b();
  int *d = static_cast<int *>(b.dest);
  const int *s = static_cast<const int *>(b.source);
  DeviceBuffer rcs(sizeof(int));
  if (my_pe() == 0) {
    team_sync_kernel<<<1, 64>>>(handle(), ISHMEM_TEAM_WORLD, rcs.as<int>());
    ASSERT_TRUE(GPU_LAUNCHED());
    EXPECT_EQ(to_host(rcs.as<int>(), 1)[0], ISHMEM_ERR_MISMATCH);
  } else {
    EXPECT_EQ((device_reduce<DevInt, kSum, kBlock, true>()(ISHMEM_TEAM_WORLD, d, s, 7)),
              ISHMEM_ERR_MISMATCH);
  }
  TeamUnderTest world = {ISHMEM_TEAM_WORLD, MPI_COMM_WORLD, "world"};
  check_reduce<int>(world, b, gpu, "int_sum_reduce block after a mismatch", MPI_SUM,
                    device_reduce<DevInt, kSum, kBlock, false>(), {7});
}

// Two teams of the same PEs, their collectives posted in opposite orders on even and odd PEs
// (kernels on two streams): each team's collectives run in order while the other's proceed,
// as with the device algorithm.
TEST_F(ProxyCollectives, TwoTeamsInOppositeOrders) {
  const int n = n_pes(), me = my_pe();
  ishmem_team_t twin = ISHMEM_TEAM_INVALID;
  ASSERT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, 0, 1, n, nullptr, 0, &twin),
            ISHMEM_SUCCESS)
      << ishmemx_last_error();
  const std::size_t k = 7;
  int *buf = static_cast<int *>(ishmem_malloc(4 * k * sizeof(int)));  // two sources, two dests
  ASSERT_NE(buf, nullptr) << ishmemx_last_error();
  std::vector<int> mine(2 * k);
  for (std::size_t i = 0; i < k; ++i) {
    mine[i] = me + 1;
    mine[k + i] = 10 * (me + 1);
  }
  GPU_OK(gpuMemcpy(buf, mine.data(), 2 * k * sizeof(int), gpuMemcpyDefault));
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  TestStream second;
  DeviceBuffer rcs(2 * sizeof(int));
  const ishmem_team_t first_team = me % 2 ? twin : ISHMEM_TEAM_WORLD;
  const ishmem_team_t second_team = me % 2 ? ISHMEM_TEAM_WORLD : twin;
  const int first = first_team == ISHMEM_TEAM_WORLD ? 0 : 1, then = 1 - first;
  sum_kernel<<<1, 128, 0, stream()>>>(handle(), first_team, buf + 2 * k + first * k,
                                      buf + first * k, k, rcs.as<int>() + first);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // its request goes first
  sum_kernel<<<1, 128, 0, second.stream>>>(handle(), second_team, buf + 2 * k + then * k,
                                           buf + then * k, k, rcs.as<int>() + then);
  GPU_OK(gpuStreamSynchronize(second.stream));
  GPU_OK(gpuStreamSynchronize(stream()));
  const std::vector<int> got_rcs = to_host(rcs.as<int>(), 2);
  EXPECT_EQ(got_rcs[0], ISHMEM_SUCCESS) << "world";
  EXPECT_EQ(got_rcs[1], ISHMEM_SUCCESS) << "its twin";
  const std::vector<int> got = to_host(buf + 2 * k, 2 * k);
  for (std::size_t i = 0; i < k; ++i) {
    EXPECT_EQ(got[i], n * (n + 1) / 2) << "world, element " << i;
    EXPECT_EQ(got[k + i], 10 * n * (n + 1) / 2) << "its twin, element " << i;
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(buf);
  ishmem_team_destroy(twin);
}

// PE 0's source is outside the heap: its proxy cannot stage it, and every member fails with
// that status at once (no member waits out the deadline); the next collective runs in step.
TEST_F(ProxyCollectives, AMemberThatCannotStageFailsEveryMember) {
  const SymmetricPair &b = this->b();
  DeviceBuffer outside(64 * sizeof(int));
  int *d = static_cast<int *>(b.dest);
  const int *s = my_pe() == 0 ? outside.as<int>() : static_cast<const int *>(b.source);
  EXPECT_EQ((device_reduce<DevInt, kSum, kBlock, true>()(ISHMEM_TEAM_WORLD, d, s, 7)),
            ISHMEM_ERR_NOT_SYMMETRIC);
  TeamUnderTest world = {ISHMEM_TEAM_WORLD, MPI_COMM_WORLD, "world"};
  check_reduce<int>(world, b, gpu, "int_sum_reduce block after a failed call", MPI_SUM,
                    device_reduce<DevInt, kSum, kBlock, false>(), {7});
}

}  // namespace
