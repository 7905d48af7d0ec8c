// Sized RMA (ishmem_put8 ... ishmem_put128 and their get, iput, iget and nbi forms), generated
// from ISHMEMX_SIZED_RMA, and putmem/getmem with odd sizes at odd byte offsets. The symmetric
// addresses are deliberately misaligned: these calls take untyped memory.
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

using Contig = int (*)(void *, const void *, size_t, int);
using Strided = int (*)(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);

struct Sized {
  const char *name;
  std::size_t bytes;
  Contig put, get, put_nbi, get_nbi;
  Strided iput, iget;
};

#define ISHMEM_TEST_SIZED(BITS, BYTES) \
  Sized{"put" #BITS,                   \
        BYTES,                         \
        &ishmem_put##BITS,             \
        &ishmem_get##BITS,             \
        &ishmem_put##BITS##_nbi,       \
        &ishmem_get##BITS##_nbi,       \
        &ishmem_iput##BITS,            \
        &ishmem_iget##BITS},
const Sized kSized[] = {ISHMEMX_SIZED_RMA(ISHMEM_TEST_SIZED)};
#undef ISHMEM_TEST_SIZED

// Byte i of PE `pe`'s data; never kSentinel.
unsigned char byte_of(std::size_t i, int pe) {
  return static_cast<unsigned char>((i * 131 + static_cast<std::size_t>(pe) * 17 + 3) % 199);
}
constexpr unsigned char kSentinel = 0xFA;
constexpr std::size_t kHeapBytes = (std::size_t{17} << 20);

// One symmetric buffer, allocated once for the suite.
class ByteRma : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { sym_ = static_cast<unsigned char *>(ishmem_malloc(kHeapBytes)); }
  static void TearDownTestSuite() {
    ishmem_free(sym_);
    sym_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(all_true(sym_ != nullptr)); }

  // Moves `bytes` bytes to sym_ + offset on the right neighbour with `put`, checks what came
  // from the left neighbour (and the bytes either side), then reads it back with `get`.
  void round_trip(std::size_t bytes, std::size_t offset, const std::string &what,
                  const std::function<int(void *, const void *, int)> &put,
                  const std::function<int(void *, const void *, int)> &get) {
    memset(sym_, kSentinel, offset + bytes + 1);
    std::vector<unsigned char> src(bytes);
    for (std::size_t i = 0; i < bytes; ++i) src[i] = byte_of(i, my_pe());
    ishmem_barrier_all();
    EXPECT_EQ(put(sym_ + offset, src.data(), right_pe()), ISHMEM_SUCCESS) << what;
    EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
    ishmem_barrier_all();
    const int left = left_pe();
    expect_elements(
        sym_ + offset, bytes, [&](std::size_t i) { return byte_of(i, left); }, what);
    if (offset > 0) {
      EXPECT_EQ(sym_[offset - 1], kSentinel) << what;
    }
    EXPECT_EQ(sym_[offset + bytes], kSentinel) << what;
    std::vector<unsigned char> back(bytes + 2, kSentinel);
    EXPECT_EQ(get(back.data() + 1, sym_ + offset, right_pe()), ISHMEM_SUCCESS) << what;
    EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
    expect_elements(
        back.data() + 1, bytes, [&](std::size_t i) { return src[i]; }, what + ", read back");
    EXPECT_EQ(back[0], kSentinel) << what;
    EXPECT_EQ(back[bytes + 1], kSentinel) << what;
    ishmem_barrier_all();
  }

  static unsigned char *sym_;
};
unsigned char *ByteRma::sym_ = nullptr;

TEST_F(ByteRma, SizedPutGet) {
  struct Shape {
    std::size_t count, offset;
  };
  const Shape shapes[] = {{1, 0}, {1, 1}, {7, 3}, {64, 0}, {64, 5}, {4097, 1}, {4097, 7}};
  for (const Sized &s : kSized) {
    // About a megabyte of elements once, at an odd offset.
    std::vector<Shape> all(std::begin(shapes), std::end(shapes));
    all.push_back({(std::size_t{1} << 20) + 3, 3});
    for (const Shape &sh : all) {
      const std::size_t n = sh.count;
      const std::string what =
          std::string(s.name) + " x" + std::to_string(n) + " at +" + std::to_string(sh.offset);
      round_trip(
          n * s.bytes, sh.offset, what,
          [&](void *d, const void *src, int pe) { return s.put(d, src, n, pe); },
          [&](void *d, const void *src, int pe) { return s.get(d, src, n, pe); });
      round_trip(
          n * s.bytes, sh.offset, what + " nbi",
          [&](void *d, const void *src, int pe) { return s.put_nbi(d, src, n, pe); },
          [&](void *d, const void *src, int pe) { return s.get_nbi(d, src, n, pe); });
    }
  }
}

