// One source, two libraries: the device and stream benchmarks of benchmarks/gpu, written
// once over a thin layer and built for ishmem (ishmem-x2-bench, CMakeLists.txt beside this)
// and for NVSHMEM 3 (nvshmem-x2-bench, -DUSE_NVSHMEM, compiled by scripts/gpu-test-x2 with
// nvcc), so that both run exactly the same loops: the same kernels, grids, block sizes and
// sizes, timed the same way (events after a warm-up, median of timed batches) on data that
// is never zeros. Meant for two PEs on two GPUs (kind nvidia-h200-x2); PE 0 reports.
//
//   usage: mpirun -np 2 <program> [--csv FILE] [--max BYTES] [--only
//   put,get,p,signal,stream,barrier]
//
// Benchmarks (CSV rows: impl,bench,op,what,blocks,threads,bytes,usec,gbps):
//   put, get   device putmem/getmem by thread, warp and block scope, 8 B to 1 GiB, with the
//              grid configurations of ishmem-gpu-bench-put; the copy engine and a 16-byte
//              store kernel between the same buffers as the limits
//   p          one thread's p issue rate and p + quiet; p ping-pong between the two PEs'
//              kernels (one way = round trip / 2)
//   signal     put-with-signal ping-pong (thread and block scope); ishmem only where its
//              device API has put-with-signal (ISHMEM_X2_SIGNAL / ISHMEM_X2_SIGNAL_BLOCK)
//   stream     putmem_on_stream against cudaMemcpyAsync to the peer on the same stream
//   barrier    host barrier_all, barrier_all_on_stream, and a device barrier_all kernel
//              (ishmem only where its device API has one: ISHMEM_X2_DEVICE_BARRIER)
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#ifdef USE_NVSHMEM
// ---- NVSHMEM 3, bootstrapped by a unique id broadcast over MPI ---------------------------
#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>
#define X2_IMPL "nvshmem"
#define X2_HAS_SIGNAL 1
#define X2_HAS_SIGNAL_BLOCK 1
#define X2_HAS_DEVICE_BARRIER 1
namespace x2 {
inline void global_exit(int rc) {
  nvshmem_global_exit(rc);
}
inline int my_pe() {
  return nvshmem_my_pe();
}
inline int n_pes() {
  return nvshmem_n_pes();
}
inline void *malloc_sym(size_t n) {
  return nvshmem_malloc(n);
}
inline void free_sym(void *p) {
  nvshmem_free(p);
}
inline void barrier_all() {
  nvshmem_barrier_all();
}
inline void barrier_all_on_stream(cudaStream_t s) {
  nvshmemx_barrier_all_on_stream(s);
}
inline void putmem_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
  nvshmemx_putmem_on_stream(d, s, n, pe, st);
}
inline char *peer_address(void *sym, int pe) {
  return static_cast<char *>(nvshmem_ptr(sym, pe));
}
inline const char *last_error() {
  return "see NVSHMEM's messages above";
}
bool start(int &argc, char **&argv) {
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
  if (nvshmem_my_pe() == 0) {
#ifdef NVSHMEM_VENDOR_MAJOR_VERSION
    printf("# NVSHMEM %d.%d.%d, %d PEs, bootstrap by unique id over MPI\n",
           NVSHMEM_VENDOR_MAJOR_VERSION, NVSHMEM_VENDOR_MINOR_VERSION, NVSHMEM_VENDOR_PATCH_VERSION,
           nvshmem_n_pes());
#else
    printf("# NVSHMEM, %d PEs, bootstrap by unique id over MPI\n", nvshmem_n_pes());
#endif
  }
  return true;
}
inline void finish() {
  nvshmem_finalize();
  MPI_Finalize();
}
}  // namespace x2
// Device calls.
#define X2_PUT_THREAD(d, s, n, pe) nvshmem_putmem(d, s, n, pe)
#define X2_PUT_WARP(d, s, n, pe) nvshmemx_putmem_warp(d, s, n, pe)
#define X2_PUT_BLOCK(d, s, n, pe) nvshmemx_putmem_block(d, s, n, pe)
#define X2_GET_THREAD(d, s, n, pe) nvshmem_getmem(d, s, n, pe)
#define X2_GET_WARP(d, s, n, pe) nvshmemx_getmem_warp(d, s, n, pe)
#define X2_GET_BLOCK(d, s, n, pe) nvshmemx_getmem_block(d, s, n, pe)
#define X2_INT_P(d, v, pe) nvshmem_int_p(d, v, pe)
#define X2_QUIET() nvshmem_quiet()
#define X2_PUT_SIGNAL_NBI(d, s, n, sig, v, pe) \
  nvshmem_putmem_signal_nbi(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe)
#define X2_PUT_SIGNAL_NBI_BLOCK(d, s, n, sig, v, pe) \
  nvshmemx_putmem_signal_nbi_block(d, s, n, sig, v, NVSHMEM_SIGNAL_SET, pe)
#define X2_SIGNAL_WAIT_GE(sig, v) nvshmem_signal_wait_until(sig, NVSHMEM_CMP_GE, v)
#define X2_DEVICE_BARRIER_ALL() nvshmem_barrier_all()

