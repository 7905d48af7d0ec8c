// Soak: every PE runs a long random mix of puts, gets, atomics, put-with-signal and
// collectives (barrier_all, sync_all, a broadcast built from puts and a barrier). The schedule
// comes from one seed, which PE 0 draws and broadcasts, so that every PE derives the same
// schedule and simulates the heap contents every PE must end with. Words that only one PE
// writes (its own put slots and atomic slots on each target) are checked as they are read
// back (get, swap, compare_swap, fetch); shared counters and signals are only added to, so
// their end values are known too. At the end each PE's checksum of its heap data is compared
// with the simulated one, and so is the world-wide sum of the checksums.
//   usage: ishmem-soak [--ops N] [--seed S]   (N: operations over all PEs, also
//          ISHMEM_SOAK_OPS, default 100000; S: drawn from the clock unless given, printed)
// Exits 0 on every PE when every check passed, else 1. The program loads and stores its own
// heap directly, so it runs on the host backend (ISHMEM_BACKEND=host in a GPU build).
#include <ishmem.h>

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr int kMaxPes = 64;
constexpr int kSlots = 64;           // put slots per writing PE on each target
constexpr int kMaxPut = 16;          // longest put, in words
constexpr int kAtomicSlots = 8;      // swap/compare_swap slots per writing PE on each target
constexpr int kCounters = 8;         // shared fetch_add/add counters
constexpr int kBcastWords = 8;       // broadcast payload
constexpr int kCollectiveOdds = 64;  // one round in this many is collective

// One PE's symmetric data. Row [w] of data, atomics and signals is written by PE w only.
struct HeapData {
  std::uint64_t data[kMaxPes][kSlots];
  std::uint64_t atomics[kMaxPes][kAtomicSlots];
  std::uint64_t counters[kCounters];  // added to by every PE
  std::uint64_t signals[kMaxPes];
  std::uint64_t bcast[kBcastWords];  // written by each broadcast's root
};

// The end-of-run exchange: every PE's checksum and count of failed checks.
struct Report {
  std::uint64_t checksum[kMaxPes];
  std::uint64_t failures[kMaxPes];
};

// splitmix64: one stream, drawn in the same order on every PE.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

enum Op { kPut, kP, kGet, kFetchAdd, kAdd, kSwap, kCompareSwap, kFetch, kPutSignal, kNumOps };
enum Collective { kBarrier, kSync, kBroadcast, kNumCollectives };
const char *const kOpNames[kNumOps] = {"put",  "p",     "get",   "fetch_add",    "add",
                                       "swap", "cswap", "fetch", "putmem_signal"};

// Swap, compare_swap and fetch work on the issuing PE's atomic slots; the rest on its put slots
// or the shared counters.
bool on_atomic_slot(Op op) {
  return op == kSwap || op == kCompareSwap || op == kFetch;
}

// One PE's operation of one round, with everything it writes.
struct Step {
  Op op;
  int target, slot, len, counter;
  bool cond_matches;  // compare_swap: compare with the current value, or with another one
  std::uint64_t values[kMaxPut];
};

Step draw_step(Rng &rng, int npes) {
  Step s{};
  s.op = static_cast<Op>(rng.below(kNumOps));
  s.target = rng.below(npes);
  s.len = s.op == kPut || s.op == kGet || s.op == kPutSignal ? 1 + rng.below(kMaxPut) : 1;
  s.slot = on_atomic_slot(s.op) ? rng.below(kAtomicSlots) : rng.below(kSlots - s.len + 1);
  s.counter = rng.below(kCounters);
  s.cond_matches = rng.below(2) == 0;
  for (int i = 0; i < s.len; ++i) s.values[i] = rng.next();
  return s;
}

std::uint64_t checksum(const HeapData &h, int npes) {
  std::uint64_t sum = 0xcbf29ce484222325ull;
  auto mix = [&](std::uint64_t w) { sum = (sum ^ w) * 0x100000001b3ull + (sum >> 29); };
  for (int w = 0; w < npes; ++w)
    for (int i = 0; i < kSlots; ++i) mix(h.data[w][i]);
  for (int w = 0; w < npes; ++w)
    for (int i = 0; i < kAtomicSlots; ++i) mix(h.atomics[w][i]);
  for (std::uint64_t c : h.counters) mix(c);
  for (int w = 0; w < npes; ++w) mix(h.signals[w]);
  for (std::uint64_t b : h.bcast) mix(b);
  return sum;
}

long long parse_count(const char *text, const char *what) {
  char *end = nullptr;
  long long v = strtoll(text, &end, 10);
  if (!*text || *end || v < 0) {
    fprintf(stderr, "ishmem-soak: bad %s \"%s\"\n", what, text);
    exit(2);
  }
  return v;
}

class Soak {
 public:
  Soak(HeapData *heap, int me, int npes) : heap_(heap), me_(me), npes_(npes), expect_(npes) {
    memset(expect_.data(), 0, sizeof(HeapData) * expect_.size());
  }

