// The rules of the collectives on GPU heaps: team_sync in every form (host, on a stream, one
// device thread, a warp, a block) orders puts on every team shape; reductions in place;
// collectives back to back with no barrier between them (blocking, on a stream, in one
// kernel), alternating kinds and algorithms; argument errors; long double and complex on a
// GPU heap are unsupported; and, last (a broken team could fail what follows), mismatched
// device calls, which must return ISHMEM_ERR_MISMATCH on every PE, after which the team works.
#include "collectives_device.h"

using namespace gpu_test;
using ishmem_test::check_reduce;
using ishmem_test::TeamShapes;

namespace {

int team_rank(const TeamUnderTest &t) {
  int me = 0;
  MPI_Comm_rank(t.comm, &me);
  return me;
}
int team_size(const TeamUnderTest &t) {
  int n = 1;
  MPI_Comm_size(t.comm, &n);
  return n;
}

// ---- team_sync: each member puts a value to its right neighbor (in team order) and
// completes it, syncs, and must then see the value its left neighbor put.

template <Group G, bool HANDLE>
__global__ void put_then_sync(ishmemx_device_handle_t h, ishmem_team_t team, int *slot, int value,
                              int to_pe, int *seen, int *rcs) {
  const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0) {
    HANDLE ? ishmem_int_p(h, slot, value, to_pe) : ishmem_int_p(slot, value, to_pe);
    HANDLE ? ishmem_quiet(h) : ishmem_quiet();
  }
  __syncthreads();
  int rc = ISHMEM_ERR_INVALID_ARG;
  if constexpr (G == kThread)
    rc = HANDLE ? ishmem_team_sync(h, team) : ishmem_team_sync(team);
  else if constexpr (G == kWarp)
    rc = HANDLE ? ishmemx_team_sync_warp(h, team) : ishmemx_team_sync_warp(team);
  else if constexpr (G == kBlock)
    rc = HANDLE ? ishmemx_team_sync_block(h, team) : ishmemx_team_sync_block(team);
  rcs[tid] = rc;
  if (tid == 0) *seen = *reinterpret_cast<volatile int *>(slot);
}

template <Group G, bool HANDLE>
int device_sync(ishmem_team_t team, int *slot, int value, int to_pe, int *seen,
                const std::string &what) {
  const void *kernel = reinterpret_cast<const void *>(put_then_sync<G, HANDLE>);
  return run_group(G, 1, what, kernel, [&](unsigned b, unsigned t, int *rcs) {
    put_then_sync<G, HANDLE><<<b, t>>>(handle(), team, slot, value, to_pe, seen, rcs);
  });
}

using DeviceSync = int (*)(ishmem_team_t, int *, int, int, int *, const std::string &);
const DeviceSync kDeviceSyncs[] = {device_sync<kThread, false>, device_sync<kThread, true>,
                                   device_sync<kWarp, false>,   device_sync<kWarp, true>,
                                   device_sync<kBlock, false>,  device_sync<kBlock, true>};
constexpr int kSyncForms = 8, kSyncRounds = 2;
const char *const kSyncFormNames[kSyncForms] = {
    "host", "on_stream",     "thread", "thread (handle)",
    "warp", "warp (handle)", "block",  "block (handle)"};

