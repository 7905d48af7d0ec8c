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
#include <vector>

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

// inout[i] = in[i] + inout[i] (or *), wrapping around as C's unsigned arithmetic does.
template <class T, bool kProd>
void wrapping_twin(void *in, void *inout, int *len, MPI_Datatype *) {
  T *a = static_cast<T *>(inout);
  const T *b = static_cast<const T *>(in);
  for (int i = 0; i < *len; ++i)
    a[i] = static_cast<T>(kProd ? static_cast<unsigned>(a[i]) * static_cast<unsigned>(b[i])
                                : static_cast<unsigned>(a[i]) + static_cast<unsigned>(b[i]));
}

// The MPI operation of the twin reduction: `op` itself, but for the sums and products of 8-
// and 16-bit integers an operation of the test's own, since Open MPI 4.1's AVX operations
// saturate those (open-mpi/ompi#8045) where C and ishmem wrap around.
template <class T, bool kProd>
MPI_Op wrapping_twin_op() {
  static const MPI_Op made = [] {
    MPI_Op op = MPI_OP_NULL;
    MPI_Op_create(&wrapping_twin<T, kProd>, 1, &op);
    return op;
  }();
  return made;
}

template <class T>
MPI_Op twin_op(MPI_Op op) {
  if constexpr (std::is_integral_v<T> && sizeof(T) <= 2) {
    if (op == MPI_SUM) return wrapping_twin_op<T, false>();
    if (op == MPI_PROD) return wrapping_twin_op<T, true>();
  }
  return op;
}

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

// The team shapes the collectives run on, each with its MPI twin: world, shared, strided
// with a positive and a negative stride, a single PE, and the rows and columns of a 2d split.
// A PE outside a shape holds ISHMEM_TEAM_INVALID and MPI_COMM_NULL there.
class TeamShapes {
 public:
  TeamShapes() {
    const int n = ishmem_n_pes();
    shapes_.push_back({ISHMEM_TEAM_WORLD, MPI_COMM_WORLD, "world"});
    add(ISHMEM_TEAM_SHARED, "shared");  // this PE's node: in split mode, its group
    split(0, 2, (n + 1) / 2, "even PEs (stride 2)");
    split(n - 1, -1, n, "every PE backwards (stride -1)");
    split(n - 1, 1, 1, "the last PE alone");
    ishmem_team_t x = ISHMEM_TEAM_INVALID, y = ISHMEM_TEAM_INVALID;
    EXPECT_EQ(ishmem_team_split_2d(ISHMEM_TEAM_WORLD, 2, nullptr, 0, &x, nullptr, 0, &y),
              ISHMEM_SUCCESS)
        << ishmemx_last_error();
    add(x, "2d rows of 2");
    add(y, "2d columns");
  }
  ~TeamShapes() {
    for (std::size_t i = 1; i < shapes_.size(); ++i) {  // WORLD and SHARED are not destroyed
      if (i >= 2 && shapes_[i].team != ISHMEM_TEAM_INVALID) ishmem_team_destroy(shapes_[i].team);
      if (shapes_[i].comm != MPI_COMM_NULL) MPI_Comm_free(&shapes_[i].comm);
    }
  }
  // The shapes this PE is a member of.
  template <class F>
  void for_each_member(F &&f) const {
    for (const TeamUnderTest &t : shapes_)
      if (t.team != ISHMEM_TEAM_INVALID) f(t);
  }

 private:
  void split(int start, int stride, int size, const char *name) {
    ishmem_team_t team = ISHMEM_TEAM_INVALID;
    EXPECT_EQ(ishmem_team_split_strided(ISHMEM_TEAM_WORLD, start, stride, size, nullptr, 0, &team),
              ISHMEM_SUCCESS)
        << name << ": " << ishmemx_last_error();
    add(team, name);
  }
  // Collective over the world: the MPI twin, ranked by team index.
  void add(ishmem_team_t team, const char *name) {
    const int index = team == ISHMEM_TEAM_INVALID ? -1 : ishmem_team_my_pe(team);
    // A 2d split makes several teams at once: each is told apart by its first PE.
    const int color =
        index >= 0 ? ishmem_team_translate_pe(team, 0, ISHMEM_TEAM_WORLD) : MPI_UNDEFINED;
    MPI_Comm comm = MPI_COMM_NULL;
    EXPECT_EQ(MPI_Comm_split(MPI_COMM_WORLD, color, index, &comm), MPI_SUCCESS);
    shapes_.push_back({team, comm, name});
  }
  std::vector<TeamUnderTest> shapes_;
};

}  // namespace ishmem_test
