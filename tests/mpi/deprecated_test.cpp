// The deprecated collectives over active sets (ishmem/deprecated.h): barrier and sync, the
// sized broadcast, collect, fcollect, alltoall and alltoalls, on heap buffers and on static
// arrays of the program, over the sets of deprecated_sets.h; every value checked.
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "deprecated_sets.h"

using namespace ishmem_test;

namespace {

constexpr std::size_t kMaxElems = 256;
constexpr std::uint64_t kUntouched = 0x5a5a5a5a5a5a5a5aull;

// The static arrays of the program (active-set calls take any memory of the PE).
std::uint64_t g_dest[kMaxElems];
std::uint64_t g_source[kMaxElems];

// The value of element k that member m contributes (for block b).
std::uint64_t value(int m, int b, std::size_t k) {
  return 1000000ull * (m + 1) + 1000ull * b + k;
}

// Heap or static buffers; reset() zeroes source and sets dest to kUntouched.
struct Buffers {
  std::uint64_t *dest, *source;
  void reset() {
    std::fill(dest, dest + kMaxElems, kUntouched);
    std::fill(source, source + kMaxElems, 0);
  }
};

// Writes element k of a `bits`-sized array; reads it back as a 64-bit value.
void put_elem(void *array, int bits, std::size_t k, std::uint64_t v) {
  if (bits == 32)
    static_cast<std::uint32_t *>(array)[k] = static_cast<std::uint32_t>(v);
  else
    static_cast<std::uint64_t *>(array)[k] = v;
}
std::uint64_t get_elem(const void *array, int bits, std::size_t k) {
  if (bits == 32) return static_cast<const std::uint32_t *>(array)[k];
  return static_cast<const std::uint64_t *>(array)[k];
}
std::uint64_t untouched(int bits) {
  return bits == 32 ? static_cast<std::uint32_t>(kUntouched) : kUntouched;
}
std::uint64_t expected(int bits, std::uint64_t v) {
  return bits == 32 ? static_cast<std::uint32_t>(v) : v;
}

// Checks every element of dest: want(k) is the value written at k, or kUntouched.
template <class Want>
void expect_dest(const Buffers &b, int bits, const std::string &what, Want &&want) {
  for (std::size_t k = 0; k < kMaxElems; ++k) {
    const std::uint64_t w = want(k);
    ASSERT_EQ(get_elem(b.dest, bits, k), w == kUntouched ? untouched(bits) : expected(bits, w))
        << what << ", element " << k;
  }
}

template <class Test>
void for_each_case(Test &&test) {
  std::uint64_t *heap = static_cast<std::uint64_t *>(ishmem_malloc(2 * kMaxElems * 8));
  ASSERT_TRUE(all_true(heap != nullptr));
  Buffers on_heap{heap, heap + kMaxElems}, in_static{g_dest, g_source};
  for (const ActiveSetUnderTest &s : active_sets()) {
    if (s.index < 0) continue;
    for (int bits : {32, 64}) {
      test(s, on_heap, bits, s.name + ", heap, " + std::to_string(bits) + " bits");
      test(s, in_static, bits, s.name + ", static, " + std::to_string(bits) + " bits");
    }
  }
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(heap), ISHMEM_SUCCESS);
}

// Each member's pSync holds ISHMEM_SYNC_VALUE before and after: ishmem never touches it.
long g_psync[ISHMEM_SYNC_SIZE] = {ISHMEM_SYNC_VALUE};

TEST(ActiveSet, BarrierCompletesPutsAndWaits) {
  // One flag per set: a PE in two sets may be written by the next set's first member while
  // it still waits in the previous one.
  long *flags = static_cast<long *>(ishmem_calloc(8, sizeof(long)));
  ASSERT_TRUE(all_true(flags != nullptr));
  long round = 0;
  for (const ActiveSetUnderTest &s : active_sets()) {
    long *flag = flags + round++;
    if (s.index < 0) continue;
    for (bool barrier : {true, false}) {
      const long want = round * 10 + barrier;
      // The set's first member writes every member's flag late: a call that did not wait for
      // it, or did not complete its puts, would let the others read the old value.
      if (s.index == 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        for (int i = 0; i < s.size; ++i) ASSERT_EQ(ishmem_long_p(flag, want, s.member(i)), 0);
        if (!barrier) {
          ASSERT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
        }
      }
      const int rc = barrier ? ishmem_barrier(s.start, s.log_stride, s.size, g_psync)
                             : ishmem_sync(s.start, s.log_stride, s.size, g_psync);
      ASSERT_EQ(rc, ISHMEM_SUCCESS) << s.name << ": " << ishmemx_last_error();
      EXPECT_EQ(*flag, want) << s.name << (barrier ? ", barrier" : ", sync");
      // Nobody writes the flag of the next round before every member has read this one.
      ASSERT_EQ(ishmem_sync(s.start, s.log_stride, s.size, g_psync), ISHMEM_SUCCESS);
    }
  }
  EXPECT_EQ(g_psync[0], ISHMEM_SYNC_VALUE);
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(flags), ISHMEM_SUCCESS);
}

