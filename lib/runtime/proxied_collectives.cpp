#include "runtime/proxied_collectives.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <system_error>
#include <type_traits>

#include "common/error.h"
#include "runtime/collectives.h"

namespace ishmem::detail {
namespace {

const char *const kFn = "device collective on a team that spans nodes";

// The reduction `op` on elements of T, among Ops, into `out`.
template <class T, ReduceOp... Ops>
bool reduction_among(ReduceOp op, Reduction &out) {
  return ((op == Ops && (out = reduction_of<Ops, T>(), true)) || ...);
}
template <class T>
bool reduction_on(ReduceOp op, Reduction &out) {
  using O = ReduceOp;
  if constexpr (std::is_integral_v<T>)
    return reduction_among<T, O::and_, O::or_, O::xor_, O::max, O::min, O::sum, O::prod>(op, out);
  else
    return reduction_among<T, O::max, O::min, O::sum, O::prod>(op, out);
}
// The reduction `op` on integers of `size` bytes, I8 to I64 (all signed or all unsigned).
template <class I8, class I16, class I32, class I64>
bool integer_reduction(ReduceOp op, std::size_t size, Reduction &out) {
  return size == 1   ? reduction_on<I8>(op, out)
         : size == 2 ? reduction_on<I16>(op, out)
         : size == 4 ? reduction_on<I32>(op, out)
                     : size == 8 && reduction_on<I64>(op, out);
}

// The call of request `req` on `team`, its reduction in `reduction`; throws
// ISHMEM_ERR_INVALID_ARG for sizes that overflow.
CollectiveCall call_of(const ishmemx_proxy_slot_t &req, const Team &team, Reduction &reduction) {
  const auto op = static_cast<ReduceOp>((req.value >> 8) & 0xff);
  const auto code = static_cast<unsigned>((req.value >> 16) & 0xffff);
  CollectiveCall call;
  call.kind = static_cast<CollectiveKind>(req.value & 0xff);
  call.type = ElementType{code & 0xff, static_cast<ElementKind>(code >> 8)};
  call.dest = reinterpret_cast<void *>(req.dest);
  call.source = reinterpret_cast<const void *>(req.source);
  call.nelems = req.bytes;
  call.fn = kFn;
  if (call.kind == CollectiveKind::alltoalls) {
    call.dst = static_cast<std::int32_t>(req.cond >> 32);
    call.sst = static_cast<std::int32_t>(req.cond & 0xffffffff);
  } else {
    call.root = static_cast<int>(req.cond);
  }
  // The most bytes a member's buffer spans: n_pes blocks of nelems, strided for alltoalls.
  const auto widest = static_cast<std::size_t>(std::max<std::ptrdiff_t>({1, call.dst, call.sst}));
  const std::size_t limit = SIZE_MAX / std::max<std::size_t>(call.type.size, 1) /
                            static_cast<std::size_t>(team.n_pes()) / widest;
  if (call.nelems > limit)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: %zu elements of %zu bytes overflow a size", kFn, call.nelems,
         call.type.size);
  if (call.kind == CollectiveKind::reduce) {
    if (!device_reduction(op, call.type, reduction))
      fail(ISHMEM_ERR_INTERNAL, "%s: no %s reduction on %zu-byte %s elements", kFn,
           reduce_op_name(op), call.type.size, element_kind_name(call.type.kind));
    call.reduction = &reduction;
  }
  return call;
}

}  // namespace

bool device_reduction(ReduceOp op, ElementType type, Reduction &out) {
  switch (type.kind) {
    case ElementKind::signed_int:
      return integer_reduction<std::int8_t, std::int16_t, std::int32_t, std::int64_t>(op, type.size,
                                                                                      out);
    case ElementKind::unsigned_int:
      return integer_reduction<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>(
          op, type.size, out);
    case ElementKind::real:
      return type.size == sizeof(float)    ? reduction_on<float>(op, out)
             : type.size == sizeof(double) ? reduction_on<double>(op, out)
                                           : false;
    default:
      return false;
  }
}

ProxiedCollectives::ProxiedCollectives(Runtime &rt)
    : rt_(rt), posted_(rt.teams->slots.size()), finished_(rt.teams->slots.size()) {}

ProxiedCollectives::~ProxiedCollectives() {
  for (Running &r : running_) r.thread.join();
}

void ProxiedCollectives::start(const ishmemx_proxy_slot_t &req, Answer answer) {
  if (req.pe < 0 || req.pe >= static_cast<int>(posted_.size())) {
    log(LogLevel::error, "%s: no team %d", kFn, req.pe);
    return answer(ISHMEM_ERR_INVALID_ARG);
  }
  Running &r = running_.emplace_back();
  const std::uint64_t turn = posted_[req.pe];
  try {
    r.thread = std::thread(
        [this, req, turn, answer = std::move(answer), &r] { run(req, turn, answer, r.ended); });
    ++posted_[req.pe];  // counted once it runs: a later call's turn never waits on a lost one
  } catch (const std::system_error &e) {
    running_.pop_back();
    fail(ISHMEM_ERR_SYSTEM, "device proxy: could not start a thread for a collective: %s",
         e.what());
  }
}

void ProxiedCollectives::reap() {
  for (auto it = running_.begin(); it != running_.end();) {
    if (!it->ended.load(std::memory_order_acquire)) {
      ++it;
      continue;
    }
    it->thread.join();
    it = running_.erase(it);
  }
}

void ProxiedCollectives::run(const ishmemx_proxy_slot_t &req, std::uint64_t turn,
                             const Answer &answer, std::atomic<bool> &ended) {
  const int slot = req.pe;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    turn_ended_.wait(lock, [&] { return finished_[slot] == turn; });
  }
  int status = ISHMEM_SUCCESS;
  try {
    const Team *team = rt_.teams->find(slot);
    if (!team || !team->proxied)
      fail(ISHMEM_ERR_INVALID_ARG, "%s %d: not a team of this PE whose members span nodes", kFn,
           slot);
    Reduction reduction{};
    run_proxied_collective(rt_, *team->proxied, call_of(req, *team, reduction));
  } catch (const Error &e) {
    log_error(LogLevel::error, e);  // the kernel gets the code only
    status = e.code();
  } catch (const std::exception &e) {
    log(LogLevel::error, "%s: %s", kFn, e.what());
    status = ISHMEM_ERR_INTERNAL;
  }
  answer(status);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ++finished_[slot];
  }
  turn_ended_.notify_all();
  ended.store(true, std::memory_order_release);
}

}  // namespace ishmem::detail
