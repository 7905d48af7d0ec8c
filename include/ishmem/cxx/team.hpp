// ishmem C++ API: teams, communication contexts and the collectives on symmetric ranges. Part
// of ishmem.hpp.
#ifndef ISHMEM_CXX_TEAM_HPP
#define ISHMEM_CXX_TEAM_HPP

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "ishmem.h"
#include "ishmem/cxx/c_calls.hpp"
#include "ishmem/cxx/runtime.hpp"
#include "ishmem/cxx/symmetric.hpp"

namespace ishmem {

// A team handle. world() and shared() name the library's teams; the teams made by split_*
// are owned and destroyed (collectively over their members) with the object. A PE left out of
// a split gets an invalid team (valid() false), which owns nothing. Movable, not copyable.
class team {
 public:
  static team world() noexcept { return team(ISHMEM_TEAM_WORLD, false); }
  static team shared() noexcept { return team(ISHMEM_TEAM_SHARED, false); }
  team() noexcept = default;
  team(const team &) = delete;
  team &operator=(const team &) = delete;
  team(team &&other) noexcept
      : handle_(std::exchange(other.handle_, ISHMEM_TEAM_INVALID)),
        owned_(std::exchange(other.owned_, false)) {}
  team &operator=(team &&other) noexcept {
    if (this != &other) {
      destroy_in_destructor();
      handle_ = std::exchange(other.handle_, ISHMEM_TEAM_INVALID);
      owned_ = std::exchange(other.owned_, false);
    }
    return *this;
  }
  ~team() { destroy_in_destructor(); }

  // Collective over this team's members: the PEs start, start + stride, ... (size of them).
  team split_strided(int start, int stride, int size) const {
    ishmem_team_t made = ISHMEM_TEAM_INVALID;
    check(ishmem_team_split_strided(handle_, start, stride, size, nullptr, 0, &made),
          "ishmem_team_split_strided");
    return team(made, true);
  }
  // Collective over this team's members: rows of xrange PEs; returns {row, column}.
  std::pair<team, team> split_2d(int xrange) const {
    ishmem_team_t x = ISHMEM_TEAM_INVALID, y = ISHMEM_TEAM_INVALID;
    check(ishmem_team_split_2d(handle_, xrange, nullptr, 0, &x, nullptr, 0, &y),
          "ishmem_team_split_2d");
    return {team(x, true), team(y, true)};
  }
  // Collective over this team's members: destroys it now, reporting a failure as ishmem::error.
  void destroy() {
    const ishmem_team_t handle = std::exchange(handle_, ISHMEM_TEAM_INVALID);
    if (std::exchange(owned_, false) && handle != ISHMEM_TEAM_INVALID)
      check(ishmem_team_destroy(handle), "ishmem_team_destroy");
  }

  bool valid() const noexcept { return handle_ != ISHMEM_TEAM_INVALID; }
  explicit operator bool() const noexcept { return valid(); }
  ishmem_team_t handle() const noexcept { return handle_; }
  int my_pe() const { return query(ishmem_team_my_pe(handle_), "ishmem_team_my_pe"); }
  int n_pes() const { return query(ishmem_team_n_pes(handle_), "ishmem_team_n_pes"); }
  // The number in `dest` of this team's PE `pe`; -1 when it is not in `dest`.
  int translate(int pe, const team &dest) const {
    return ishmem_team_translate_pe(handle_, pe, dest.handle_);
  }
  // Collective over the members: every member arrives before any leaves.
  void sync() const { check(ishmem_team_sync(handle_), "ishmem_team_sync"); }

 private:
  team(ishmem_team_t handle, bool owned) noexcept
      : handle_(handle), owned_(owned && handle != ISHMEM_TEAM_INVALID) {}
  int query(int value, const char *call) const {
    if (value < 0)
      throw_error(ISHMEM_ERR_INVALID_ARG, call,
                  "team " + std::to_string(handle_) +
                      " is invalid on this PE (not a member, or destroyed)");
    return value;
  }
  void destroy_in_destructor() noexcept {
    if (owned_ && handle_ != ISHMEM_TEAM_INVALID)
      report_in_destructor(ishmem_team_destroy(handle_), "ishmem_team_destroy");
    handle_ = ISHMEM_TEAM_INVALID;
    owned_ = false;
  }

