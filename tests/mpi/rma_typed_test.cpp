// Every typed RMA call (put, get, p, g, iput, iget, put_nbi, get_nbi) for every type of
// ISHMEMX_RMA_TYPES, generated from that table. Each PE writes to its right neighbour and reads
// back, at several sizes and offsets; the data is checked element by element, including the
// elements just outside the range, which must not change.
#include <string>
#include <vector>

#include "mpi_test_util.h"

using namespace ishmem_test;

namespace {

// One tag type per table entry: the C type and its functions (several names share a C type,
// e.g. int and int32, so the C type alone cannot select them).
#define ISHMEM_TEST_TAG(T, N)                              \
  struct Tag_##N {                                         \
    using type = T;                                        \
    static constexpr const char *name = #N;                \
    static constexpr auto put = &ishmem_##N##_put;         \
    static constexpr auto get = &ishmem_##N##_get;         \
    static constexpr auto put_nbi = &ishmem_##N##_put_nbi; \
    static constexpr auto get_nbi = &ishmem_##N##_get_nbi; \
    static constexpr auto p = &ishmem_##N##_p;             \
    static constexpr auto g = &ishmem_##N##_g;             \
    static constexpr auto iput = &ishmem_##N##_iput;       \
    static constexpr auto iget = &ishmem_##N##_iget;       \
  };
ISHMEMX_RMA_TYPES(ISHMEM_TEST_TAG)
#undef ISHMEM_TEST_TAG

template <class First, class... Rest>
struct DropFirst {
  using type = ::testing::Types<Rest...>;
};
#define ISHMEM_TEST_TAG_NAME(T, N) , Tag_##N
using AllTags = DropFirst<void ISHMEMX_RMA_TYPES(ISHMEM_TEST_TAG_NAME)>::type;
#undef ISHMEM_TEST_TAG_NAME

struct TagName {
  template <class Tag>
  static std::string GetName(int) {
    return Tag::name;
  }
};

// Element i of PE `pe`'s data: small integers, exact in every type; never kSentinel.
template <class T>
T value_of(std::size_t i, int pe) {
  return static_cast<T>((i * 31 + static_cast<std::size_t>(pe) * 7 + 1) % 113);
}
constexpr int kSentinel = 120;

constexpr std::size_t kLarge = std::size_t{1} << 20;
struct Shape {
  std::size_t count, offset;
};
// Several sizes at aligned and unaligned element offsets; the largest only once.
const std::vector<Shape> kShapes = {{1, 0},    {1, 1},    {1, 3},     {7, 0},  {7, 1},
                                    {7, 3},    {64, 0},   {64, 1},    {64, 3}, {4097, 0},
                                    {4097, 1}, {4097, 3}, {kLarge, 1}};

template <class Tag>
class TypedRma : public ::testing::Test {
 protected:
  using T = typename Tag::type;
  static constexpr std::size_t kElems = kLarge + 64;

  void SetUp() override {
    sym_ = static_cast<T *>(ishmem_malloc(kElems * sizeof(T)));
    ASSERT_TRUE(all_true(sym_ != nullptr)) << ishmemx_last_error();
  }
  void TearDown() override { EXPECT_EQ(ishmem_free(sym_), ISHMEM_SUCCESS); }

  void fill_sentinel(std::size_t n) { std::fill(sym_, sym_ + n, static_cast<T>(kSentinel)); }

  // put (or put_nbi) `s.count` elements to the right neighbour, check what arrived from the
  // left one, then get the data back from the right neighbour.
  void put_and_get_back(const Shape &s, bool nbi) {
    const std::string what = std::string(Tag::name) + (nbi ? "_put_nbi" : "_put") + " of " +
                             std::to_string(s.count) + " at +" + std::to_string(s.offset);
    fill_sentinel(s.offset + s.count + 1);
    std::vector<T> src(s.count);
    for (std::size_t i = 0; i < s.count; ++i) src[i] = value_of<T>(i, my_pe());
    ishmem_barrier_all();  // the neighbour's sentinels are in place
    int rc = nbi ? Tag::put_nbi(sym_ + s.offset, src.data(), s.count, right_pe())
                 : Tag::put(sym_ + s.offset, src.data(), s.count, right_pe());
    EXPECT_EQ(rc, ISHMEM_SUCCESS) << what;
    if (nbi) {
      EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
    }
    ishmem_barrier_all();
    const int left = left_pe();
    expect_elements(
        sym_ + s.offset, s.count, [&](std::size_t i) { return value_of<T>(i, left); }, what);
    if (s.offset > 0) {
      EXPECT_EQ(sym_[s.offset - 1], static_cast<T>(kSentinel)) << what;
    }
    EXPECT_EQ(sym_[s.offset + s.count], static_cast<T>(kSentinel)) << what;

    std::vector<T> back(s.count + 2, static_cast<T>(kSentinel));
    rc = nbi ? Tag::get_nbi(back.data() + 1, sym_ + s.offset, s.count, right_pe())
             : Tag::get(back.data() + 1, sym_ + s.offset, s.count, right_pe());
    EXPECT_EQ(rc, ISHMEM_SUCCESS) << what;
    if (nbi) {
      EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
    }
    expect_elements(
        back.data() + 1, s.count, [&](std::size_t i) { return src[i]; }, what + ", read back");
    EXPECT_EQ(back[0], static_cast<T>(kSentinel));
    EXPECT_EQ(back[s.count + 1], static_cast<T>(kSentinel));
    ishmem_barrier_all();  // nobody refills before everyone has read
  }

