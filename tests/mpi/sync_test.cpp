// Atomics, put-with-signal and point-to-point synchronization across PEs: the ordering
// litmus test, contention on one word, a compare-and-swap lock, and every wait/test form.
// Checks inside loops are EXPECTs: a fatal ASSERT would leave this PE's peers waiting for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "ishmem.h"
#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

template <class T>
T *sym_alloc(std::size_t count) {
  T *p = static_cast<T *>(ishmem_calloc(count, sizeof(T)));
  EXPECT_NE(p, nullptr) << ishmemx_last_error();
  return p;
}

// Message passing: data, fence, flag. The consumer waits for the flag and must then see the
// data of that round, never an older one.
TEST(Sync, MessagePassingLitmus) {
  const int rounds = 100000;
  long *data = sym_alloc<long>(4);
  long *flag = sym_alloc<long>(1);
  long *ack = sym_alloc<long>(1);
  ASSERT_TRUE(all_true(data && flag && ack));
  const int me = my_pe();
  const bool producer = me % 2 == 0 && me + 1 < n_pes();
  const bool consumer = me % 2 == 1;
  long stale = 0;
  for (long r = 1; r <= rounds && (producer || consumer); ++r) {
    if (producer) {
      long out[4] = {r, r * 3, r * 5, r * 7};
      EXPECT_EQ(ishmem_long_put(data, out, 4, me + 1), ISHMEM_SUCCESS);
      EXPECT_EQ(ishmem_fence(), ISHMEM_SUCCESS);
      EXPECT_EQ(ishmem_long_p(flag, r, me + 1), ISHMEM_SUCCESS);
      EXPECT_EQ(ishmem_long_wait_until(ack, ISHMEM_CMP_EQ, r), ISHMEM_SUCCESS);
    } else {
      EXPECT_EQ(ishmem_long_wait_until(flag, ISHMEM_CMP_EQ, r), ISHMEM_SUCCESS);
      stale += data[0] != r || data[1] != r * 3 || data[2] != r * 5 || data[3] != r * 7;
      EXPECT_EQ(ishmem_long_p(ack, r, me - 1), ISHMEM_SUCCESS);
    }
  }
  EXPECT_EQ(stale, 0) << "stale reads";
  EXPECT_TRUE(all_true(stale == 0));
  ishmem_barrier_all();
  ishmem_free(ack);
  ishmem_free(flag);
  ishmem_free(data);
}

// Every PE (and, where MPI is not involved, several threads per PE) adds to one word.
TEST(Sync, FetchAddContention) {
  long long *counter = sym_alloc<long long>(1);
  ASSERT_TRUE(all_true(counter != nullptr));
  const int threads = one_node() ? 4 : 1;  // MPI is initialized single-threaded
  const int per_thread = 5000;
  std::vector<std::thread> pool;
  std::vector<long long> seen_max(threads, -1);
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < per_thread; ++i) {
        long long old = ishmem_longlong_atomic_fetch_add(counter, 1, 0);
        if (old > seen_max[t]) seen_max[t] = old;
      }
    });
  for (auto &th : pool) th.join();
  ishmem_barrier_all();
  long long total = ishmem_longlong_atomic_fetch(counter, 0);
  EXPECT_EQ(total, static_cast<long long>(n_pes()) * threads * per_thread);
  for (long long m : seen_max) EXPECT_LT(m, total);
  ishmem_barrier_all();
  ishmem_free(counter);
}

// A spin lock from compare_swap protects a non-atomic read-modify-write on PE 0.
TEST(Sync, CompareSwapLock) {
  long *lock = sym_alloc<long>(1);
  long *shared = sym_alloc<long>(1);
  ASSERT_TRUE(all_true(lock && shared));
  const int iterations = 300;
  const long me = my_pe() + 1;
  for (int i = 0; i < iterations; ++i) {
    while (ishmem_long_atomic_compare_swap(lock, 0, me, 0) != 0) {
    }
    long value = ishmem_long_g(shared, 0);
    EXPECT_EQ(ishmem_long_p(shared, value + 1, 0), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_long_atomic_swap(lock, 0, 0), me) << "lock stolen";
  }
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_long_g(shared, 0), static_cast<long>(n_pes()) * iterations);
  ishmem_barrier_all();
  ishmem_free(shared);
  ishmem_free(lock);
}

