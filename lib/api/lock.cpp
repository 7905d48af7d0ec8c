// Distributed locks: a ticket lock in PE 0's copy of the symmetric long. Its high 32 bits
// are the next ticket to hand out, its low 32 bits the ticket now served, so PEs enter in
// the order they asked. Every access is an ordinary AMO (api/amo_path.h), node-local or
// through MPI, on whatever symmetric memory the lock lives in. Each PE also keeps the set of
// locks it holds, so that clearing a lock it does not hold (which would serve a ticket the
// holder still owns, and leave the next set_lock waiting for one never served) and setting one
// it holds (which would wait for itself) are errors that leave the lock as it was.
#include <cstdint>
#include <mutex>
#include <unordered_set>

#include "api/amo_path.h"
#include "api/checks.h"
#include "api/guard.h"
#include "common/spin_wait.h"

using namespace ishmem::detail;

namespace {

static_assert(sizeof(long) == sizeof(std::uint64_t), "the lock word is a 64-bit long");

constexpr int kLockPe = 0;
constexpr std::uint64_t kTicket = std::uint64_t{1} << 32;  // one ticket in the high half
constexpr std::uint64_t kServing = 0xffffffffu;            // the low half

std::uint32_t ticket_of(std::uint64_t word) {
  return static_cast<std::uint32_t>(word >> 32);
}
std::uint32_t serving_of(std::uint64_t word) {
  return static_cast<std::uint32_t>(word & kServing);
}

// The locks this PE holds, by address (the PE's threads share them, as OpenSHMEM has it).
class HeldLocks {
 public:
  bool holds(const long *lock) {
    std::lock_guard<std::mutex> guard(mutex_);
    return held_.count(lock) != 0;
  }
  void add(const long *lock) {
    std::lock_guard<std::mutex> guard(mutex_);
    held_.insert(lock);
  }
  void remove(const long *lock) {
    std::lock_guard<std::mutex> guard(mutex_);
    held_.erase(lock);
  }

 private:
  std::mutex mutex_;
  std::unordered_set<const long *> held_;
};

HeldLocks &held_locks() {
  static HeldLocks locks;
  return locks;
}

// One AMO on the lock word; throws the AMO's error.
std::uint64_t lock_amo(AmoOp op, long *lock, std::uint64_t value, std::uint64_t cond = 0) {
  int rc;
  const std::uint64_t old =
      amo<std::uint64_t>(op, reinterpret_cast<std::uint64_t *>(lock), value, cond, kLockPe, rc);
  if (rc != ISHMEM_SUCCESS) throw Error(rc, last_error());
  return old;
}

// Checked up front, so that a bad lock is reported once, under the lock call's name (the AMOs
// below would report it as "atomic", and the lock call again).
void check_lock(const long *lock, const char *fn) {
  runtime();
  if (!lock) fail(ISHMEM_ERR_INVALID_ARG, "%s: lock is NULL", fn);
  std::size_t off;
  if (!static_window_aligned(lock, 1, sizeof *lock, off, fn))
    check_symmetric_word(lock, sizeof *lock, kLockPe, fn);
}

}  // namespace

extern "C" {

int ishmem_set_lock(long *lock) {
  return guard([&] {
    check_lock(lock, "ishmem_set_lock");
    if (held_locks().holds(lock))
      fail(ISHMEM_ERR_INVALID_ARG,
           "ishmem_set_lock: this PE holds the lock at %p already (it would wait for itself)",
           static_cast<const void *>(lock));
    const std::uint64_t taken = lock_amo(AmoOp::add, lock, kTicket);
    const std::uint32_t mine = ticket_of(taken);
    // Spins, then yields between reads: the holder (or PE 0's MPI progress) needs the CPU.
    if (serving_of(taken) != mine)
      wait_for([&] { return serving_of(lock_amo(AmoOp::fetch, lock, 0)) == mine; });
    held_locks().add(lock);
  });
}

int ishmem_test_lock(long *lock) {
  int held = 1;
  const int rc = guard([&] {
    check_lock(lock, "ishmem_test_lock");
    const std::uint64_t word = lock_amo(AmoOp::fetch, lock, 0);
    if (ticket_of(word) != serving_of(word)) return;  // held, or PEs are waiting
    // Take the next ticket only if nobody took one since: then it is served at once.
    held = lock_amo(AmoOp::compare_swap, lock, word + kTicket, word) == word ? 0 : 1;
    if (held == 0) held_locks().add(lock);
  });
  return rc == ISHMEM_SUCCESS ? held : rc;
}

int ishmem_clear_lock(long *lock) {
  return guard([&] {
    check_lock(lock, "ishmem_clear_lock");
    if (!held_locks().holds(lock))
      fail(ISHMEM_ERR_INVALID_ARG,
           "ishmem_clear_lock: this PE does not hold the lock at %p (never set, or cleared "
           "already); the lock is unchanged",
           static_cast<const void *>(lock));
    // The holder's puts complete before the next holder may enter.
    const int rc = ishmem_quiet();
    if (rc != ISHMEM_SUCCESS) throw Error(rc, last_error());
    // Only the holder changes the low half: serve the next ticket, wrapping 0xffffffff to 0
    // without a carry into the tickets (adding 1 - 2^32 there).
    const std::uint64_t word = lock_amo(AmoOp::fetch, lock, 0);
    lock_amo(AmoOp::add, lock, serving_of(word) == kServing ? 1 - kTicket : 1);
    held_locks().remove(lock);
  });
}

}  // extern "C"
