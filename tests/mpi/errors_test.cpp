// Error paths: each returns a status (or NULL) on every PE that made the call, says why in
// ishmemx_last_error(), and leaves the library usable, with the PEs' heaps still identical.
// ctest runs this program with ISHMEM_SYMMETRIC_SIZE=64M and ISHMEM_LOG=none.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

bool error_mentions(const std::string &text) {
  return std::string(ishmemx_last_error()).find(text) != std::string::npos;
}

// A fresh allocation lands at the same offset on every PE, and the data moves.
void expect_heap_usable() {
  long *p = static_cast<long *>(ishmem_malloc(4096));
  EXPECT_TRUE(all_true(p != nullptr)) << ishmemx_last_error();
  EXPECT_TRUE(all_equal(p ? heap_offset(p) : -1));
  if (!all_true(p != nullptr)) return;
  EXPECT_EQ(ishmem_long_p(p, 7L + my_pe(), right_pe()), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  EXPECT_EQ(*p, 7L + left_pe());
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(p), ISHMEM_SUCCESS);
}

TEST(Errors, MallocZeroIsNull) {
  EXPECT_EQ(ishmem_malloc(0), nullptr);
  expect_heap_usable();
}

TEST(Errors, TooLargeIsNullEverywhere) {
  const std::size_t heap = user_heap_size();
  for (std::size_t bytes : {SIZE_MAX / 2, SIZE_MAX, heap + 1, heap + 4096}) {
    EXPECT_EQ(ishmem_malloc(bytes), nullptr) << bytes;
    EXPECT_TRUE(error_mentions("ISHMEM_SYMMETRIC_SIZE")) << ishmemx_last_error();
    EXPECT_TRUE(error_mentions(std::to_string(bytes))) << ishmemx_last_error();
    EXPECT_EQ(ishmem_align(4096, bytes), nullptr) << bytes;
    EXPECT_EQ(ishmem_calloc(bytes, 1), nullptr) << bytes;
  }
  // Exactly the whole heap fits (when nothing else is allocated).
  void *all = ishmem_malloc(heap);
  EXPECT_TRUE(all_true(all != nullptr)) << ishmemx_last_error();
  EXPECT_EQ(ishmem_malloc(64), nullptr);  // full
  EXPECT_EQ(ishmem_free(all), ISHMEM_SUCCESS);
  expect_heap_usable();
}

TEST(Errors, MismatchedMallocFailsOnEveryPe) {
  if (!all_true(n_pes() > 1)) GTEST_SKIP() << "needs two PEs";
  const std::size_t size = my_pe() == 0 ? 1024 : 2048;
  void *p = ishmem_malloc(size);
  EXPECT_EQ(p, nullptr);
  const std::string why = ishmemx_last_error();
  EXPECT_TRUE(error_mentions("PE 0 called ishmem_malloc(1024")) << why;
  EXPECT_TRUE(error_mentions(n_pes() == 2 ? "PE 1 called ishmem_malloc(2048" : "PEs 1,2")) << why;
  EXPECT_TRUE(error_mentions("2048")) << why;
  // The same text on every PE, after the "[ishmem pe N] " prefix.
  const std::string text = why.substr(why.find("] ") + 1);
  EXPECT_TRUE(all_equal(static_cast<long long>(std::hash<std::string>()(text)))) << text;
  if (!all_true(p == nullptr)) return;
  expect_heap_usable();
  // Offsets agree again: a few allocations land at the same offsets on every PE.
  void *a = ishmem_malloc(100), *b = ishmem_malloc(5000), *c = ishmem_align(4096, 10);
  EXPECT_TRUE(all_true(a && b && c));
  EXPECT_TRUE(all_equal(heap_offset(a)));
  EXPECT_TRUE(all_equal(heap_offset(b)));
  EXPECT_TRUE(all_equal(heap_offset(c)));
  EXPECT_EQ(ishmem_free(c), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(b), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(a), ISHMEM_SUCCESS);
}

