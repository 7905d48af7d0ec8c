// The NVSHMEM 3 peer of ishmem-gpu-bench-coll (benchmarks/gpu/gpu_collectives.cu): the same
// loops (benchmarks/gpu/gpu_coll.h), sizes, timing, checks and rows, over NVSHMEM's team
// collectives on NVSHMEM_TEAM_WORLD:
//   nvshmemx_float_sum_reduce_on_stream; nvshmemx_float_sum_reduce_block in one running kernel
//   by a block of 256 threads, and of 1024 (its reduce kernel has not launched at that size:
//   the row then says "no-launch"); nvshmemx_alltoallmem_on_stream,
//   nvshmemx_broadcastmem_on_stream, nvshmemx_fcollectmem_on_stream. No grid-wide reduce
//   (NVSHMEM has none); the peer-read rows are the same kernels through nvshmem_ptr.
// Bootstrapped as peer_bench.cu's NVSHMEM build (x2_nvshmem.h: a unique id over MPI); built
// and run by scripts/gpu-test-x2:
//   nvcc -std=c++17 -O3 -rdc=true -arch=sm_90 -I$NVSHMEM/include $(MPI includes) -c
//     peer_collectives.cu; linked with -lnvshmem_host -lnvshmem_device and MPI
//   usage: mpirun -np 2 nvshmem-coll-bench [--csv FILE] [--max BYTES] [--quick]
//          [--only reduce,block,grid,alltoall,broadcast,fcollect]
#include "x2_nvshmem.h"
#include "../gpu/gpu_coll.h"

namespace {

// The call's status (0: success), checked: NVSHMEM's collectives return one.
void ok(int rc, const char *call) {
  if (rc != 0) gpu_bench::die(call, ("returned " + std::to_string(rc)).c_str(), __FILE__, __LINE__);
}

// gpu_coll.h's library: x2_nvshmem.h's host calls, and NVSHMEM's team collectives.
struct NvshmemColl : x2::Lib {
  static constexpr bool kGrid = false;
  static void reduce_on_stream(float *d, const float *s, size_t n, cudaStream_t st) {
    ok(nvshmemx_float_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, d, s, n, st),
       "nvshmemx_float_sum_reduce_on_stream");
  }
  static void alltoall_on_stream(void *d, const void *s, size_t n, cudaStream_t st) {
    ok(nvshmemx_alltoallmem_on_stream(NVSHMEM_TEAM_WORLD, d, s, n, st),
       "nvshmemx_alltoallmem_on_stream");
  }
  static void broadcast_on_stream(void *d, const void *s, size_t n, int root, cudaStream_t st) {
    ok(nvshmemx_broadcastmem_on_stream(NVSHMEM_TEAM_WORLD, d, s, n, root, st),
       "nvshmemx_broadcastmem_on_stream");
  }
  static void fcollect_on_stream(void *d, const void *s, size_t n, cudaStream_t st) {
    ok(nvshmemx_fcollectmem_on_stream(NVSHMEM_TEAM_WORLD, d, s, n, st),
       "nvshmemx_fcollectmem_on_stream");
  }
  static BENCH_DEVICE int reduce_block(float *d, const float *s, size_t n) {
    return nvshmemx_float_sum_reduce_block(NVSHMEM_TEAM_WORLD, d, s, n);
  }
  static BENCH_DEVICE void *ptr(const void *sym, int pe) { return nvshmem_ptr(sym, pe); }
};

}  // namespace

int main(int argc, char **argv) {
  NvshmemColl::start(argc, argv);
  if (NvshmemColl::n_pes() < 2) {
    if (NvshmemColl::my_pe() == 0) printf("# nvshmem-coll-bench needs 2 PEs\n");
    NvshmemColl::finish();
    return 1;
  }
  gpu_coll::run_all<NvshmemColl>(argc, argv, {256, 1024}, false);
  NvshmemColl::finish();
  return 0;
}