  // get (or get_nbi) the right neighbour's own data.
  void get_from_right(const Shape &s, bool nbi) {
    const std::string what = std::string(Tag::name) + (nbi ? "_get_nbi" : "_get") + " of " +
                             std::to_string(s.count) + " at +" + std::to_string(s.offset);
    for (std::size_t i = 0; i < s.count; ++i) sym_[s.offset + i] = value_of<T>(i, my_pe());
    ishmem_barrier_all();
    std::vector<T> dst(s.count + 2, static_cast<T>(kSentinel));
    int rc = nbi ? Tag::get_nbi(dst.data() + 1, sym_ + s.offset, s.count, right_pe())
                 : Tag::get(dst.data() + 1, sym_ + s.offset, s.count, right_pe());
    EXPECT_EQ(rc, ISHMEM_SUCCESS) << what;
    if (nbi) {
      EXPECT_EQ(ishmem_quiet(), ISHMEM_SUCCESS);
    }
    const int right = right_pe();
    expect_elements(
        dst.data() + 1, s.count, [&](std::size_t i) { return value_of<T>(i, right); }, what);
    EXPECT_EQ(dst[0], static_cast<T>(kSentinel)) << what;
    EXPECT_EQ(dst[s.count + 1], static_cast<T>(kSentinel)) << what;
    ishmem_barrier_all();
  }

  T *sym_ = nullptr;
};
TYPED_TEST_SUITE(TypedRma, AllTags, TagName);

TYPED_TEST(TypedRma, PutGet) {
  for (const Shape &s : kShapes) this->put_and_get_back(s, false);
  for (const Shape &s : kShapes) this->get_from_right(s, false);
}

TYPED_TEST(TypedRma, PutGetNbi) {
  for (const Shape &s : kShapes) this->put_and_get_back(s, true);
  for (const Shape &s : kShapes) this->get_from_right(s, true);
}

TYPED_TEST(TypedRma, SingleElementPG) {
  using T = typename TypeParam::type;
  T *sym = this->sym_;
  const std::size_t idx[] = {0, 1, 5, 63, 1000, 4099};
  this->fill_sentinel(4100);
  ishmem_barrier_all();
  for (std::size_t i : idx)
    EXPECT_EQ(TypeParam::p(sym + i, value_of<T>(i, my_pe()), right_pe()), 0);
  ishmem_barrier_all();
  for (std::size_t i = 0; i < 4100; ++i) {
    bool written = false;
    for (std::size_t j : idx) written = written || i == j;
    T want = written ? value_of<T>(i, left_pe()) : static_cast<T>(kSentinel);
    if (sym[i] != want)
      ADD_FAILURE() << TypeParam::name << "_p: element " << i << " is " << +sym[i];
  }
  // g reads what this PE wrote at the right neighbour.
  for (std::size_t i : idx) EXPECT_EQ(TypeParam::g(sym + i, right_pe()), value_of<T>(i, my_pe()));
  EXPECT_EQ(TypeParam::g(sym + 2, right_pe()), static_cast<T>(kSentinel));
  // And at this PE itself.
  for (std::size_t i : idx) EXPECT_EQ(TypeParam::g(sym + i, my_pe()), value_of<T>(i, left_pe()));
  ishmem_barrier_all();
}

TYPED_TEST(TypedRma, StridedIputIget) {
  using T = typename TypeParam::type;
  T *sym = this->sym_;
  for (std::size_t count : {std::size_t{1}, std::size_t{7}, std::size_t{64}, std::size_t{4097}}) {
    const std::string what = std::string(TypeParam::name) + " strided, " + std::to_string(count);
    this->fill_sentinel(3 * count + 2);
    // Source: element i at index 2i, junk in between (which must not travel).
    std::vector<T> src(2 * count, static_cast<T>(kSentinel - 1));
    for (std::size_t i = 0; i < count; ++i) src[2 * i] = value_of<T>(i, my_pe());
    ishmem_barrier_all();
    EXPECT_EQ(TypeParam::iput(sym + 1, src.data(), 3, 2, count, right_pe()), ISHMEM_SUCCESS);
    ishmem_barrier_all();
    const int left = left_pe();
    expect_elements(
        sym, 3 * count + 2,
        [&](std::size_t k) {
          return k >= 1 && (k - 1) % 3 == 0 && (k - 1) / 3 < count ? value_of<T>((k - 1) / 3, left)
                                                                   : static_cast<T>(kSentinel);
        },
        what + " iput");
    // iget gathers every third element of the right neighbour (this PE's data) to every
    // second local element.
    std::vector<T> dst(2 * count + 1, static_cast<T>(kSentinel));
    EXPECT_EQ(TypeParam::iget(dst.data(), sym + 1, 2, 3, count, right_pe()), ISHMEM_SUCCESS);
    expect_elements(
        dst.data(), 2 * count + 1,
        [&](std::size_t k) {
          return k % 2 == 0 && k / 2 < count ? value_of<T>(k / 2, my_pe())
                                             : static_cast<T>(kSentinel);
        },
        what + " iget");
    ishmem_barrier_all();
  }
  // Unit strides behave like put; zero elements do nothing; a zero stride is refused.
  std::vector<T> src(5, value_of<T>(9, my_pe()));
  EXPECT_EQ(TypeParam::iput(sym, src.data(), 1, 1, 5, my_pe()), ISHMEM_SUCCESS);
  expect_elements(
      sym, 5, [&](std::size_t) { return value_of<T>(9, my_pe()); }, "unit stride");
  EXPECT_EQ(TypeParam::iput(sym, src.data(), 1, 1, 0, right_pe()), ISHMEM_SUCCESS);
  EXPECT_EQ(TypeParam::iput(sym, src.data(), 0, 1, 2, right_pe()), ISHMEM_ERR_INVALID_ARG);
  EXPECT_EQ(TypeParam::iget(src.data(), sym, 1, -1, 2, right_pe()), ISHMEM_ERR_INVALID_ARG);
  ishmem_barrier_all();
}

}  // namespace