TEST(Errors, MismatchedCallsFailOnEveryPe) {
  if (!all_true(n_pes() > 1)) GTEST_SKIP() << "needs two PEs";
  char *a = static_cast<char *>(ishmem_malloc(64));
  char *b = static_cast<char *>(ishmem_malloc(64));
  ASSERT_TRUE(all_true(a && b));
  // Different pointers to free: nothing is freed anywhere.
  EXPECT_EQ(ishmem_free(my_pe() == 0 ? a : b), ISHMEM_ERR_MISMATCH);
  EXPECT_TRUE(error_mentions("ishmem_free")) << ishmemx_last_error();
  // Different calls: PE 0 allocates while the others free.
  if (my_pe() == 0) {
    EXPECT_EQ(ishmem_malloc(64), nullptr);
  } else {
    EXPECT_EQ(ishmem_free(a), ISHMEM_ERR_MISMATCH);
  }
  EXPECT_TRUE(error_mentions("ishmem_malloc(64")) << ishmemx_last_error();
  EXPECT_TRUE(error_mentions("ishmem_free(")) << ishmemx_last_error();
  // Both blocks are still allocated: freeing each works once.
  EXPECT_EQ(ishmem_free(a), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(b), ISHMEM_SUCCESS);
  expect_heap_usable();
}

// One PE calls a barrier where the others allocate or free: every PE gets the error (the
// barrier's caller too), and the calls after it, which agree, work: one mistake does not
// poison the job. Through MPI (ISHMEM_MAX_LOCAL_PES=1) the same mistake once deadlocked.
TEST(Errors, BarrierInPlaceOfHeapCallFailsEveryPeOnce) {
  if (!all_true(n_pes() > 1)) GTEST_SKIP() << "needs two PEs";
  const bool skipper = my_pe() == 1;
  if (skipper) {
    EXPECT_EQ(ishmem_barrier_all(), ISHMEM_ERR_MISMATCH);
  } else {
    EXPECT_EQ(ishmem_malloc(64), nullptr);
  }
  EXPECT_TRUE(error_mentions("PE 1 called ishmem_barrier_all")) << ishmemx_last_error();
  EXPECT_TRUE(error_mentions("called ishmem_malloc(64, ")) << ishmemx_last_error();
  expect_heap_usable();

  char *a = static_cast<char *>(ishmem_malloc(64));
  ASSERT_TRUE(all_true(a != nullptr));
  if (skipper) {
    EXPECT_EQ(ishmem_sync_all(), ISHMEM_ERR_MISMATCH);
  } else {
    EXPECT_EQ(ishmem_free(a), ISHMEM_ERR_MISMATCH);
  }
  EXPECT_TRUE(error_mentions("ishmem_free(")) << ishmemx_last_error();
  EXPECT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(a), ISHMEM_SUCCESS);  // nothing was freed by the failed call
  expect_heap_usable();
}

