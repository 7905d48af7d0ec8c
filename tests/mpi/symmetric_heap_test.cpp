// SymmetricHeap on its own, over the host backend with faults injected: a failed growth step is
// undone exactly (only attached chunks are detached, every mapping is removed, the original
// error is reported), a failing detach does not stop a trim, handle 0 (fd 0) is a handle like
// any other, and growth beyond 16 GiB fits in one step.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/peer_mesh.h"
#include "heap/symmetric_heap.h"
#include "transport/mpi_transport.h"
#include "mpi_test_util.h"
#include "common/error.h"

using namespace ishmem::detail;
using namespace ishmem_test;

namespace {

constexpr std::size_t kGiB = std::size_t{1} << 30;

// The host backend, with faults to inject (each fires once) and a record of what is mapped.
class FaultyBackend final : public Backend {
 public:
  char *fail_map_at = nullptr;
  bool fail_export = false;
  int bad_alloc_at_create = -1;  // create() of this chunk (counted from 0) runs out of memory
  std::set<char *> mapped;
  std::vector<ChunkHandle> created;
  int stray_unmaps = 0;

  const char *name() const override { return "faulty-host"; }
  std::size_t granularity() const override { return host_->granularity(); }
  bool host_accessible() const override { return true; }
  void *reserve(std::size_t bytes) override { return host_->reserve(bytes); }
  void unreserve(void *base, std::size_t bytes) override { host_->unreserve(base, bytes); }
  ChunkHandle create(std::size_t bytes) override {
    if (bad_alloc_at_create >= 0 && bad_alloc_at_create-- == 0) throw std::bad_alloc();
    created.push_back(host_->create(bytes));
    return created.back();
  }
  int export_fd(ChunkHandle handle) override {
    if (fail_export) {
      fail_export = false;
      fail(ISHMEM_ERR_SYSTEM, "injected export failure");
    }
    return host_->export_fd(handle);
  }
  ChunkHandle import_fd(int fd, std::size_t bytes) override { return host_->import_fd(fd, bytes); }
  void map(void *addr, std::size_t bytes, ChunkHandle handle) override {
    if (addr == fail_map_at) {
      fail_map_at = nullptr;
      fail(ISHMEM_ERR_SYSTEM, "injected map failure");
    }
    host_->map(addr, bytes, handle);
    mapped.insert(static_cast<char *>(addr));
  }
  void unmap(void *addr, std::size_t bytes) override {
    host_->unmap(addr, bytes);
    if (!mapped.erase(static_cast<char *>(addr))) ++stray_unmaps;
  }
  void release(ChunkHandle handle) override { host_->release(handle); }
  void copy(void *dst, const void *src, std::size_t bytes) override {
    host_->copy(dst, src, bytes);
  }
  void quiesce() override {}
  MemorySource memory_source() const override { return host_->memory_source(); }
  std::string placement() const override { return "cpu"; }

 private:
  std::unique_ptr<Backend> host_ = make_host_backend();
};

// Stands in for the MPI window's attach and detach, which fail for memory never attached.
class FaultyTransport final : public MpiTransport {
 public:
  std::set<char *> attached;
  char *fail_attach_at = nullptr;
  char *fail_detach_at = nullptr;
  int bad_detaches = 0;

  void attach(char *addr, std::size_t) override {
    if (addr == fail_attach_at) {
      fail_attach_at = nullptr;
      fail(ISHMEM_ERR_SYSTEM, "injected attach failure");
    }
    attached.insert(addr);
  }
  void detach(char *addr) override {
    if (!attached.erase(addr)) {
      ++bad_detaches;
      fail(ISHMEM_ERR_SYSTEM, "detach of memory that was never attached");
    }
    if (addr == fail_detach_at) {
      fail_detach_at = nullptr;
      fail(ISHMEM_ERR_SYSTEM, "injected detach failure");
    }
  }
};

struct Outcome {
  int code = ISHMEM_SUCCESS;
  std::string what;
};

class Heap : public ::testing::Test {
 protected:
  void make_heap(std::size_t capacity, std::size_t slot_unit = 0) {
    heap_ = std::make_unique<SymmetricHeap>(backend_, mesh_, boot_, capacity, 1 << 20, slot_unit);
    transport_ = std::make_unique<FaultyTransport>();
    heap_->set_transport(transport_.get());
    fds_before_ = open_fd_count();
  }
  void TearDown() override {
    if (heap_) {
      heap_->trim(0);
      EXPECT_TRUE(backend_.mapped.empty());
      EXPECT_TRUE(transport_->attached.empty());
      heap_.reset();
    }
    EXPECT_EQ(backend_.stray_unmaps, 0);
    if (transport_) {
      EXPECT_EQ(transport_->bad_detaches, 0);
    }
  }

  Outcome commit(std::size_t bytes) {
    try {
      heap_->commit(bytes);
    } catch (const Error &e) {
      return {e.code(), e.what()};
    }
    return {};
  }
  char *slot_base(int slot) const {
    return heap_->window() + heap_->stride() * static_cast<std::size_t>(slot);
  }
  const Topology &topo() const { return boot_.topology(); }

