// The header-only handle form: compiled without relocatable device code and linked without
// the device library, as an application that wants neither would be.
#include "gpu_test_util.h"

using namespace gpu_test;

namespace {

__global__ void ring_put(ishmemx_device_handle_t h, char *sym, const char *src, std::size_t n,
                         int *word) {
  int peer = (ishmem_my_pe(h) + 1) % ishmem_n_pes(h);
  ishmemx_putmem_block(h, sym + 1, src + 1, n, peer);  // misaligned by one
  if (threadIdx.x == 0) {
    ishmem_int_p(h, word, ishmem_my_pe(h), peer);
    ishmem_quiet(h);
  }
}

__global__ void ring_get(ishmemx_device_handle_t h, char *dst, const char *sym, std::size_t n,
                         int *word, int *seen) {
  int peer = (ishmem_my_pe(h) + 1) % ishmem_n_pes(h);
  ishmemx_getmem_warp(h, dst, sym, n, peer);
  if (threadIdx.x == 0) *seen = ishmem_int_g(h, word, peer);
}

TEST(HandleForm, RingPutGet) {
  SKIP_WITHOUT_GPU();
  const ishmemx_device_handle_t h = handle();
  ASSERT_NE(h.pe_slot, nullptr);  // zeroed where the call failed
  EXPECT_EQ(h.my_pe, my_pe());
  const std::size_t n = 300001;
  char *sym = static_cast<char *>(ishmem_calloc(n + 1, 1));
  int *word = static_cast<int *>(ishmem_calloc(1, sizeof(int)));
  ASSERT_TRUE(sym && word);
  DeviceBuffer src(n + 1), dst(n + 1), seen(sizeof(int));
  std::vector<unsigned char> mine(n + 1);
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = pattern(my_pe(), i);
  to_device(src.as<unsigned char>(), mine);
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ring_put<<<1, 256>>>(h, sym, src.as<char>(), n, word);
  GPU_LAUNCHED();
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  std::vector<unsigned char> got = to_host(reinterpret_cast<unsigned char *>(sym), n + 1);
  ishmem_test::expect_elements(
      got.data() + 1, n, [](std::size_t i) { return pattern(left_pe(), i + 1); },
      "handle-form block put");
  EXPECT_EQ(to_host(word, 1)[0], left_pe());
  ring_get<<<1, 64>>>(h, dst.as<char>(), sym, n + 1, word, seen.as<int>());
  GPU_LAUNCHED();
  got = to_host(dst.as<unsigned char>(), n + 1);
  ishmem_test::expect_elements(
      got.data() + 1, n, [](std::size_t i) { return pattern(my_pe(), i + 1); },
      "handle-form warp get");
  EXPECT_EQ(to_host(seen.as<int>(), 1)[0], my_pe());
  ASSERT_EQ(ishmem_barrier_all(), ISHMEM_SUCCESS);
  ishmem_free(word);
  ishmem_free(sym);
}

}  // namespace
