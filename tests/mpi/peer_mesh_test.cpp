// PeerMesh's fd exchange on its own, beside the runtime's: it stays in step after malformed,
// mismatched and failed messages. Setup is tested in peer_mesh_setup_test.cpp.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/peer_mesh.h"
#include "mpi_test_util.h"
#include "common/error.h"

using namespace ishmem::detail;
using namespace ishmem_test;

namespace {

constexpr double kTimeout = 20.0;  // the mesh's deadline; a hang shows as a timeout of this

UniqueFd memfd_with(const std::string &text) {
  UniqueFd fd(memfd_create("peer-mesh-test", MFD_CLOEXEC));
  EXPECT_TRUE(fd);
  EXPECT_EQ(write(fd.get(), text.data(), text.size()), static_cast<ssize_t>(text.size()));
  return fd;
}

std::string read_all(int fd) {
  char buf[256];
  ssize_t n = pread(fd, buf, sizeof buf, 0);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

std::string chunk_text(int pe, int k) {
  return "pe " + std::to_string(pe) + " chunk " + std::to_string(k);
}

struct Outcome {
  int code = ISHMEM_SUCCESS;
  std::string what;
};

// How one round of the exchange goes wrong, and who sends the bad message.
enum class Fault { none, wrong_tag, wrong_offset, peer_failed, wrong_fd_count };

const char *fault_name(Fault f) {
  switch (f) {
    case Fault::none:
      return "none";
    case Fault::wrong_tag:
      return "wrong tag";
    case Fault::wrong_offset:
      return "wrong offset";
    case Fault::peer_failed:
      return "peer failed";
    case Fault::wrong_fd_count:
      return "wrong fd count";
  }
  return "?";
}

TEST(PeerMeshExchange, StaysInStepAfterBadMessages) {
  MpiBootstrap boot(MPI_COMM_WORLD, false);
  const Topology &topo = boot.topology();
  if (!all_true(topo.n_local > 1)) GTEST_SKIP() << "needs two node-local PEs";
  PeerMesh mesh(boot, kTimeout);
  const int me = topo.local_rank;
  const int last = topo.n_local - 1;

  std::vector<UniqueFd> mine;
  std::vector<int> raw;
  for (int k = 0; k < 2; ++k) {
    mine.push_back(memfd_with(chunk_text(topo.my_pe, k)));
    raw.push_back(mine.back().get());
  }
  const int fds_before = open_fd_count();
  std::uint64_t tag = 0;
  // Each faulty round is followed by a clean one, which must read its own messages, not ones
  // left over from the faulty round (that needs three PEs or more: a PE that stopped reading
  // at its first bad message left the later peers' messages in their sockets).
  for (Fault fault : {Fault::wrong_tag, Fault::wrong_offset, Fault::peer_failed,
                      Fault::wrong_fd_count, Fault::none}) {
    SCOPED_TRACE(fault_name(fault));
    ChunkMessage msg{kChunkMagic, ++tag, 0, 4096, ISHMEM_SUCCESS, 2};
    std::vector<int> fds = raw;
    bool expect_failure = fault != Fault::none;
    int expect_code = ISHMEM_ERR_SYSTEM;
    if (fault == Fault::wrong_tag && me == 0) msg.tag += 1000;
    if (fault == Fault::wrong_offset) {
      if (me == 0) msg.offset = 8192;
      expect_code = ISHMEM_ERR_MISMATCH;
    }
    if (fault == Fault::peer_failed) {
      if (me == last) {
        msg.status = ISHMEM_ERR_NOMEM;
        msg.nfds = 0;
        fds.clear();
      }
      // The PE that failed knows it already; the others hear of it.
      expect_failure = me != last;
      expect_code = ISHMEM_ERR_NOMEM;
    }
    if (fault == Fault::wrong_fd_count) {
      if (me == 0) msg.nfds = 3;  // but sends 2
      expect_failure = me != 0;
      expect_code = ISHMEM_ERR_MISMATCH;
    }
    Outcome got;
    std::vector<std::vector<UniqueFd>> received;
    try {
      received = mesh.exchange(msg, fds);
    } catch (const Error &e) {
      got = {e.code(), e.what()};
    }
    if (expect_failure) {
      EXPECT_EQ(got.code, expect_code) << got.what;
      if (fault == Fault::peer_failed) {
        EXPECT_NE(got.what.find("pe " + std::to_string(topo.local_pes[last])), std::string::npos)
            << got.what;
      }
    } else {
      EXPECT_EQ(got.code, ISHMEM_SUCCESS) << got.what;
    }
    if (fault == Fault::none && got.code == ISHMEM_SUCCESS) {
      ASSERT_EQ(received.size(), static_cast<std::size_t>(topo.n_local));
      for (int j = 0; j < topo.n_local; ++j) {
        if (j == me) {
          EXPECT_TRUE(received[j].empty());
          continue;
        }
        ASSERT_EQ(received[j].size(), 2u) << "from slot " << j;
        for (int k = 0; k < 2; ++k)
          EXPECT_EQ(read_all(received[j][k].get()), chunk_text(topo.local_pes[j], k));
      }
    }
    received.clear();
    // Every received fd is closed, whatever went wrong.
    EXPECT_EQ(open_fd_count(), fds_before) << "fds leaked";
  }
  // One more clean round after all that, through the same sockets.
  ChunkMessage msg{kChunkMagic, ++tag, 4096, 4096, ISHMEM_SUCCESS, 1};
  Outcome got;
  try {
    auto received = mesh.exchange(msg, {raw[1]});
    for (int j = 0; j < topo.n_local; ++j)
      if (j != me) {
        EXPECT_EQ(read_all(received[j].at(0).get()), chunk_text(topo.local_pes[j], 1));
      }
  } catch (const Error &e) {
    got = {e.code(), e.what()};
  }
  EXPECT_EQ(got.code, ISHMEM_SUCCESS) << got.what;
  EXPECT_EQ(mesh.open_sockets(), static_cast<std::size_t>(topo.n_local - 1));
}

}  // namespace
