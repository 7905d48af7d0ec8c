// Progress for operations aimed at a PE (docs/MULTI_NODE.md, "Progress"). PE 0 is the target;
// every other PE writes to it, half of them with puts, half with atomic adds, each after a
// put of a payload and a fence. PE 0 waits with every wait, test and signal form in turn and
// checks the values it sees. Off-node (ISHMEM_MAX_LOCAL_PES=1) each writer's operations are
// MPI one-sided operations, which the target's MPI must progress: a polling call that does
// not drive MPI progress hangs here. Last, PE 0 only computes, spinning on a plain load of
// its heap, while its peers add to that word: only the progress thread serves them then.
// Checks inside loops are EXPECTs: a fatal ASSERT would leave this PE's peers waiting for it.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "ishmem.h"
#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

constexpr int kTarget = 0;

// The symmetric state of one test: a flag and a payload word per PE, and a signal.
struct Targets {
  long *flags = nullptr;
  long *payload = nullptr;
  std::uint64_t *signal = nullptr;
  std::vector<long> last;  // this writer's flag value at the target, for the next add
  Targets() : last(static_cast<std::size_t>(n_pes()), 0) {
    flags = static_cast<long *>(ishmem_calloc(static_cast<std::size_t>(n_pes()), sizeof(long)));
    payload = static_cast<long *>(ishmem_calloc(static_cast<std::size_t>(n_pes()), sizeof(long)));
    signal = static_cast<std::uint64_t *>(ishmem_calloc(1, sizeof(std::uint64_t)));
  }
  ~Targets() {
    ishmem_barrier_all();
    ishmem_free(signal);
    ishmem_free(payload);
    ishmem_free(flags);
  }
  bool ok() const { return all_true(flags && payload && signal); }
};

// Round `round`'s flag value of writer `pe`: equal for every writer (the scalar forms compare
// to one value) or distinct (the vector forms).
long flag_value(int round, int pe, bool distinct) {
  return round * 100 + (distinct ? pe : 0);
}

// A writer's part of a round: a short pause, so that the target is polling when the data
// comes, then the payload, a fence and the flag (a put on odd PEs, an atomic add on even ones).
void write_round(Targets &t, int round, bool distinct) {
  const int me = my_pe();
  const long value = flag_value(round, me, distinct);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_EQ(ishmem_long_p(&t.payload[me], value * 7, kTarget), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_fence(), ISHMEM_SUCCESS);
  if (me % 2)
    EXPECT_EQ(ishmem_long_p(&t.flags[me], value, kTarget), ISHMEM_SUCCESS);
  else
    EXPECT_EQ(ishmem_long_atomic_add(&t.flags[me], value - t.last[me], kTarget), ISHMEM_SUCCESS);
  t.last[me] = value;
}

// The target's check once its wait or test returned: every writer's flag and payload.
void check_round(const Targets &t, int round, bool distinct, const char *form) {
  for (int pe = 0; pe < n_pes(); ++pe) {
    if (pe == kTarget) continue;
    const long value = flag_value(round, pe, distinct);
    EXPECT_EQ(t.flags[pe], value) << form << ": flag of PE " << pe;
    EXPECT_EQ(t.payload[pe], value * 7) << form << ": payload of PE " << pe;
  }
}

// The target's status array: its own entry is left out (nobody writes it).
std::vector<int> writers_status() {
  std::vector<int> status(static_cast<std::size_t>(n_pes()), 0);
  status[kTarget] = 1;
  return status;
}

// One round per form: the target runs `wait` (which returns once every flag holds), the
// writers write. The forms take the values to compare with from `values`.
template <class Wait>
void round_trip(Targets &t, int &round, bool distinct, const char *form, Wait wait) {
  ++round;
  ishmem_barrier_all();
  if (my_pe() == kTarget) {
    std::vector<long> values(static_cast<std::size_t>(n_pes()));
    for (int pe = 0; pe < n_pes(); ++pe) values[pe] = flag_value(round, pe, distinct);
    wait(values);
    check_round(t, round, distinct, form);
  } else {
    write_round(t, round, distinct);
  }
  ishmem_barrier_all();
}

