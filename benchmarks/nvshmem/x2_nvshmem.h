// peer_bench.cu's NVSHMEM 3 layer (-DUSE_NVSHMEM): the host calls, bootstrapped by a unique
// id broadcast over MPI, and the device calls that gpu_rma.h's kernels and peer_bench.cu's
// own are written over. One call of the library each; x2_ishmem.h is its ishmem twin.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>

#include "../gpu/gpu_rma.h"
#define X2_HAS_SIGNAL 1
#define X2_HAS_SIGNAL_BLOCK 1
#define X2_HAS_DEVICE_BARRIER 1
namespace x2 {
struct Lib {
  static constexpr const char *kImpl = "nvshmem";
  static int my_pe() { return nvshmem_my_pe(); }
  static int n_pes() { return nvshmem_n_pes(); }
  static void *malloc_sym(size_t n) { return nvshmem_malloc(n); }
  static void free_sym(void *p) { nvshmem_free(p); }
  static void barrier_all() { nvshmem_barrier_all(); }
  static void barrier_all_on_stream(cudaStream_t s) { nvshmemx_barrier_all_on_stream(s); }
  static void putmem_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
    nvshmemx_putmem_on_stream(d, s, n, pe, st);
  }
  static char *peer_address(void *sym, int pe) { return static_cast<char *>(nvshmem_ptr(sym, pe)); }
  static const char *last_error() { return "see NVSHMEM's messages above"; }
  static void start(int &argc, char **&argv);
  static void finish() {
    nvshmem_finalize();
    MPI_Finalize();
  }
  // Device calls: gpu_rma.h's, then this file's kernels'.
  static BENCH_DEVICE void put(void *d, const void *s, size_t n, int pe) {
    nvshmem_putmem(d, s, n, pe);
  }
  static BENCH_DEVICE void put_warp(void *d, const void *s, size_t n, int pe) {
    nvshmemx_putmem_warp(d, s, n, pe);
  }
  static BENCH_DEVICE void put_block(void *d, const void *s, size_t n, int pe) {
    nvshmemx_putmem_block(d, s, n, pe);
  }
  static BENCH_DEVICE void get(void *d, const void *s, size_t n, int pe) {
    nvshmem_getmem(d, s, n, pe);
  }
  static BENCH_DEVICE void get_warp(void *d, const void *s, size_t n, int pe) {
    nvshmemx_getmem_warp(d, s, n, pe);
  }
  static BENCH_DEVICE void get_block(void *d, const void *s, size_t n, int pe) {
    nvshmemx_getmem_block(d, s, n, pe);
  }
  static BENCH_DEVICE void int_p(int *d, int v, int pe) { nvshmem_int_p(d, v, pe); }
  static BENCH_DEVICE void quiet() { nvshmem_quiet(); }
  static BENCH_DEVICE void put_signal_nbi(void *d, const void *s, size_t n, uint64_t *sig,
                                          uint64_t v, int pe) {
    nvshmem_putmem_signal_nbi(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe);
  }
  static BENCH_DEVICE void put_signal_nbi_block(void *d, const void *s, size_t n, uint64_t *sig,
                                                uint64_t v, int pe) {
    nvshmemx_putmem_signal_nbi_block(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe);
  }
  static BENCH_DEVICE void signal_wait_ge(uint64_t *sig, uint64_t v) {
    nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, v);
  }
  static BENCH_DEVICE void device_barrier_all() { nvshmem_barrier_all(); }
};

inline void Lib::start(int &argc, char **&argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
  int rank = 0, size = 1, local = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
    fprintf(stderr, "nvshmem-x2-bench: no CUDA device\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  // One PE per GPU, by node-local rank (as ishmem picks them).
  if (cudaSetDevice(local % count) != cudaSuccess) MPI_Abort(MPI_COMM_WORLD, 1);
  nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (rank == 0 && nvshmemx_get_uniqueid(&id) != 0) {
    fprintf(stderr, "nvshmem-x2-bench: nvshmemx_get_uniqueid failed\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  if (nvshmemx_set_attr_uniqueid_args(rank, size, &id, &attr) != 0 ||
      nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr) != 0) {
    fprintf(stderr, "nvshmem-x2-bench: nvshmemx_init_attr (unique id) failed on rank %d\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  gpu_bench::job = {kImpl, nvshmem_my_pe(), nvshmem_global_exit};
  if (nvshmem_my_pe() == 0) {
#ifdef NVSHMEM_VENDOR_MAJOR_VERSION
    printf("# NVSHMEM %d.%d.%d, %d PEs, bootstrap by unique id over MPI\n",
           NVSHMEM_VENDOR_MAJOR_VERSION, NVSHMEM_VENDOR_MINOR_VERSION, NVSHMEM_VENDOR_PATCH_VERSION,
           nvshmem_n_pes());
#else
    printf("# NVSHMEM, %d PEs, bootstrap by unique id over MPI\n", nvshmem_n_pes());
#endif
  }
}
}  // namespace x2
