// The heap's trim policy and its waits, on the Heap itself over a host backend that records
// what it is asked to do: freed memory is reused without remapping, unused tail memory goes
// back after ISHMEM_TRIM_INTERVAL calls, a failed growth releases what was kept, and nothing
// is unmapped (or copied by realloc) before every PE has waited for its queued device work
// (Backend::quiesce), a device error failing the call on every PE with nothing unmapped.
// Its own main: the Heap under test is the only one in the process (no ishmem_init).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "backend/backend.h"
#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/peer_mesh.h"
#include "common/config.h"
#include "common/error.h"
#include "heap/heap.h"
#include "mpi_test_util.h"

using namespace ishmem::detail;
using ishmem_test::all_equal;
using ishmem_test::all_true;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// The host backend, recording its calls in `events` (C create, U unmap, Q quiesce, K copy),
// with an injected device failure (one quiesce) and a memory budget for this PE's own slot.
class RecordingBackend final : public Backend {
 public:
  std::string events;
  bool fail_quiesce = false;
  bool device_like = false;              // not host-accessible, as a GPU backend's memory is
  std::size_t budget = ~std::size_t{0};  // bytes this PE may map into its own slot
  char *own_slot = nullptr;              // set once the heap exists
  std::size_t own_bytes = 0, stride = 0;

  const char *name() const override { return "recording-host"; }
  std::size_t granularity() const override { return host_->granularity(); }
  bool host_accessible() const override { return !device_like; }
  void *reserve(std::size_t bytes) override { return host_->reserve(bytes); }
  void unreserve(void *base, std::size_t bytes) override { host_->unreserve(base, bytes); }
  ChunkHandle create(std::size_t bytes) override {
    if (own_bytes + bytes > budget) fail(ISHMEM_ERR_NOMEM, "injected: out of device memory");
    events += 'C';
    return host_->create(bytes);
  }
  int export_fd(ChunkHandle handle) override { return host_->export_fd(handle); }
  ChunkHandle import_fd(int fd, std::size_t bytes) override { return host_->import_fd(fd, bytes); }
  void map(void *addr, std::size_t bytes, ChunkHandle handle) override {
    host_->map(addr, bytes, handle);
    if (in_own_slot(addr)) own_bytes += bytes;
  }
  void unmap(void *addr, std::size_t bytes) override {
    events += 'U';
    host_->unmap(addr, bytes);
    if (in_own_slot(addr)) own_bytes -= bytes;
  }
  void release(ChunkHandle handle) override { host_->release(handle); }
  void copy(void *dst, const void *src, std::size_t bytes) override {
    events += 'K';
    host_->copy(dst, src, bytes);
  }
  void quiesce() override {
    events += 'Q';
    if (fail_quiesce) {
      fail_quiesce = false;
      fail(ISHMEM_ERR_BACKEND, "injected: cudaDeviceSynchronize() failed");
    }
  }
  MemorySource memory_source() const override { return host_->memory_source(); }
  std::string placement() const override { return "cpu"; }

 private:
  bool in_own_slot(void *addr) const {
    char *a = static_cast<char *>(addr);
    return own_slot && a >= own_slot && a < own_slot + stride;
  }
  std::unique_ptr<Backend> host_ = make_host_backend();
};

struct Outcome {
  int code = ISHMEM_SUCCESS;
  std::string what;
};

class HeapPolicy : public ::testing::Test {
 protected:
  void make_heap(std::size_t threshold, long interval, bool device_like = false,
                 std::size_t symmetric_size = 2048 * kMiB) {
    Config config = load_config();
    config.symmetric_size = symmetric_size;
    config.chunk_size = 2 * kMiB;
    config.trim_threshold = threshold;
    config.trim_interval = interval;
    auto owned = std::make_unique<RecordingBackend>();
    owned->device_like = device_like;
    backend_ = owned.get();
    heap_ = std::make_unique<Heap>(std::move(owned), mesh_, boot_, config);
    backend_->own_slot = heap_->local_base();
    backend_->stride = heap_->stride();
    backend_->events.clear();
  }
  // A collective call that may fail: its outcome on this PE.
  template <class Call>
  Outcome attempt(Call &&call) {
    try {
      call();
    } catch (const Error &e) {
      return {e.code(), e.what()};
    }
    return {};
  }
  int count(char event) const {
    return static_cast<int>(std::count(backend_->events.begin(), backend_->events.end(), event));
  }
  bool last_rank() const { return boot_.topology().my_pe == boot_.topology().n_pes - 1; }