#else
// ---- ishmem, no-argument device form (relocatable device code, ishmem::device) ----------
#include "ishmem.h"
#include "ishmem/device.h"
#define X2_IMPL "ishmem"
#if defined(ISHMEM_X2_SIGNAL)
#define X2_HAS_SIGNAL 1
#endif
#if defined(ISHMEM_X2_SIGNAL_BLOCK)
#define X2_HAS_SIGNAL_BLOCK 1
#endif
#if defined(ISHMEM_X2_DEVICE_BARRIER)
#define X2_HAS_DEVICE_BARRIER 1
#endif
namespace x2 {
inline void global_exit(int rc) {
  ishmem_global_exit(rc);
}
inline int my_pe() {
  return ishmem_my_pe();
}
inline int n_pes() {
  return ishmem_n_pes();
}
inline void *malloc_sym(size_t n) {
  return ishmem_malloc(n);
}
inline void free_sym(void *p) {
  ishmem_free(p);
}
inline const char *last_error() {
  return ishmemx_last_error();
}
void check(int rc, const char *what) {
  if (rc != ISHMEM_SUCCESS) {
    fprintf(stderr, "[pe %d] %s: %s\n", ishmem_my_pe(), what, ishmemx_last_error());
    ishmem_global_exit(1);
  }
}
inline void barrier_all() {
  check(ishmem_barrier_all(), "ishmem_barrier_all");
}
inline void barrier_all_on_stream(cudaStream_t s) {
  check(ishmemx_barrier_all_on_stream(s), "ishmemx_barrier_all_on_stream");
}
inline void putmem_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
  check(ishmemx_putmem_on_stream(d, s, n, pe, st), "ishmemx_putmem_on_stream");
}
// The peer's copy of `sym`, from the device handle (the host's ishmem_ptr is NULL on GPU heaps).
inline char *peer_address(void *sym, int pe) {
  ishmemx_device_handle_t h{};
  check(ishmemx_get_device_handle(&h), "ishmemx_get_device_handle");
  int slot = pe - h.first_local_pe;
  return static_cast<char *>(sym) +
         static_cast<std::ptrdiff_t>(slot - h.my_slot) * static_cast<std::ptrdiff_t>(h.stride);
}
bool start(int &, char **&) {
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "ishmem-x2-bench: ishmem_init failed: %s\n", ishmemx_last_error());
    exit(1);
  }
  std::string backend = ishmemx_backend_name();
  if (backend != "cuda") {
    if (ishmem_my_pe() == 0)
      printf("# ishmem-x2-bench: backend is %s, not cuda: nothing to measure\n", backend.c_str());
    ishmem_finalize();
    exit(1);
  }
  if (ishmem_my_pe() == 0)
    printf("# ishmem %s, %d PEs, backend %s\n", ISHMEMX_VERSION_STRING, ishmem_n_pes(),
           backend.c_str());
  return true;
}
inline void finish() {
  check(ishmem_finalize(), "ishmem_finalize");
}
}  // namespace x2
#define X2_PUT_THREAD(d, s, n, pe) ishmem_putmem(d, s, n, pe)
#define X2_PUT_WARP(d, s, n, pe) ishmemx_putmem_warp(d, s, n, pe)
#define X2_PUT_BLOCK(d, s, n, pe) ishmemx_putmem_block(d, s, n, pe)
#define X2_GET_THREAD(d, s, n, pe) ishmem_getmem(d, s, n, pe)
#define X2_GET_WARP(d, s, n, pe) ishmemx_getmem_warp(d, s, n, pe)
#define X2_GET_BLOCK(d, s, n, pe) ishmemx_getmem_block(d, s, n, pe)
#define X2_INT_P(d, v, pe) ishmem_int_p(d, v, pe)
#define X2_QUIET() ishmem_quiet()
#define X2_PUT_SIGNAL_NBI(d, s, n, sig, v, pe) \
  ishmem_putmem_signal_nbi(d, s, n, sig, v, ISHMEM_SIGNAL_SET, pe)
#define X2_PUT_SIGNAL_NBI_BLOCK(d, s, n, sig, v, pe) \
  ishmemx_putmem_signal_nbi_block(d, s, n, sig, v, ISHMEM_SIGNAL_SET, pe)
#define X2_SIGNAL_WAIT_GE(sig, v) ishmem_signal_wait_until(sig, ISHMEM_CMP_GE, v)
#define X2_DEVICE_BARRIER_ALL() ishmem_barrier_all()
#endif

