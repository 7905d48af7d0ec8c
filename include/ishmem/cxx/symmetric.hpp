// ishmem C++ API: symmetric memory. symmetric_array<T> owns a collective allocation;
// symmetric_span<T> views a part of one. Both carry the one-sided operations on the same
// elements of another PE: put/get of ranges, p/g, atomics, and wait_until/test on this PE's
// own elements. Part of ishmem.hpp.
#ifndef ISHMEM_CXX_SYMMETRIC_HPP
#define ISHMEM_CXX_SYMMETRIC_HPP

#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

#include "ishmem.h"
#include "ishmem/cxx/c_calls.hpp"
#include "ishmem/cxx/runtime.hpp"

namespace ishmem {

enum class cmp : int {
  eq = ISHMEM_CMP_EQ,
  ne = ISHMEM_CMP_NE,
  gt = ISHMEM_CMP_GT,
  ge = ISHMEM_CMP_GE,
  lt = ISHMEM_CMP_LT,
  le = ISHMEM_CMP_LE
};

// The operations every symmetric range has, on top of data() and size() of Range. Element i
// on PE pe is the element at the same place in pe's heap. Calls go through the default context
// (contexts: ishmem::context).
template <class Range, class T>
class symmetric_ops {
  static_assert(std::is_trivially_copyable_v<T>,
                "ishmem symmetric memory holds trivially copyable types (moved as bytes)");

 public:
  using value_type = T;

  // Blocking put of this range's size elements from `source` into this range on `pe`; `source`
  // may be reused on return (completion at the target: ishmem::quiet).
  void put(const T *source, int pe) const { rma(ishmem_ctx_putmem, "put", source, pe); }
  // Blocking get of this range on `pe` into `dest` (size() elements).
  void get(T *dest, int pe) const { rma(ishmem_ctx_getmem, "get", dest, pe); }
  // Non-blocking forms: the buffers may be touched again after ishmem::quiet.
  void put_nbi(const T *source, int pe) const { rma(ishmem_ctx_putmem_nbi, "put_nbi", source, pe); }
  void get_nbi(T *dest, int pe) const { rma(ishmem_ctx_getmem_nbi, "get_nbi", dest, pe); }
  // Contiguous containers (std::vector, std::array) of exactly size() elements.
  template <class Source, class = decltype(std::declval<const Source &>().data())>
  void put(const Source &source, int pe) const {
    same_size(source.size(), "put");
    put(source.data(), pe);
  }
  template <class Dest, class = decltype(std::declval<Dest &>().data())>
  void get(Dest &dest, int pe) const {
    same_size(dest.size(), "get");
    get(dest.data(), pe);
  }

  // One element: store (p) and load (g) of element i on pe.
  void p(std::size_t i, const T &value, int pe) const {
    check(ishmem_ctx_putmem(ISHMEM_CTX_DEFAULT, at(i, "p"), &value, sizeof(T), pe), "ishmem p");
  }
  T g(std::size_t i, int pe) const {
    T value{};
    check(ishmem_ctx_getmem(ISHMEM_CTX_DEFAULT, &value, at(i, "g"), sizeof(T), pe), "ishmem g");
    return value;
  }