  MpiBootstrap boot_{MPI_COMM_WORLD, false};
  PeerMesh mesh_{boot_, 30.0};
  RecordingBackend *backend_ = nullptr;  // owned by the heap
  std::unique_ptr<Heap> heap_;
};

// Goal of the policy: a loop that allocates and frees a large block each step maps its memory
// once. Before it, every free past ISHMEM_TRIM_THRESHOLD unmapped and the next malloc remapped.
TEST_F(HeapPolicy, LargeBlockIsReusedWithoutRemapping) {
  make_heap(64 * kMiB, 64);
  void *first = heap_->malloc(256 * kMiB);
  ASSERT_NE(first, nullptr);
  heap_->free(first);
  const std::size_t committed = heap_->committed();
  const int creates = count('C');
  for (int i = 0; i < 200; ++i) {  // 400 calls: six periods of the policy
    void *p = heap_->malloc(256 * kMiB);
    EXPECT_EQ(p, first) << "step " << i;
    heap_->free(p);
  }
  EXPECT_EQ(count('C'), creates) << "the heap created memory again";
  EXPECT_EQ(count('U'), 0) << "the heap unmapped memory that every period used";
  EXPECT_EQ(count('Q'), 0) << "a free that unmaps nothing waited for the device";
  EXPECT_EQ(heap_->committed(), committed);
  EXPECT_GE(committed, 256 * kMiB);
}

// The policy's condition: memory past the highest end any block reached after a call of the
// period goes back at the period's end, more than ISHMEM_TRIM_THRESHOLD of it, on every PE.
TEST_F(HeapPolicy, UnusedTailGoesBackAtTheEndOfAPeriodWithoutUse) {
  make_heap(0, 8);
  void *keep = heap_->malloc(kMiB);       // call 1 of the first period: the first 2 MiB chunk
  void *big = heap_->malloc(256 * kMiB);  // call 2: chunks of their own
  heap_->free(big);                       // call 3
  for (int call = 4; call < 8; call += 2) heap_->free(heap_->malloc(kMiB));
  void *small = heap_->malloc(kMiB);  // call 8 ends the first period, which used 257 MiB: kept
  EXPECT_GE(heap_->committed(), 257 * kMiB);
  heap_->free(small);  // call 9
  for (int call = 10; call < 16; call += 2) heap_->free(heap_->malloc(kMiB));
  EXPECT_GE(heap_->committed(), 257 * kMiB) << "released before the period's end";
  EXPECT_EQ(count('U'), 0);
  small = heap_->malloc(kMiB);  // call 16 ends the second period, in which no block passed 2 MiB
  EXPECT_EQ(heap_->committed(), 2 * kMiB);
  EXPECT_TRUE(all_equal(static_cast<long long>(heap_->committed())));
  EXPECT_GT(count('U'), 0);
  EXPECT_EQ(count('Q'), 1);
  EXPECT_EQ(backend_->events.find('Q'), backend_->events.find_first_of("QU"))
      << "unmapped before waiting for the device: " << backend_->events;
  heap_->free(small);
  heap_->free(keep);
}

TEST_F(HeapPolicy, ThresholdKeepsTailMemoryForGood) {
  make_heap(512 * kMiB, 4);
  void *keep = heap_->malloc(kMiB);
  heap_->free(heap_->malloc(256 * kMiB));
  for (int i = 0; i < 20; ++i) heap_->free(heap_->malloc(kMiB));
  EXPECT_GE(heap_->committed(), 257 * kMiB);
  EXPECT_EQ(count('U'), 0);
  heap_->free(keep);
  heap_->trim();  // ishmemx_heap_trim returns it on request
  EXPECT_EQ(heap_->committed(), 0u);
  EXPECT_EQ(backend_->events.find('Q'), backend_->events.find_first_of("QU")) << backend_->events;
}

// An interval of 0 returns memory at the free that leaves it unused, after waiting.
TEST_F(HeapPolicy, FreeThatUnmapsWaitsForTheDeviceFirst) {
  make_heap(0, 0);
  void *keep = heap_->malloc(kMiB);
  void *p = heap_->malloc(8 * kMiB);
  backend_->events.clear();
  heap_->free(p);
  EXPECT_EQ(backend_->events.substr(0, 2), "QU") << backend_->events;
  EXPECT_EQ(heap_->committed(), 2 * kMiB);
  // A free that unmaps nothing (the first chunk stays) does not wait.
  backend_->events.clear();
  void *q = heap_->malloc(64);
  heap_->free(q);
  EXPECT_EQ(backend_->events, "");
  heap_->free(keep);
}