  // After a failed step: nothing of it is left, on any PE, and the error is the original one.
  void expect_undone(const Outcome &got, bool victim, const char *injected) {
    EXPECT_NE(got.code, ISHMEM_SUCCESS);
    if (victim)
      EXPECT_NE(got.what.find(injected), std::string::npos) << got.what;
    else
      EXPECT_NE(got.what.find("node-local peer could not grow"), std::string::npos) << got.what;
    EXPECT_EQ(heap_->committed(), 0u);
    EXPECT_EQ(heap_->chunk_count(), 0u);
    EXPECT_TRUE(backend_.mapped.empty()) << backend_.mapped.size() << " mappings left";
    EXPECT_TRUE(transport_->attached.empty()) << transport_->attached.size() << " chunks attached";
    EXPECT_EQ(transport_->bad_detaches, 0);
    EXPECT_EQ(open_fd_count(), fds_before_) << "fds leaked";
  }

  // Commits `bytes` and checks that each PE sees every node-local PE's stores in every chunk.
  void expect_commit_works(std::size_t bytes) {
    Outcome got = commit(bytes);
    ASSERT_TRUE(all_true(got.code == ISHMEM_SUCCESS)) << got.what;
    EXPECT_EQ(transport_->attached.size(), heap_->chunk_count());
    const std::size_t last = heap_->committed() - sizeof(int);
    std::memcpy(heap_->local_base(), &topo().my_pe, sizeof(int));
    std::memcpy(heap_->local_base() + last, &topo().my_pe, sizeof(int));
    ASSERT_EQ(MPI_Barrier(boot_.node()), MPI_SUCCESS);
    for (int slot = 0; slot < topo().n_local; ++slot) {
      int first = -1, end = -1;
      std::memcpy(&first, slot_base(slot), sizeof first);
      std::memcpy(&end, slot_base(slot) + last, sizeof end);
      EXPECT_EQ(first, topo().local_pes[slot]);
      EXPECT_EQ(end, topo().local_pes[slot]);
    }
    ASSERT_EQ(MPI_Barrier(boot_.node()), MPI_SUCCESS);
  }

