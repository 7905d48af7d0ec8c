// Distributed locks: mutual exclusion of a non-atomic update from every PE, test_lock, the
// FIFO order of a ticket lock (also after a wrong clear), clearing a lock not held and setting
// one held, and bad lock arguments.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "ishmem.h"
#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

long *sym_longs(std::size_t count) {
  long *p = static_cast<long *>(ishmem_calloc(count, sizeof(long)));
  EXPECT_NE(p, nullptr) << ishmemx_last_error();
  return p;
}

// A get, then a put of one more, on PE 0's counter: only mutual exclusion keeps every update.
TEST(Lock, ExcludesANonAtomicUpdate) {
  long *lock = sym_longs(1), *counter = sym_longs(1);
  ASSERT_TRUE(all_true(lock && counter));
  const int rounds = 100;
  for (int i = 0; i < rounds; ++i) {
    ASSERT_EQ(ishmem_set_lock(lock), ISHMEM_SUCCESS) << ishmemx_last_error();
    const long seen = ishmem_long_g(counter, 0);
    EXPECT_EQ(ishmem_long_p(counter, seen + 1, 0), ISHMEM_SUCCESS);
    ASSERT_EQ(ishmem_clear_lock(lock), ISHMEM_SUCCESS) << ishmemx_last_error();
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (my_pe() == 0) {
    EXPECT_EQ(*counter, static_cast<long>(rounds) * n_pes());
  }
  ishmem_barrier_all();
  ishmem_free(counter);
  ishmem_free(lock);
}

TEST(Lock, TestLockTakesOnlyAFreeLock) {
  long *lock = sym_longs(1);
  ASSERT_TRUE(all_true(lock != nullptr));
  const int me = my_pe(), last = n_pes() - 1;
  if (me == 0) {  // free: taken
    EXPECT_EQ(ishmem_test_lock(lock), 0);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_test_lock(lock), 1);  // held by PE 0
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (me == 0) {
    EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_SUCCESS);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (me == last) {
    EXPECT_EQ(ishmem_test_lock(lock), 0);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (me != last) {
    EXPECT_EQ(ishmem_test_lock(lock), 1);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (me == last) {
    EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_SUCCESS);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  // Free again: set_lock enters at once.
  if (me == 0) {
    EXPECT_EQ(ishmem_set_lock(lock), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_SUCCESS);
  }
  ishmem_barrier_all();
  ishmem_free(lock);
}

// PE 0 holds the lock while PEs 1, 2, ... ask for it one after another (each waits until
// the one before it holds a ticket: the high half of the word on PE 0, docs/CONTEXTS.md);
// each enters, logs itself, leaves and asks again in the same order. A ticket lock serves them in
// asking order both times; a lock that lets a leaving PE barge in would log it twice in a row.
// Every PE first clears the free lock, which it does not hold, when `wrong_clear_first`: an
// error that must leave the lock as it was, so that the order below holds all the same.
void expect_asking_order(bool wrong_clear_first) {
  long *lock = sym_longs(1), *log = sym_longs(2 * n_pes()), *logged = sym_longs(1);
  ASSERT_TRUE(all_true(lock && log && logged));
  const int me = my_pe(), n = n_pes();
  if (wrong_clear_first) {
    EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_ERR_INVALID_ARG);
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_long_atomic_fetch(lock, 0), 0) << "the wrong clear changed the lock";
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);  // every PE read it before PE 0 sets it
  }
  auto append = [&](long entry) {
    const long at = ishmem_long_atomic_fetch_inc(logged, 0);
    EXPECT_EQ(ishmem_long_p(log + at, entry, 0), ISHMEM_SUCCESS);
  };
  // Waits (at most 10 s, so that a lock without tickets fails instead of hanging) until
  // `count` tickets were handed out.
  auto await_tickets = [&](long count) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (static_cast<long>(static_cast<unsigned long>(ishmem_long_atomic_fetch(lock, 0)) >> 32) <
           count)
      if (std::chrono::steady_clock::now() > give_up) {
        ADD_FAILURE() << "PE " << me << ": fewer than " << count << " tickets taken";
        return;
      }
  };
  if (me == 0) {
    EXPECT_EQ(ishmem_set_lock(lock), ISHMEM_SUCCESS);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (me == 0) {
    await_tickets(n);
    append(0);
    EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_SUCCESS);
  } else {
    for (int round = 0; round < 2; ++round) {
      // PEs ask in PE order each round: the one before this PE holds its ticket already. In
      // the second round that is its re-asking ticket, which a PE descheduled between leaving
      // and asking again would otherwise take after a later PE's.
      await_tickets(round == 0 ? me : n + me - 1);
      EXPECT_EQ(ishmem_set_lock(lock), ISHMEM_SUCCESS);
      append(round * 100 + me);
      EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_SUCCESS);
    }
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (me == 0) {
    std::vector<long> want{0};
    for (int pe = 1; pe < n; ++pe) want.push_back(pe);
    for (int pe = 1; pe < n; ++pe) want.push_back(100 + pe);
    EXPECT_EQ(std::vector<long>(log, log + *logged), want);
  }
  ishmem_barrier_all();
  ishmem_free(logged);
  ishmem_free(log);
  ishmem_free(lock);
}