// A device error while waiting (a kernel's fault, a lost context) fails the call on every PE,
// the failing PE naming the call, and nothing is unmapped anywhere; a later trim works.
TEST_F(HeapPolicy, DeviceErrorBeforeUnmapFailsEveryPeAndUnmapsNothing) {
  make_heap(0, 0);
  void *p = heap_->malloc(8 * kMiB);
  const std::size_t committed = heap_->committed();
  backend_->events.clear();
  if (last_rank()) backend_->fail_quiesce = true;
  Outcome got = attempt([&] { heap_->free(p); });
  EXPECT_EQ(got.code, ISHMEM_ERR_BACKEND) << got.what;
  const char *expected =
      last_rank() ? "cudaDeviceSynchronize() failed" : "ishmem_free: another PE's device failed";
  EXPECT_NE(got.what.find(expected), std::string::npos) << got.what;
  EXPECT_EQ(count('U'), 0) << backend_->events;
  EXPECT_EQ(heap_->committed(), committed);
  EXPECT_TRUE(all_equal(static_cast<long long>(heap_->committed())));
  heap_->trim();
  EXPECT_EQ(heap_->committed(), 0u);
  EXPECT_GT(count('U'), 0);
}

// The same error when the policy runs at the end of a malloc: the block is the caller's all
// the same (an error would leak it), the memory stays mapped, and the next period retries.
TEST_F(HeapPolicy, DeviceErrorInAMallocsPolicyKeepsTheBlock) {
  make_heap(0, 2);
  void *keep = heap_->malloc(kMiB);      // call 1
  void *big = heap_->malloc(64 * kMiB);  // call 2 ends a period that used it
  heap_->free(big);                      // call 3
  const std::size_t committed = heap_->committed();
  if (last_rank()) backend_->fail_quiesce = true;
  void *small = nullptr;
  Outcome got = attempt([&] { small = heap_->malloc(64); });  // call 4 ends an unused period
  EXPECT_EQ(got.code, ISHMEM_SUCCESS) << got.what;
  EXPECT_NE(small, nullptr);
  EXPECT_EQ(count('Q'), 1);
  EXPECT_EQ(count('U'), 0) << backend_->events;
  EXPECT_EQ(heap_->committed(), committed);
  heap_->free(small);  // call 5
  heap_->free(keep);   // call 6 ends the next period: released now, but for the first chunk
  EXPECT_EQ(heap_->committed(), 2 * kMiB);
  EXPECT_GT(count('U'), 0);
  EXPECT_TRUE(all_equal(static_cast<long long>(heap_->committed())));
}

// realloc that moves a block copies it only once every PE's queued writes have completed.
TEST_F(HeapPolicy, ReallocWaitsForTheDeviceBeforeCopying) {
  make_heap(64 * kMiB, 64);
  char *p = static_cast<char *>(heap_->malloc(kMiB));
  void *after = heap_->malloc(kMiB);  // p cannot grow in place
  p[0] = 42;
  backend_->events.clear();
  char *moved = static_cast<char *>(heap_->realloc(p, 4 * kMiB));
  ASSERT_NE(moved, p);
  EXPECT_EQ(moved[0], 42);
  EXPECT_LT(backend_->events.find('Q'), backend_->events.find('K')) << backend_->events;
  EXPECT_NE(backend_->events.find('K'), std::string::npos) << backend_->events;
  heap_->free(moved);
  heap_->free(after);
}

// When growth fails for lack of memory, the memory kept at the tail goes back on every PE
// (the block that failed started in it, so it had already taken all of it), and the heap
// works afterwards. The budget runs out on one PE only: the outcome is agreed.
TEST_F(HeapPolicy, FailedGrowthReleasesKeptMemory) {
  make_heap(64 * kMiB, 64);
  if (last_rank()) backend_->budget = 300 * kMiB;
  heap_->free(heap_->malloc(256 * kMiB));
  const int creates = count('C');
  heap_->free(heap_->malloc(256 * kMiB));  // within the budget: reused, not created again
  EXPECT_EQ(count('C'), creates);
  EXPECT_GE(heap_->committed(), 256 * kMiB);
  Outcome got = attempt([&] { heap_->malloc(512 * kMiB); });
  EXPECT_EQ(got.code, ISHMEM_ERR_NOMEM) << got.what;
  if (last_rank()) {
    EXPECT_NE(got.what.find("injected: out of device memory"), std::string::npos) << got.what;
  }
  EXPECT_EQ(heap_->committed(), 0u) << "kept memory not released after a failed growth";
  EXPECT_TRUE(all_equal(static_cast<long long>(heap_->committed())));
  EXPECT_EQ(backend_->events.find('Q'), backend_->events.find_first_of("QU")) << backend_->events;
  void *p = heap_->malloc(200 * kMiB);
  EXPECT_NE(p, nullptr);
  heap_->free(p);
}