  // Atomics on element i of pe; the type lists are the C API's (a static_assert names them).
  T fetch(std::size_t i, int pe) const {
    const auto call = c_api::amo_extended<T>().fetch;
    T *target = at(i, "atomic_fetch");
    return checked_value("ishmem atomic_fetch",
                         [&] { return call(ISHMEM_CTX_DEFAULT, target, pe); });
  }
  void set(std::size_t i, T value, int pe) const {
    amo_status(c_api::amo_extended<T>().set, "atomic_set", i, value, pe);
  }
  T swap(std::size_t i, T value, int pe) const {
    return amo_value(c_api::amo_extended<T>().swap, "atomic_swap", i, value, pe);
  }
  T compare_swap(std::size_t i, T cond, T value, int pe) const {
    const auto call = c_api::amo_standard<T>().compare_swap;
    T *target = at(i, "atomic_compare_swap");
    return checked_value("ishmem atomic_compare_swap",
                         [&] { return call(ISHMEM_CTX_DEFAULT, target, cond, value, pe); });
  }
  T fetch_inc(std::size_t i, int pe) const {
    const auto call = c_api::amo_standard<T>().fetch_inc;
    T *target = at(i, "atomic_fetch_inc");
    return checked_value("ishmem atomic_fetch_inc",
                         [&] { return call(ISHMEM_CTX_DEFAULT, target, pe); });
  }
  void inc(std::size_t i, int pe) const {
    check(c_api::amo_standard<T>().inc(ISHMEM_CTX_DEFAULT, at(i, "atomic_inc"), pe),
          "ishmem atomic_inc");
  }
  T fetch_add(std::size_t i, T value, int pe) const {
    return amo_value(c_api::amo_standard<T>().fetch_add, "atomic_fetch_add", i, value, pe);
  }
  void add(std::size_t i, T value, int pe) const {
    amo_status(c_api::amo_standard<T>().add, "atomic_add", i, value, pe);
  }
  T fetch_and(std::size_t i, T v, int pe) const {
    return amo_value(c_api::amo_bitwise<T>().fetch_and, "atomic_fetch_and", i, v, pe);
  }
  void and_(std::size_t i, T v, int pe) const {
    amo_status(c_api::amo_bitwise<T>().and_, "atomic_and", i, v, pe);
  }
  T fetch_or(std::size_t i, T v, int pe) const {
    return amo_value(c_api::amo_bitwise<T>().fetch_or, "atomic_fetch_or", i, v, pe);
  }
  void or_(std::size_t i, T v, int pe) const {
    amo_status(c_api::amo_bitwise<T>().or_, "atomic_or", i, v, pe);
  }
  T fetch_xor(std::size_t i, T v, int pe) const {
    return amo_value(c_api::amo_bitwise<T>().fetch_xor, "atomic_fetch_xor", i, v, pe);
  }
  void xor_(std::size_t i, T v, int pe) const {
    amo_status(c_api::amo_bitwise<T>().xor_, "atomic_xor", i, v, pe);
  }

  // Waits until this PE's element i compares true against value (updated by other PEs).
  void wait_until(std::size_t i, cmp c, T value) const {
    check(c_api::p2p<T>().wait_until(at(i, "wait_until"), static_cast<int>(c), value),
          "ishmem wait_until");
  }
  // Whether this PE's element i compares true against value now.
  bool test(std::size_t i, cmp c, T value) const {
    const auto call = c_api::p2p<T>().test;
    T *target = at(i, "test");
    return checked_value("ishmem test", [&] { return call(target, static_cast<int>(c), value); }) !=
           0;
  }

 private:
  const Range &range() const { return static_cast<const Range &>(*this); }
  T *at(std::size_t i, const char *what) const {
    if (i >= range().size())
      throw_error(
          ISHMEM_ERR_INVALID_ARG, std::string("ishmem ") + what,
          "index " + std::to_string(i) + " past the size " + std::to_string(range().size()));
    return range().data() + i;
  }
  void same_size(std::size_t n, const char *what) const {
    if (n != range().size())
      throw_error(
          ISHMEM_ERR_INVALID_ARG, std::string("ishmem ") + what,
          std::to_string(n) + " local elements for a range of " + std::to_string(range().size()));
  }
  template <class Buffer>
  void rma(int (*call)(ishmem_ctx_t, void *, const void *, size_t, int), const char *what,
           Buffer *local, int pe) const {
    const bool is_put = std::is_const_v<Buffer>;
    void *dest = is_put ? static_cast<void *>(range().data()) : const_cast<T *>(local);
    const void *source = is_put ? static_cast<const void *>(local) : range().data();
    if (call(ISHMEM_CTX_DEFAULT, dest, source, range().size() * sizeof(T), pe) != ISHMEM_SUCCESS)
      throw_last_error(std::string("ishmem ") + what);
  }
  T amo_value(T (*call)(ishmem_ctx_t, T *, T, int), const char *what, std::size_t i, T v,
              int pe) const {
    T *target = at(i, what);
    const unsigned long errors_before = ishmemx_error_count();
    const T old = call(ISHMEM_CTX_DEFAULT, target, v, pe);
    if (ishmemx_error_count() != errors_before) throw_last_error(std::string("ishmem ") + what);
    return old;
  }
  void amo_status(int (*call)(ishmem_ctx_t, T *, T, int), const char *what, std::size_t i, T v,
                  int pe) const {
    if (call(ISHMEM_CTX_DEFAULT, at(i, what), v, pe) != ISHMEM_SUCCESS)
      throw_last_error(std::string("ishmem ") + what);
  }
};

// A view of `size` consecutive symmetric elements; it owns nothing. subspan() narrows it (the
// same place on every PE, so it stays symmetric).
template <class T>
class symmetric_span : public symmetric_ops<symmetric_span<T>, T> {
 public:
  symmetric_span() = default;
  symmetric_span(T *data, std::size_t size) : data_(data), size_(size) {}

