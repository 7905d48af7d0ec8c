// TYPE_OP_to_all over active sets, every operation over types of each kind (integer, real,
// long double, complex), out of place and in place, on heap and static buffers; the argument
// errors of the deprecated calls; ishmem_pcontrol and ishmem_malloc_with_hints.
#include <complex.h>

#include <cstring>
#include <string>

#include "deprecated_sets.h"

using namespace ishmem_test;

namespace {

constexpr int kN = 9;  // elements per reduction
long g_psync[ISHMEM_REDUCE_SYNC_SIZE] = {ISHMEM_SYNC_VALUE};
long double g_static_dest[kN], g_static_source[kN];  // static buffers for one type

// Member m's element k, small enough that every sum and product of 4 members is exact.
template <class T>
T element(int m, int k) {
  if constexpr (std::is_same_v<T, float _Complex> || std::is_same_v<T, double _Complex>) {
    T v = 0;
    __real__ v = static_cast<float>(m + 1 + k % 3);
    __imag__ v = static_cast<float>(k % 2 - m);
    return v;
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(((m + 1) * (k + 3) * 37) % 101 - 40);  // mixed signs and bits
  } else {
    return static_cast<T>(((m + 2) * (k + 1)) % 7) - static_cast<T>(3) + static_cast<T>(0.5);
  }
}

template <class T, class Op>
void check_to_all(const ActiveSetUnderTest &s, const char *name, Op op,
                  int (*fn)(T *, const T *, int, int, int, int, T *, long *), T *dest, T *source) {
  T want[kN], wrk[ISHMEM_REDUCE_MIN_WRKDATA_SIZE + kN];
  for (int k = 0; k < kN; ++k) {
    want[k] = element<T>(0, k);
    for (int m = 1; m < s.size; ++m) want[k] = op(want[k], element<T>(m, k));
  }
  for (bool in_place : {false, true}) {
    for (int k = 0; k < kN; ++k) source[k] = element<T>(s.index, k);
    T *out = in_place ? source : dest;
    if (!in_place) memset(static_cast<void *>(dest), 0, sizeof(T) * kN);
    ASSERT_EQ(fn(out, source, kN, s.start, s.log_stride, s.size, wrk, g_psync), ISHMEM_SUCCESS)
        << name << " on " << s.name << ": " << ishmemx_last_error();
    for (int k = 0; k < kN; ++k)
      EXPECT_TRUE(memcmp(&out[k], &want[k], sizeof(T)) == 0 || out[k] == want[k])
          << name << " on " << s.name << (in_place ? " in place" : "") << ", element " << k;
    if (in_place) continue;
    for (int k = 0; k < kN; ++k)
      EXPECT_TRUE(source[k] == element<T>(s.index, k)) << name << ": source changed";
  }
}

template <class T>
T and_of(T a, T b) {
  return a & b;
}
template <class T>
T or_of(T a, T b) {
  return a | b;
}
template <class T>
T xor_of(T a, T b) {
  return a ^ b;
}
template <class T>
T max_of(T a, T b) {
  return a < b ? b : a;
}
template <class T>
T min_of(T a, T b) {
  return b < a ? b : a;
}
template <class T>
T sum_of(T a, T b) {
  return a + b;
}
template <class T>
T prod_of(T a, T b) {
  return a * b;
}

#define CHECK_OP(T, N, OP)                                                                      \
  check_to_all<T>(s, "ishmem_" #N "_" #OP "_to_all", OP##_of<T>, ishmem_##N##_##OP##_to_all, d, \
                  src);
#define CHECK_ARITH(T, N) CHECK_OP(T, N, sum) CHECK_OP(T, N, prod)
#define CHECK_REAL(T, N) CHECK_OP(T, N, max) CHECK_OP(T, N, min) CHECK_ARITH(T, N)
#define CHECK_INTEGER(T, N) \
  CHECK_OP(T, N, and) CHECK_OP(T, N, or) CHECK_OP(T, N, xor) CHECK_REAL(T, N)

TEST(ToAll, EveryOperationOverEverySet) {
  long double *heap = static_cast<long double *>(ishmem_malloc(2 * kN * sizeof(long double)));
  ASSERT_TRUE(all_true(heap != nullptr));
  for (const ActiveSetUnderTest &s : active_sets()) {
    if (s.index < 0) continue;
    {
      using T = short;
      T *d = reinterpret_cast<T *>(heap), *src = reinterpret_cast<T *>(heap + kN);
      CHECK_INTEGER(short, short)
    }
    {
      using T = int;
      T *d = reinterpret_cast<T *>(heap), *src = reinterpret_cast<T *>(heap + kN);
      CHECK_INTEGER(int, int)
    }
    {
      using T = long;
      T *d = reinterpret_cast<T *>(heap), *src = reinterpret_cast<T *>(heap + kN);
      CHECK_INTEGER(long, long)
    }
    {
      using T = long long;
      T *d = reinterpret_cast<T *>(g_static_dest), *src = reinterpret_cast<T *>(g_static_source);
      CHECK_INTEGER(long long, longlong)
    }
    {
      using T = float;
      T *d = reinterpret_cast<T *>(heap), *src = reinterpret_cast<T *>(heap + kN);
      CHECK_REAL(float, float)
    }
    {
      using T = double;
      T *d = reinterpret_cast<T *>(g_static_dest), *src = reinterpret_cast<T *>(g_static_source);
      CHECK_REAL(double, double)
    }
    {
      using T = long double;
      T *d = g_static_dest, *src = g_static_source;
      CHECK_REAL(long double, longdouble)
    }
    {
      using T = float _Complex;
      T *d = reinterpret_cast<T *>(heap), *src = reinterpret_cast<T *>(heap + kN);
      CHECK_ARITH(float _Complex, complexf)
    }
    {
      using T = double _Complex;
      T *d = reinterpret_cast<T *>(heap), *src = reinterpret_cast<T *>(heap + kN);
      CHECK_ARITH(double _Complex, complexd)
    }
  }
  EXPECT_EQ(g_psync[0], ISHMEM_SYNC_VALUE);
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(heap), ISHMEM_SUCCESS);
}

