// Authenticated Unix-socket connections between the PEs of one node, used to pass heap-chunk
// fds (SCM_RIGHTS). Sockets live in the abstract namespace under a name derived from a random
// per-job token; a peer is accepted only if it presents the token and SO_PEERCRED shows our
// uid and the pid that MPI reported for that PE.
#pragma once

#include <cstdint>
#include <vector>

#include "bootstrap/fd_channel.h"
#include "bootstrap/mpi_bootstrap.h"

namespace ishmem::detail {

// What a PE tells its peers about a chunk it exports. Every PE exports the same chunk (same
// tag, offset and size) in the same collective step; receivers check that.
struct ChunkMessage {
  std::uint64_t magic;
  std::uint64_t tag;     // sequence number of the exchange
  std::uint64_t offset;  // offset of the chunk in each PE's heap
  std::uint64_t bytes;   // size of each fd's chunk
  std::int32_t status;   // ISHMEM_SUCCESS, or the error the sender hit (then nfds is 0)
  std::uint32_t nfds;
};

class PeerMesh {
 public:
  // Collective over the node. Throws (with every socket closed) on any failure.
  PeerMesh(const MpiBootstrap &boot, double timeout_s);
  PeerMesh(const PeerMesh &) = delete;
  PeerMesh &operator=(const PeerMesh &) = delete;

  // Sends `fds` with `mine` to every local peer and receives each peer's. Returns the fds
  // received, by slot (this PE's own slot stays empty). Throws if any peer reports failure,
  // disagrees on tag/offset/size, or sends a malformed message; received fds are then closed.
  std::vector<std::vector<UniqueFd>> exchange(const ChunkMessage &mine,
                                              const std::vector<int> &fds);

  std::size_t open_sockets() const;

 private:
  const Topology &topo_;
  double timeout_s_;
  std::vector<UniqueFd> conn_;  // by slot; own slot empty
  const char *peer_name(int slot);
  char name_buf_[32];
};

constexpr std::uint64_t kChunkMagic = 0x69736d656d43484bull;  // "ismemCHK"

}  // namespace ishmem::detail
