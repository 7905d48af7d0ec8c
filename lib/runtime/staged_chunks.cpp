#include "runtime/staged_chunks.h"

#include <algorithm>
#include <cstdlib>

#include "backend/gpu/gpu_backend.h"
#include "common/error.h"

namespace ishmem::detail {

StagedChunks::StagedChunks(Backend &backend, GpuBackend *gpu) : backend_(backend), gpu_(gpu) {
  if (!gpu_) return;
  try {
    for (char *&buffer : pinned_) {
      char *fresh = static_cast<char *>(std::aligned_alloc(4096, kChunk));
      if (!fresh)
        fail(ISHMEM_ERR_SYSTEM, "off-node staging: no memory for a %zu-byte host buffer", kChunk);
      try {
        gpu_->register_host(fresh, kChunk);
      } catch (...) {
        std::free(fresh);
        throw;
      }
      buffer = fresh;
    }
  } catch (...) {
    release();
    throw;
  }
}

StagedChunks::~StagedChunks() {
  release();
}

void StagedChunks::release() noexcept {
  for (char *&buffer : pinned_)
    if (buffer) {
      gpu_->unregister_host(buffer);
      std::free(buffer);
      buffer = nullptr;
    }
}

void StagedChunks::send(MPI_Comm comm, int peer, int tag, const char *src, std::size_t bytes,
                        const Wait &wait) {
  MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  for (std::size_t done = 0, i = 0; done < bytes; ++i) {
    const int slot = static_cast<int>(i & 1);
    wait(&req[slot], 1);  // the buffer's previous chunk has left
    const std::size_t n = std::min(kChunk, bytes - done);
    const char *from = src + done;
    if (gpu_) {
      backend_.copy(pinned_[slot], from, n);
      from = pinned_[slot];
    }
    ISHMEMI_CHECK_MPI(MPI_Isend(from, static_cast<int>(n), MPI_BYTE, peer, tag, comm, &req[slot]));
    done += n;
  }
  wait(req, 2);
}

void StagedChunks::recv(MPI_Comm comm, int peer, int tag, char *dst, std::size_t bytes,
                        const Wait &wait) {
  MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  std::size_t at[2] = {0, 0}, len[2] = {0, 0};
  std::size_t posted = 0;
  auto post = [&](int slot) {
    len[slot] = std::min(kChunk, bytes - posted);
    at[slot] = posted;
    char *into = gpu_ ? pinned_[slot] : dst + posted;
    ISHMEMI_CHECK_MPI(
        MPI_Irecv(into, static_cast<int>(len[slot]), MPI_BYTE, peer, tag, comm, &req[slot]));
    posted += len[slot];
  };
  for (int slot = 0; slot < 2 && posted < bytes; ++slot) post(slot);
  for (std::size_t done = 0, i = 0; done < bytes; ++i) {
    const int slot = static_cast<int>(i & 1);
    wait(&req[slot], 1);
    if (gpu_) backend_.copy(dst + at[slot], pinned_[slot], len[slot]);
    done += len[slot];
    if (posted < bytes) post(slot);
  }
}

}  // namespace ishmem::detail