  T *data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T &operator[](std::size_t i) const noexcept { return data_[i]; }
  T *begin() const noexcept { return data_; }
  T *end() const noexcept { return data_ + size_; }
  symmetric_span span() const noexcept { return *this; }
  symmetric_span subspan(std::size_t offset,
                         std::size_t count = std::numeric_limits<std::size_t>::max()) const {
    if (offset > size_)
      throw_error(ISHMEM_ERR_INVALID_ARG, "ishmem subspan",
                  "offset " + std::to_string(offset) + " past the size " + std::to_string(size_));
    return {data_ + offset, count < size_ - offset ? count : size_ - offset};
  }

 private:
  T *data_ = nullptr;
  std::size_t size_ = 0;
};

// `count` elements of T allocated collectively (ishmem_calloc: zeroed; every PE passes the
// same count) and freed collectively when the array is destroyed or reset. Movable, not
// copyable: the memory has one owner per PE.
template <class T>
class symmetric_array : public symmetric_ops<symmetric_array<T>, T> {
 public:
  symmetric_array() = default;
  // Every PE calls ishmem_calloc, even for 0 elements, so that the library can check that
  // the counts agree (and that count * sizeof(T) does not overflow).
  explicit symmetric_array(std::size_t count) {
    const unsigned long errors_before = ishmemx_error_count();
    data_ = static_cast<T *>(ishmem_calloc(count, sizeof(T)));
    if (data_ == nullptr && (count != 0 || ishmemx_error_count() != errors_before))
      throw_last_error("ishmem_calloc");
    size_ = data_ == nullptr ? 0 : count;
  }
  symmetric_array(const symmetric_array &) = delete;
  symmetric_array &operator=(const symmetric_array &) = delete;
  symmetric_array(symmetric_array &&other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  symmetric_array &operator=(symmetric_array &&other) noexcept {
    if (this != &other) {
      release_in_destructor();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  ~symmetric_array() { release_in_destructor(); }

  // Collective: frees the memory now, reporting a failure as ishmem::error.
  void reset() {
    T *data = std::exchange(data_, nullptr);
    size_ = 0;
    if (data != nullptr) check(ishmem_free(data), "ishmem_free");
  }

  T *data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T &operator[](std::size_t i) const noexcept { return data_[i]; }
  T *begin() const noexcept { return data_; }
  T *end() const noexcept { return data_ + size_; }
  symmetric_span<T> span() const noexcept { return {data_, size_}; }
  operator symmetric_span<T>() const noexcept { return span(); }
  symmetric_span<T> subspan(std::size_t offset,
                            std::size_t count = std::numeric_limits<std::size_t>::max()) const {
    return span().subspan(offset, count);
  }

 private:
  void release_in_destructor() noexcept {
    if (data_ != nullptr) report_in_destructor(ishmem_free(data_), "ishmem_free");
    data_ = nullptr;
    size_ = 0;
  }

  T *data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace ishmem

#endif  // ISHMEM_CXX_SYMMETRIC_HPP