TEST_F(ByteRma, SizedStrided) {
  for (const Sized &s : kSized) {
    for (std::size_t count : {std::size_t{1}, std::size_t{5}, std::size_t{300}}) {
      const std::size_t e = s.bytes, offset = 3;  // misaligned on purpose
      const std::string what = std::string("i") + s.name + " x" + std::to_string(count);
      // Element i of the source at index 3i (stride 3); it lands at index 2i (stride 2).
      std::vector<unsigned char> src(3 * count * e, kSentinel - 1);
      for (std::size_t i = 0; i < count; ++i)
        for (std::size_t b = 0; b < e; ++b) src[3 * i * e + b] = byte_of(i * e + b, my_pe());
      memset(sym_, kSentinel, offset + 2 * count * e + 1);
      ishmem_barrier_all();
      EXPECT_EQ(s.iput(sym_ + offset, src.data(), 2, 3, count, right_pe()), ISHMEM_SUCCESS);
      ishmem_barrier_all();
      const int left = left_pe();
      expect_elements(
          sym_, offset + 2 * count * e + 1,
          [&](std::size_t k) -> unsigned char {
            if (k < offset) return kSentinel;
            std::size_t elem = (k - offset) / e, b = (k - offset) % e;
            if (elem % 2 != 0 || elem / 2 >= count) return kSentinel;
            return byte_of(elem / 2 * e + b, left);
          },
          what);
      // iget back every second element of the right neighbour into a dense buffer.
      std::vector<unsigned char> dst(count * e + 1, kSentinel);
      EXPECT_EQ(s.iget(dst.data(), sym_ + offset, 1, 2, count, right_pe()), ISHMEM_SUCCESS);
      expect_elements(
          dst.data(), count * e + 1,
          [&](std::size_t k) { return k < count * e ? byte_of(k, my_pe()) : kSentinel; },
          what + " iget");
      ishmem_barrier_all();
    }
  }
}

TEST_F(ByteRma, PutmemGetmemOddSizes) {
  const std::size_t sizes[] = {1, 2, 3, 63, 65, 127, 4095, 4097, (std::size_t{1} << 20) + 13};
  const std::size_t offsets[] = {0, 1, 7, 63};
  for (std::size_t bytes : sizes) {
    for (std::size_t offset : offsets) {
      if (bytes > 4097 && offset != 7) continue;  // the largest size once
      const std::string what = "putmem " + std::to_string(bytes) + " at +" + std::to_string(offset);
      round_trip(
          bytes, offset, what,
          [&](void *d, const void *src, int pe) { return ishmem_putmem(d, src, bytes, pe); },
          [&](void *d, const void *src, int pe) { return ishmem_getmem(d, src, bytes, pe); });
      round_trip(
          bytes, offset, what + " nbi",
          [&](void *d, const void *src, int pe) { return ishmem_putmem_nbi(d, src, bytes, pe); },
          [&](void *d, const void *src, int pe) { return ishmem_getmem_nbi(d, src, bytes, pe); });
    }
  }
}

TEST_F(ByteRma, ManyNbiThenOneQuiet) {
  // 256 non-blocking puts of 1000 bytes each to the right neighbour, completed by one quiet.
  const std::size_t chunk = 1000, n = 256;
  std::vector<unsigned char> src(chunk * n);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = byte_of(i, my_pe());
  memset(sym_, kSentinel, chunk * n);
  ishmem_barrier_all();
  for (std::size_t k = 0; k < n; ++k)
    EXPECT_EQ(ishmem_putmem_nbi(sym_ + k * chunk, src.data() + k * chunk, chunk, right_pe()), 0);
  EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  const int left = left_pe();
  expect_elements(
      sym_, chunk * n, [&](std::size_t i) { return byte_of(i, left); }, "nbi burst");
  ishmem_barrier_all();
}

TEST_F(ByteRma, ZeroLengthChangesNothing) {
  memset(sym_, kSentinel, 64);
  ishmem_barrier_all();
  unsigned char src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(ishmem_putmem(sym_, src, 0, right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_put64(sym_, src, 0, right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(
      ishmem_int_put(reinterpret_cast<int *>(sym_), reinterpret_cast<int *>(src), 0, right_pe()),
      ISHMEM_SUCCESS);
  EXPECT_EQ(ishmem_getmem(src, sym_, 0, right_pe()), ISHMEM_SUCCESS);
  ishmem_barrier_all();
  expect_elements(
      sym_, 64, [](std::size_t) { return kSentinel; }, "zero-length put");
  EXPECT_EQ(src[0], 1);
  ishmem_barrier_all();
}

}  // namespace
