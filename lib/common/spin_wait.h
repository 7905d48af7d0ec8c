// Waiting on memory that another PE (or thread) writes: the node barrier, the stream barrier
// and the host waits all spin here.
#pragma once

#include <sched.h>

namespace ishmem::detail {

inline void yield_cpu() {
  sched_yield();
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Waits for `ready()` to become true: spins briefly, then yields the CPU, because PEs often
// outnumber cores. Once it yields, it calls `slow()` after each yield (deadline checks).
template <class Ready, class Slow>
void wait_for(Ready &&ready, Slow &&slow) {
  for (int spins = 0; !ready();) {
    if (spins < 256) {
      ++spins;
      cpu_relax();
    } else {
      yield_cpu();
      slow();
    }
  }
}

template <class Ready>
void wait_for(Ready &&ready) {
  wait_for(ready, [] {});
}

}  // namespace ishmem::detail