  // Runs `rounds` rounds of the schedule from `seed`; returns the failed checks on this PE.
  std::uint64_t run(std::uint64_t seed, long long rounds) {
    Rng rng{seed};
    std::vector<Step> steps(npes_);
    for (long long r = 0; r < rounds; ++r) {
      if (rng.below(kCollectiveOdds) == 0) {
        collective(static_cast<Collective>(rng.below(kNumCollectives)), rng);
        continue;
      }
      for (int p = 0; p < npes_; ++p) steps[p] = draw_step(rng, npes_);
      issue(steps[me_]);
      for (int p = 0; p < npes_; ++p) simulate(p, steps[p]);
      // Every PE issues before it waits, so these waits always end.
      for (int p = 0; p < npes_; ++p)
        if (steps[p].op == kPutSignal && steps[p].target == me_)
          ishmem_signal_wait_until(&heap_->signals[p], ISHMEM_CMP_GE, expect_[me_].signals[p]);
    }
    return failures_;
  }

  const HeapData &expected(int pe) const { return expect_[pe]; }
  const long long *op_counts() const { return op_counts_; }
  const long long *collective_counts() const { return collectives_; }

 private:
  void check(bool ok, const char *what, const Step &s) {
    if (ok) return;
    if (++failures_ <= 10)
      fprintf(stderr, "ishmem-soak pe %d: %s to pe %d slot %d: wrong value (%s)\n", me_,
              kOpNames[s.op], s.target, s.slot, what);
  }

  void issue(const Step &s) {
    ++op_counts_[s.op];
    HeapData &e = expect_[s.target];
    std::uint64_t *mine = heap_->data[me_] + s.slot;
    const bool atomic_slot = on_atomic_slot(s.op);  // else s.slot is a put slot
    std::uint64_t *atomic = atomic_slot ? &heap_->atomics[me_][s.slot] : nullptr;
    std::uint64_t *counter = &heap_->counters[s.counter];
    const std::uint64_t want = atomic_slot ? e.atomics[me_][s.slot] : 0;
    int rc = ISHMEM_SUCCESS;
    switch (s.op) {
      case kPut:
        rc = ishmem_uint64_put(mine, s.values, s.len, s.target);
        break;
      case kP:
        rc = ishmem_uint64_p(mine, s.values[0], s.target);
        break;
      case kGet: {
        std::uint64_t got[kMaxPut];
        rc = ishmem_quiet();  // this PE's earlier puts to the same words land first
        if (rc == ISHMEM_SUCCESS) rc = ishmem_uint64_get(got, mine, s.len, s.target);
        check(memcmp(got, e.data[me_] + s.slot, s.len * sizeof(std::uint64_t)) == 0, "get", s);
        break;
      }
      case kFetchAdd:
        ishmem_uint64_atomic_fetch_add(counter, s.values[0], s.target);
        break;
      case kAdd:
        rc = ishmem_uint64_atomic_add(counter, s.values[0], s.target);
        break;
      case kSwap:
        check(ishmem_uint64_atomic_swap(atomic, s.values[0], s.target) == want, "swap", s);
        break;
      case kCompareSwap: {
        const std::uint64_t cond = s.cond_matches ? want : want + 1;
        check(ishmem_uint64_atomic_compare_swap(atomic, cond, s.values[0], s.target) == want,
              "compare_swap", s);
        break;
      }
      case kFetch:
        check(ishmem_uint64_atomic_fetch(atomic, s.target) == want, "fetch", s);
        break;
      case kPutSignal:
        rc = ishmem_putmem_signal(mine, s.values, s.len * sizeof(std::uint64_t),
                                  &heap_->signals[me_], 1, ISHMEM_SIGNAL_ADD, s.target);
        break;
      default:
        break;
    }
    check(rc == ISHMEM_SUCCESS, ishmemx_last_error(), s);
  }

  // What PE `p`'s step leaves in the simulated heaps.
  void simulate(int p, const Step &s) {
    HeapData &e = expect_[s.target];
    switch (s.op) {
      case kPut:
      case kP:
      case kPutSignal:
        memcpy(e.data[p] + s.slot, s.values, s.len * sizeof(std::uint64_t));
        if (s.op == kPutSignal) e.signals[p] += 1;
        break;
      case kFetchAdd:
      case kAdd:
        e.counters[s.counter] += s.values[0];
        break;
      case kSwap:
        e.atomics[p][s.slot] = s.values[0];
        break;
      case kCompareSwap:
        if (s.cond_matches) e.atomics[p][s.slot] = s.values[0];
        break;
      default:
        break;
    }
  }

