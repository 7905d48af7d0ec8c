#include "common/service_thread.h"

#include <system_error>

#include "common/error.h"

namespace ishmem::detail {

int ServiceThread::add(const char *name, Poller poll) {
  std::lock_guard<std::mutex> lock(mutex_);
  const int id = next_id_++;
  pollers_.push_back(Entry{id, name, std::move(poll)});
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

void ServiceThread::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    bool worked = false;
    for (std::size_t i = 0; i < pollers_.size();) {
      try {
        worked = pollers_[i].poll() || worked;
        ++i;
      } catch (const Error &e) {
        log(LogLevel::error, "service thread: %s stopped: %s", pollers_[i].name.c_str(), e.what());
        if (first_error_.empty()) first_error_ = pollers_[i].name + ": " + e.what();
        pollers_.erase(pollers_.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    // Between rounds the lock is released, so that add() and remove() get in.
    if (worked) {
      lock.unlock();
      std::this_thread::yield();
      lock.lock();
    } else {
      wake_.wait_for(lock, interval_, [this] { return stopping_; });
    }
  }
}

}  // namespace ishmem::detail