  ishmem_team_t handle_ = ISHMEM_TEAM_INVALID;
  bool owned_ = false;
};

// A communication context (ishmem_ctx_create, or over a team: then PE numbers are the team's).
// Its quiet() and fence() complete and order only the operations issued through it. Destroyed
// (after a quiet) with the object. Movable, not copyable.
// The element type of a symmetric range (symmetric_array, symmetric_span).
template <class Range>
using range_element_t = typename Range::value_type;

class context {
 public:
  explicit context(long options = 0) {
    check(ishmem_ctx_create(options, &ctx_), "ishmem_ctx_create");
  }
  context(const team &t, long options = 0) {
    check(ishmem_team_create_ctx(t.handle(), options, &ctx_), "ishmem_team_create_ctx");
  }
  context(const context &) = delete;
  context &operator=(const context &) = delete;
  context(context &&other) noexcept : ctx_(std::exchange(other.ctx_, ISHMEM_CTX_INVALID)) {}
  context &operator=(context &&other) noexcept {
    if (this != &other) {
      destroy_in_destructor();
      ctx_ = std::exchange(other.ctx_, ISHMEM_CTX_INVALID);
    }
    return *this;
  }
  ~context() { destroy_in_destructor(); }

  ishmem_ctx_t handle() const noexcept { return ctx_; }
  // The operations of symmetric_span, through this context; `dest` and `source` are
  // symmetric ranges (arrays or spans). The local side has the range's element type (never
  // deduced from the argument, so that the byte count is the range's).
  template <class Range>
  void put(const Range &dest, const range_element_t<Range> *source, int pe) const {
    check(ishmem_ctx_putmem(ctx_, dest.data(), source, bytes_of(dest), pe), "ishmem_ctx_putmem");
  }
  template <class Range>
  void get(range_element_t<Range> *dest, const Range &source, int pe) const {
    check(ishmem_ctx_getmem(ctx_, dest, source.data(), bytes_of(source), pe), "ishmem_ctx_getmem");
  }
  template <class Range>
  void put_nbi(const Range &dest, const range_element_t<Range> *source, int pe) const {
    check(ishmem_ctx_putmem_nbi(ctx_, dest.data(), source, bytes_of(dest), pe),
          "ishmem_ctx_putmem_nbi");
  }
  template <class Range>
  void get_nbi(range_element_t<Range> *dest, const Range &source, int pe) const {
    check(ishmem_ctx_getmem_nbi(ctx_, dest, source.data(), bytes_of(source), pe),
          "ishmem_ctx_getmem_nbi");
  }
  template <class Range>
  void p(const Range &dest, std::size_t i, const range_element_t<Range> &value, int pe) const {
    check(ishmem_ctx_putmem(ctx_, at(dest, i, "ishmem_ctx p"), &value, sizeof value, pe),
          "ishmem_ctx_putmem");
  }
  template <class Range>
  range_element_t<Range> g(const Range &source, std::size_t i, int pe) const {
    range_element_t<Range> value{};
    check(ishmem_ctx_getmem(ctx_, &value, at(source, i, "ishmem_ctx g"), sizeof value, pe),
          "ishmem_ctx_getmem");
    return value;
  }
  template <class Range>
  range_element_t<Range> fetch_add(const Range &dest, std::size_t i, range_element_t<Range> value,
                                   int pe) const {
    const auto call = c_api::amo_standard<range_element_t<Range>>().fetch_add;
    auto *target = at(dest, i, "ishmem_ctx_atomic_fetch_add");
    return checked_value("ishmem_ctx_atomic_fetch_add",
                         [&] { return call(ctx_, target, value, pe); });
  }
  void quiet() const { check(ishmem_ctx_quiet(ctx_), "ishmem_ctx_quiet"); }
  void fence() const { check(ishmem_ctx_fence(ctx_), "ishmem_ctx_fence"); }