  void collective(Collective kind, Rng &rng) {
    ++collectives_[kind];
    if (kind == kSync) {
      ishmem_sync_all();
      return;
    }
    if (kind == kBarrier) {
      ishmem_barrier_all();
      return;
    }
    // Broadcast: the root puts the payload into every PE's bcast, a barrier completes it, every
    // PE checks its copy, and a second barrier keeps the next broadcast from overtaking.
    const int root = rng.below(npes_);
    std::uint64_t payload[kBcastWords];
    for (std::uint64_t &w : payload) w = rng.next();
    if (me_ == root)
      for (int pe = 0; pe < npes_; ++pe) ishmem_uint64_put(heap_->bcast, payload, kBcastWords, pe);
    for (int pe = 0; pe < npes_; ++pe) memcpy(expect_[pe].bcast, payload, sizeof payload);
    ishmem_barrier_all();
    Step s{};
    s.target = me_;
    s.op = kGet;
    check(memcmp(heap_->bcast, payload, sizeof payload) == 0, "broadcast", s);
    ishmem_barrier_all();
  }

  HeapData *heap_;
  int me_, npes_;
  std::vector<HeapData> expect_;  // by PE
  std::uint64_t failures_ = 0;
  long long op_counts_[kNumOps] = {};
  long long collectives_[kNumCollectives] = {};
};

}  // namespace

int main(int argc, char **argv) {
  const char *env_ops = getenv("ISHMEM_SOAK_OPS");
  long long ops = env_ops ? parse_count(env_ops, "ISHMEM_SOAK_OPS") : 100000;
  long long seed_arg = -1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--ops") == 0)
      ops = parse_count(argv[i + 1], "--ops");
    else if (strcmp(argv[i], "--seed") == 0)
      seed_arg = parse_count(argv[i + 1], "--seed");
  }
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "ishmem-soak: ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  const int me = ishmem_my_pe(), npes = ishmem_n_pes();
  if (npes > kMaxPes) {
    if (me == 0) fprintf(stderr, "ishmem-soak: at most %d PEs\n", kMaxPes);
    ishmem_finalize();
    return 2;
  }
  auto *heap = static_cast<HeapData *>(ishmem_calloc(1, sizeof(HeapData)));
  auto *report = static_cast<Report *>(ishmem_calloc(1, sizeof(Report)));
  if (!heap || !report) {
    fprintf(stderr, "ishmem-soak pe %d: allocation failed: %s\n", me, ishmemx_last_error());
    return 1;
  }
  // The seed: PE 0's, put into every PE's first counter (cleared again before the run).
  if (me == 0) {
    std::uint64_t seed = seed_arg >= 0
                             ? static_cast<std::uint64_t>(seed_arg)
                             : static_cast<std::uint64_t>(
                                   std::chrono::system_clock::now().time_since_epoch().count());
    for (int pe = 0; pe < npes; ++pe) ishmem_uint64_p(&heap->counters[0], seed, pe);
  }
  ishmem_barrier_all();
  const std::uint64_t seed = heap->counters[0];
  ishmem_barrier_all();
  heap->counters[0] = 0;
  ishmem_barrier_all();

  const long long rounds = (ops + npes - 1) / npes;
  Soak soak(heap, me, npes);
  const auto t0 = std::chrono::steady_clock::now();
  const std::uint64_t failures = soak.run(seed, rounds);
  ishmem_barrier_all();  // every put complete everywhere
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const std::uint64_t mine = checksum(*heap, npes);
  for (int pe = 0; pe < npes; ++pe) {
    ishmem_uint64_p(&report->checksum[me], mine, pe);
    ishmem_uint64_p(&report->failures[me], failures, pe);
  }
  ishmem_barrier_all();
  std::uint64_t world = 0, world_expected = 0, world_failures = 0;
  bool all_match = true;
  for (int pe = 0; pe < npes; ++pe) {
    const std::uint64_t expected = checksum(soak.expected(pe), npes);
    world += report->checksum[pe];
    world_expected += expected;
    world_failures += report->failures[pe];
    all_match = all_match && report->checksum[pe] == expected;
    if (me == 0)
      printf("soak: pe %d checksum %016" PRIx64 " expected %016" PRIx64 " %s, %" PRIu64
             " failed checks\n",
             pe, report->checksum[pe], expected,
             report->checksum[pe] == expected ? "ok" : "MISMATCH", report->failures[pe]);
  }
  const bool passed = all_match && world == world_expected && world_failures == 0;
  if (me == 0) {
    printf("soak: seed %" PRIu64 ", %d PEs, %lld rounds, %lld operations in %.2f s: %.0f ops/s\n",
           seed, npes, rounds, rounds * npes, seconds,
           static_cast<double>(rounds * npes) / seconds);
    printf("soak: pe 0 issued");
    for (int op = 0; op < kNumOps; ++op) printf(" %s %lld", kOpNames[op], soak.op_counts()[op]);
    printf("; collectives barrier_all %lld sync_all %lld broadcast %lld\n",
           soak.collective_counts()[kBarrier], soak.collective_counts()[kSync],
           soak.collective_counts()[kBroadcast]);
    printf("soak: world checksum sum %016" PRIx64 " expected %016" PRIx64 "\n", world,
           world_expected);
    printf("soak: %s\n", passed ? "PASSED" : "FAILED");
    fflush(stdout);
  }
  ishmem_barrier_all();
  ishmem_free(report);
  ishmem_free(heap);
  ishmem_finalize();
  return passed ? 0 : 1;
}