// Every PE makes the same bad call: each fails at once with the error, and none waits.
TEST(DeprecatedErrors, BadSetsAndArguments) {
  const int n = n_pes(), me = my_pe();
  long buf[8] = {0}, other[8] = {0};
  auto expect_invalid = [](int rc, const char *what, const char *text) {
    EXPECT_EQ(rc, ISHMEM_ERR_INVALID_ARG) << what;
    EXPECT_NE(strstr(ishmemx_last_error(), text), nullptr) << what << ": " << ishmemx_last_error();
  };
  expect_invalid(ishmem_barrier(0, 0, n + 1, g_psync), "past the last PE", "past the last PE");
  expect_invalid(ishmem_sync(-1, 0, n, g_psync), "negative PE_start", "is no active set");
  expect_invalid(ishmem_sync(0, -1, n, g_psync), "negative stride", "is no active set");
  expect_invalid(ishmem_sync(0, 0, 0, g_psync), "empty set", "is no active set");
  if (n >= 2)
    expect_invalid(ishmem_barrier((me + 1) % n, 0, 1, g_psync), "a set without this PE",
                   "is not in the active set");
  expect_invalid(ishmem_fcollect64(nullptr, buf, 1, 0, 0, n, g_psync), "NULL dest", "dest is NULL");
  expect_invalid(ishmem_alltoall32(buf, nullptr, 1, 0, 0, n, g_psync), "NULL source",
                 "source is NULL");
  expect_invalid(ishmem_broadcast64(buf, other, 1, n, 0, 0, n, g_psync), "PE_root past the set",
                 "PE_root");
  expect_invalid(ishmem_alltoalls64(buf, other, 0, 1, 1, 0, 0, n, g_psync), "stride 0",
                 "not positive");
  expect_invalid(ishmem_long_sum_to_all(buf, other, -1, 0, 0, n, nullptr, g_psync),
                 "negative nreduce", "nreduce -1 is negative");
  expect_invalid(
      ishmem_int_max_to_all(reinterpret_cast<int *>(buf), reinterpret_cast<int *>(buf) + 1, 2, 0, 0,
                            n, nullptr, g_psync),
      "overlap", "overlap");
  // The set still works after the errors.
  EXPECT_EQ(ishmem_long_sum_to_all(buf, other, 0, 0, 0, n, nullptr, g_psync), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_barrier(0, 0, n, g_psync), ISHMEM_SUCCESS) << ishmemx_last_error();
}

