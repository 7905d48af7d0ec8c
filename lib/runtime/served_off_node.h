// The served off-node path: requests travel as two-sided MPI messages on a communicator of
// their own, and the TARGET executes them on a service thread (common/service_thread.h):
// puts land in its heap, gets are read from it, atomics run where the word lives (a device
// atomic on a GPU heap, a CPU atomic on a host heap), so that they are atomic with respect to
// node-local PEs' atomics on the same word. Data moves in chunks (runtime/staged_chunks.h),
// staged through pinned host buffers on GPU heaps. The path of GPU heaps with off-node PEs,
// and of host heaps with ISHMEM_OFF_NODE=served (docs/OFF_NODE.md).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "common/service_thread.h"
#include "device/word_atomic.h"
#include "runtime/staged_chunks.h"
#include "transport/off_node.h"

namespace ishmem::detail {

struct Runtime;

// Makes the served path Runtime::remote and registers its poller with the service thread.
// Collective over the world; fails every PE unless MPI provides MPI_THREAD_MULTIPLE.
void start_served_off_node(Runtime &rt);

class ServedOffNode final : public OffNode {
 public:
  // Collective over the world: duplicates its communicator.
  explicit ServedOffNode(Runtime &rt);
  ~ServedOffNode() override;
  ServedOffNode(const ServedOffNode &) = delete;
  ServedOffNode &operator=(const ServedOffNode &) = delete;

  void put(int pe, std::size_t offset, const void *source, std::size_t bytes,
           bool blocking) override;
  void get(int pe, std::size_t offset, void *dest, std::size_t bytes, bool blocking) override;
  void atomic(int pe, std::size_t offset, MPI_Datatype type, MPI_Op op, const void *origin,
              const void *compare, void *result) override;
  void flush(int pe) override;
  void flush_all() override;
  // A waiting application thread serves: the server thread stands down meanwhile.
  void progress() override;
  bool dirty() const override { return dirty_.load(std::memory_order_acquire); }

  // Executes the requests that have arrived for this PE; true if there were any. The server
  // thread's poller, and that of every thread that waits (progress(), this PE's own
  // single-message requests): one serves at a time, the others return. `stand_down_server`:
  // a waiting thread serves, and the server thread sleeps meanwhile.
  bool serve(bool stand_down_server);
  // Starts the server thread (after construction, on every PE).
  void start(std::chrono::microseconds interval);

 private:
  struct Request;
  struct Message;
  void send_request(int pe, const Request &request);
  // Sends `request` and receives its answer of `answer_bytes` into `answer`.
  void exchange(int pe, const Request &request, void *answer, int answer_bytes, const char *what);
  // Waits for `n` requests, up to ISHMEM_COLLECTIVE_TIMEOUT, serving peers meanwhile unless
  // `serve_peers` is false.
  void wait(MPI_Request *reqs, int n, const char *what, int pe, bool serve_peers = true);
  StagedChunks::Wait waiter(const char *what, int pe);
  // Executes `message`, of `received` bytes, from PE `origin`.
  void execute(int origin, const Message &message, std::size_t received);
  // Runs `op` on the word at `word` (this process's mapping) the way the heap's own atomics do.
  std::uint64_t word_atomic(char *word, int bytes, WordOp op, std::uint64_t operand,
                            std::uint64_t compare);

  // The path's communicator, freed however construction ends.
  struct Comm {
    MPI_Comm comm = MPI_COMM_NULL;
    ~Comm() {
      if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
    }
  };

  Comm owned_comm_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  char *local_base_;
  char *window_;
  std::size_t stride_;
  const std::vector<int> &pe_slot_;  // the runtime's: a node-local PE's slot, else -1
  double timeout_s_;
  DeviceWordAtomic *device_atomic_ = nullptr;  // GPU heaps: owned
  StagedChunks origin_chunks_;                 // this PE's requests (under origin_mutex_)
  StagedChunks target_chunks_;                 // peers' requests (under serve_mutex_)
  std::mutex origin_mutex_;  // one request of this PE at a time: its answers come in order
  std::mutex serve_mutex_;
  std::vector<char> unacked_;  // per PE: puts sent since its last flush (under origin_mutex_)
  // Host heaps: small puts carry their data (Message); a GPU heap's data is always staged.
  const bool inline_puts_;
  std::unique_ptr<Message> inbox_;  // the request being served (under serve_mutex_)
  std::atomic<bool> dirty_{false};
  // When a waiting thread last served (steady clock, ns). Until kStandDown after it the server
  // thread sleeps: on a node with fewer cores than threads, its wake-ups beside a waiting
  // thread's MPI calls slowed each of those several times (docs/MULTI_NODE.md).
  std::atomic<std::int64_t> app_served_ns_{0};
  // Serves while no other thread does. A thread of its own, not Runtime::service: this PE's
  // own requests may be made there (the device proxy), and a transfer's chunk waits serve no
  // peer (waiter()), so requests would wait behind the proxy's transfers.
  std::unique_ptr<ServiceThread> server_;
};

}  // namespace ishmem::detail