// A heap that kernels reach has slots 4 GiB apart (device code adds to an address's high word
// only). Its limits stay those of ISHMEM_SYMMETRIC_SIZE: the largest block, the alignment, the
// addresses that count as the heap's; and calloc zeroes through the backend, which is the only
// way into memory the host cannot reach.
TEST_F(HeapPolicy, DeviceSlotsKeepTheCapacityAsTheLimit) {
  constexpr std::size_t kGiB = std::size_t{1} << 30;
  make_heap(64 * kMiB, 64, true, 64 * kMiB);
  ASSERT_EQ(heap_->stride(), 4 * kGiB);
  ASSERT_EQ(heap_->capacity(), 64 * kMiB);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(heap_->window()) % (4 * kGiB), 0u);

  Outcome got = attempt([&] { heap_->align(128 * kMiB, kMiB); });
  EXPECT_EQ(got.code, ISHMEM_ERR_INVALID_ARG) << got.what;
  EXPECT_NE(got.what.find("exceeds the heap's base alignment 67108864"), std::string::npos)
      << got.what;
  got = attempt([&] { heap_->malloc(64 * kMiB + 1); });
  EXPECT_EQ(got.code, ISHMEM_ERR_NOMEM) << got.what;
  EXPECT_NE(got.what.find("of 67108864 bytes in use"), std::string::npos) << got.what;
  EXPECT_EQ(heap_->committed(), 0u);

  // The whole capacity in one block, aligned as far as the capacity allows.
  char *all = static_cast<char *>(heap_->align(64 * kMiB, 64 * kMiB));
  ASSERT_EQ(all, heap_->local_base());
  EXPECT_EQ(heap_->committed(), 64 * kMiB);
  // Each PE writes its number into the block's last ints in every node-local PE's copy,
  // through the slots 4 GiB apart; each then finds every writer's number in its own copy.
  const Topology &topo = boot_.topology();
  ASSERT_LE(topo.n_local, 16);
  for (int slot = 0; slot < topo.n_local; ++slot) {
    char *copy = heap_->window() + slot * heap_->stride();
    reinterpret_cast<int *>(copy + 64 * kMiB)[topo.local_rank - 16] = 1000 + topo.my_pe;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const int *last = reinterpret_cast<const int *>(all + 64 * kMiB) - 16;
  for (int slot = 0; slot < topo.n_local; ++slot)
    EXPECT_EQ(last[slot], 1000 + topo.local_pes[slot]) << "from local slot " << slot;
  heap_->free(all);

  // Past the capacity, inside the slot: not the heap's, on every PE.
  got = attempt([&] { heap_->free(heap_->local_base() + 64 * kMiB); });
  EXPECT_EQ(got.code, ISHMEM_ERR_NOT_SYMMETRIC) << got.what;

  // calloc over memory that a freed block left dirty, reused without remapping.
  char *dirty = static_cast<char *>(heap_->malloc(3 * kMiB));
  std::memset(dirty, 0xa5, 3 * kMiB);
  heap_->free(dirty);
  backend_->events.clear();
  char *zeroed = static_cast<char *>(heap_->calloc(3, kMiB));
  ASSERT_EQ(zeroed, dirty);
  EXPECT_EQ(count('C'), 0) << backend_->events;
  EXPECT_EQ(count('K'), 3) << "zeroed without the backend's copy: " << backend_->events;
  std::size_t nonzero = 0;
  for (std::size_t i = 0; i < 3 * kMiB; ++i) nonzero += zeroed[i] != 0;
  EXPECT_EQ(nonzero, 0u);
  heap_->free(zeroed);
}

}  // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  MPI_Init(&argc, &argv);
  set_log_level(LogLevel::none);  // the injected failures' messages
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0, failed_pes = 0;
  MPI_Allreduce(&failed, &failed_pes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  return failed_pes > 0 ? 1 : 0;
}