// PE 0 and the last PE bounce a buffer with put-with-signal, checking every round's data.
TEST(Sync, SignalPingPong) {
  const std::size_t words = 1000;
  long *buf = sym_alloc<long>(words);
  uint64_t *sig = sym_alloc<uint64_t>(1);
  ASSERT_TRUE(all_true(buf && sig));
  const int me = my_pe(), last = n_pes() - 1;
  std::vector<long> out(words);
  long bad = 0;
  if (last > 0 && (me == 0 || me == last)) {
    const int peer = me == 0 ? last : 0;
    for (uint64_t r = 1; r <= 500; ++r) {
      const bool my_turn = (r % 2 == 1) == (me == 0);
      if (my_turn) {
        for (std::size_t i = 0; i < words; ++i) out[i] = static_cast<long>(r * 1000 + i);
        // The signal counts the messages the receiver got: set it to that count, or add one.
        int op = r % 4 < 2 ? ISHMEM_SIGNAL_SET : ISHMEM_SIGNAL_ADD;
        uint64_t value = op == ISHMEM_SIGNAL_SET ? (r + 1) / 2 : 1;
        int rc = r % 3 ? ishmem_putmem_signal(buf, out.data(), words * sizeof(long), sig, value, op,
                                              peer)
                       : ishmem_long_put_signal_nbi(buf, out.data(), words, sig, value, op, peer);
        EXPECT_EQ(rc, ISHMEM_SUCCESS) << ishmemx_last_error();
        ishmem_quiet();
      } else {
        EXPECT_EQ(ishmem_signal_wait_until(sig, ISHMEM_CMP_GE, (r + 1) / 2), (r + 1) / 2);
        for (std::size_t i = 0; i < words; ++i) bad += buf[i] != static_cast<long>(r * 1000 + i);
      }
    }
    EXPECT_EQ(ishmem_signal_fetch(sig), 250u);
  }
  EXPECT_EQ(bad, 0);
  EXPECT_EQ(ishmem_putmem_signal(buf, out.data(), 8, sig, 1, 7, 0), ISHMEM_ERR_INVALID_ARG);
  ishmem_barrier_all();
  ishmem_free(sig);
  ishmem_free(buf);
}