// PEs 0 and 2 call over {0, 1, 2}, PE 1 over {0, 1}: the sets' first member finds the odd
// one before any communicator is made, and every PE involved fails. Neither set is used
// elsewhere, so none has a communicator yet.
// The members meet at a set's first call only: the sets here are new to every PE.
TEST(DeprecatedErrors, MembersNamingAnotherSetFailTogether) {
  if (n_pes() < 4) GTEST_SKIP() << "needs 4 PEs (at 3, the earlier tests met over (0, 0, 3))";
  const int me = my_pe();
  if (me <= 2) {
    const int rc = me == 1 ? ishmem_sync(0, 0, 2, g_psync) : ishmem_sync(0, 0, 3, g_psync);
    EXPECT_EQ(rc, ISHMEM_ERR_MISMATCH);
    EXPECT_NE(strstr(ishmemx_last_error(), "PE 1 named an active set other than"), nullptr)
        << ishmemx_last_error();
  }
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
}

// Over the whole world on heap buffers the calls are ISHMEM_TEAM_WORLD's collectives, whose
// members compare their calls before any data moves: two different calls fail together at
// once on a node-local world, without ISHMEM_DEBUG=1, and the next matching call works.
TEST(DeprecatedErrors, DifferentCallsOverTheWorldFailTogether) {
  const int n = n_pes();
  if (n < 2) GTEST_SKIP() << "needs 2 PEs";
  if (ishmem_team_n_pes(ISHMEM_TEAM_SHARED) != n)
    GTEST_SKIP() << "the world spans nodes, where ISHMEM_DEBUG=1 compares the calls";
  long *heap = static_cast<long *>(ishmem_calloc(8, sizeof(long)));
  ASSERT_TRUE(all_true(heap != nullptr));
  heap[4] = my_pe() + 1;
  const int rc = my_pe() == 0
                     ? ishmem_broadcast64(heap, heap + 4, 1, 0, 0, 0, n, g_psync)
                     : ishmem_long_sum_to_all(heap, heap + 4, 1, 0, 0, n, nullptr, g_psync);
  EXPECT_EQ(rc, ISHMEM_ERR_MISMATCH) << ishmemx_last_error();
  EXPECT_NE(strstr(ishmemx_last_error(), "different collective calls"), nullptr)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_long_sum_to_all(heap, heap + 4, 1, 0, 0, n, nullptr, g_psync), ISHMEM_SUCCESS)
      << ishmemx_last_error();
  EXPECT_EQ(heap[0], static_cast<long>(n) * (n + 1) / 2);
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(heap), ISHMEM_SUCCESS);
}

// A collect's dest may be NULL while the members collect nothing; once any member gives
// elements, a NULL dest fails every member at once.
TEST(DeprecatedErrors, CollectTakesANullDestOnlyForNothing) {
  const int n = n_pes();
  EXPECT_EQ(ishmem_collect32(nullptr, nullptr, 0, 0, 0, n, g_psync), ISHMEM_SUCCESS)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_collect64(nullptr, nullptr, 0, 0, 0, n, g_psync), ISHMEM_SUCCESS)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_fcollect64(nullptr, nullptr, 0, 0, 0, n, g_psync), ISHMEM_SUCCESS)
      << ishmemx_last_error();
  if (n < 2) return;
  const bool first = my_pe() == 0;
  const int rc = ishmem_collect64(first ? nullptr : g_static_dest, g_static_source, first ? 0 : 1,
                                  0, 0, n, g_psync);
  EXPECT_EQ(rc, ISHMEM_ERR_INVALID_ARG);
  EXPECT_NE(strstr(ishmemx_last_error(), "PE 0 passed a NULL dest"), nullptr)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
}

TEST(Deprecated, PcontrolAndMallocWithHints) {
  for (int level : {0, 1, 2, 7}) EXPECT_EQ(ishmem_pcontrol(level), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_pcontrol(1, "region", 3), ISHMEM_SUCCESS);
  // Unknown hint bits are no hint: the same symmetric block as ishmem_malloc.
  for (long hints : {0L, long{ISHMEM_MALLOC_ATOMICS_REMOTE},
                     long{ISHMEM_MALLOC_ATOMICS_REMOTE | ISHMEM_MALLOC_SIGNAL_REMOTE}, 8L,
                     long{ISHMEM_MALLOC_SIGNAL_REMOTE} | (1L << 40)}) {
    long *p = static_cast<long *>(ishmem_malloc_with_hints(4 * sizeof(long), hints));
    ASSERT_TRUE(all_true(p != nullptr)) << ishmemx_last_error();
    EXPECT_TRUE(all_equal(heap_offset(p)));  // symmetric
    *p = 0;
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_long_atomic_add(p, 1, 0), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    if (my_pe() == 0) {
      EXPECT_EQ(*p, n_pes());
    }
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
    EXPECT_EQ(ishmem_free(p), ISHMEM_SUCCESS);
  }
}

}  // namespace