 private:
  template <class Range>
  static std::size_t bytes_of(const Range &range) {
    return range.size() * sizeof(range_element_t<Range>);
  }
  template <class Range>
  static auto *at(const Range &range, std::size_t i, const char *what) {
    if (i >= range.size())
      throw_error(ISHMEM_ERR_INVALID_ARG, what,
                  "index " + std::to_string(i) + " past the size " + std::to_string(range.size()));
    return range.data() + i;
  }
  void destroy_in_destructor() noexcept {
    if (ctx_ != ISHMEM_CTX_INVALID)
      report_in_destructor(ishmem_ctx_destroy(ctx_), "ishmem_ctx_destroy");
    ctx_ = ISHMEM_CTX_INVALID;
  }
  ishmem_ctx_t ctx_ = ISHMEM_CTX_INVALID;
};

// ---- Collectives: every PE of the team calls them in the same order with the same sizes.
// Ranges are symmetric (symmetric_array or symmetric_span) of one element type.

template <class Dest, class Source>
using element_t = std::enable_if_t<std::is_same_v<typename std::decay_t<Dest>::value_type,
                                                  typename std::decay_t<Source>::value_type>,
                                   typename std::decay_t<Dest>::value_type>;

inline void throw_size(const char *call, const std::string &why) {
  throw_error(ISHMEM_ERR_INVALID_ARG, call, why);
}

// dest on every member gets root's source (root: a team index); dest.size() >= source.size().
template <class Dest, class Source, class T = element_t<Dest, Source>>
void broadcast(const team &t, const Dest &dest, const Source &source, int root) {
  if (dest.size() < source.size()) throw_size("ishmem broadcast", "dest is shorter than source");
  check(
      ishmem_broadcastmem(t.handle(), dest.data(), source.data(), source.size() * sizeof(T), root),
      "ishmem_broadcastmem");
}
// dest gets every member's source (all of one size), in team order.
template <class Dest, class Source, class T = element_t<Dest, Source>>
void fcollect(const team &t, const Dest &dest, const Source &source) {
  if (dest.size() / static_cast<std::size_t>(t.n_pes()) < source.size())
    throw_size("ishmem fcollect", "dest holds fewer than n_pes * source.size() elements");
  check(ishmem_fcollectmem(t.handle(), dest.data(), source.data(), source.size() * sizeof(T)),
        "ishmem_fcollectmem");
}
// dest gets every member's source (sizes may differ), in team order; dest must hold their sum.
template <class Dest, class Source, class T = element_t<Dest, Source>>
void collect(const team &t, const Dest &dest, const Source &source) {
  if (dest.size() < source.size()) throw_size("ishmem collect", "dest is shorter than source");
  check(ishmem_collectmem(t.handle(), dest.data(), source.data(), source.size() * sizeof(T)),
        "ishmem_collectmem");
}
// source holds one block per member (size / n_pes elements each); block j of dest gets block
// `my index` of member j's source.
template <class Dest, class Source, class T = element_t<Dest, Source>>
void alltoall(const team &t, const Dest &dest, const Source &source) {
  const std::size_t n = static_cast<std::size_t>(t.n_pes());
  if (source.size() % n != 0 || dest.size() < source.size())
    throw_size("ishmem alltoall", "source must hold n_pes equal blocks and dest as many elements");
  check(ishmem_alltoallmem(t.handle(), dest.data(), source.data(), source.size() / n * sizeof(T)),
        "ishmem_alltoallmem");
}

// Reductions of source.size() elements into dest (dest == source is allowed).
template <c_api::reduce_op Op, class Dest, class Source, class T = element_t<Dest, Source>>
void reduce(const team &t, const Dest &dest, const Source &source, const char *call) {
  using C = c_api::c_type_t<T>;
  constexpr auto c_call = c_api::reduce<Op, C>();
  if (dest.size() < source.size()) throw_size(call, "dest is shorter than source");
  check(c_call(t.handle(), reinterpret_cast<C *>(dest.data()),
               reinterpret_cast<const C *>(source.data()), source.size()),
        call);
}
#define ISHMEMCXX_REDUCTION(NAME, OP)                                         \
  template <class Dest, class Source>                                         \
  void NAME##_reduce(const team &t, const Dest &dest, const Source &source) { \
    reduce<c_api::reduce_op::OP>(t, dest, source, "ishmem " #NAME "_reduce"); \
  }
ISHMEMCXX_REDUCTION(sum, sum)
ISHMEMCXX_REDUCTION(prod, prod)
ISHMEMCXX_REDUCTION(min, min)
ISHMEMCXX_REDUCTION(max, max)
ISHMEMCXX_REDUCTION(and, and_)
ISHMEMCXX_REDUCTION(or, or_)
ISHMEMCXX_REDUCTION(xor, xor_)
#undef ISHMEMCXX_REDUCTION

}  // namespace ishmem

#endif  // ISHMEM_CXX_TEAM_HPP