void check_team_sync(const TeamUnderTest &t, int *slots, gpuStream_t stream) {
  const int me = team_rank(t), n = team_size(t);
  const int right = ishmem_team_translate_pe(t.team, (me + 1) % n, ISHMEM_TEAM_WORLD);
  const int left = ishmem_team_translate_pe(t.team, (me + n - 1) % n, ISHMEM_TEAM_WORLD);
  GPU_OK(gpuMemset(slots, 0, kSyncForms * kSyncRounds * sizeof(int)));
  GPU_OK(gpuDeviceSynchronize());
  EXPECT_EQ(MPI_Barrier(t.comm), MPI_SUCCESS);  // no member puts before the others cleared
  DeviceBuffer seen(sizeof(int)), value(sizeof(int));
  for (int i = 0; i < kSyncForms * kSyncRounds; ++i) {
    const int form = i % kSyncForms;
    const std::string what = std::string("team_sync ") + kSyncFormNames[form] + " (round " +
                             std::to_string(i / kSyncForms) + ") on " + t.name;
    const int mine = 1000 * (i + 1) + my_pe();
    int *slot = slots + i;
    int rc = ISHMEM_ERR_INTERNAL;
    switch (form) {
      case 0:
        EXPECT_EQ(ishmem_int_p(slot, mine, right), ISHMEM_SUCCESS) << what;
        EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS) << what;
        rc = ishmem_team_sync(t.team);
        break;
      case 1:
        to_device(value.as<int>(), std::vector<int>{mine});
        EXPECT_EQ(ishmemx_putmem_on_stream(slot, value.ptr, sizeof(int), right, stream),
                  ISHMEM_SUCCESS)
            << what;
        EXPECT_EQ(ishmemx_quiet_on_stream(stream), ISHMEM_SUCCESS) << what;
        rc = ishmemx_team_sync_on_stream(t.team, stream);
        GPU_OK(gpuStreamSynchronize(stream));
        break;
      default:
        rc = kDeviceSyncs[form - 2](t.team, slot, mine, right, seen.as<int>(), what);
        break;
    }
    EXPECT_EQ(rc, ISHMEM_SUCCESS) << what << ": " << ishmemx_last_error();
    const int got = to_host(form < 2 ? slot : seen.as<int>(), 1)[0];
    EXPECT_EQ(got, 1000 * (i + 1) + left)
        << "PE " << my_pe() << ": " << what << ": the value PE " << left << " put before it";
  }
}