// Collects indices from a _some or _any form until every writer's entry was reported once;
// `next` returns how many indices it wrote to `found` (given the entries already reported).
template <class Next>
void collect(const char *form, Next next) {
  std::vector<int> status = writers_status();
  std::vector<std::size_t> found(status.size());
  std::size_t left = status.size() - 1;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (left > 0 && std::chrono::steady_clock::now() < give_up) {
    const std::size_t count = next(status.data(), found.data());
    for (std::size_t i = 0; i < count; ++i) {
      ASSERT_LT(found[i], status.size()) << form;
      EXPECT_EQ(status[found[i]], 0) << form << ": index " << found[i] << " reported twice";
      status[found[i]] = 1;
      --left;
    }
  }
  EXPECT_EQ(left, 0u) << form << ": not every writer's flag was seen";
}

TEST(Progress, EveryWaitForm) {
  Targets t;
  ASSERT_TRUE(t.ok());
  ASSERT_GE(n_pes(), 2);
  const std::size_t n = static_cast<std::size_t>(n_pes());
  const std::vector<int> status = writers_status();
  int round = 0;
  round_trip(t, round, false, "wait_until", [&](const std::vector<long> &v) {
    for (int pe = 1; pe < n_pes(); ++pe)
      EXPECT_EQ(ishmem_long_wait_until(&t.flags[pe], ISHMEM_CMP_EQ, v[pe]), ISHMEM_SUCCESS);
  });
  round_trip(t, round, false, "wait_until_all", [&](const std::vector<long> &v) {
    EXPECT_EQ(ishmem_long_wait_until_all(t.flags, n, status.data(), ISHMEM_CMP_EQ, v[1]),
              ISHMEM_SUCCESS);
  });
  round_trip(t, round, true, "wait_until_all_vector", [&](const std::vector<long> &v) {
    EXPECT_EQ(ishmem_long_wait_until_all_vector(t.flags, n, status.data(), ISHMEM_CMP_EQ, v.data()),
              ISHMEM_SUCCESS);
  });
  round_trip(t, round, false, "wait_until_any", [&](const std::vector<long> &v) {
    collect("wait_until_any", [&](const int *s, std::size_t *found) {
      found[0] = ishmem_long_wait_until_any(t.flags, n, s, ISHMEM_CMP_EQ, v[1]);
      return std::size_t{1};
    });
  });
  round_trip(t, round, true, "wait_until_any_vector", [&](const std::vector<long> &v) {
    collect("wait_until_any_vector", [&](const int *s, std::size_t *found) {
      found[0] = ishmem_long_wait_until_any_vector(t.flags, n, s, ISHMEM_CMP_EQ, v.data());
      return std::size_t{1};
    });
  });
  round_trip(t, round, false, "wait_until_some", [&](const std::vector<long> &v) {
    collect("wait_until_some", [&](const int *s, std::size_t *found) {
      return ishmem_long_wait_until_some(t.flags, n, found, s, ISHMEM_CMP_EQ, v[1]);
    });
  });
  round_trip(t, round, true, "wait_until_some_vector", [&](const std::vector<long> &v) {
    collect("wait_until_some_vector", [&](const int *s, std::size_t *found) {
      return ishmem_long_wait_until_some_vector(t.flags, n, found, s, ISHMEM_CMP_EQ, v.data());
    });
  });
}