TEST(Lock, ServesInAskingOrder) {
  expect_asking_order(false);
}

TEST(Lock, ServesInAskingOrderAfterAWrongClear) {
  expect_asking_order(true);
}

// Clearing a lock this PE does not hold (never set, cleared already, or held by another PE)
// and setting one it holds are errors, and the lock stays as it was.
TEST(Lock, ClearWithoutHoldingAndSetWhileHoldingAreErrors) {
  long *lock = sym_longs(1);
  ASSERT_TRUE(all_true(lock != nullptr));
  const int me = my_pe();
  EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_ERR_INVALID_ARG);
  EXPECT_NE(std::strstr(ishmemx_last_error(), "ishmem_clear_lock: this PE does not hold the lock"),
            nullptr)
      << ishmemx_last_error();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_atomic_fetch(lock, 0), 0);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (me == 0) {
    EXPECT_EQ(ishmem_set_lock(lock), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_set_lock(lock), ISHMEM_ERR_INVALID_ARG);
    EXPECT_NE(std::strstr(ishmemx_last_error(), "holds the lock at"), nullptr);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  const long held = ishmem_long_atomic_fetch(lock, 0);  // one ticket out, ticket 0 served
  EXPECT_EQ(held, 1L << 32);
  if (me != 0) {  // PE 0 holds it
    EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_ERR_INVALID_ARG);
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_atomic_fetch(lock, 0), held);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  if (me == 0) {
    EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_ERR_INVALID_ARG);  // cleared already
  }
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  // Free again: every PE takes and leaves it in turn.
  for (int pe = 0; pe < n_pes(); ++pe) {
    if (pe == me) {
      EXPECT_EQ(ishmem_set_lock(lock), ISHMEM_SUCCESS);
      EXPECT_EQ(ishmem_clear_lock(lock), ISHMEM_SUCCESS);
    }
    ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  }
  EXPECT_EQ(ishmem_long_atomic_fetch(lock, 0),
            static_cast<long>((static_cast<unsigned long>(n_pes()) + 1) * ((1UL << 32) + 1)));
  ishmem_free(lock);
}

TEST(Lock, BadLocksAreErrors) {
  long on_stack = 0;
  EXPECT_EQ(ishmem_set_lock(nullptr), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_test_lock(nullptr), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_clear_lock(nullptr), ISHMEM_ERR_INVALID_ARG);
  EXPECT_NE(std::strstr(ishmemx_last_error(), "ishmem_clear_lock: lock is NULL"), nullptr);
  EXPECT_EQ(ishmem_set_lock(&on_stack), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(ishmem_test_lock(&on_stack), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_NE(std::strstr(ishmemx_last_error(), "ishmem_test_lock"), nullptr) << ishmemx_last_error();
  EXPECT_EQ(on_stack, 0);
}

}  // namespace