// ---- Shared: checks, timing, sizes, CSV -----------------------------------------------------
namespace x2 {

void die(const char *what, const char *detail, const char *file, int line) {
  fprintf(stderr, "[%s pe %d] %s:%d: %s: %s\n", X2_IMPL, my_pe(), file, line, what, detail);
  fflush(stderr);
  global_exit(1);
}
#define X2_CUDA(call)                                                                          \
  do {                                                                                         \
    cudaError_t x2_rc = (call);                                                                \
    if (x2_rc != cudaSuccess) ::x2::die(#call, cudaGetErrorString(x2_rc), __FILE__, __LINE__); \
  } while (0)
#define X2_LAUNCHED() X2_CUDA(cudaGetLastError())

FILE *csv = nullptr;
void row(const char *bench, const char *op, const std::string &what, unsigned blocks,
         unsigned threads, size_t bytes, double us) {
  double gbps = us > 0 ? bytes / us / 1e3 : 0;
  if (csv) {
    fprintf(csv, "%s,%s,%s,%s,%u,%u,%zu,%.4f,%.3f\n", X2_IMPL, bench, op, what.c_str(), blocks,
            threads, bytes, us, gbps);
    fflush(csv);
  }
  printf("%-8s %-8s %-4s %-22s %7u %7u %12zu %12.3f %10.2f\n", X2_IMPL, bench, op, what.c_str(),
         blocks, threads, bytes, us, gbps);
  fflush(stdout);
}

// As benchmarks/gpu/gpu_bench.h: a byte pattern with no zeros.
void fill_pattern(void *device, size_t bytes, int seed) {
  std::vector<unsigned char> host(std::min<size_t>(bytes, 1 << 24));
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<unsigned char>(1 + (seed * 29 + i * 13 + i / 241) % 251);
  for (size_t done = 0; done < bytes; done += host.size())
    X2_CUDA(cudaMemcpy(static_cast<char *>(device) + done, host.data(),
                       std::min(host.size(), bytes - done), cudaMemcpyHostToDevice));
}

// `warmup` untimed calls, then `runs` timed batches of `batch` calls: median us per call.
template <class Launch>
double time_us(cudaStream_t stream, int warmup, int runs, int batch, Launch &&launch) {
  cudaEvent_t a, b;
  X2_CUDA(cudaEventCreate(&a));
  X2_CUDA(cudaEventCreate(&b));
  for (int i = 0; i < warmup; ++i) launch(stream);
  X2_CUDA(cudaStreamSynchronize(stream));
  std::vector<double> per_call;
  for (int r = 0; r < runs; ++r) {
    X2_CUDA(cudaEventRecord(a, stream));
    for (int i = 0; i < batch; ++i) launch(stream);
    X2_CUDA(cudaEventRecord(b, stream));
    X2_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    X2_CUDA(cudaEventElapsedTime(&ms, a, b));
    per_call.push_back(1000.0 * ms / batch);
  }
  X2_CUDA(cudaEventDestroy(a));
  X2_CUDA(cudaEventDestroy(b));
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int batch_for(size_t bytes) {
  size_t b = (size_t{64} << 20) / std::max<size_t>(bytes, 1);
  return static_cast<int>(std::min<size_t>(std::max<size_t>(b, 1), 50));
}

// 8 B to `max` by factors of 8, then every power of two from 64 MiB up (as gpu_bench.h).
std::vector<size_t> bench_sizes(size_t max) {
  std::vector<size_t> sizes;
  for (size_t b = 8; b <= max && b < (size_t{64} << 20); b *= 8) sizes.push_back(b);
  for (size_t b = size_t{64} << 20; b <= max; b *= 2) sizes.push_back(b);
  return sizes;
}

bool wanted(const std::string &only, const char *name) {
  if (only.empty()) return true;
  std::string list = "," + only + ",";
  return list.find(std::string(",") + name + ",") != std::string::npos;
}

}  // namespace x2

using namespace x2;

// ---- put / get bandwidth: the loops of benchmarks/gpu/gpu_put_bw.cu ------------------------
namespace {

enum Scope { kThread, kWarp, kBlock };
const char *scope_name(Scope s) {
  return s == kThread ? "thread" : s == kWarp ? "warp" : "block";
}
constexpr unsigned kThreads = 1024;

template <Scope S, bool GET>
__device__ __forceinline__ void rma_body(char *sym, char *local, size_t bytes, size_t slice,
                                         size_t groups, int peer) {
  const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t threads = (size_t)gridDim.x * blockDim.x;
  size_t g0 = S == kThread ? tid : S == kWarp ? tid / warpSize : blockIdx.x;
  size_t launched = S == kThread ? threads
                    : S == kWarp ? (threads + warpSize - 1) / warpSize
                                 : gridDim.x;
  for (size_t g = g0; g < groups; g += launched) {
    size_t off = g * slice;
    size_t n = bytes - off < slice ? bytes - off : slice;
    if (S == kThread) {
      if (GET)
        X2_GET_THREAD(local + off, sym + off, n, peer);
      else
        X2_PUT_THREAD(sym + off, local + off, n, peer);
    } else if (S == kWarp) {
      if (GET)
        X2_GET_WARP(local + off, sym + off, n, peer);
      else
        X2_PUT_WARP(sym + off, local + off, n, peer);
    } else {
      if (GET)
        X2_GET_BLOCK(local + off, sym + off, n, peer);
      else
        X2_PUT_BLOCK(sym + off, local + off, n, peer);
    }
  }
}

template <Scope S, bool GET>
__global__ void rma_kernel(char *sym, char *local, size_t bytes, size_t slice, size_t groups,
                           int peer) {
  rma_body<S, GET>(sym, local, bytes, slice, groups, peer);
}
template <Scope S, bool GET>
__global__ void __launch_bounds__(1024, 2)
    rma_kernel_full(char *sym, char *local, size_t bytes, size_t slice, size_t groups, int peer) {
  rma_body<S, GET>(sym, local, bytes, slice, groups, peer);
}

__global__ void store16(char *dst, const char *src, size_t bytes) {
  size_t nv = bytes / 16, stride = (size_t)gridDim.x * blockDim.x;
  uint4 *d = (uint4 *)dst;
  const uint4 *s = (const uint4 *)src;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nv; i += stride) d[i] = s[i];
  for (size_t i = nv * 16 + blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < bytes; i += stride)
    dst[i] = src[i];
}

struct Config {
  Scope scope;
  unsigned max_blocks;
  unsigned threads;
  bool bounded;
  size_t chunk;
};

template <Scope S, bool GET>
void launch_scoped(const Config &c, unsigned blocks, char *sym, char *local, size_t bytes,
                   size_t slice, size_t groups, int peer, cudaStream_t st) {
  if (c.bounded)
    rma_kernel_full<S, GET><<<blocks, c.threads, 0, st>>>(sym, local, bytes, slice, groups, peer);
  else
    rma_kernel<S, GET><<<blocks, c.threads, 0, st>>>(sym, local, bytes, slice, groups, peer);
  X2_LAUNCHED();
}
template <bool GET>
void launch_rma(const Config &c, unsigned blocks, char *sym, char *local, size_t bytes,
                size_t slice, size_t groups, int peer, cudaStream_t st) {
  switch (c.scope) {
    case kThread:
      return launch_scoped<kThread, GET>(c, blocks, sym, local, bytes, slice, groups, peer, st);
    case kWarp:
      return launch_scoped<kWarp, GET>(c, blocks, sym, local, bytes, slice, groups, peer, st);
    case kBlock:
      return launch_scoped<kBlock, GET>(c, blocks, sym, local, bytes, slice, groups, peer, st);
  }
}

void bench_rma(bool get, size_t max_bytes) {
  const char *op = get ? "get" : "put";
  const int me = my_pe(), peer = 1;
  int device = 0;
  cudaDeviceProp prop{};
  X2_CUDA(cudaGetDevice(&device));
  X2_CUDA(cudaGetDeviceProperties(&prop, device));
  const int sms = prop.multiProcessorCount, warp = prop.warpSize;
  char *sym = static_cast<char *>(malloc_sym(max_bytes));
  if (!sym) die("symmetric malloc", last_error(), __FILE__, __LINE__);
  char *local = nullptr;
  X2_CUDA(cudaMalloc(&local, max_bytes));
  fill_pattern(get ? static_cast<void *>(sym) : static_cast<void *>(local), max_bytes, me + 1);
  X2_CUDA(cudaDeviceSynchronize());
  barrier_all();
  if (me == 0) {
    cudaStream_t stream;
    X2_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    char *remote = peer_address(sym, peer);
    if (!remote) die("peer address", "the peer's heap is not mapped", __FILE__, __LINE__);
    const unsigned full = 2 * sms;
    const unsigned s3 = 3 * unsigned(sms), s6 = 6 * unsigned(sms);
    const size_t k256 = 256 << 10, m1 = 1 << 20;
    // The configurations of ishmem-gpu-bench-put, in its order.
    const Config configs[] = {{kBlock, 1, 1024, false, 0},
                              {kBlock, 16, 1024, false, 0},
                              {kBlock, unsigned(sms), 1024, false, 0},
                              {kBlock, full, 1024, false, 0},
                              {kBlock, 2 * full, 1024, true, 0},
                              {kBlock, s6, 512, false, 0},
                              {kBlock, full, 1024, true, k256},
                              {kBlock, s3, 512, false, k256},
                              {kBlock, s6, 512, false, k256},
                              {kBlock, s3, 512, false, m1},
                              {kWarp, full, 1024, true, 0},
                              {kWarp, full, 1024, true, 16 << 10},
                              {kThread, full, 1024, true, 0}};
    printf(
        "# %s %s bandwidth, PE 0 -> PE 1 (%s, %d SMs, warp %d, GPU %d); columns: impl bench "
        "op what blocks threads bytes usec GB/s\n",
        X2_IMPL, op, prop.name, sms, warp, device);
    for (size_t bytes : bench_sizes(max_bytes)) {
      const int batch = batch_for(bytes), runs = 7, warmup = 2;
      for (const Config &c : configs) {
        const unsigned per_warp = c.threads / warp;
        const size_t per_block = c.scope == kBlock ? 1 : c.scope == kWarp ? per_warp : c.threads;
        size_t slice, groups;
        unsigned blocks;
        if (c.chunk) {
          slice = c.chunk;
          groups = (bytes + slice - 1) / slice;
          blocks = static_cast<unsigned>(
              std::min<size_t>(c.max_blocks, (groups + per_block - 1) / per_block));
        } else {
          size_t groups_max = size_t{c.max_blocks} * per_block;
          slice = (bytes + groups_max - 1) / groups_max;
          slice = std::max<size_t>((slice + 15) / 16 * 16, 16);
          groups = (bytes + slice - 1) / slice;
          blocks = static_cast<unsigned>((groups + per_block - 1) / per_block);
        }
        double us = time_us(stream, warmup, runs, batch, [&](cudaStream_t s) {
          if (get)
            launch_rma<true>(c, blocks, sym, local, bytes, slice, groups, peer, s);
          else
            launch_rma<false>(c, blocks, sym, local, bytes, slice, groups, peer, s);
        });
        std::string what = std::string(scope_name(c.scope)) +
                           (c.chunk ? "/c" + std::to_string(c.chunk >> 10) + "K" : "") +
                           (c.bounded ? "/lb" : "") + "/" + std::to_string(c.max_blocks) + "x" +
                           std::to_string(c.threads);
        row(op, op, what, blocks, c.threads, bytes, us);
      }
      double ce = time_us(stream, warmup, runs, batch, [&](cudaStream_t s) {
        X2_CUDA(get ? cudaMemcpyAsync(local, remote, bytes, cudaMemcpyDeviceToDevice, s)
                    : cudaMemcpyAsync(remote, local, bytes, cudaMemcpyDeviceToDevice, s));
      });
      row(op, op, "copy-engine", 0, 0, bytes, ce);
      unsigned sb =
          static_cast<unsigned>(std::min<size_t>(full, std::max<size_t>(1, bytes / 16 / kThreads)));
      double st = time_us(stream, warmup, runs, batch, [&](cudaStream_t s) {
        if (get)
          store16<<<sb, kThreads, 0, s>>>(local, remote, bytes);
        else
          store16<<<sb, kThreads, 0, s>>>(remote, local, bytes);
        X2_LAUNCHED();
      });
      row(op, op, "store16", sb, kThreads, bytes, st);
      // The last bytes moved must be the source's (and not zeros).
      X2_CUDA(cudaStreamSynchronize(stream));
      size_t check = std::min<size_t>(bytes, 4096);
      std::vector<char> a(check), b(check);
      X2_CUDA(cudaMemcpy(a.data(), (get ? remote : local) + bytes - check, check,
                         cudaMemcpyDeviceToHost));
      X2_CUDA(cudaMemcpy(b.data(), (get ? local : remote) + bytes - check, check,
                         cudaMemcpyDeviceToHost));
      if (memcmp(a.data(), b.data(), check) != 0 || a[0] == 0)
        die("check", "destination does not hold the source's bytes", __FILE__, __LINE__);
    }
    X2_CUDA(cudaStreamDestroy(stream));
  }
  barrier_all();
  X2_CUDA(cudaFree(local));
  free_sym(sym);
}

// ---- p: issue rate of one thread, and ping-pong (benchmarks/gpu/gpu_p_latency.cu) ------------
template <bool QUIET>
__global__ void p_loop(int *sym, int ops, int peer) {
  for (int i = 0; i < ops; ++i) {
    X2_INT_P(sym + (i & 1023), i, peer);
    if (QUIET) X2_QUIET();
  }
}

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// The starter sends base+i and waits for it back; the other waits and answers. Gives up
// after `timeout` clocks per wait (counted in status[0]); status[1] gets the nanoseconds from
// the end of the first round trip to the last (in-kernel, free of launch skew).
__global__ void pingpong(int *flag, int base, int iters, int peer, bool starter, long long timeout,
                         unsigned long long *status) {
  volatile int *mine = flag;
  unsigned long long t1 = 0;
  for (int i = 1; i <= iters; ++i) {
    const int v = base + i;
    if (starter) X2_INT_P(flag, v, peer);
    long long t0 = clock64();
    while (*mine < v)
      if (clock64() - t0 > timeout) {
        status[0] = i;
        return;
      }
    if (!starter) X2_INT_P(flag, v, peer);
    if (i == 1) t1 = global_ns();
  }
  status[1] = global_ns() - t1;
}

void bench_p() {
  const int me = my_pe(), peer = 1 - me;
  int *sym = static_cast<int *>(malloc_sym(1024 * sizeof(int)));
  int *flag = static_cast<int *>(malloc_sym(sizeof(int)));
  if (!sym || !flag) die("symmetric malloc", last_error(), __FILE__, __LINE__);
  X2_CUDA(cudaMemset(sym, 0, 1024 * sizeof(int)));
  X2_CUDA(cudaMemset(flag, 0, sizeof(int)));
  X2_CUDA(cudaDeviceSynchronize());
  cudaStream_t s;
  X2_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  // Load every kernel before one spins on another PE's.
  cudaFuncAttributes fa;
  X2_CUDA(cudaFuncGetAttributes(&fa, pingpong));
  X2_CUDA(cudaFuncGetAttributes(&fa, p_loop<false>));
  X2_CUDA(cudaFuncGetAttributes(&fa, p_loop<true>));
  barrier_all();
  if (me == 0) {
    const int ops = 1 << 16;
    std::vector<double> plain, quiet;
    for (int r = 0; r < 17; ++r) {  // interleaved rounds, two warm-ups
      double a = time_us(s, 0, 1, 1, [&](cudaStream_t st) {
        p_loop<false><<<1, 1, 0, st>>>(sym, ops, 1);
        X2_LAUNCHED();
      });
      double b = time_us(s, 0, 1, 1, [&](cudaStream_t st) {
        p_loop<true><<<1, 1, 0, st>>>(sym, ops / 64, 1);
        X2_LAUNCHED();
      });
      if (r >= 2) {
        plain.push_back(a / ops);
        quiet.push_back(b / (ops / 64));
      }
    }
    row("p", "p", "int_p/issue", 1, 1, sizeof(int), median(plain));
    row("p", "p", "int_p+quiet", 1, 1, sizeof(int), median(quiet));
    std::vector<int> got(1024);
    X2_CUDA(cudaStreamSynchronize(s));
    X2_CUDA(
        cudaMemcpy(got.data(), peer_address(sym, 1), sizeof(int) * 1024, cudaMemcpyDeviceToHost));
    const int last = ops / 64 - 1;
    if (got[last & 1023] != last)
      die("check", "the peer does not hold the last p", __FILE__, __LINE__);
  }
  barrier_all();

  // Ping-pong: 1 warm-up run and 7 timed runs of `iters` round trips; each run starts after a
  // host barrier; one way = time / (2 iters).
  unsigned long long *status = nullptr;
  X2_CUDA(cudaMalloc(&status, 2 * sizeof(unsigned long long)));
  const int iters = 2000, runs = 8;
  std::vector<double> ev, kern;
  int base = 0;
  for (int r = 0; r < runs; ++r, base += iters) {
    X2_CUDA(cudaMemset(status, 0, 2 * sizeof(unsigned long long)));
    X2_CUDA(cudaDeviceSynchronize());
    barrier_all();
    cudaEvent_t a, b;
    X2_CUDA(cudaEventCreate(&a));
    X2_CUDA(cudaEventCreate(&b));
    X2_CUDA(cudaEventRecord(a, s));
    pingpong<<<1, 1, 0, s>>>(flag, base, iters, peer, me == 0, 4000000000ll, status);
    X2_LAUNCHED();
    X2_CUDA(cudaEventRecord(b, s));
    X2_CUDA(cudaEventSynchronize(b));
    float ms = 0;
    X2_CUDA(cudaEventElapsedTime(&ms, a, b));
    unsigned long long st[2];
    X2_CUDA(cudaMemcpy(st, status, sizeof st, cudaMemcpyDeviceToHost));
    if (st[0]) die("pingpong", "timed out waiting for the peer", __FILE__, __LINE__);
    if (r > 0) {
      ev.push_back(1000.0 * ms / (2.0 * iters));
      kern.push_back(st[1] / 1000.0 / (2.0 * (iters - 1)));
    }
    X2_CUDA(cudaEventDestroy(a));
    X2_CUDA(cudaEventDestroy(b));
  }
  if (me == 0) {
    row("p", "pingpong", "int_p/one-way/events", 1, 1, sizeof(int), median(ev));
    row("p", "pingpong", "int_p/one-way/in-kernel", 1, 1, sizeof(int), median(kern));
  }
  barrier_all();
  X2_CUDA(cudaFree(status));
  X2_CUDA(cudaStreamDestroy(s));
  free_sym(flag);
  free_sym(sym);
}

// ---- signal ping-pong -----------------------------------------------------------------------
#ifdef X2_HAS_SIGNAL
template <bool BLOCK>
__global__ void sig_pingpong(char *data, const char *src, size_t bytes, uint64_t *sig,
                             uint64_t base, int iters, int peer, bool starter,
                             unsigned long long *t_out) {
  unsigned long long t1 = 0;
  for (int i = 1; i <= iters; ++i) {
    const uint64_t v = base + i;
    if (starter) {
#if defined(X2_HAS_SIGNAL_BLOCK)
      if (BLOCK)
        X2_PUT_SIGNAL_NBI_BLOCK(data, src, bytes, sig, v, peer);
      else
#endif
          if (threadIdx.x == 0)
        X2_PUT_SIGNAL_NBI(data, src, bytes, sig, v, peer);
    }
    if (threadIdx.x == 0) X2_SIGNAL_WAIT_GE(sig, v);
    __syncthreads();
    if (!starter) {
#if defined(X2_HAS_SIGNAL_BLOCK)
      if (BLOCK)
        X2_PUT_SIGNAL_NBI_BLOCK(data, src, bytes, sig, v, peer);
      else
#endif
          if (threadIdx.x == 0)
        X2_PUT_SIGNAL_NBI(data, src, bytes, sig, v, peer);
    }
    if (i == 1 && threadIdx.x == 0) t1 = global_ns();
  }
  if (threadIdx.x == 0) *t_out = global_ns() - t1;
}

void bench_signal() {
  const int me = my_pe(), peer = 1 - me;
  const size_t max_bytes = 1 << 20;
  char *data = static_cast<char *>(malloc_sym(max_bytes));
  uint64_t *sig = static_cast<uint64_t *>(malloc_sym(sizeof(uint64_t)));
  if (!data || !sig) die("symmetric malloc", last_error(), __FILE__, __LINE__);
  char *src = nullptr;
  X2_CUDA(cudaMalloc(&src, max_bytes));
  fill_pattern(src, max_bytes, me + 7);
  X2_CUDA(cudaMemset(data, 0, max_bytes));  // arrivals are told apart from zeros
  X2_CUDA(cudaMemset(sig, 0, sizeof(uint64_t)));
  unsigned long long *t = nullptr;
  X2_CUDA(cudaMalloc(&t, sizeof(unsigned long long)));
  cudaStream_t s;
  X2_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaFuncAttributes fa;
  X2_CUDA(cudaFuncGetAttributes(&fa, sig_pingpong<false>));
  X2_CUDA(cudaFuncGetAttributes(&fa, sig_pingpong<true>));
  X2_CUDA(cudaDeviceSynchronize());
  barrier_all();
  uint64_t base = 0;
  for (int blockscope = 0; blockscope < 2; ++blockscope) {
#if !defined(X2_HAS_SIGNAL_BLOCK)
    if (blockscope) break;
#endif
    for (size_t bytes : {size_t{8}, size_t{4096}, size_t{65536}, size_t{1} << 20}) {
      if (!blockscope && bytes > 65536) continue;  // one thread moving megabytes: skip
      const int iters = 200, runs = 6;
      std::vector<double> ev, kern;
      for (int r = 0; r < runs; ++r, base += iters) {
        X2_CUDA(cudaDeviceSynchronize());
        barrier_all();
        cudaEvent_t a, b;
        X2_CUDA(cudaEventCreate(&a));
        X2_CUDA(cudaEventCreate(&b));
        X2_CUDA(cudaEventRecord(a, s));
        if (blockscope)
          sig_pingpong<true>
              <<<1, kThreads, 0, s>>>(data, src, bytes, sig, base, iters, peer, me == 0, t);
        else
          sig_pingpong<false><<<1, 1, 0, s>>>(data, src, bytes, sig, base, iters, peer, me == 0, t);
        X2_LAUNCHED();
        X2_CUDA(cudaEventRecord(b, s));
        X2_CUDA(cudaEventSynchronize(b));
        float ms = 0;
        X2_CUDA(cudaEventElapsedTime(&ms, a, b));
        unsigned long long ns = 0;
        X2_CUDA(cudaMemcpy(&ns, t, sizeof ns, cudaMemcpyDeviceToHost));
        if (r > 0) {
          ev.push_back(1000.0 * ms / (2.0 * iters));
          kern.push_back(ns / 1000.0 / (2.0 * (iters - 1)));
        }
        X2_CUDA(cudaEventDestroy(a));
        X2_CUDA(cudaEventDestroy(b));
      }
      // The data arrived with its signal: the bytes at this PE are the peer's pattern.
      std::vector<char> got(std::min<size_t>(bytes, 4096));
      X2_CUDA(
          cudaMemcpy(got.data(), data + bytes - got.size(), got.size(), cudaMemcpyDeviceToHost));
      if (std::count(got.begin(), got.end(), 0) != 0)
        die("check", "signal ping-pong data did not arrive", __FILE__, __LINE__);
      if (me == 0) {
        const unsigned th = blockscope ? kThreads : 1;
        const std::string w =
            std::string(blockscope ? "putmem_signal_nbi_block" : "putmem_signal_nbi");
        row("signal", "pingpong", w + "/one-way/events", 1, th, bytes, median(ev));
        row("signal", "pingpong", w + "/one-way/in-kernel", 1, th, bytes, median(kern));
      }
    }
  }
  barrier_all();
  X2_CUDA(cudaStreamDestroy(s));
  X2_CUDA(cudaFree(t));
  X2_CUDA(cudaFree(src));
  free_sym(sig);
  free_sym(data);
}
#endif

// ---- on-stream host put (benchmarks/gpu/gpu_stream.cu) ------------------------------------
void bench_stream(size_t max_bytes) {
  const int me = my_pe();
  char *sym = static_cast<char *>(malloc_sym(max_bytes));
  if (!sym) die("symmetric malloc", last_error(), __FILE__, __LINE__);
  char *local = nullptr;
  X2_CUDA(cudaMalloc(&local, max_bytes));
  fill_pattern(local, max_bytes, me + 3);
  cudaStream_t s;
  X2_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  X2_CUDA(cudaDeviceSynchronize());
  barrier_all();
  if (me == 0) {
    char *remote = peer_address(sym, 1);
    for (size_t bytes : bench_sizes(max_bytes)) {
      const int batch = batch_for(bytes);
      double put = time_us(s, 2, 7, batch,
                           [&](cudaStream_t st) { putmem_on_stream(sym, local, bytes, 1, st); });
      double ce = time_us(s, 2, 7, batch, [&](cudaStream_t st) {
        X2_CUDA(cudaMemcpyAsync(remote, local, bytes, cudaMemcpyDeviceToDevice, st));
      });
      row("stream", "put", "putmem_on_stream", 0, 0, bytes, put);
      row("stream", "put", "memcpy_async", 0, 0, bytes, ce);
    }
    X2_CUDA(cudaStreamSynchronize(s));
    std::vector<char> a(64), b(64);
    X2_CUDA(cudaMemcpy(a.data(), remote, 64, cudaMemcpyDeviceToHost));
    X2_CUDA(cudaMemcpy(b.data(), local, 64, cudaMemcpyDeviceToHost));
    if (memcmp(a.data(), b.data(), 64) != 0 || a[0] == 0)
      die("check", "the peer does not hold the source's bytes", __FILE__, __LINE__);
  }
  barrier_all();
  X2_CUDA(cudaStreamDestroy(s));
  X2_CUDA(cudaFree(local));
  free_sym(sym);
}

// ---- barriers ---------------------------------------------------------------------------------
#ifdef X2_HAS_DEVICE_BARRIER
__global__ void barrier_loop(int n) {
  for (int i = 0; i < n; ++i) X2_DEVICE_BARRIER_ALL();
}
#endif

void bench_barrier() {
  const int me = my_pe(), rounds = 200, runs = 7;
  cudaStream_t s;
  X2_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  using clock = std::chrono::steady_clock;
  std::vector<double> host, stream;
  for (int i = 0; i < 20; ++i) barrier_all();
  for (int r = 0; r < runs; ++r) {
    barrier_all();
    auto t0 = clock::now();
    for (int i = 0; i < rounds; ++i) barrier_all();
    host.push_back(std::chrono::duration<double, std::micro>(clock::now() - t0).count() / rounds);
  }
  for (int i = 0; i < 10; ++i) barrier_all_on_stream(s);
  X2_CUDA(cudaStreamSynchronize(s));
  for (int r = 0; r < runs; ++r) {
    barrier_all();
    auto t0 = clock::now();
    for (int i = 0; i < rounds; ++i) barrier_all_on_stream(s);
    X2_CUDA(cudaStreamSynchronize(s));
    stream.push_back(std::chrono::duration<double, std::micro>(clock::now() - t0).count() / rounds);
  }
  if (me == 0) {
    row("barrier", "barrier", "host barrier_all", 0, 0, 0, median(host));
    row("barrier", "barrier", "barrier_all_on_stream", 0, 0, 0, median(stream));
  }
#ifdef X2_HAS_DEVICE_BARRIER
  cudaFuncAttributes fa;
  X2_CUDA(cudaFuncGetAttributes(&fa, barrier_loop));
  std::vector<double> dev;
  const int n = 1000;
  for (int r = 0; r < 6; ++r) {
    X2_CUDA(cudaDeviceSynchronize());
    barrier_all();
    double us = time_us(s, 0, 1, 1, [&](cudaStream_t st) {
      barrier_loop<<<1, 1, 0, st>>>(n);
      X2_LAUNCHED();
    });
    if (r > 0) dev.push_back(us / n);
  }
  if (me == 0) row("barrier", "barrier", "device barrier_all (1 thread)", 1, 1, 0, median(dev));
#else
  if (me == 0) printf("# barrier: no device barrier_all in this library's device API\n");
#endif
  barrier_all();
  X2_CUDA(cudaStreamDestroy(s));
}

}  // namespace

int main(int argc, char **argv) {
  start(argc, argv);
  std::string only, csv_path;
  size_t max_bytes = size_t{1} << 30;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!strcmp(argv[i], "--csv")) csv_path = argv[i + 1];
    if (!strcmp(argv[i], "--max")) max_bytes = strtoull(argv[i + 1], nullptr, 0);
    if (!strcmp(argv[i], "--only")) only = argv[i + 1];
  }
  if (n_pes() < 2) {
    if (my_pe() == 0) printf("# %s-x2-bench needs 2 PEs\n", X2_IMPL);
    finish();
    return 1;
  }
  if (my_pe() == 0 && !csv_path.empty()) {
    csv = fopen(csv_path.c_str(), "w");
    if (!csv) die("fopen", csv_path.c_str(), __FILE__, __LINE__);
    fprintf(csv, "impl,bench,op,what,blocks,threads,bytes,usec,gbps\n");
  }
  using clock = std::chrono::steady_clock;
  auto stage = [&](const char *name, auto &&fn) {
    if (!wanted(only, name)) return;
    auto t0 = clock::now();
    fn();
    if (my_pe() == 0)
      printf("# %s %s: done in %.1f s\n", X2_IMPL, name,
             std::chrono::duration<double>(clock::now() - t0).count());
  };
  stage("put", [&] { bench_rma(false, max_bytes); });
  stage("get", [&] { bench_rma(true, max_bytes); });
  stage("p", [&] { bench_p(); });
#ifdef X2_HAS_SIGNAL
  stage("signal", [&] { bench_signal(); });
#else
  if (my_pe() == 0 && wanted(only, "signal"))
    printf("# %s signal: skipped, no device put-with-signal in this build\n", X2_IMPL);
#endif
  stage("stream", [&] { bench_stream(max_bytes); });
  stage("barrier", [&] { bench_barrier(); });
  if (csv) fclose(csv);
  finish();
  return 0;
}
