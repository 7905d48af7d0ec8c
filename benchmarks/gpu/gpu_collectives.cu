// GPU collectives on the world team, by size (gpu_coll.h has the loops, shared with the
// NVSHMEM peer benchmarks/nvshmem/peer_collectives.cu):
//   - float sum-reduce on a stream (ishmemx_float_sum_reduce_on_stream), 8 B to 256 MiB;
//   - the same inside one running kernel: ishmemx_float_sum_reduce_block by one block of 1024
//     (the target) and of 256 threads (NVSHMEM's block size), 8 B to 1 MiB, and
//     ishmemx_float_sum_reduce_grid by 8 and 16 blocks of 1024, 64 KiB to 16 MiB, beside a
//     kernel of the same grids that reads the peer's copy once (through ishmem_ptr);
//   - alltoallmem (1 KiB to 64 MiB per PE), broadcastmem and fcollectmem on a stream.
// In-kernel figures are per call of a kernel that makes many calls: no launch in them.
//   usage: mpirun -np 2 ishmem-gpu-bench-coll [--csv FILE] [--max BYTES] [--quick]
//          [--only reduce,block,grid,alltoall,broadcast,fcollect]
#include "gpu_bench.h"
#include "gpu_coll.h"

namespace {

// gpu_coll.h's library: ishmem's on-stream calls and the no-argument device calls.
struct IshmemColl {
  static constexpr const char *kImpl = "ishmem";
  static constexpr bool kGrid = true;
  static int my_pe() { return ishmem_my_pe(); }
  static int n_pes() { return ishmem_n_pes(); }
  static void *malloc_sym(std::size_t n) { return ishmem_malloc(n); }
  static void free_sym(void *p) { BENCH_ISHMEM(ishmem_free(p)); }
  static void barrier_all() { BENCH_ISHMEM(ishmem_barrier_all()); }
  static void reduce_on_stream(float *d, const float *s, std::size_t n, gpuStream_t st) {
    BENCH_ISHMEM(ishmemx_float_sum_reduce_on_stream(ISHMEM_TEAM_WORLD, d, s, n, st));
  }
  static void alltoall_on_stream(void *d, const void *s, std::size_t n, gpuStream_t st) {
    BENCH_ISHMEM(ishmemx_alltoallmem_on_stream(ISHMEM_TEAM_WORLD, d, s, n, st));
  }
  static void broadcast_on_stream(void *d, const void *s, std::size_t n, int root, gpuStream_t st) {
    BENCH_ISHMEM(ishmemx_broadcastmem_on_stream(ISHMEM_TEAM_WORLD, d, s, n, root, st));
  }
  static void fcollect_on_stream(void *d, const void *s, std::size_t n, gpuStream_t st) {
    BENCH_ISHMEM(ishmemx_fcollectmem_on_stream(ISHMEM_TEAM_WORLD, d, s, n, st));
  }
  static BENCH_DEVICE int reduce_block(float *d, const float *s, std::size_t n) {
    return ishmemx_float_sum_reduce_block(ISHMEM_TEAM_WORLD, d, s, n);
  }
  static BENCH_DEVICE int reduce_grid(float *d, const float *s, std::size_t n) {
    return ishmemx_float_sum_reduce_grid(ISHMEM_TEAM_WORLD, d, s, n);
  }
  static BENCH_DEVICE void *ptr(const void *sym, int pe) { return ishmem_ptr(sym, pe); }
};

}  // namespace

int main(int argc, char **argv) {
  if (!gpu_bench::start("ishmem-gpu-bench-coll")) return 0;
  gpu_coll::run_all<IshmemColl>(argc, argv, {1024, 256}, true);
  BENCH_ISHMEM(ishmem_finalize());
  return 0;
}
