// Must not compile: ishmem.hpp refuses, at a static_assert naming the operation, an element
// type the C API has no call for. tests/CMakeLists.txt compiles it once per CASE and matches
// the message.
#include <ishmem.hpp>

void refused(ishmem::symmetric_array<float> &real, ishmem::symmetric_array<int> &integer) {
#if CASE == 1
  real.fetch_add(0, 1.0f, 0);  // add: standard AMO types only (float has fetch/set/swap)
#elif CASE == 2
  ishmem::xor_reduce(ishmem::team::world(), real, real);  // bitwise: unsigned and fixed-width
#elif CASE == 3
  integer.fetch_xor(0, 1, 0);  // compiles: int is int32_t, a bitwise AMO type
  struct pair {
    int a, b;
  };
  ishmem::symmetric_array<pair> pairs(1);
  pairs.wait_until(0, ishmem::cmp::eq, pair{});  // wait_until: the point-to-point types
#endif
  (void)real;
  (void)integer;
}
