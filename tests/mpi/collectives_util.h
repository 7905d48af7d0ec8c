// Helpers of the collective tests: random data of every reduction type, the MPI datatype of
// each, and the team under test beside its MPI communicator (ranked by team index), on which
// the same collective computes the expected result.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>

#include "ishmem.h"

namespace ishmem_test {

struct TeamUnderTest {
  ishmem_team_t team;
  MPI_Comm comm;  // the same PEs, ranked by team index
  const char *name;
};

template <class T>
constexpr bool is_complex_v =
    std::is_same_v<T, double _Complex> || std::is_same_v<T, float _Complex>;

// The standard MPI datatype of T (not the library's mapping: a test of it).
template <class T>
MPI_Datatype mpi_of() {
  if constexpr (std::is_same_v<T, char>)
    return std::is_signed_v<char> ? MPI_SIGNED_CHAR : MPI_UNSIGNED_CHAR;
  else if constexpr (std::is_same_v<T, signed char>)
    return MPI_SIGNED_CHAR;
  else if constexpr (std::is_same_v<T, unsigned char>)
    return MPI_UNSIGNED_CHAR;
  else if constexpr (std::is_same_v<T, short>)
    return MPI_SHORT;
  else if constexpr (std::is_same_v<T, unsigned short>)
    return MPI_UNSIGNED_SHORT;
  else if constexpr (std::is_same_v<T, int>)
    return MPI_INT;
  else if constexpr (std::is_same_v<T, unsigned>)
    return MPI_UNSIGNED;
  else if constexpr (std::is_same_v<T, long>)
    return MPI_LONG;
  else if constexpr (std::is_same_v<T, unsigned long>)
    return MPI_UNSIGNED_LONG;
  else if constexpr (std::is_same_v<T, long long>)
    return MPI_LONG_LONG;
  else if constexpr (std::is_same_v<T, unsigned long long>)
    return MPI_UNSIGNED_LONG_LONG;
  else if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, long double>)
    return MPI_LONG_DOUBLE;
  else if constexpr (std::is_same_v<T, double _Complex>)
    return MPI_C_DOUBLE_COMPLEX;
  else if constexpr (std::is_same_v<T, float _Complex>)
    return MPI_C_FLOAT_COMPLEX;
}

// A value of T from small integers (exact in every floating type, so that sums and products
// do not depend on the order of the operations).
template <class T>
T make_value(long re, long im) {
  if constexpr (is_complex_v<T>) {
    T v = 0;
    __real__ v = re;
    __imag__ v = im;
    return v;
  } else {
    (void)im;
    return static_cast<T>(re);
  }
}

// Random elements in [lo, hi] (any bit pattern with `bits`), seeded by `seed`.
template <class T>
void fill_random(T *p, std::size_t n, std::uint64_t seed, long lo, long hi, bool bits = false) {
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < n; ++i) {
    if (bits) {
      std::uint64_t r = rng();
      memcpy(&p[i], &r, sizeof(T) < 8 ? sizeof(T) : 8);
      continue;
    }
    const long span = hi - lo + 1;
    const long re = lo + static_cast<long>(rng() % span), im = lo + static_cast<long>(rng() % span);
    p[i] = make_value<T>(re, im);
  }
}

// For messages: a printable form.
template <class T>
long double printable(T v) {
  if constexpr (is_complex_v<T>)
    return __real__ v;
  else
    return static_cast<long double>(v);
}

// Counts elements that differ between got and want, reporting the first few.
template <class T>
void expect_same(const T *got, const T *want, std::size_t n, const std::string &what) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (got[i] == want[i]) continue;
    if (++bad <= 3)
      ADD_FAILURE() << "PE " << ishmem_my_pe() << ": " << what << ": element " << i << " of " << n
                    << " is " << printable(got[i]) << ", expected " << printable(want[i]);
  }
  EXPECT_EQ(bad, 0u) << what;
}

}  // namespace ishmem_test
