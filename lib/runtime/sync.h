// Synchronization built on the control segment: barriers and the agreement check that every
// collective allocation runs before it changes the heap.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/runtime.h"

namespace ishmem::detail {

void yield_cpu();

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Waits for `ready()` to become true: spins briefly, then yields the CPU, because PEs often
// outnumber cores.
template <class Ready>
void wait_for(Ready &&ready) {
  for (int spins = 0; !ready();) {
    if (spins < 256) {
      ++spins;
      cpu_relax();
    } else {
      yield_cpu();
    }
  }
}

// Completes this PE's outstanding RMA (stores made visible; MPI operations flushed).
void quiet(Runtime &rt);
// All PEs arrive before any leaves; no completion of RMA.
void sync_all(Runtime &rt);

enum class CollectiveOp : std::uint64_t { malloc = 1, calloc, free, realloc, trim };
const char *collective_op_name(std::uint64_t op);

// Runs a full barrier that also compares `op` and `arg` across every PE together with the
// history of earlier collective calls. Returns "" if all agree, else a message naming the
// PEs and their calls (the same text on every PE).
std::string agree(Runtime &rt, CollectiveOp op, std::uint64_t arg0, std::uint64_t arg1);

}  // namespace ishmem::detail