TEST(Progress, EveryTestForm) {
  Targets t;
  ASSERT_TRUE(t.ok());
  const std::size_t n = static_cast<std::size_t>(n_pes());
  const std::vector<int> status = writers_status();
  const std::size_t none = SIZE_MAX;
  int round = 0;
  // A test reads once; these loops call nothing else, so only the tests drive MPI progress.
  round_trip(t, round, false, "test", [&](const std::vector<long> &v) {
    for (int pe = 1; pe < n_pes(); ++pe)
      while (!ishmem_long_test(&t.flags[pe], ISHMEM_CMP_EQ, v[pe])) {
      }
  });
  round_trip(t, round, false, "test_all", [&](const std::vector<long> &v) {
    while (!ishmem_long_test_all(t.flags, n, status.data(), ISHMEM_CMP_EQ, v[1])) {
    }
  });
  round_trip(t, round, true, "test_all_vector", [&](const std::vector<long> &v) {
    while (!ishmem_long_test_all_vector(t.flags, n, status.data(), ISHMEM_CMP_EQ, v.data())) {
    }
  });
  round_trip(t, round, false, "test_any", [&](const std::vector<long> &v) {
    collect("test_any", [&](const int *s, std::size_t *found) {
      found[0] = ishmem_long_test_any(t.flags, n, s, ISHMEM_CMP_EQ, v[1]);
      return std::size_t{found[0] != none};
    });
  });
  round_trip(t, round, true, "test_any_vector", [&](const std::vector<long> &v) {
    collect("test_any_vector", [&](const int *s, std::size_t *found) {
      found[0] = ishmem_long_test_any_vector(t.flags, n, s, ISHMEM_CMP_EQ, v.data());
      return std::size_t{found[0] != none};
    });
  });
  round_trip(t, round, false, "test_some", [&](const std::vector<long> &v) {
    collect("test_some", [&](const int *s, std::size_t *found) {
      return ishmem_long_test_some(t.flags, n, found, s, ISHMEM_CMP_EQ, v[1]);
    });
  });
  round_trip(t, round, true, "test_some_vector", [&](const std::vector<long> &v) {
    collect("test_some_vector", [&](const int *s, std::size_t *found) {
      return ishmem_long_test_some_vector(t.flags, n, found, s, ISHMEM_CMP_EQ, v.data());
    });
  });
}

// Put-with-signal from every writer (payload, then an added 1 on the signal): the target waits
// with signal_wait_until, then polls with signal_fetch alone.
TEST(Progress, SignalForms) {
  Targets t;
  ASSERT_TRUE(t.ok());
  const std::uint64_t writers = static_cast<std::uint64_t>(n_pes() - 1);
  const int me = my_pe();
  for (int round = 1; round <= 2; ++round) {
    ishmem_barrier_all();
    if (me == kTarget) {
      const std::uint64_t want = writers * static_cast<std::uint64_t>(round);
      if (round == 1) {
        EXPECT_EQ(ishmem_signal_wait_until(t.signal, ISHMEM_CMP_EQ, want), want);
      } else {
        while (ishmem_signal_fetch(t.signal) != want) {
        }
      }
      for (int pe = 1; pe < n_pes(); ++pe)
        EXPECT_EQ(t.payload[pe], round * 1000 + pe) << "round " << round << ", PE " << pe;
    } else {
      const long value = round * 1000 + me;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      EXPECT_EQ(ishmem_putmem_signal(&t.payload[me], &value, sizeof value, t.signal, 1,
                                     ISHMEM_SIGNAL_ADD, kTarget),
                ISHMEM_SUCCESS);
    }
    ishmem_barrier_all();
  }
}

// PE 0 computes: a volatile load of its own heap word, no ishmem or MPI call, while its peers
// add to that word. Off-node, each add is an MPI atomic the target's MPI must run: without the
// progress thread (or an MPI that progresses by itself) PE 0 never sees the total. It gives up
// after 10 s, so that a missing thread fails the test instead of hanging it.
TEST(Progress, ComputingTargetServesPeersAtomics) {
  Targets t;
  ASSERT_TRUE(t.ok());
  constexpr long kAdds = 100;
  const long want = kAdds * (n_pes() - 1);
  ishmem_barrier_all();
  if (my_pe() == kTarget) {
    const volatile long *word = &t.flags[kTarget];
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    long seen = 0;
    while ((seen = *word) != want && std::chrono::steady_clock::now() < give_up) {
    }
    EXPECT_EQ(seen, want) << "the peers' atomic adds did not complete while PE " << kTarget
                          << " computed (is the progress thread running?)";
  } else {
    for (long i = 0; i < kAdds; ++i)
      EXPECT_EQ(ishmem_long_atomic_add(&t.flags[kTarget], 1, kTarget), ISHMEM_SUCCESS);
  }
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_long_atomic_fetch(&t.flags[kTarget], kTarget), want);
}

}  // namespace
