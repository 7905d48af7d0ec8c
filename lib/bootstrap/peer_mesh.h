// Authenticated Unix-socket connections between the PEs of one node, used to pass heap-chunk
// fds (SCM_RIGHTS). Each PE listens in the abstract namespace under a name of fresh randomness
// of its own (getrandom), drawn again if another process holds it, and publishes the name to
// its node peers over MPI only once it is bound: no name can be guessed, and so none squatted,
// before it is in use. The name is not secret afterwards: any local process can read it in
// /proc/net/unix and connect. Safety comes from the checks on each connection instead: the
// listener reads SO_PEERCRED and drops another user's connection before reading anything; the
// peer must then send a hello with the job's token, its slot and its pid, and SO_PEERCRED must
// show that pid, the one MPI reported for that slot; a silent connection is dropped after a
// short wait of its own, while the listener goes on accepting and reading the others' hellos,
// so that it costs the peers nothing. The connecting side checks SO_PEERCRED of the listener
// likewise. Dropped connections are logged a few at a time, then counted.
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

  // Test seam: when set, called with each attempt's (0-based) name before it is bound; it may
  // overwrite the NUL-terminated name (at most `capacity` bytes with the NUL), e.g. with one
  // that is taken already.
  using NameHook = void (*)(int attempt, char *name, std::size_t capacity);
  static NameHook name_hook_for_testing;

 private:
  const Topology &topo_;
  double timeout_s_;
  std::vector<UniqueFd> conn_;  // by slot; own slot empty
  const char *peer_name(int slot);
  char name_buf_[32];
};

constexpr std::uint64_t kChunkMagic = 0x69736d656d43484bull;  // "ismemCHK"

}  // namespace ishmem::detail
