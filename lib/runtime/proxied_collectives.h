// The collectives that kernels post to the device proxy for teams that span nodes
// (device_proxy.cpp; docs/MULTI_NODE.md): each runs on a thread of its own, so that the
// proxy's ring moves on while MPI completes it (a later request that another PE needs first,
// a collective on another team); the collectives of one team run one at a time, in the order
// they were posted. A thread compares the members' calls, then runs the staged algorithm
// (collectives_staged.cpp) on the team's `proxied` twin, and answers with the status.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <list>
#include <mutex>
#include <thread>
#include <vector>

#include "ishmem/device_handle.h"
#include "runtime/reduce_ops.h"
#include "runtime/runtime.h"

namespace ishmem::detail {

// The reduction `op` on `type` into `out`, for the element types kernels reduce (integers of 1
// to 8 bytes, float, double); false for any other pair.
bool device_reduction(ReduceOp op, ElementType type, Reduction &out);

class ProxiedCollectives {
 public:
  using Answer = std::function<void(int status)>;

  explicit ProxiedCollectives(Runtime &rt);
  ~ProxiedCollectives();  // joins every thread: each ends within the collective deadline
  ProxiedCollectives(const ProxiedCollectives &) = delete;
  ProxiedCollectives &operator=(const ProxiedCollectives &) = delete;

  // Starts `req` (ISHMEMX_PROXY_COLLECTIVE); its thread calls `answer` with the status.
  // Throws ISHMEM_ERR_SYSTEM if no thread can start.
  void start(const ishmemx_proxy_slot_t &req, Answer answer);
  // Joins the threads that ended; the proxy's poller calls it.
  void reap();

 private:
  struct Running {
    std::thread thread;
    std::atomic<bool> ended{false};
  };
  // The thread of `req`, the `turn`-th collective posted on its team.
  void run(const ishmemx_proxy_slot_t &req, std::uint64_t turn, const Answer &answer,
           std::atomic<bool> &ended);

  Runtime &rt_;
  std::list<Running> running_;         // the service thread's (a list: threads keep their entry)
  std::vector<std::uint64_t> posted_;  // per team slot: collectives started (service thread)
  std::mutex mutex_;
  std::condition_variable turn_ended_;
  std::vector<std::uint64_t> finished_;  // per team slot, under mutex_: collectives that ended
};

}  // namespace ishmem::detail