TEST(Errors, BadPe) {
  long *sym = static_cast<long *>(ishmem_malloc(64 * sizeof(long)));
  ASSERT_TRUE(all_true(sym != nullptr));
  long src[4] = {1, 2, 3, 4};
  for (int pe : {-1, n_pes(), n_pes() + 100, INT32_MIN}) {
    SCOPED_TRACE(pe);
    EXPECT_EQ(ishmem_putmem(sym, src, sizeof src, pe), ISHMEM_ERR_INVALID_PE);
    EXPECT_TRUE(error_mentions(std::to_string(pe))) << ishmemx_last_error();
    EXPECT_EQ(ishmem_getmem(src, sym, sizeof src, pe), ISHMEM_ERR_INVALID_PE);
    EXPECT_EQ(ishmem_putmem_nbi(sym, src, sizeof src, pe), ISHMEM_ERR_INVALID_PE);
    EXPECT_EQ(ishmem_getmem_nbi(src, sym, sizeof src, pe), ISHMEM_ERR_INVALID_PE);
    EXPECT_EQ(ishmem_long_put(sym, src, 4, pe), ISHMEM_ERR_INVALID_PE);
    EXPECT_EQ(ishmem_long_get(src, sym, 4, pe), ISHMEM_ERR_INVALID_PE);
    EXPECT_EQ(ishmem_long_p(sym, 5, pe), ISHMEM_ERR_INVALID_PE);
    EXPECT_EQ(ishmem_long_iput(sym, src, 2, 1, 2, pe), ISHMEM_ERR_INVALID_PE);
    EXPECT_EQ(ishmem_put32(sym, src, 2, pe), ISHMEM_ERR_INVALID_PE);
  }
  EXPECT_EQ(src[0], 1);  // failed gets wrote nothing
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

// Put-with-signal names a bad PE the way putmem does, in every form, and changes nothing.
TEST(Errors, BadPeWithSignal) {
  long *sym = static_cast<long *>(ishmem_calloc(64, sizeof(long)));
  ASSERT_TRUE(all_true(sym != nullptr));
  auto *sig = reinterpret_cast<std::uint64_t *>(sym + 32);
  long src[4] = {1, 2, 3, 4};
  for (int pe : {-1, n_pes(), n_pes() + 100, INT32_MIN}) {
    SCOPED_TRACE(pe);
    const std::string why = "ishmem_putmem_signal: PE " + std::to_string(pe) + " is not in [0, " +
                            std::to_string(n_pes()) + ")";
    EXPECT_EQ(ishmem_putmem_signal(sym, src, sizeof src, sig, 1, ISHMEM_SIGNAL_SET, pe),
              ISHMEM_ERR_INVALID_PE);
    EXPECT_TRUE(error_mentions(why)) << ishmemx_last_error();
    EXPECT_EQ(ishmem_putmem_signal_nbi(sym, src, sizeof src, sig, 1, ISHMEM_SIGNAL_ADD, pe),
              ISHMEM_ERR_INVALID_PE);
    EXPECT_TRUE(error_mentions(why)) << ishmemx_last_error();
    EXPECT_EQ(ishmem_long_put_signal(sym, src, 4, sig, 1, ISHMEM_SIGNAL_SET, pe),
              ISHMEM_ERR_INVALID_PE);
    EXPECT_TRUE(error_mentions(why)) << ishmemx_last_error();
    EXPECT_EQ(ishmem_long_put_signal_nbi(sym, src, 4, sig, 1, ISHMEM_SIGNAL_ADD, pe),
              ISHMEM_ERR_INVALID_PE);
    EXPECT_TRUE(error_mentions(why)) << ishmemx_last_error();
  }
  ishmem_barrier_all();
  EXPECT_EQ(sym[0], 0);
  EXPECT_EQ(*sig, 0u);
  EXPECT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

// A strided call whose later elements fall outside the heap moves none of them: not the
// earlier elements either, on either side.
TEST(Errors, StridedChecksTheWholeRangeFirst) {
  const std::size_t heap = user_heap_size();
  long *all = static_cast<long *>(ishmem_malloc(heap));
  ASSERT_TRUE(all_true(all != nullptr)) << ishmemx_last_error();
  long *tail = all + heap / sizeof(long) - 2;  // stride 2: the second element is past the end
  tail[0] = tail[1] = -1;
  ishmem_barrier_all();
  const long src[3] = {10, 11, 12};
  const int pe = right_pe();
  EXPECT_EQ(ishmem_long_iput(tail, src, 2, 1, 3, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_TRUE(error_mentions("is not inside the symmetric heap")) << ishmemx_last_error();
  EXPECT_EQ(ishmem_iput64(tail, src, 2, 1, 2, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_TRUE(error_mentions("is not inside the symmetric heap")) << ishmemx_last_error();
  long got[5] = {-2, -2, -2, -2, -2};
  EXPECT_EQ(ishmem_long_iget(got, tail, 1, 2, 3, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_TRUE(error_mentions("is not inside the symmetric heap")) << ishmemx_last_error();
  EXPECT_EQ(ishmem_iget64(got, tail, 2, 2, 2, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  for (long v : got) EXPECT_EQ(v, -2);  // the failed gets wrote nothing
  ishmem_barrier_all();
  EXPECT_EQ(tail[0], -1);  // the failed puts wrote nothing
  EXPECT_EQ(tail[1], -1);
  ishmem_barrier_all();
  // The last element of the heap itself is in range.
  EXPECT_EQ(ishmem_long_iput(tail, src, 1, 1, 2, pe), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  EXPECT_EQ(tail[0], 10);
  EXPECT_EQ(tail[1], 11);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(all), ISHMEM_SUCCESS);
}

// A local stride that overflows nothing but lands far outside the process is an error before
// anything moves, instead of a fault (node-local) or a wild pointer given to MPI (off-node).
TEST(Errors, StridedHugeLocalStrideIsAnError) {
  long *sym = static_cast<long *>(ishmem_calloc(16, sizeof(long)));
  ASSERT_TRUE(all_true(sym != nullptr));
  const int pe = right_pe();
  long src[2] = {1, 2};
  long got[2] = {-1, -1};
  for (std::ptrdiff_t huge : {PTRDIFF_MAX / 16, std::ptrdiff_t{1} << 40}) {
    SCOPED_TRACE(huge);
    EXPECT_EQ(ishmem_long_iput(sym, src, 1, huge, 2, pe), ISHMEM_ERR_INVALID_ARG);
    EXPECT_TRUE(
        error_mentions("ishmem_long_iput: the source buffer's last element (2 elements "
                       "at stride " +
                       std::to_string(huge)))
        << ishmemx_last_error();
    EXPECT_TRUE(error_mentions("is outside this process's memory")) << ishmemx_last_error();
    EXPECT_EQ(ishmem_iput64(sym, src, 1, huge, 2, pe), ISHMEM_ERR_INVALID_ARG);
    EXPECT_TRUE(error_mentions("source buffer's last element")) << ishmemx_last_error();
    EXPECT_EQ(ishmem_long_iget(got, sym, huge, 1, 2, pe), ISHMEM_ERR_INVALID_ARG);
    EXPECT_TRUE(error_mentions("ishmem_long_iget: the destination buffer's last element"))
        << ishmemx_last_error();
  }
  EXPECT_EQ(got[0], -1);  // nothing moved on either side
  ishmem_barrier_all();
  EXPECT_EQ(sym[0], 0);
  ishmem_barrier_all();
  // The same stride with one element reads only the first: nothing to check beyond it.
  EXPECT_EQ(ishmem_long_iput(sym, src, 1, PTRDIFF_MAX / 16, 1, pe), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  EXPECT_EQ(sym[0], 1);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

TEST(Errors, NotSymmetric) {
  char *sym = static_cast<char *>(ishmem_malloc(4096));
  ASSERT_TRUE(all_true(sym != nullptr));
  char on_stack[64] = {};
  std::vector<char> on_host(64, 'h');
  const int pe = right_pe();
  EXPECT_EQ(ishmem_putmem(on_stack, on_host.data(), 8, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_TRUE(error_mentions("symmetric heap")) << ishmemx_last_error();
  EXPECT_EQ(ishmem_getmem(on_host.data(), on_stack, 8, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(ishmem_putmem(on_host.data(), sym, 8, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(ishmem_putmem_nbi(on_stack, sym, 8, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(ishmem_char_p(on_stack, 'x', pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(ishmem_int_iget(reinterpret_cast<int *>(on_stack), reinterpret_cast<int *>(on_stack), 1,
                            1, 2, pe),
            ISHMEM_ERR_NOT_SYMMETRIC);
  // A range that starts inside the heap and runs past its end.
  char *heap_end = sym - heap_offset(sym) + symmetric_size();
  EXPECT_EQ(ishmem_putmem(heap_end - 4, on_host.data(), 8, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(ishmem_getmem(on_host.data(), heap_end - 4, 8, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(ishmem_putmem(heap_end, on_host.data(), 1, pe), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_EQ(on_stack[0], 0);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

// A NULL buffer on either side, local or symmetric, is the same bad argument for put and get.
TEST(Errors, NullBufferIsAnError) {
  long *sym = static_cast<long *>(ishmem_malloc(64));
  ASSERT_TRUE(all_true(sym != nullptr));
  const int pe = right_pe();
  long local[8] = {};
  EXPECT_EQ(ishmem_putmem(sym, nullptr, 8, pe), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_getmem(nullptr, sym, 8, pe), ISHMEM_ERR_INVALID_ARG);
  EXPECT_NE(std::strstr(ishmemx_last_error(), "ishmem_getmem: NULL destination buffer"), nullptr)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_putmem(nullptr, local, 8, pe), ISHMEM_ERR_INVALID_ARG);
  EXPECT_NE(std::strstr(ishmemx_last_error(), "ishmem_putmem: NULL destination buffer"), nullptr)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_getmem(local, nullptr, 8, pe), ISHMEM_ERR_INVALID_ARG);
  EXPECT_NE(std::strstr(ishmemx_last_error(), "ishmem_getmem: NULL source buffer"), nullptr)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_long_put_nbi(sym, nullptr, 1, pe), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_long_put_nbi(nullptr, local, 1, pe), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_long_iput(nullptr, local, 1, 1, 2, pe), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_long_iget(local, nullptr, 1, 1, 2, pe), ISHMEM_ERR_INVALID_ARG);
  // Atomics, signals, waits and collectives alike.
  EXPECT_EQ(ishmem_long_atomic_add(nullptr, 1, pe), ISHMEM_ERR_INVALID_ARG);
  EXPECT_NE(std::strstr(ishmemx_last_error(), "NULL symmetric address"), nullptr)
      << ishmemx_last_error();
  EXPECT_EQ(ishmem_long_atomic_fetch(nullptr, pe), 0);
  EXPECT_EQ(ishmemx_last_status(), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_putmem_signal(sym, local, 8, nullptr, 1, ISHMEM_SIGNAL_SET, pe),
            ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_long_wait_until(nullptr, ISHMEM_CMP_EQ, 0), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_long_sum_reduce(ISHMEM_TEAM_WORLD, nullptr, sym, 1), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmem_long_broadcast(ISHMEM_TEAM_WORLD, sym, nullptr, 1, 0), ISHMEM_ERR_INVALID_ARG);
  ishmem_barrier_all();
  EXPECT_EQ(ishmem_free(sym), ISHMEM_SUCCESS);
}

TEST(Errors, ZeroLengthWithNullPointersSucceeds) {
  const int pe = right_pe();
  EXPECT_EQ(ishmem_putmem(nullptr, nullptr, 0, pe), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_getmem(nullptr, nullptr, 0, pe), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_putmem_nbi(nullptr, nullptr, 0, pe), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_getmem_nbi(nullptr, nullptr, 0, pe), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_double_put(nullptr, nullptr, 0, pe), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_uint64_get(nullptr, nullptr, 0, pe), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_short_iput(nullptr, nullptr, 1, 1, 0, pe), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_put128(nullptr, nullptr, 0, pe), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
}

TEST(Errors, FreeOfNonHeapPointerFailsEverywhere) {
  int on_stack = 0;
  EXPECT_EQ(ishmem_free(&on_stack), ISHMEM_ERR_NOT_SYMMETRIC);
  EXPECT_TRUE(error_mentions("ishmem_free")) << ishmemx_last_error();
  char *p = static_cast<char *>(ishmem_malloc(256));
  ASSERT_TRUE(all_true(p != nullptr));
  EXPECT_EQ(ishmem_free(p + 64), ISHMEM_ERR_NOT_SYMMETRIC);  // inside a block
  EXPECT_EQ(ishmem_realloc(&on_stack, 100), nullptr);
  EXPECT_TRUE(error_mentions("ishmem_realloc")) << ishmemx_last_error();
  EXPECT_EQ(ishmem_free(p), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_free(p), ISHMEM_ERR_NOT_SYMMETRIC);  // twice
  expect_heap_usable();
}

TEST(Errors, SecondInitFails) {
  EXPECT_NE(ishmem_init(), ISHMEM_SUCCESS);
  EXPECT_TRUE(error_mentions("already initialized")) << ishmemx_last_error();
  ishmemx_init_attr_t attr = {MPI_COMM_NULL};
  EXPECT_EQ(ishmemx_init_attr(&attr), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmemx_init_attr(nullptr), ISHMEM_ERR_INVALID_ARG);
  expect_heap_usable();
}

TEST(Errors, HeapIsEmptyAndConsistentAfterAllErrors) {
  void *p = ishmem_malloc(64);
  EXPECT_TRUE(all_true(p != nullptr));
  EXPECT_EQ(heap_offset(p), first_user_offset()) << "an earlier error left memory allocated";
  EXPECT_EQ(ishmem_free(p), ISHMEM_SUCCESS);
}

}  // namespace