// The left neighbour sets entries 1 and 3 of this PE's array to 5 and 7; entry 2 is excluded.
TEST(Sync, WaitAndTestForms) {
  const std::size_t n = 6;
  int *ivars = sym_alloc<int>(n);
  ASSERT_TRUE(all_true(ivars != nullptr));
  int status[n] = {0, 0, 1, 0, 1, 1};  // consider entries 0, 1 and 3
  size_t idx[n];
  EXPECT_EQ(ishmem_int_test(&ivars[1], ISHMEM_CMP_EQ, 5), 0);
  EXPECT_EQ(ishmem_int_test_any(ivars, n, status, ISHMEM_CMP_GT, 0), SIZE_MAX);
  EXPECT_EQ(ishmem_int_test_some(ivars, n, idx, status, ISHMEM_CMP_GT, 0), 0u);
  EXPECT_EQ(ishmem_int_test_all(ivars, n, status, ISHMEM_CMP_EQ, 0), 1);
  ishmem_barrier_all();

  // Set entry 3 only after the neighbour is (probably) already waiting.
  EXPECT_EQ(ishmem_int_p(&ivars[1], 5, right_pe()), ISHMEM_SUCCESS);
  ishmem_quiet();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(ishmem_int_p(&ivars[3], 7, right_pe()), ISHMEM_SUCCESS);
  ishmem_quiet();
  // ivars: {0, 5, 0, 7, 0, 0}
  EXPECT_EQ(ishmem_int_wait_until(&ivars[3], ISHMEM_CMP_EQ, 7), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_int_wait_until_any(ivars, n, status, ISHMEM_CMP_GE, 5) % 2, 1u);
  std::size_t some = ishmem_int_wait_until_some(ivars, n, idx, status, ISHMEM_CMP_NE, 0);
  EXPECT_EQ(some, 2u);
  EXPECT_EQ(idx[0], 1u);
  EXPECT_EQ(idx[1], 3u);
  int excluded_all[n] = {1, 1, 1, 1, 1, 1};
  EXPECT_EQ(ishmem_int_wait_until_any(ivars, n, excluded_all, ISHMEM_CMP_EQ, 1), SIZE_MAX);
  int first_two[n] = {0, 0, 1, 1, 1, 1};
  EXPECT_EQ(ishmem_int_wait_until_all(ivars, n, first_two, ISHMEM_CMP_LE, 5), ISHMEM_SUCCESS);
  const int want[n] = {0, 5, 9, 7, 9, 9};
  EXPECT_EQ(ishmem_int_wait_until_all_vector(ivars, n, status, ISHMEM_CMP_EQ, want),
            ISHMEM_SUCCESS);
  // Entries 0, 1 and 3 hold: any of them (a series of calls returns each, AnyIsFair).
  const std::size_t any = ishmem_int_wait_until_any_vector(ivars, n, status, ISHMEM_CMP_GE, want);
  EXPECT_TRUE(any == 0 || any == 1 || any == 3) << any;
  EXPECT_EQ(ishmem_int_wait_until_some_vector(ivars, n, idx, status, ISHMEM_CMP_EQ, want), 3u);
  EXPECT_EQ(ishmem_int_test(&ivars[1], ISHMEM_CMP_EQ, 5), 1);
  EXPECT_EQ(ishmem_int_test_all(ivars, n, status, ISHMEM_CMP_GE, 5), 0);
  EXPECT_EQ(ishmem_int_test_any(ivars, n, status, ISHMEM_CMP_GE, 6), 3u);
  EXPECT_EQ(ishmem_int_test_some(ivars, n, idx, nullptr, ISHMEM_CMP_LT, 1), 4u);
  EXPECT_EQ(ishmem_int_test_all_vector(ivars, n, status, ISHMEM_CMP_EQ, want), 1);
  const std::size_t below = ishmem_int_test_any_vector(ivars, n, nullptr, ISHMEM_CMP_LT, want);
  EXPECT_TRUE(below == 2 || below == 4 || below == 5) << below;
  EXPECT_EQ(ishmem_int_test_some_vector(ivars, n, idx, nullptr, ISHMEM_CMP_LT, want), 3u);
  EXPECT_EQ(ishmem_int_test(&ivars[0], 42, 0), 0) << "an error must not read as true";
  EXPECT_NE(std::string(ishmemx_last_error()).find("ISHMEM_CMP"), std::string::npos);
  EXPECT_EQ(ishmem_int_test_some(ivars, n, idx, nullptr, 42, 0), 0u);
  EXPECT_EQ(ishmem_int_wait_until(&ivars[0], 42, 0), ISHMEM_ERR_INVALID_ARG);
  int on_stack = 0;
  EXPECT_EQ(ishmem_int_wait_until(&on_stack, ISHMEM_CMP_EQ, 0), ISHMEM_ERR_NOT_SYMMETRIC);
  ishmem_barrier_all();
  ishmem_free(ivars);
}

// A series of test_any or wait_until_any calls returns every satisfied index: each call starts
// after the index this thread was given last, so with entries 0, 2, 3 and 5 set (1 and 4 not,
// 3 excluded), calls return 0, 2, 5, 0, 2, 5, ... from wherever the last call left off.
TEST(Sync, AnyIsFair) {
  const std::size_t n = 6;
  long *ivars = sym_alloc<long>(n);
  ASSERT_TRUE(all_true(ivars != nullptr));
  ishmem_barrier_all();
  for (std::size_t i : {0, 2, 3, 5}) {
    EXPECT_EQ(ishmem_long_p(&ivars[i], 1, right_pe()), ISHMEM_SUCCESS);
  }
  ishmem_barrier_all();
  const int status[n] = {0, 0, 0, 1, 0, 0};
  const long ones[n] = {1, 1, 1, 1, 1, 1};
  const std::vector<std::size_t> cycle = {0, 2, 5};
  std::vector<std::size_t> got;
  for (int round = 0; round < 3; ++round) {
    got.push_back(ishmem_long_test_any(ivars, n, status, ISHMEM_CMP_EQ, 1));
    got.push_back(ishmem_long_wait_until_any(ivars, n, status, ISHMEM_CMP_EQ, 1));
    got.push_back(ishmem_long_test_any_vector(ivars, n, status, ISHMEM_CMP_EQ, ones));
    got.push_back(ishmem_long_wait_until_any_vector(ivars, n, status, ISHMEM_CMP_GE, ones));
  }
  // Each result is the next satisfied index after the one before it.
  const auto at = std::find(cycle.begin(), cycle.end(), got[0]);
  ASSERT_NE(at, cycle.end()) << got[0];
  std::size_t k = static_cast<std::size_t>(at - cycle.begin());
  for (std::size_t i = 0; i < got.size(); ++i, ++k)
    EXPECT_EQ(got[i], cycle[k % cycle.size()]) << "call " << i;
  ishmem_barrier_all();
  ishmem_free(ivars);
}

