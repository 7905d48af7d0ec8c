// The collectives' device forms for the GPU tests: kernels in which every thread of one warp,
// one block of 1024 threads, or a grid of several blocks calls one collective, in either
// form (handle or no argument), wrapped as the ReduceRun and MoveRun of
// tests/mpi/collectives_forms.h, whose checks compare the results with MPI's. Every thread's
// return code is read back: they must all be the same.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "../mpi/collectives_forms.h"
#include "gpu_test_util.h"

namespace gpu_test {

using ishmem_test::HeapAccess;
using ishmem_test::Move;
using ishmem_test::MoveArgs;
using ishmem_test::MoveRun;
using ishmem_test::ReduceRun;
using ishmem_test::SymmetricPair;
using ishmem_test::TeamShapes;
using ishmem_test::TeamUnderTest;

// ISHMEM_DEVICE_ONESHOT_MAX's default: contributions up to it are staged (one meeting), larger
// ones read directly; the tests' sizes fall on both sides of it.
constexpr std::size_t kOneShot = 64 << 10;

// Who calls: one thread per PE, every thread of one warp, of one block, or of a grid.
enum Group { kThread, kWarp, kBlock, kGrid };
constexpr unsigned kBlockThreads = 1024, kGridBlocks = 8, kGridThreads = 512;

inline const char *group_name(Group g) {
  static const char *const names[] = {"thread", "warp", "block", "grid"};
  return names[g];
}

inline int warp_size() {
  static const int size = [] {
    int device = 0;
    gpuDeviceProp prop{};
    GPU_OK(gpuGetDevice(&device));
    GPU_OK(gpuGetDeviceProperties(&prop, device));
    return prop.warpSize;
  }();
  return size;
}

// GPU heaps: copies through the GPU, the test's stream.
inline void gpu_heap_write(void *sym, const void *host, std::size_t bytes) {
  if (bytes) GPU_OK(gpuMemcpy(sym, host, bytes, gpuMemcpyDefault));
  GPU_OK(gpuDeviceSynchronize());  // a pageable copy may return before it lands
}
inline void gpu_heap_read(void *host, const void *sym, std::size_t bytes) {
  if (bytes) GPU_OK(gpuMemcpy(host, sym, bytes, gpuMemcpyDefault));
}
inline void gpu_stream_sync(void *stream) {
  GPU_OK(gpuStreamSynchronize(static_cast<gpuStream_t>(stream)));
}
inline HeapAccess gpu_heap_access(gpuStream_t stream) {
  return {gpu_heap_write, gpu_heap_read, gpu_stream_sync, stream};
}

// A stream of the test's own, destroyed at scope end.
struct TestStream {
  TestStream() { GPU_OK(gpuStreamCreateWithFlags(&stream, gpuStreamNonBlocking)); }
  ~TestStream() { (void)gpuStreamDestroy(stream); }
  gpuStream_t stream{};
};

// Launches `launch(blocks, threads, rcs)` as group g (rcs: one int per thread, where each
// thread stores its return code) and returns thread 0's code, recording a failure when the
// kernel failed or any thread returned another code. `kernel` names the kernel in the message
// of a launch that failed (a kernel over 64 registers per thread cannot run 1024 threads:
// the device calls must fit, without launch bounds).
template <class Launch>
int run_group(Group g, unsigned blocks, const std::string &what, const void *kernel,
              Launch &&launch) {
  const unsigned threads = g == kThread  ? 1
                           : g == kWarp  ? unsigned(warp_size())
                           : g == kBlock ? kBlockThreads
                                         : kGridThreads;
  const std::size_t total = std::size_t(blocks) * threads;
  DeviceBuffer rcs(total * sizeof(int));
  GPU_OK(gpuMemset(rcs.ptr, 0x7f, total * sizeof(int)));  // a thread that never returned
  launch(blocks, threads, rcs.as<int>());
  const gpuError_t launched = gpuGetLastError();
  if (launched != gpuSuccess) {
    gpuFuncAttributes attr{};
    (void)gpuFuncGetAttributes(&attr, kernel);
    ADD_FAILURE() << "PE " << my_pe() << ": " << what << ": " << blocks << " x " << threads
                  << " threads did not launch (" << attr.numRegs
                  << " registers per thread): " << gpuGetErrorString(launched);
    return ISHMEM_ERR_INTERNAL;
  }
  if (!GPU_OK(gpuDeviceSynchronize())) return ISHMEM_ERR_INTERNAL;
  const std::vector<int> got = to_host(rcs.as<int>(), total);
  std::size_t differ = 0;
  for (std::size_t i = 1; i < total; ++i)
    if (got[i] != got[0] && ++differ <= 3)
      ADD_FAILURE() << "PE " << my_pe() << ": " << what << ": thread " << i << " returned "
                    << got[i] << ", thread 0 " << got[0];
  EXPECT_EQ(differ, 0u) << what << ": threads of one " << group_name(g)
                        << " returned different codes";
  return got[0];
}
inline unsigned blocks_of(Group g) {
  return g == kGrid ? kGridBlocks : 1;
}

// The reduction operations, their MPI twins and names.
enum Op { kAnd, kOr, kXor, kMax, kMin, kSum, kProd };
constexpr unsigned kOrderedOps = 1u << kMax | 1u << kMin | 1u << kSum | 1u << kProd;
constexpr unsigned kAllOps = kOrderedOps | 1u << kAnd | 1u << kOr | 1u << kXor;
inline MPI_Op mpi_op(Op o) {
  const MPI_Op ops[] = {MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD};
  return ops[o];
}
inline const char *op_name(Op o) {
  static const char *const names[] = {"and", "or", "xor", "max", "min", "sum", "prod"};
  return names[o];
}

// ishmemx_<name>_<group>(...) in the form HANDLE, for group G (warp, block or grid; NO_GRID:
// a call with no grid form).
#define ISHMEM_TEST_CALL(G_NAME, name, ...)                 \
  return HANDLE ? ishmemx_##name##_##G_NAME(h, __VA_ARGS__) \
                : ishmemx_##name##_##G_NAME(__VA_ARGS__);
#define ISHMEM_TEST_GROUP_NO_GRID(name, ...)   \
  if constexpr (G == kWarp) {                  \
    ISHMEM_TEST_CALL(warp, name, __VA_ARGS__)  \
  } else if constexpr (G == kBlock) {          \
    ISHMEM_TEST_CALL(block, name, __VA_ARGS__) \
  }
#define ISHMEM_TEST_GROUP(name, ...)           \
  ISHMEM_TEST_GROUP_NO_GRID(name, __VA_ARGS__) \
  else if constexpr (G == kGrid) {             \
    ISHMEM_TEST_CALL(grid, name, __VA_ARGS__)  \
  }
#define ISHMEM_TEST_REDUCE_OP(N, OP, OPE)               \
  if constexpr (O == OPE) {                             \
    ISHMEM_TEST_GROUP(N##_##OP##_reduce, team, d, s, n) \
  }
#define ISHMEM_TEST_ORDERED_OPS(N)    \
  ISHMEM_TEST_REDUCE_OP(N, max, kMax) \
  ISHMEM_TEST_REDUCE_OP(N, min, kMin) \
  ISHMEM_TEST_REDUCE_OP(N, sum, kSum) \
  ISHMEM_TEST_REDUCE_OP(N, prod, kProd)
#define ISHMEM_TEST_ALL_OPS(N)        \
  ISHMEM_TEST_REDUCE_OP(N, and, kAnd) \
  ISHMEM_TEST_REDUCE_OP(N, or, kOr)   \
  ISHMEM_TEST_REDUCE_OP(N, xor, kXor) \
  ISHMEM_TEST_ORDERED_OPS(N)
// The data movers, named B (broadcast), C (collect), F, A, AS (alltoall, alltoalls): one
// collective K per kernel, as a kernel of one call must fit in 64 registers.
#define ISHMEM_TEST_MOVES(B, C, F, A, AS)                     \
  if constexpr (K == Move::broadcast) {                       \
    ISHMEM_TEST_GROUP(B, team, d, s, m.nelems, m.root)        \
  } else if constexpr (K == Move::collect) {                  \
    ISHMEM_TEST_GROUP_NO_GRID(C, team, d, s, m.nelems)        \
  } else if constexpr (K == Move::fcollect) {                 \
    ISHMEM_TEST_GROUP(F, team, d, s, m.nelems)                \
  } else if constexpr (K == Move::alltoall) {                 \
    ISHMEM_TEST_GROUP(A, team, d, s, m.nelems)                \
  } else {                                                    \
    ISHMEM_TEST_GROUP(AS, team, d, s, m.dst, m.sst, m.nelems) \
  }                                                           \
  return ISHMEM_ERR_INVALID_ARG;

// The device calls of one type: Class::reduce<O, G, HANDLE> for the operations in Class::ops,
// Class::move<K, G, HANDLE>.
#define ISHMEM_TEST_DEVICE_TYPE(Class, T, N, OPS, OP_CALLS, B, C, F, A, AS)                  \
  struct Class {                                                                             \
    using type = T;                                                                          \
    static constexpr const char *name = #N;                                                  \
    static constexpr unsigned ops = OPS;                                                     \
    template <Op O, Group G, bool HANDLE>                                                    \
    static __device__ int reduce(const ishmemx_device_handle_t &h, ishmem_team_t team, T *d, \
                                 const T *s, size_t n) {                                     \
      OP_CALLS                                                                               \
      return ISHMEM_ERR_INVALID_ARG;                                                         \
    }                                                                                        \
    template <Move K, Group G, bool HANDLE>                                                  \
    static __device__ int move(const ishmemx_device_handle_t &h, ishmem_team_t team, T *d,   \
                               const T *s, const MoveArgs &m) {                              \
      ISHMEM_TEST_MOVES(B, C, F, A, AS)                                                      \
    }                                                                                        \
  };
#define ISHMEM_TEST_TYPED(Class, T, N, OPS, OP_CALLS)                                           \
  ISHMEM_TEST_DEVICE_TYPE(Class, T, N, OPS, OP_CALLS, N##_broadcast, N##_collect, N##_fcollect, \
                          N##_alltoall, N##_alltoalls)

// A representative set of types (sizes 1, 4 and 8; signed, unsigned, floating), and the _mem
// forms (no reductions).
ISHMEM_TEST_TYPED(DevInt, int, int, kOrderedOps, ISHMEM_TEST_ORDERED_OPS(int))
ISHMEM_TEST_TYPED(DevLongLong, long long, longlong, kOrderedOps, ISHMEM_TEST_ORDERED_OPS(longlong))
ISHMEM_TEST_TYPED(DevUint8, uint8_t, uint8, kAllOps, ISHMEM_TEST_ALL_OPS(uint8))
ISHMEM_TEST_TYPED(DevUint64, uint64_t, uint64, kAllOps, ISHMEM_TEST_ALL_OPS(uint64))
ISHMEM_TEST_TYPED(DevFloat, float, float, kOrderedOps, ISHMEM_TEST_ORDERED_OPS(float))
ISHMEM_TEST_TYPED(DevDouble, double, double, kOrderedOps, ISHMEM_TEST_ORDERED_OPS(double))
ISHMEM_TEST_DEVICE_TYPE(DevMem, unsigned char, mem, 0u, , broadcastmem, collectmem, fcollectmem,
                        alltoallmem, alltoallsmem)

// Calls f(Tag<D>()) for each class D of the reduction types above.
template <class D>
struct Tag {
  using type = D;
};
template <class F>
void for_each_reduction_type(F &&f) {
  f(Tag<DevInt>());
  f(Tag<DevLongLong>());
  f(Tag<DevUint8>());
  f(Tag<DevUint64>());
  f(Tag<DevFloat>());
  f(Tag<DevDouble>());
}

template <class D, Op O, Group G, bool HANDLE>
__global__ void reduce_kernel(ishmemx_device_handle_t h, ishmem_team_t team, typename D::type *d,
                              const typename D::type *s, size_t n, int *rcs) {
  const int rc = D::template reduce<O, G, HANDLE>(h, team, d, s, n);
  rcs[blockIdx.x * blockDim.x + threadIdx.x] = rc;
}

template <class D, Move K, Group G, bool HANDLE>
__global__ void move_kernel(ishmemx_device_handle_t h, ishmem_team_t team, typename D::type *d,
                            const typename D::type *s, MoveArgs m, int *rcs) {
  const int rc = D::template move<K, G, HANDLE>(h, team, d, s, m);
  rcs[blockIdx.x * blockDim.x + threadIdx.x] = rc;
}

inline std::string form_of(Group g, bool handle) {
  return std::string(group_name(g)) + (handle ? " (handle)" : "");
}

// D's reduction O by group G of `blocks` blocks, as a ReduceRun.
template <class D, Op O, Group G, bool HANDLE>
ReduceRun<typename D::type> device_reduce(unsigned blocks = blocks_of(G)) {
  using T = typename D::type;
  return [blocks](ishmem_team_t team, T *d, const T *s, std::size_t n) {
    const std::string what = std::string(D::name) + "_" + op_name(O) + "_reduce " +
                             form_of(G, HANDLE) + " of " + std::to_string(n);
    const void *kernel = reinterpret_cast<const void *>(reduce_kernel<D, O, G, HANDLE>);
    return run_group(G, blocks, what, kernel, [&](unsigned b, unsigned t, int *rcs) {
      reduce_kernel<D, O, G, HANDLE><<<b, t>>>(handle(), team, d, s, n, rcs);
    });
  };
}

// Launches the kernel of m.kind, among K and KS.
template <class D, Group G, bool HANDLE, Move K, Move... KS>
int run_move(unsigned blocks, const std::string &what, ishmem_team_t team, typename D::type *d,
             const typename D::type *s, const MoveArgs &m) {
  if constexpr (sizeof...(KS) > 0)
    if (m.kind != K) return run_move<D, G, HANDLE, KS...>(blocks, what, team, d, s, m);
  const void *kernel = reinterpret_cast<const void *>(move_kernel<D, K, G, HANDLE>);
  return run_group(G, blocks, what, kernel, [&](unsigned b, unsigned t, int *rcs) {
    move_kernel<D, K, G, HANDLE><<<b, t>>>(handle(), team, d, s, m, rcs);
  });
}

// D's data movers by group G, as a MoveRun.
template <class D, Group G, bool HANDLE>
MoveRun<typename D::type> device_moves(unsigned blocks = blocks_of(G)) {
  using T = typename D::type;
  return [blocks](ishmem_team_t team, T *d, const T *s, const MoveArgs &m) {
    const std::string what = std::string(D::name) + " " + ishmem_test::move_name(m.kind) + " " +
                             form_of(G, HANDLE) + " of " + std::to_string(m.nelems);
    return run_move<D, G, HANDLE, Move::broadcast, Move::collect, Move::fcollect, Move::alltoall,
                    Move::alltoalls>(blocks, what, team, d, s, m);
  };
}

// The shapes of TeamShapes these tests use: world, strided with a positive and a negative
// stride, a single PE, the rows of a 2d split (SHARED is WORLD on the one node; the 2d
// columns are strided teams again).
inline bool tested_shape(const TeamUnderTest &t) {
  const std::string name = t.name;
  return name != "shared" && name != "2d columns";
}
inline bool is_world(const TeamUnderTest &t) {
  return t.team == ISHMEM_TEAM_WORLD;
}

constexpr std::size_t kLarge = (100 << 10) + 3;  // bytes: about 100 KiB, odd
constexpr unsigned kAllMoves = 0x1f;             // every Move

// Bytes of the buffers for every check of the collective tests, allocated by every PE.
inline std::size_t pair_bytes() {
  return std::max(ishmem_test::move_bytes(1, kLarge), kLarge + 64);
}

inline std::vector<Move> moves_of(unsigned mask) {
  std::vector<Move> moves;
  for (int i = 0; i < 5; ++i)
    if (mask >> i & 1) moves.push_back(Move(i));
  return moves;
}

// A stream, access to GPU heaps through it, and buffers for every check of a test; made once
// the test knows a GPU is there.
class GpuCollectives : public ::testing::Test {
 protected:
  void SetUp() override {
    SKIP_WITHOUT_GPU();
    stream_ = std::make_unique<TestStream>();
    gpu = gpu_heap_access(stream_->stream);
    pair_ = std::make_unique<SymmetricPair>(pair_bytes());
    ASSERT_TRUE(pair_->source && pair_->dest) << ishmemx_last_error();
  }
  const SymmetricPair &b() const { return *pair_; }
  gpuStream_t stream() const { return stream_->stream; }
  HeapAccess gpu{};

 private:
  std::unique_ptr<TestStream> stream_;
  std::unique_ptr<SymmetricPair> pair_;
};

// Runs `check(t)` on every tested shape this PE is a member of.
template <class Check>
void on_every_shape(Check &&check) {
  TeamShapes shapes;
  shapes.for_each_member([&](const TeamUnderTest &t) {
    if (tested_shape(t)) check(t);
  });
}

}  // namespace gpu_test