  MpiBootstrap boot_{MPI_COMM_WORLD, false};
  PeerMesh mesh_{boot_, 30.0};
  FaultyBackend backend_;
  std::unique_ptr<FaultyTransport> transport_;  // outlives the heap, whose chunks it holds
  std::unique_ptr<SymmetricHeap> heap_;
  int fds_before_ = 0;
};

TEST_F(Heap, MapFailureAfterOwnSlotDetachesOnlyAttachedChunks) {
  if (!all_true(topo().n_local > 1)) GTEST_SKIP() << "needs two node-local PEs";
  make_heap(4 * kGiB);
  // Three chunks of 1 GiB. On slot 0, chunk 1 maps into its own slot, then fails in slot 1:
  // chunk 0 is attached, chunk 1 is mapped here but was never attached.
  const bool victim = topo().local_rank == 0;
  if (victim) backend_.fail_map_at = slot_base(1) + kGiB;
  expect_undone(commit(3 * kGiB), victim, "injected map failure");
  expect_commit_works(3 * kGiB);
  EXPECT_EQ(heap_->chunk_count(), 3u);
}

TEST_F(Heap, AttachFailureIsUndoneAndReported) {
  make_heap(4 * kGiB);
  const bool victim = topo().local_rank == topo().n_local - 1;
  if (victim) transport_->fail_attach_at = heap_->local_base() + kGiB;
  expect_undone(commit(3 * kGiB), victim, "injected attach failure");
  expect_commit_works(3 * kGiB);
}

// Memory runs out on one PE with one chunk's fd exported: that fd and the created handle are
// closed, and the PE still takes part in the exchange, so every PE fails at once (no one waits
// for the exchange's timeout) with ISHMEM_ERR_NOMEM, and nothing of the step is left.
TEST_F(Heap, OutOfMemoryMidStepFailsEveryPeAtOnce) {
  make_heap(4 * kGiB);
  const bool victim = topo().local_rank == topo().n_local - 1;
  if (victim) backend_.bad_alloc_at_create = 1;
  const double start = MPI_Wtime();
  Outcome got = commit(3 * kGiB);
  const double took = MPI_Wtime() - start;
  EXPECT_EQ(got.code, ISHMEM_ERR_NOMEM) << got.what;
  EXPECT_LT(took, 10.0) << "a PE waited for the exchange's timeout";
  if (victim) {
    EXPECT_NE(got.what.find("out of host memory"), std::string::npos) << got.what;
  }
  EXPECT_EQ(heap_->committed(), 0u);
  EXPECT_TRUE(backend_.mapped.empty());
  EXPECT_TRUE(transport_->attached.empty());
  EXPECT_EQ(open_fd_count(), fds_before_) << "fds leaked";
  expect_commit_works(3 * kGiB);
}

TEST_F(Heap, FailedDetachDoesNotStopTrim) {
  make_heap(4 * kGiB);
  expect_commit_works(3 * kGiB);
  const bool victim = topo().local_rank == 0;
  if (victim) transport_->fail_detach_at = heap_->local_base() + kGiB;
  EXPECT_NO_THROW(heap_->trim(0));
  // Every PE drops the same chunks, or later growth steps would diverge.
  EXPECT_EQ(heap_->chunk_count(), 0u);
  EXPECT_EQ(heap_->committed(), 0u);
  EXPECT_TRUE(all_equal(static_cast<long long>(heap_->committed())));
  EXPECT_TRUE(backend_.mapped.empty());
  EXPECT_TRUE(transport_->attached.empty());
  expect_commit_works(2 * kGiB);
}

TEST_F(Heap, HandleZeroIsReleasedLikeAnyOther) {
  make_heap(64 << 20);
  // With stdin closed, the next memfd is fd 0, which the host backend uses as the handle.
  const int saved_stdin = fcntl(0, F_DUPFD_CLOEXEC, 3);
  close(0);
  const int fds_without_stdin = open_fd_count();
  // Export fails after create: the unexported handle (fd 0) must still be released.
  backend_.fail_export = true;
  Outcome got = commit(1 << 20);
  const bool got_zero = !backend_.created.empty() && backend_.created[0] == 0;
  const bool fd0_open = fcntl(0, F_GETFD) >= 0;
  const int fds_after = open_fd_count();
  // And the normal path with handle 0.
  Outcome again = commit(1 << 20);
  const bool fd0_open_after_map = fcntl(0, F_GETFD) >= 0;
  if (saved_stdin >= 0) {
    dup2(saved_stdin, 0);
    close(saved_stdin);
  }
  EXPECT_TRUE(got_zero) << "the first chunk was not fd 0; the test proves nothing";
  EXPECT_NE(got.code, ISHMEM_SUCCESS);
  EXPECT_NE(got.what.find("injected export failure"), std::string::npos) << got.what;
  EXPECT_FALSE(fd0_open) << "chunk handle 0 leaked";
  EXPECT_EQ(fds_after, fds_without_stdin) << "fds leaked";
  EXPECT_EQ(again.code, ISHMEM_SUCCESS) << again.what;
  EXPECT_FALSE(fd0_open_after_map) << "chunk handle 0 kept after mapping";
  EXPECT_EQ(heap_->committed(), std::size_t{1} << 20);
}

TEST_F(Heap, GrowthBeyondSixteenGiBInOneStep) {
  // 17 GiB at once: more than 16 chunks of 1 GiB, so the chunks grow instead. Memory is only
  // reserved and mapped; the test touches two pages per PE.
  make_heap(20 * kGiB);
  expect_commit_works(17 * kGiB);
  EXPECT_LE(heap_->chunk_count(), kMaxFdsPerMessage);
  EXPECT_GE(heap_->committed(), 17 * kGiB);
  // The rest of the heap in a second step, with 1 GiB chunks again.
  expect_commit_works(20 * kGiB);
  EXPECT_EQ(heap_->committed(), 20 * kGiB);
}

TEST_F(Heap, SlotsFartherApartThanTheCapacityKeepItsLimit) {
  // Slots 4 GiB apart, as a GPU heap's are (device code then adds to an address's high word
  // only), here over the host backend: the stride grows; the capacity and commits do not.
  const std::size_t capacity = (64 << 20) + 1, granule = backend_.granularity();
  const std::size_t rounded = (capacity + granule - 1) / granule * granule;
  make_heap(capacity, 4 * kGiB);
  EXPECT_EQ(heap_->stride(), 4 * kGiB);
  EXPECT_EQ(heap_->capacity(), rounded);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(heap_->window()) % (4 * kGiB), 0u);
  expect_commit_works(rounded);  // the last int of each peer's capacity, read through its slot
  EXPECT_EQ(heap_->committed(), rounded);
  Outcome past = commit(rounded + 1);
  EXPECT_EQ(past.code, ISHMEM_ERR_NOMEM);
  EXPECT_NE(past.what.find("more than ISHMEM_SYMMETRIC_SIZE"), std::string::npos) << past.what;
  EXPECT_EQ(heap_->committed(), rounded);
}

TEST_F(Heap, SlotUnitThatIsNoPowerOfTwoMultipleOfTheGranularityIsRefused) {
  // Not a multiple, then a multiple that is no power of two (slots must stay aligned to the
  // largest power of two dividing the capacity).
  for (std::size_t unit : {backend_.granularity() + 1, 3 * backend_.granularity()}) {
    try {
      make_heap(64 << 20, unit);
      ADD_FAILURE() << "a slot unit of " << unit << " bytes was taken";
    } catch (const Error &e) {
      EXPECT_EQ(e.code(), ISHMEM_ERR_INTERNAL);
      EXPECT_NE(std::string(e.what()).find("no power-of-two multiple of the"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