TEST(GpuCollectiveRules, TeamSyncInEveryForm) {
  SKIP_WITHOUT_GPU();
  TestStream s;
  int *slots = static_cast<int *>(ishmem_calloc(kSyncForms * kSyncRounds, sizeof(int)));
  ASSERT_NE(slots, nullptr) << ishmemx_last_error();
  {
    TeamShapes shapes;
    shapes.for_each_member([&](const TeamUnderTest &t) {
      if (tested_shape(t)) check_team_sync(t, slots, s.stream);
    });
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(slots);
}

// ---- Reductions in place (dest == source), in every form.

TEST(GpuCollectiveRules, ReductionsInPlace) {
  SKIP_WITHOUT_GPU();
  TestStream s;
  const HeapAccess gpu = gpu_heap_access(s.stream);
  SymmetricPair b((100 << 10) + 64);
  ASSERT_TRUE(b.source && b.dest) << ishmemx_last_error();
  TeamShapes shapes;
  shapes.for_each_member([&](const TeamUnderTest &t) {
    if (!tested_shape(t)) return;
    const auto sizes = [](std::size_t elem) {
      return ishmem_test::reduce_sizes(elem, kOneShot, true);
    };
    const std::vector<std::size_t> warp = {7, kOneShot / 4 + 1};
    check_reduce<int>(t, b, gpu, "int_sum_reduce blocking", MPI_SUM,
                      ishmem_test::blocking_run<int>(ishmem_int_sum_reduce), sizes(4), true);
    check_reduce<double>(
        t, b, gpu, "double_max_reduce on_stream", MPI_MAX,
        ishmem_test::on_stream_run<double>(ishmemx_double_max_reduce_on_stream, gpu), sizes(8),
        true);
    check_reduce<uint8_t>(t, b, gpu, "uint8_xor_reduce block", MPI_BXOR,
                          device_reduce<DevUint8, kXor, kBlock, false>(), sizes(1), true);
    check_reduce<int>(t, b, gpu, "int_min_reduce warp (handle)", MPI_MIN,
                      device_reduce<DevInt, kMin, kWarp, true>(), warp, true);
    check_reduce<double>(t, b, gpu, "double_sum_reduce grid", MPI_SUM,
                         device_reduce<DevDouble, kSum, kGrid, false>(), sizes(8), true);
  });
}

// ---- Back to back, no barrier between the calls: round r is a sum-reduce (r % 3 == 0;
// alternately one-shot and reduce-scatter sizes), an fcollect or an alltoall, each into
// its own slice of dest, from a source rewritten for every round.

constexpr int kRounds = 12;
constexpr std::size_t kSmall = 5, kBig = kOneShot / 8 + 1, kSlice = 9 << 10;

__host__ __device__ long long round_value(int pe, int round, std::size_t i) {
  return (pe + 1) * 1000003LL * (round + 1) + static_cast<long long>(i) * 7;
}
__host__ __device__ std::size_t source_count(int round, int n) {
  return round % 3 == 0 ? (round % 2 ? kBig : kSmall) : round % 3 == 1 ? kSmall : kSmall * n;
}

__global__ void fill_round(long long *source, int pe, int round, std::size_t count) {
  for (std::size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    source[i] = round_value(pe, round, i);
}

// Round r's data mover (r % 3 != 0).
__host__ __device__ MoveArgs round_move(int round) {
  return MoveArgs{round % 3 == 1 ? Move::fcollect : Move::alltoall, kSmall, 0, 1, 1};
}

template <bool HANDLE>
__device__ int round_call(const ishmemx_device_handle_t &h, ishmem_team_t team, long long *d,
                          const long long *s, int round, int n) {
  if (round % 3 == 0)
    return DevLongLong::reduce<kSum, kBlock, HANDLE>(h, team, d, s, source_count(round, n));
  if (round % 3 == 1)
    return DevLongLong::move<Move::fcollect, kBlock, HANDLE>(h, team, d, s, round_move(round));
  return DevLongLong::move<Move::alltoall, kBlock, HANDLE>(h, team, d, s, round_move(round));
}

// Every round in one block of one kernel. Three collectives in one loop take more registers
// than one call alone (whose kernels above launch 1024 threads without bounds): bounded.
template <bool HANDLE>
__global__ void __launch_bounds__(kBlockThreads)
    back_to_back(ishmemx_device_handle_t h, ishmem_team_t team, long long *dest, long long *source,
                 int pe, int n, int *rcs) {
  for (int r = 0; r < kRounds; ++r) {
    const std::size_t count = source_count(r, n);
    for (std::size_t i = threadIdx.x; i < count; i += blockDim.x) source[i] = round_value(pe, r, i);
    __syncthreads();
    rcs[r * blockDim.x + threadIdx.x] =
        round_call<HANDLE>(h, team, dest + r * kSlice, source, r, n);
  }
}

enum class Sequence { blocking, on_stream, block, block_handle };
const char *sequence_name(Sequence q) {
  static const char *const names[] = {"blocking", "on_stream", "block", "block (handle)"};
  return names[static_cast<int>(q)];
}

// The host forms, blocking or queued on `stream` with no wait between the rounds.
int host_round_call(Sequence q, ishmem_team_t team, long long *d, const long long *s, int round,
                    int n, gpuStream_t stream) {
  const bool on_stream = q == Sequence::on_stream;
  const HeapAccess queue{nullptr, nullptr, ishmem_test::no_stream_sync, stream};
  if (round % 3 == 0)
    return on_stream
               ? ishmemx_longlong_sum_reduce_on_stream(team, d, s, source_count(round, n), stream)
               : ishmem_longlong_sum_reduce(team, d, s, source_count(round, n));
  return ISHMEM_TEST_HOST_MOVES(long long, longlong, on_stream, queue)(team, d, s,
                                                                       round_move(round));
}

void check_back_to_back(const TeamUnderTest &t, long long *dest, long long *source, Sequence q,
                        gpuStream_t stream) {
  const int n = team_size(t);
  const std::string what = std::string("back to back, ") + sequence_name(q) + ", on " + t.name;
  GPU_OK(gpuMemset(dest, 0xEE, kRounds * kSlice * sizeof(long long)));
  GPU_OK(gpuDeviceSynchronize());
  EXPECT_EQ(MPI_Barrier(t.comm), MPI_SUCCESS);  // every dest is ready before the first call
  if (q == Sequence::block || q == Sequence::block_handle) {
    DeviceBuffer rcs(kRounds * kBlockThreads * sizeof(int));
    GPU_OK(gpuMemset(rcs.ptr, 0x7f, kRounds * kBlockThreads * sizeof(int)));
    if (q == Sequence::block)
      back_to_back<false>
          <<<1, kBlockThreads>>>(handle(), t.team, dest, source, my_pe(), n, rcs.as<int>());
    else
      back_to_back<true>
          <<<1, kBlockThreads>>>(handle(), t.team, dest, source, my_pe(), n, rcs.as<int>());
    GPU_LAUNCHED();
    const std::vector<int> got = to_host(rcs.as<int>(), kRounds * kBlockThreads);
    for (std::size_t i = 0; i < got.size(); ++i)
      if (got[i] != ISHMEM_SUCCESS) {
        ADD_FAILURE() << "PE " << my_pe() << ": " << what << ": round " << i / kBlockThreads
                      << " returned " << got[i] << " on thread " << i % kBlockThreads;
        break;
      }
  } else {
    for (int r = 0; r < kRounds; ++r) {
      const std::size_t count = source_count(r, n);
      if (q == Sequence::on_stream) {
        fill_round<<<4, 256, 0, stream>>>(source, my_pe(), r, count);
      } else {
        std::vector<long long> mine(count);
        for (std::size_t i = 0; i < count; ++i) mine[i] = round_value(my_pe(), r, i);
        to_device(source, mine);
      }
      EXPECT_EQ(host_round_call(q, t.team, dest + r * kSlice, source, r, n, stream), ISHMEM_SUCCESS)
          << what << ": round " << r << ": " << ishmemx_last_error();
    }
    GPU_OK(gpuStreamSynchronize(stream));
  }
  // MPI's results of the same rounds.
  const std::vector<long long> got = to_host(dest, kRounds * kSlice);
  for (int r = 0; r < kRounds; ++r) {
    const std::size_t count = source_count(r, n), out = r % 3 == 0 ? count : kSmall * n;
    std::vector<long long> mine(count), want(out);
    for (std::size_t i = 0; i < count; ++i) mine[i] = round_value(my_pe(), r, i);
    if (r % 3 == 0)
      MPI_Allreduce(mine.data(), want.data(), int(count), MPI_LONG_LONG, MPI_SUM, t.comm);
    else if (r % 3 == 1)
      MPI_Allgather(mine.data(), int(kSmall), MPI_LONG_LONG, want.data(), int(kSmall),
                    MPI_LONG_LONG, t.comm);
    else
      MPI_Alltoall(mine.data(), int(kSmall), MPI_LONG_LONG, want.data(), int(kSmall), MPI_LONG_LONG,
                   t.comm);
    static const char *const kinds[] = {"sum_reduce", "fcollect", "alltoall"};
    ishmem_test::expect_same(&got[r * kSlice], want.data(), out,
                             what + ": round " + std::to_string(r) + " (" + kinds[r % 3] + ")");
  }
}

TEST(GpuCollectiveRules, BackToBackWithoutBarriers) {
  SKIP_WITHOUT_GPU();
  TestStream s;
  auto *dest = static_cast<long long *>(ishmem_malloc(kRounds * kSlice * sizeof(long long)));
  auto *source = static_cast<long long *>(ishmem_malloc(kSlice * sizeof(long long)));
  ASSERT_TRUE(dest && source) << ishmemx_last_error();
  {
    TeamShapes shapes;
    shapes.for_each_member([&](const TeamUnderTest &t) {
      if (!is_world(t) && std::string(t.name) != "every PE backwards (stride -1)") return;
      for (Sequence q :
           {Sequence::blocking, Sequence::on_stream, Sequence::block, Sequence::block_handle})
        check_back_to_back(t, dest, source, q, s.stream);
    });
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(source);
  ishmem_free(dest);
}

// ---- Errors. After each, the world team still works, in every form (an error returned at
// once must not come back from a later stream-ordered call).

TeamUnderTest world() {
  return {ISHMEM_TEAM_WORLD, MPI_COMM_WORLD, "world"};
}

void expect_world_works(const SymmetricPair &b, const HeapAccess &gpu, const std::string &after) {
  check_reduce<int>(world(), b, gpu, "int_sum_reduce block after " + after, MPI_SUM,
                    device_reduce<DevInt, kSum, kBlock, true>(), {7});
  check_reduce<int>(world(), b, gpu, "int_sum_reduce blocking after " + after, MPI_SUM,
                    ishmem_test::blocking_run<int>(ishmem_int_sum_reduce), {7});
  check_reduce<int>(world(), b, gpu, "int_sum_reduce on_stream after " + after, MPI_SUM,
                    ishmem_test::on_stream_run<int>(ishmemx_int_sum_reduce_on_stream, gpu), {7});
}

TEST(GpuCollectiveRules, LongDoubleAndComplexAreUnsupportedOnGpuHeaps) {
  SKIP_WITHOUT_GPU();
  const HeapAccess gpu = gpu_heap_access(nullptr);
  SymmetricPair b(4096);
  ASSERT_TRUE(b.source && b.dest) << ishmemx_last_error();
  auto *ld = static_cast<long double *>(b.dest);
  auto *cd = static_cast<double _Complex *>(b.dest);
  auto *cf = static_cast<float _Complex *>(b.dest);
  const ishmem_team_t w = ISHMEM_TEAM_WORLD;
#define EXPECT_UNSUPPORTED(call)          \
  EXPECT_EQ(call, ISHMEM_ERR_UNSUPPORTED) \
      << "PE " << my_pe() << ": " #call ": " << ishmemx_last_error()
  EXPECT_UNSUPPORTED(ishmem_longdouble_sum_reduce(w, ld, static_cast<long double *>(b.source), 4));
  EXPECT_UNSUPPORTED(ishmem_longdouble_prod_reduce(w, ld, static_cast<long double *>(b.source), 1));
  EXPECT_UNSUPPORTED(ishmem_longdouble_max_reduce(w, ld, static_cast<long double *>(b.source), 3));
  EXPECT_UNSUPPORTED(ishmem_longdouble_min_reduce(w, ld, ld, 2));
  EXPECT_UNSUPPORTED(
      ishmem_complexd_sum_reduce(w, cd, static_cast<double _Complex *>(b.source), 4));
  EXPECT_UNSUPPORTED(ishmem_complexd_prod_reduce(w, cd, cd, 4));
  EXPECT_UNSUPPORTED(ishmem_complexf_sum_reduce(w, cf, static_cast<float _Complex *>(b.source), 5));
  EXPECT_UNSUPPORTED(
      ishmem_complexf_prod_reduce(w, cf, static_cast<float _Complex *>(b.source), 1));
#undef EXPECT_UNSUPPORTED
  expect_world_works(b, gpu, "long double and complex calls");
}

TEST(GpuCollectiveRules, BadArgumentsFailOnEveryThread) {
  SKIP_WITHOUT_GPU();
  TestStream s;
  const HeapAccess gpu = gpu_heap_access(s.stream);
  SymmetricPair b(4096);
  ASSERT_TRUE(b.source && b.dest) << ishmemx_last_error();
  auto *d = static_cast<int *>(b.dest);
  auto *src = static_cast<int *>(b.source);
  const int n = n_pes();
  auto expect_invalid = [&](const std::string &what, int rc) {
    EXPECT_EQ(rc, ISHMEM_ERR_INVALID_ARG) << "PE " << my_pe() << ": " << what;
  };
  expect_invalid("int_sum_reduce_block on ISHMEM_TEAM_INVALID",
                 device_reduce<DevInt, kSum, kBlock, false>()(ISHMEM_TEAM_INVALID, d, src, 4));
  expect_invalid("int_sum_reduce_warp on team 999",
                 device_reduce<DevInt, kSum, kWarp, true>()(999, d, src, 4));
  expect_invalid("int_broadcast_block from root " + std::to_string(n),
                 device_moves<DevInt, kBlock, true>()(ISHMEM_TEAM_WORLD, d, src,
                                                      MoveArgs{Move::broadcast, 4, n, 1, 1}));
  expect_world_works(b, gpu, "a bad team and a bad root");
  expect_invalid("int_sum_reduce_grid over ISHMEMX_GRID_MAX_BLOCKS + 1 blocks",
                 device_reduce<DevInt, kSum, kGrid, false>(ISHMEMX_GRID_MAX_BLOCKS + 1)(
                     ISHMEM_TEAM_WORLD, d, src, 4));
  expect_world_works(b, gpu, "a grid too wide");
  // The _on_stream forms return argument errors at once.
  expect_invalid("int_broadcast_on_stream from root " + std::to_string(n),
                 ishmemx_int_broadcast_on_stream(ISHMEM_TEAM_WORLD, d, src, 4, n, s.stream));
  expect_invalid("int_sum_reduce_on_stream on ISHMEM_TEAM_INVALID",
                 ishmemx_int_sum_reduce_on_stream(ISHMEM_TEAM_INVALID, d, src, 4, s.stream));
  GPU_OK(gpuStreamSynchronize(s.stream));
  expect_world_works(b, gpu, "bad _on_stream calls");
}

// ---- Mismatched device calls (last: see the top). Team index 0 calls one thing, the others
// another; every thread of every PE must get ISHMEM_ERR_MISMATCH.

TEST(GpuCollectiveRules, MismatchedDeviceCallsFailOnEveryPe) {
  SKIP_WITHOUT_GPU();
  if (n_pes() < 2) GTEST_SKIP() << "a mismatch needs two PEs";
  const HeapAccess gpu = gpu_heap_access(nullptr);
  SymmetricPair b(32 << 10);  // room for the largest call, should a mismatch go unnoticed
  ASSERT_TRUE(b.source && b.dest) << ishmemx_last_error();
  auto *d = static_cast<int *>(b.dest);
  auto *src = static_cast<int *>(b.source);
  const bool first = my_pe() == 0;
  const ishmem_team_t w = ISHMEM_TEAM_WORLD;
  auto expect_mismatch = [&](const std::string &what, int rc) {
    EXPECT_EQ(rc, ISHMEM_ERR_MISMATCH) << "PE " << my_pe() << ": " << what;
    expect_world_works(b, gpu, what);
  };
  expect_mismatch("int_sum_reduce_block against int_max_reduce_block",
                  first ? device_reduce<DevInt, kSum, kBlock, false>()(w, d, src, 8)
                        : device_reduce<DevInt, kMax, kBlock, false>()(w, d, src, 8));
  expect_mismatch("int_sum_reduce_block of 9 against 8",
                  device_reduce<DevInt, kSum, kBlock, true>()(w, d, src, first ? 9 : 8));
  expect_mismatch(
      "int_fcollect_block against int_sum_reduce_block",
      first ? device_moves<DevInt, kBlock, false>()(w, d, src, MoveArgs{Move::fcollect, 8, 0, 1, 1})
            : device_reduce<DevInt, kSum, kBlock, false>()(w, d, src, 8));
  expect_mismatch("int_broadcast_block from 0 against from 1",
                  device_moves<DevInt, kBlock, true>()(
                      w, d, src, MoveArgs{Move::broadcast, 8, first ? 0 : 1, 1, 1}));
  expect_mismatch("int_sum_reduce_warp against int_min_reduce_warp",
                  first ? device_reduce<DevInt, kSum, kWarp, false>()(w, d, src, 8)
                        : device_reduce<DevInt, kMin, kWarp, false>()(w, d, src, 8));
  expect_mismatch(
      "double_sum_reduce_grid of 2049 against 2048",
      device_reduce<DevDouble, kSum, kGrid, true>()(
          w, reinterpret_cast<double *>(d), reinterpret_cast<double *>(src), first ? 2049 : 2048));
}

}  // namespace
