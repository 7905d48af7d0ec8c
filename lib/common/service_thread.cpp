#include "common/service_thread.h"

#include <sys/prctl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "common/error.h"

namespace ishmem::detail {

int ServiceThread::add(const char *name, Poller poll, Wakeup wakeup) {
  std::lock_guard<std::mutex> lock(mutex_);
  const int id = next_id_++;
  pollers_.push_back(Entry{id, name, std::move(poll), wakeup});
  pollers_changed_ = true;
  if (!thread_.joinable()) {
    stopping_ = false;
    try {
      thread_ = std::thread([this] { loop(); });
    } catch (const std::system_error &e) {
      pollers_.pop_back();
      fail(ISHMEM_ERR_INTERNAL, "starting the service thread for %s: %s", name, e.what());
    }
  }
  return id;
}

void ServiceThread::remove(int id) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = pollers_.begin(); it != pollers_.end(); ++it)
    if (it->id == id) {
      pollers_.erase(it);
      pollers_changed_ = true;
      return;
    }
}

void ServiceThread::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::string ServiceThread::first_error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return first_error_;
}

void ServiceThread::set_timer_slack(unsigned long default_slack_ns) {
  // The kernel's default timer slack (50 us) stretches every sleep of a 20 us interval to
  // about 70 us: a request that arrives while the thread sleeps waits that long. A prompt
  // poller gets 1 us; the price is about three times as many wake-ups of an idle thread, each
  // of which costs CPU (30 us of it on a virtual machine), so pollers that can wait keep the
  // default.
  bool prompt = false;
  for (const Entry &e : pollers_) prompt = prompt || e.wakeup == Wakeup::prompt;
  // A thread made with a finer slack than 1 us keeps it.
  const unsigned long slack_ns = prompt ? std::min(1000UL, default_slack_ns) : default_slack_ns;
  if (prctl(PR_SET_TIMERSLACK, slack_ns, 0UL, 0UL, 0UL) != 0)
    log(LogLevel::warn,
        "service thread: prctl(PR_SET_TIMERSLACK, %lu): %s; its sleeps may overshoot", slack_ns,
        std::strerror(errno));
}

void ServiceThread::loop() {
  // The slack this thread inherited (PR_GET_TIMERSLACK returns it, never fails).
  const unsigned long default_slack_ns =
      static_cast<unsigned long>(prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL));
  using Clock = std::chrono::steady_clock;
  Clock::time_point last_work = Clock::now() - busy_window_;  // no work yet: sleep when idle
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (pollers_changed_) {
      pollers_changed_ = false;
      set_timer_slack(default_slack_ns);
    }
    bool worked = false;
    for (std::size_t i = 0; i < pollers_.size();) {
      try {
        worked = pollers_[i].poll() || worked;
        ++i;
      } catch (const Error &e) {
        log(LogLevel::error, "service thread: %s stopped: %s", pollers_[i].name.c_str(), e.what());
        if (first_error_.empty()) first_error_ = pollers_[i].name + ": " + e.what();
        pollers_.erase(pollers_.begin() + static_cast<std::ptrdiff_t>(i));
        pollers_changed_ = true;
      }
    }
    // Requests come in bursts (a kernel's put then its quiet, a pipeline of chunks): for a
    // short window after the last work the thread keeps polling, so the next request of a
    // burst is seen at once rather than after a sleep. Between rounds the lock is released,
    // so that add() and remove() get in.
    const Clock::time_point now = Clock::now();
    if (worked) last_work = now;
    if (now - last_work < busy_window_) {
      lock.unlock();
      std::this_thread::yield();
      lock.lock();
    } else {
      wake_.wait_for(lock, interval_, [this] { return stopping_; });
    }
  }
}

}  // namespace ishmem::detail
