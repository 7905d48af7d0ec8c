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
  ishmem_test::expect_elements(got.data(), n,
                               [](std::size_t i) { return 10L * left_pe() + long(i); },
                               "group and handle forms on the host");
  EXPECT_EQ(ishmem_long_g(h, sym + n, my_pe()), 77 + left_pe());
  EXPECT_EQ(ishmemx_getmem_nbi_block(got.data(), sym, sizeof(long), right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_fence(h), ISHMEM_SUCCESS);
  EXPECT_EQ(got[0], 10L * my_pe());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(sym);
}

}  // namespace
