// ishmem/device.h compiled as plain C++: the device calls run on the CPU through the host
// API, in both forms, so code shared between host and device builds compiles unchanged.
#include "ishmem/device.h"

#include "../mpi/mpi_test_util.h"

using ishmem_test::left_pe;
using ishmem_test::my_pe;
using ishmem_test::right_pe;

namespace {

TEST(DeviceHeaderOnHost, BothFormsForward) {
  ishmemx_device_handle_t h{};
  ASSERT_EQ(ishmemx_get_device_handle(&h), ISHMEM_SUCCESS) << ishmemx_last_error();
  EXPECT_EQ(ishmem_my_pe(h), my_pe());
  EXPECT_EQ(ishmem_n_pes(h), ishmem_n_pes());
  EXPECT_EQ(h.n_pes, ishmem_n_pes());
  const std::size_t n = 1000;
  long *sym = static_cast<long *>(ishmem_calloc(n + 2, sizeof(long)));
  ASSERT_NE(sym, nullptr);
  std::vector<long> src(n), got(n);
  for (std::size_t i = 0; i < n; ++i) src[i] = 10L * my_pe() + static_cast<long>(i);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_putmem_block(sym, src.data(), n / 2 * sizeof(long), right_pe()),
            ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_put_nbi(h, sym + n / 2, src.data() + n / 2, n - n / 2, right_pe()),
            ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_p(h, sym + n, 77 + my_pe(), right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_quiet(h), ISHMEM_SUCCESS);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_getmem_warp(h, got.data(), sym, n * sizeof(long), my_pe()), ISHMEM_SUCCESS);
  ishmem_test::expect_elements(
      got.data(), n, [](std::size_t i) { return 10L * left_pe() + long(i); },
      "group and handle forms on the host");
  EXPECT_EQ(ishmem_long_g(h, sym + n, my_pe()), 77 + left_pe());
  EXPECT_EQ(ishmemx_getmem_nbi_block(got.data(), sym, sizeof(long), right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_fence(h), ISHMEM_SUCCESS);
  EXPECT_EQ(got[0], 10L * my_pe());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(sym);
}

TEST(DeviceHeaderOnHost, SyncFormsForward) {
  ishmemx_device_handle_t h{};
  ASSERT_EQ(ishmemx_get_device_handle(&h), ISHMEM_SUCCESS) << ishmemx_last_error();
  long *w = static_cast<long *>(ishmem_calloc(4, sizeof(long)));
  auto *sig = static_cast<uint64_t *>(ishmem_calloc(1, sizeof(uint64_t)));
  ASSERT_TRUE(w && sig);
  long src = 40 + my_pe();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  // Atomics on the right neighbour's word (only this PE touches it), both forms.
  EXPECT_EQ(ishmem_long_atomic_fetch_add(h, w, 5, right_pe()), 0);
  EXPECT_EQ(ishmem_long_atomic_compare_swap(h, w, 5, 7, right_pe()), 5);
  EXPECT_EQ(ishmem_long_atomic_inc(h, w, right_pe()), ISHMEM_SUCCESS);
  long fetched = 0;
  EXPECT_EQ(ishmem_long_atomic_fetch_nbi(h, &fetched, w, right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(fetched, 8);
  // Signals: group names and handle overloads, then the stream forms acting at once.
  EXPECT_EQ(
      ishmemx_putmem_signal_block(w + 1, &src, sizeof src, sig, 1, ISHMEM_SIGNAL_ADD, right_pe()),
      ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_putmem_signal_nbi_warp(h, w + 2, &src, sizeof src, sig, 1, ISHMEM_SIGNAL_ADD,
                                           right_pe()),
            ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_long_put_signal(h, w + 3, &src, 1, sig, 1, ISHMEM_SIGNAL_ADD, right_pe()),
            ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_putmem_signal_on_stream(w + 3, &src, sizeof src, sig, 4, ISHMEM_SIGNAL_SET,
                                            right_pe(), nullptr),
            ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_signal_wait_until_on_stream(sig, ISHMEM_CMP_GE, 4, nullptr), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_signal_wait_until(h, sig, ISHMEM_CMP_EQ, 4), 4u);
  EXPECT_EQ(ishmem_signal_fetch(h, sig), 4u);
  EXPECT_EQ(ishmemx_signal_wait_until_on_stream(sig, 0, 4, nullptr), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(ishmemx_putmem_signal_on_stream(w, &src, 8, sig, 1, 9, right_pe(), nullptr),
            ISHMEM_ERR_INVALID_ARG);
  // Wait and test through the handle overloads: the left neighbour's atomics arrive.
  EXPECT_EQ(ishmem_long_wait_until(h, w, ISHMEM_CMP_EQ, 8), ISHMEM_SUCCESS);
  std::size_t idx[4] = {};
  EXPECT_EQ(ishmem_long_wait_until_some(h, w + 1, 3, idx, nullptr, ISHMEM_CMP_EQ, 40 + left_pe()),
            3u);
  EXPECT_EQ(ishmem_long_test_any(h, w, 4, nullptr, ISHMEM_CMP_EQ, 8), 0u);
  EXPECT_EQ(ishmemx_barrier_all_block(h), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmemx_sync_all_block(), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_sync_all(h), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_barrier_all(h), ISHMEM_SUCCESS);
  ishmem_free(sig);
  ishmem_free(w);
}

}  // namespace
