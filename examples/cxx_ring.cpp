// cxx_ring: examples/ring.c in the C++ API (include/ishmem.hpp). A token goes around the ring
// of PEs, each adding its PE number; then every PE counts itself into PE 0 with an atomic, and
// a sum reduction checks the total everywhere.
//
//   mpirun -np 2 build/examples/cxx_ring
//
// Errors are exceptions (ishmem::error); memory, teams and the library itself are freed by
// destructors. A failure seen by one PE alone ends the whole job with ishmem_global_exit, as
// its peers may be waiting for it in a collective call.
#include <cstdio>

#include "ishmem.hpp"

int main() {
  ishmem::runtime library;  // ishmem_init here, ishmem_finalize at the end of main
  try {
    const int me = ishmem::my_pe(), npes = ishmem::n_pes(), right = (me + 1) % npes;

    // Collective: one zeroed long on every PE, at the same place in every heap.
    ishmem::symmetric_array<long> token(1);
    if (me == 0) token[0] = 1000;
    ishmem::barrier_all();

    // Round r: PE r adds its number and stores the token on its right-hand PE (p: one
    // element); barrier_all completes the store and ends the round on every PE.
    for (int round = 0; round < npes; ++round) {
      if (me == round) token.p(0, token[0] + me, right);
      ishmem::barrier_all();
    }

    // Every PE adds 1 to PE 0's counter; the barrier completes the atomics.
    ishmem::symmetric_array<long> counter(1);
    counter.add(0, 1, 0);
    ishmem::barrier_all();

    // The counter and the token, summed over all PEs: only PE 0's are nonzero.
    ishmem::symmetric_array<long> both(2), total(2);
    both[0] = me == 0 ? counter[0] : 0;
    both[1] = me == 0 ? token[0] : 0;
    ishmem::sum_reduce(ishmem::team::world(), total, both);

    const long expected = 1000 + long(npes) * (npes - 1) / 2;
    const bool ok = total[0] == npes && total[1] == expected;
    if (me == 0)
      std::printf("cxx_ring: %d PEs, token came back as %ld (expected %ld), %ld PEs counted: %s\n",
                  npes, total[1], expected, total[0], ok ? "ok" : "WRONG");
    return ok ? 0 : 1;  // every PE has the same totals, so every PE returns the same
  } catch (const ishmem::error &e) {
    std::fprintf(stderr, "cxx_ring: %s\n", e.what());
    ishmem_global_exit(1);
    return 1;
  }
}
