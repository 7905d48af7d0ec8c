// The service thread (common/service_thread.h): pollers are called, remove() waits for a
// poller that is running, a poller's error drops it (and is kept), stop() joins, and the
// thread's timer slack follows the pollers' wake-up needs.
#include <gtest/gtest.h>
#include <sys/prctl.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "common/error.h"
#include "common/service_thread.h"

using namespace ishmem::detail;
using namespace std::chrono_literals;

namespace {

// Polls `done` for up to 5 s; the thread runs every 100 us, so this is ample on a loaded machine.
template <class Done>
bool eventually(Done done) {
  const auto give_up = std::chrono::steady_clock::now() + 5s;
  while (!done()) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

TEST(ServiceThread, StartsWithTheFirstPollerAndCallsEvery) {
  ServiceThread service(100us);
  EXPECT_FALSE(service.running());
  std::atomic<int> a{0}, b{0};
  service.add("a", [&] { return ++a, false; });
  EXPECT_TRUE(service.running());
  service.add("b", [&] { return ++b, false; });
  EXPECT_TRUE(eventually([&] { return a.load() > 3 && b.load() > 3; }))
      << "a " << a.load() << ", b " << b.load();
  EXPECT_EQ(service.interval(), 100us);
}

TEST(ServiceThread, SleepsWithoutWorkAndPollsAgainAtOnceWithWork) {
  // A poller that reports work is called back to back; one that does not, once an interval.
  ServiceThread service(std::chrono::microseconds(200000));
  std::atomic<int> calls{0};
  service.add("idle", [&] { return ++calls, false; });
  std::this_thread::sleep_for(100ms);
  EXPECT_LE(calls.load(), 2) << "an idle poller is called once per 200 ms interval";
  std::atomic<int> busy{0};
  service.add("busy", [&] { return ++busy < 1000; });
  EXPECT_TRUE(eventually([&] { return busy.load() >= 1000; })) << busy.load();
}

TEST(ServiceThread, KeepsPollingForAWindowAfterWork) {
  // The next request of a burst is seen at once: for the busy window after the last work the
  // thread polls without sleeping, then it sleeps again. Times count from the work itself.
  using Clock = std::chrono::steady_clock;
  ServiceThread service(std::chrono::microseconds(200000), std::chrono::microseconds(200000));
  std::atomic<int> calls{0}, worked{0};
  std::atomic<Clock::rep> worked_at{0};
  service.add("once", [&] {  // the thread starts working
    if (worked.exchange(1) != 0) return false;
    worked_at = Clock::now().time_since_epoch().count();
    return true;
  });
  service.add("idle", [&] { return ++calls, false; });
  ASSERT_TRUE(eventually([&] { return worked_at.load() != 0; }));
  const Clock::time_point work{Clock::duration(worked_at.load())};
  std::this_thread::sleep_until(work + 100ms);
  EXPECT_GT(calls.load(), 10) << "polled without sleeping within the window after work";
  std::this_thread::sleep_until(work + 450ms);  // past the window and one sleep
  const int before = calls.load();
  std::this_thread::sleep_for(100ms);
  EXPECT_LE(calls.load() - before, 2) << "an idle poller is called once per 200 ms interval";
}

TEST(ServiceThread, TheBusyWindowIsShort) {
  // A long interval (to save CPU) does not mean long spinning after work.
  ServiceThread service(std::chrono::microseconds(200000));
  std::atomic<int> calls{0}, worked{0};
  service.add("once", [&] { return worked.exchange(1) == 0; });
  service.add("idle", [&] { return ++calls, false; });
  std::this_thread::sleep_for(100ms);
  EXPECT_LE(calls.load(), 10000) << "spun for more than a short window after work";
}

TEST(ServiceThread, RemoveWaitsForTheRunningPoller) {
  ServiceThread service(100us);
  std::atomic<int> entered{0}, left{0};
  const int id = service.add("slow", [&] {
    ++entered;
    std::this_thread::sleep_for(50ms);  // remove() comes while the thread is in here
    ++left;
    return false;
  });
  ASSERT_TRUE(eventually([&] { return entered.load() > 0; }));
  service.remove(id);
  // remove() returned: the poller is not running and never runs again.
  EXPECT_EQ(entered.load(), left.load());
  const int after = entered.load();
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(entered.load(), after);
  EXPECT_TRUE(service.running());
}

TEST(ServiceThread, AnErrorDropsThePollerAndIsKept) {
  ServiceThread service(100us);
  std::atomic<int> failing{0}, healthy{0};
  set_log_level(LogLevel::none);
  service.add("failing", [&]() -> bool {
    ++failing;
    fail(ISHMEM_ERR_INTERNAL, "broken on purpose");
  });
  service.add("healthy", [&] { return ++healthy, false; });
  EXPECT_TRUE(eventually([&] { return healthy.load() > 5; }));
  set_log_level(LogLevel::warn);
  EXPECT_EQ(failing.load(), 1) << "a failed poller is never called again";
  EXPECT_NE(service.first_error().find("failing: "), std::string::npos) << service.first_error();
  EXPECT_NE(service.first_error().find("broken on purpose"), std::string::npos);
}

TEST(ServiceThread, StopJoinsAndIsIdempotent) {
  ServiceThread service(100us);
  std::atomic<int> calls{0};
  service.add("p", [&] { return ++calls, false; });
  ASSERT_TRUE(eventually([&] { return calls.load() > 0; }));
  service.stop();
  EXPECT_FALSE(service.running());
  const int after = calls.load();
  std::this_thread::sleep_for(10ms);
  EXPECT_EQ(calls.load(), after) << "no call after stop()";
  service.stop();
  EXPECT_FALSE(service.running());
}

TEST(ServiceThread, TimerSlackIsTightOnlyWhileAPromptPollerIsRegistered) {
  // Pollers run on the service thread, so each reads that thread's own timer slack.
  const auto inherited = static_cast<unsigned long>(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
  if (inherited <= 1000UL) GTEST_SKIP() << "this thread's slack is already at most 1 us";
  ServiceThread service(100us);
  constexpr unsigned long kUnseen = ~0UL;
  std::atomic<unsigned long> relaxed_sees{kUnseen}, prompt_sees{kUnseen};
  auto slack = [] { return static_cast<unsigned long>(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0)); };
  service.add("relaxed", [&] { return relaxed_sees = slack(), false; });
  ASSERT_TRUE(eventually([&] { return relaxed_sees.load() != kUnseen; }));
  EXPECT_EQ(relaxed_sees.load(), inherited) << "MPI progress alone keeps the default slack";
  const int prompt = service.add(
      "prompt", [&] { return prompt_sees = slack(), false; }, ServiceThread::Wakeup::prompt);
  ASSERT_TRUE(eventually([&] { return prompt_sees.load() != kUnseen; }));
  EXPECT_EQ(prompt_sees.load(), 1000UL) << "a prompt poller's thread sleeps with 1 us slack";
  service.remove(prompt);
  relaxed_sees = kUnseen;
  ASSERT_TRUE(eventually([&] { return relaxed_sees.load() != kUnseen; }));
  EXPECT_EQ(relaxed_sees.load(), inherited) << "the default comes back with the prompt poller gone";
}

TEST(ServiceThread, StopWakesASleepingThread) {
  // An hour-long interval: stop() must not wait for it to pass.
  ServiceThread service(std::chrono::hours(1));
  service.add("p", [] { return false; });
  const auto start = std::chrono::steady_clock::now();
  service.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
}

}  // namespace