// wait_until_all returns once every entry holds at the same time, not once each has held at
// some point: entry 0 holds, is cleared, entry 1 is set, and only later are both set. The
// 100 ms with neither set keep a correct scan from reading entry 0 before the clear and entry
// 1 after the set (a waiter descheduled between its two loads, as under ThreadSanitizer with
// 4 PEs on 2 cores, once did so when the clear and the set came back to back).
TEST(Sync, WaitUntilAllWantsEveryEntryAtOnce) {
  int *ivars = sym_alloc<int>(2);
  ASSERT_TRUE(all_true(ivars != nullptr));
  const int me = my_pe();
  const bool writer = me % 2 == 0 && me + 1 < n_pes();
  const bool waiter = me % 2 == 1;
  ishmem_barrier_all();
  if (writer) {
    using std::chrono::milliseconds;
    const int peer = me + 1;
    std::this_thread::sleep_for(milliseconds(50));  // the waiter is waiting by now
    EXPECT_EQ(ishmem_int_p(&ivars[0], 1, peer), ISHMEM_SUCCESS);
    ishmem_quiet();
    std::this_thread::sleep_for(milliseconds(100));
    EXPECT_EQ(ishmem_int_p(&ivars[0], 0, peer), ISHMEM_SUCCESS);
    ishmem_quiet();
    std::this_thread::sleep_for(milliseconds(100));
    EXPECT_EQ(ishmem_int_p(&ivars[1], 1, peer), ISHMEM_SUCCESS);
    ishmem_quiet();
    std::this_thread::sleep_for(milliseconds(100));
    EXPECT_EQ(ishmem_int_p(&ivars[0], 1, peer), ISHMEM_SUCCESS);
    ishmem_quiet();
  }
  if (waiter) {
    EXPECT_EQ(ishmem_int_wait_until_all(ivars, 2, nullptr, ISHMEM_CMP_EQ, 1), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_int_atomic_fetch(&ivars[0], me), 1) << "returned before entry 0 held again";
    EXPECT_EQ(ishmem_int_atomic_fetch(&ivars[1], me), 1);
  }
  ishmem_barrier_all();
  ishmem_free(ivars);
}

// ISHMEM_WAIT_TIMEOUT, the opt-in limit of the host waits: past it every form gives up with
// ISHMEM_ERR_TIMEOUT (or its "none" value) and says why. Runs where ctest sets the variable.
TEST(Sync, WaitsGiveUpPastWaitTimeout) {
  const char *limit = getenv("ISHMEM_WAIT_TIMEOUT");
  if (!limit) GTEST_SKIP() << "needs ISHMEM_WAIT_TIMEOUT";
  const double limit_s = atof(limit);
  long *ivars = sym_alloc<long>(2);
  uint64_t *sig = sym_alloc<uint64_t>(1);
  ASSERT_TRUE(all_true(ivars && sig));
  using Clock = std::chrono::steady_clock;
  auto expect_gave_up = [&](Clock::time_point start, const char *what) {
    const double waited = std::chrono::duration<double>(Clock::now() - start).count();
    EXPECT_GE(waited, limit_s) << what;
    EXPECT_LT(waited, limit_s + 5) << what;
    EXPECT_NE(std::string(ishmemx_last_error()).find("ISHMEM_WAIT_TIMEOUT"), std::string::npos)
        << what << ": " << ishmemx_last_error();
  };
  auto start = Clock::now();
  EXPECT_EQ(ishmem_long_wait_until(&ivars[0], ISHMEM_CMP_EQ, 1), ISHMEM_ERR_TIMEOUT);
  expect_gave_up(start, "wait_until");
  start = Clock::now();
  EXPECT_EQ(ishmem_long_wait_until_any(ivars, 2, nullptr, ISHMEM_CMP_EQ, 1), SIZE_MAX);
  expect_gave_up(start, "wait_until_any");
  start = Clock::now();
  EXPECT_EQ(ishmem_signal_wait_until(sig, ISHMEM_CMP_EQ, 1), 0u);
  expect_gave_up(start, "signal_wait_until");
  // A condition that holds returns at once.
  EXPECT_EQ(ishmem_long_wait_until(&ivars[0], ISHMEM_CMP_EQ, 0), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  ishmem_free(sig);
  ishmem_free(ivars);
}

}  // namespace
