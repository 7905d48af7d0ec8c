// Contexts: the object behind an ishmem_ctx_t, and the body of every ishmem_ctx_<STEM> call
// (api/calls.h): check the context, turn a team context's PE into a world PE, run the call's
// host operation, and note an off-node target for the context's quiet.
#pragma once

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "api/guard.h"
#include "runtime/runtime.h"

struct ishmemi_ctx {
  // kLiveContext while the handle may be used; cleared by destroy and finalize. Objects are
  // never freed (api/ctx.cpp reuses them), so a stale handle reads a cleared word, not freed
  // memory.
  std::atomic<std::uint64_t> magic{0};
  long options = 0;
  ishmem_team_t team = ISHMEM_TEAM_WORLD;
  // The team object the context was made from: a destroyed team (its slot empty or reused)
  // makes the context's calls fail instead of reaching another team's PEs.
  const ishmem::detail::Team *team_object = nullptr;
  pthread_t owner{};  // the creating thread, which alone may use an ISHMEM_CTX_PRIVATE context
  // One flag per world PE: an off-node target of this context since its last quiet.
  std::unique_ptr<std::atomic<unsigned char>[]> issued;
  int n_issued = 0;
};

namespace ishmem::detail {

constexpr std::uint64_t kLiveContext = 0x6973686d656d6378;  // "ishmemcx"

// The world PE of `pe` for a call of `fn` on `ctx`; throws Error for an invalid, destroyed or
// foreign private context, a context whose team is gone, and a PE outside its team.
int ctx_target(ishmem_ctx_t ctx, int pe, const char *fn);
// Notes that `ctx` issued an operation to world PE `pe` (for ishmem_ctx_quiet).
void ctx_issued(ishmem_ctx_t ctx, int pe) noexcept;
// Invalidates every context (ishmem_finalize).
void contexts_finalize() noexcept;

// Whether list operation `op` returns a status (else the fetched value, 0 on an error).
constexpr bool returns_status(std::string_view op) {
  if (op == "g") return false;
  if (op.substr(0, 4) != "amo_") return true;
  if (op.size() > 4 && op.substr(op.size() - 4) == "_nbi") return true;
  return op == "amo_set" || op == "amo_inc" || op == "amo_add" || op == "amo_and" ||
         op == "amo_or" || op == "amo_xor";
}

// Runs `op(args...)` with the last argument, the PE, made a world PE.
template <class Ret, class Op, class... Args>
Ret ctx_call(ishmem_ctx_t ctx, const char *fn, bool status, Op op, Args... args) noexcept {
  std::tuple<Args...> call(args...);
  int &pe = std::get<sizeof...(Args) - 1>(call);
  int world = 0;
  const int rc = guard([&] { world = ctx_target(ctx, pe, fn); });
  if (rc != ISHMEM_SUCCESS) {
    if constexpr (std::is_same_v<Ret, int>) {
      if (status) return rc;
    }
    return Ret{};
  }
  pe = world;
  Ret result = std::apply(op, call);
  ctx_issued(ctx, world);
  return result;
}

}  // namespace ishmem::detail
