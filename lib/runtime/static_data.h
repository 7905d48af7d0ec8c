// Symmetric static data: the global and static variables of the program (its executable's
// writable data and bss), reached through an MPI dynamic window to which each PE attaches its
// own copy. The executable is loaded at a different address in each process (PIE, ASLR), but
// the segment's layout is the same, so a variable's offset from the segment's start is the
// same on every PE: the window's target is that PE's start plus the offset, as for the heap.
// Every access to a peer's copy is an MPI call; docs/STATIC_DATA.md says what is symmetric.
#pragma once

#include "ishmem.h"  // brings in mpi.h without the C++ bindings

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "transport/mpi_transport.h"

namespace ishmem::detail {

class StaticData {
 public:
  // Collective over `comm` (a part of ishmem_init): finds this executable's data and bss,
  // compares their layout between the PEs and, where all agree, makes the window. A layout
  // that differs, or a window MPI cannot make, leaves the static data unusable (calls on it
  // fail saying why) and ishmem_init going. Throws Error only when an MPI exchange fails.
  explicit StaticData(MPI_Comm comm);
  StaticData(const StaticData &) = delete;
  StaticData &operator=(const StaticData &) = delete;

  // True if [addr, addr + bytes) lies in one segment of the static data; `off` gets addr's
  // offset from the data's start (the same variable's offset on every PE).
  bool contains(const void *addr, std::size_t bytes, std::size_t &off) const;
  // True if `addr` lies in a segment of the static data (whatever follows it); `start` and
  // `bytes` get that segment. For the errors that must speak of static data, not the heap.
  bool segment_of(const void *addr, const char *&start, std::size_t &bytes) const;
  // The window, or, where static data is unusable, an Error for call `fn` on `addr` saying why.
  MpiTransport &window(const char *fn, const void *addr) const;
  bool usable() const { return window_ != nullptr; }

  // Completes this PE's operations on the window, at `pe` or everywhere (nothing without one).
  void flush(int pe);
  void flush_all();
  // True if operations may be outstanding (ishmem_quiet's test, before it flushes).
  bool dirty() const { return window_ && window_->dirty(); }
  // Lets MPI run peers' operations aimed at this PE's static data (emulated atomics need the
  // target's progress); nothing without a window.
  void progress();
  // Detaches the data and frees the window, collectively, checking every MPI call.
  void close();

 private:
  struct Segment {
    std::size_t offset, bytes;  // from base_
  };
  char *base_ = nullptr;
  std::vector<Segment> segments_;
  std::unique_ptr<MpiTransport> window_;
  int unusable_code_ = ISHMEM_SUCCESS;
  std::string unusable_;  // why, when there is no window
};

}  // namespace ishmem::detail