TEST(ActiveSet, BroadcastLeavesTheRootsDest) {
  for_each_case([](const ActiveSetUnderTest &s, Buffers &b, int bits, const std::string &what) {
    for (int root : {0, s.size - 1}) {
      const std::size_t n = 37;
      b.reset();
      for (std::size_t k = 0; k < n; ++k) put_elem(b.source, bits, k, value(s.index, 0, k));
      const auto fn = bits == 32 ? ishmem_broadcast32 : ishmem_broadcast64;
      ASSERT_EQ(fn(b.dest, b.source, n, root, s.start, s.log_stride, s.size, g_psync), 0)
          << what << ": " << ishmemx_last_error();
      expect_dest(b, bits, what + ", root " + std::to_string(root), [&](std::size_t k) {
        return s.index != root && k < n ? value(root, 0, k) : kUntouched;
      });
    }
  });
}

TEST(ActiveSet, CollectTakesEachMembersCount) {
  for_each_case([](const ActiveSetUnderTest &s, Buffers &b, int bits, const std::string &what) {
    b.reset();
    const std::size_t mine = s.index + 1;  // member i gives i + 1 elements
    for (std::size_t k = 0; k < mine; ++k) put_elem(b.source, bits, k, value(s.index, 0, k));
    const auto fn = bits == 32 ? ishmem_collect32 : ishmem_collect64;
    ASSERT_EQ(fn(b.dest, b.source, mine, s.start, s.log_stride, s.size, g_psync), 0)
        << what << ": " << ishmemx_last_error();
    std::vector<std::uint64_t> want;
    for (int m = 0; m < s.size; ++m)
      for (int k = 0; k <= m; ++k) want.push_back(value(m, 0, k));
    want.resize(kMaxElems, kUntouched);
    expect_dest(b, bits, what, [&](std::size_t k) { return want[k]; });
  });
}

TEST(ActiveSet, FcollectConcatenatesInSetOrder) {
  for_each_case([](const ActiveSetUnderTest &s, Buffers &b, int bits, const std::string &what) {
    b.reset();
    const std::size_t n = 5;
    for (std::size_t k = 0; k < n; ++k) put_elem(b.source, bits, k, value(s.index, 0, k));
    const auto fn = bits == 32 ? ishmem_fcollect32 : ishmem_fcollect64;
    ASSERT_EQ(fn(b.dest, b.source, n, s.start, s.log_stride, s.size, g_psync), 0)
        << what << ": " << ishmemx_last_error();
    expect_dest(b, bits, what, [&](std::size_t k) {
      const int m = static_cast<int>(k / n);
      return m < s.size ? value(m, 0, k % n) : kUntouched;
    });
  });
}

// alltoall, and alltoalls with strides dst and sst (1, 1: the alltoall layout).
void check_alltoall(const ActiveSetUnderTest &s, Buffers &b, int bits, const std::string &what,
                    std::ptrdiff_t dst, std::ptrdiff_t sst) {
  b.reset();
  const std::size_t n = 3;
  for (int j = 0; j < s.size; ++j)
    for (std::size_t k = 0; k < n; ++k)
      put_elem(b.source, bits, (j * n + k) * sst, value(s.index, j, k));
  int rc;
  if (dst == 1 && sst == 1) {
    const auto fn = bits == 32 ? ishmem_alltoall32 : ishmem_alltoall64;
    rc = fn(b.dest, b.source, n, s.start, s.log_stride, s.size, g_psync);
  } else {
    const auto fn = bits == 32 ? ishmem_alltoalls32 : ishmem_alltoalls64;
    rc = fn(b.dest, b.source, dst, sst, n, s.start, s.log_stride, s.size, g_psync);
  }
  ASSERT_EQ(rc, ISHMEM_SUCCESS) << what << ": " << ishmemx_last_error();
  expect_dest(b, bits, what, [&](std::size_t k) {
    const std::size_t e = k / dst;
    const int j = static_cast<int>(e / n);  // the block from member j: its block for this PE
    return k % dst == 0 && j < s.size ? value(j, s.index, e % n) : kUntouched;
  });
}

TEST(ActiveSet, AlltoallSendsBlockJToMemberJ) {
  for_each_case([](const ActiveSetUnderTest &s, Buffers &b, int bits, const std::string &what) {
    check_alltoall(s, b, bits, what, 1, 1);
  });
}

TEST(ActiveSet, AlltoallsUsesElementStrides) {
  for_each_case([](const ActiveSetUnderTest &s, Buffers &b, int bits, const std::string &what) {
    check_alltoall(s, b, bits, what + ", strides 2 and 3", 2, 3);
  });
}

}  // namespace
