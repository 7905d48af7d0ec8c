// One background thread per PE that serves what must move while the program computes: MPI
// progress for peers' passive-target operations on this PE, the off-node service of GPU
// heaps, and the device proxy's request ring. Each user registers a poll function; the thread
// calls every poller in turn, keeps going while any reports work and for a short window
// after the last work (100 us, or the interval if shorter), and otherwise sleeps for the
// interval (ISHMEM_PROGRESS_INTERVAL). While a poller that must answer promptly is registered
// (the device proxy, the off-node server), the thread's sleeps use a 1 us timer slack; MPI
// progress alone keeps the kernel's default, which stretches each sleep by up to 50 us but
// wakes an idle PE about a third as often (docs/MULTI_NODE.md, "Interval and cost").
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ishmem::detail {

class ServiceThread {
 public:
  // A poller returns true if it did work (the thread then polls again at once). It may throw
  // ishmem::detail::Error: the first error is logged and kept (first_error()); the poller is
  // then dropped, since calling it again would only repeat the failure.
  using Poller = std::function<bool()>;
  // How soon after a sleep's interval the thread must wake for a poller.
  enum class Wakeup { relaxed, prompt };

  // After work the thread polls without sleeping for `busy_window` (at most one interval):
  // short, so that a long interval chosen to save CPU does not turn into long spinning.
  explicit ServiceThread(std::chrono::microseconds interval,
                         std::chrono::microseconds busy_window = std::chrono::microseconds(100))
      : interval_(interval), busy_window_(std::min(busy_window, interval)) {}
  ~ServiceThread() { stop(); }
  ServiceThread(const ServiceThread &) = delete;
  ServiceThread &operator=(const ServiceThread &) = delete;

  // Registers `poll` under `name` (for messages) and starts the thread if it is not running.
  // Returns an id for remove(). Throws ISHMEM_ERR_INTERNAL if the thread cannot start.
  int add(const char *name, Poller poll, Wakeup wakeup = Wakeup::relaxed);
  // Unregisters a poller; on return the thread is not inside it and never calls it again.
  void remove(int id);
  // Stops and joins the thread (pollers stay registered until destruction). Idempotent.
  void stop();
  bool running() const { return thread_.joinable(); }
  std::chrono::microseconds interval() const { return interval_; }
  // The message of the first poller error, or empty.
  std::string first_error() const;

 private:
  struct Entry {
    int id;
    std::string name;
    Poller poll;
    Wakeup wakeup;
  };
  void loop();
  // Sets the calling (service) thread's timer slack for the pollers registered now.
  void set_timer_slack(unsigned long default_slack_ns);

  const std::chrono::microseconds interval_;
  const std::chrono::microseconds busy_window_;
  mutable std::mutex mutex_;  // held while pollers run: remove() waits for the current one
  std::condition_variable wake_;
  std::vector<Entry> pollers_;
  int next_id_ = 1;
  bool pollers_changed_ = false;  // the thread re-derives its timer slack
  bool stopping_ = false;
  std::string first_error_;
  std::thread thread_;
};

}  // namespace ishmem::detail
