// Runs a step on every PE of a communicator and agrees on its outcome, so that a failure on
// one PE fails every PE at the same point instead of leaving the others waiting in the next
// collective call. Setup, heap growth and the fills after an allocation all go through here.
#pragma once

#include "ishmem.h"  // brings in mpi.h without the C++ bindings

#include "common/error.h"

namespace ishmem::detail {

// The lowest status over `comm` (every PE of it calls this at the same point): ISHMEM_SUCCESS
// only if `status` is ISHMEM_SUCCESS everywhere. Status codes are negative, so the minimum is
// a failing PE's code.
int lowest_status(MPI_Comm comm, int status);

// Runs `step` on this PE, then agrees over `comm` on whether it succeeded on every PE. If it
// failed anywhere, every PE throws: this PE its own error where it has one, the others what
// `peer_failed(code)` throws, `code` being the lowest status any PE failed with.
template <class Step, class PeerFailed>
void agreed_step(MPI_Comm comm, Step &&step, PeerFailed &&peer_failed) {
  FirstError mine;  // every PE must reach the agreement below, whatever the step threw
  mine.attempt(step);
  const int worst = lowest_status(comm, mine.code());
  mine.rethrow();
  if (worst != ISHMEM_SUCCESS) {
    peer_failed(worst);
    fail(worst, "another PE failed");  // peer_failed is meant to throw
  }
}

// An agreed step of ishmem_init: the other PEs report "another PE failed while <what>".
template <class Step>
void agreed_setup_step(MPI_Comm comm, const char *what, Step &&step) {
  agreed_step(comm, step,
              [what](int code) { fail(code, "ishmem_init: another PE failed while %s", what); });
}

}  // namespace ishmem::detail
