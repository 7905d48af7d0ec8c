// Contexts. A context is an object of this PE: it holds its options, its team and the
// off-node targets it issued to since its last quiet, so that ishmem_ctx_quiet flushes only
// those (MPI_Win_flush per target). Node-local operations are loads and stores of this
// thread, which one fence completes: there a context's quiet cannot leave other contexts'
// stores out (docs/CONTEXTS.md).
#include "api/ctx.h"

#include <deque>
#include <mutex>
#include <vector>

#include "runtime/sync.h"

using namespace ishmem::detail;

extern "C" {
struct ishmemi_ctx ishmemi_ctx_default_object;
}

namespace ishmem::detail {
namespace {

constexpr long kAllOptions = ISHMEM_CTX_SERIALIZED | ISHMEM_CTX_PRIVATE | ISHMEM_CTX_NOSTORE;

// Every context object ever made; destroyed ones wait in `free` for reuse. A deque never moves
// its elements, so handles stay valid memory for the life of the process.
struct Registry {
  std::mutex mutex;
  std::deque<ishmemi_ctx> objects;
  std::vector<ishmemi_ctx *> free;
};
Registry &registry() {
  static Registry r;
  return r;
}

bool is_default(ishmem_ctx_t ctx) {
  return ctx == ISHMEM_CTX_DEFAULT;
}

// The live context `ctx` (not the default one), for `fn`; throws Error otherwise.
ishmemi_ctx &live(ishmem_ctx_t ctx, const char *fn) {
  if (ctx == ISHMEM_CTX_INVALID) fail(ISHMEM_ERR_INVALID_ARG, "%s: ctx is ISHMEM_CTX_INVALID", fn);
  if (ctx->magic.load(std::memory_order_acquire) != kLiveContext)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: ctx %p is not a live context (destroyed?)", fn,
         static_cast<void *>(ctx));
  if ((ctx->options & ISHMEM_CTX_PRIVATE) && !pthread_equal(ctx->owner, pthread_self()))
    fail(ISHMEM_ERR_INVALID_ARG,
         "%s: ctx %p is ISHMEM_CTX_PRIVATE to another thread than the calling one", fn,
         static_cast<void *>(ctx));
  return *ctx;
}

// The team of a live context; fails if the team was destroyed since.
const Team &team_of_ctx(const ishmemi_ctx &ctx, const char *fn) {
  const Team *team = runtime().teams->find(ctx.team);
  if (team != ctx.team_object)
    fail(ISHMEM_ERR_INVALID_ARG, "%s: the team %d of ctx %p was destroyed", fn, ctx.team,
         static_cast<const void *>(&ctx));
  return *team;
}

void create(ishmem_team_t team, long options, ishmem_ctx_t *out, const char *fn) {
  Runtime &rt = runtime();
  if (!out) fail(ISHMEM_ERR_INVALID_ARG, "%s: ctx is NULL", fn);
  if (options & ~kAllOptions)
    fail(ISHMEM_ERR_INVALID_ARG,
         "%s: options %#lx has bits other than ISHMEM_CTX_SERIALIZED, _PRIVATE and _NOSTORE", fn,
         options);
  const Team &t = team_of(rt, team, fn);
  const int n = g_fast.n_pes;
  auto issued = std::make_unique<std::atomic<unsigned char>[]>(static_cast<std::size_t>(n));
  for (int pe = 0; pe < n; ++pe) issued[pe].store(0, std::memory_order_relaxed);
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  ishmemi_ctx *ctx;
  if (r.free.empty()) {
    ctx = &r.objects.emplace_back();
  } else {
    ctx = r.free.back();
    r.free.pop_back();
  }
  ctx->options = options;
  ctx->team = team;
  ctx->team_object = &t;
  ctx->owner = pthread_self();
  ctx->issued = std::move(issued);
  ctx->n_issued = n;
  ctx->magic.store(kLiveContext, std::memory_order_release);
  *out = ctx;
}

// Completes what `ctx` issued: this thread's stores (node-local targets), then an MPI flush
// of each off-node target it issued to since its last quiet. The program's static data has
// one window for every context, whose operations cannot be told apart: all are completed.
void quiet_ctx(ishmemi_ctx &ctx) {
  Runtime &rt = runtime();
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (rt.statics->dirty()) rt.statics->flush_all();
  if (!rt.remote) return;
  for (int pe = 0; pe < ctx.n_issued; ++pe)
    if (ctx.issued[pe].load(std::memory_order_relaxed) &&
        ctx.issued[pe].exchange(0, std::memory_order_acq_rel))
      rt.remote->flush(pe);
}

// Marks `ctx` destroyed and keeps its object for reuse. Caller holds the registry's mutex.
void retire(Registry &r, ishmemi_ctx &ctx) {
  ctx.magic.store(0, std::memory_order_release);
  ctx.issued.reset();
  ctx.n_issued = 0;
  r.free.push_back(&ctx);
}

}  // namespace

int ctx_target(ishmem_ctx_t ctx, int pe, const char *fn) {
  if (is_default(ctx)) return pe;
  const ishmemi_ctx &c = live(ctx, fn);
  if (c.team == ISHMEM_TEAM_WORLD) return pe;
  const Team &team = team_of_ctx(c, fn);
  if (pe < 0 || pe >= team.n_pes())
    fail(ISHMEM_ERR_INVALID_PE, "%s: PE %d is not in [0, %d) of the context's team %d", fn, pe,
         team.n_pes(), c.team);
  return team.world_pe(pe);
}

void ctx_issued(ishmem_ctx_t ctx, int pe) noexcept {
  const Runtime *rt = g_rt;
  if (is_default(ctx) || !rt || !rt->remote || pe < 0 || pe >= ctx->n_issued ||
      rt->pe_slot[pe] >= 0)
    return;
  if (!ctx->issued[pe].load(std::memory_order_relaxed))
    ctx->issued[pe].store(1, std::memory_order_release);
}

void contexts_finalize() noexcept {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (ishmemi_ctx &ctx : r.objects)
    if (ctx.magic.load(std::memory_order_relaxed) == kLiveContext) retire(r, ctx);
}

}  // namespace ishmem::detail

extern "C" {

int ishmem_ctx_create(long options, ishmem_ctx_t *ctx) {
  if (ctx) *ctx = ISHMEM_CTX_INVALID;
  return guard([&] { create(ISHMEM_TEAM_WORLD, options, ctx, "ishmem_ctx_create"); });
}

int ishmem_team_create_ctx(ishmem_team_t team, long options, ishmem_ctx_t *ctx) {
  if (ctx) *ctx = ISHMEM_CTX_INVALID;
  if (team == ISHMEM_TEAM_INVALID && ctx && g_rt)
    return invalid_handle_status("ishmem_team_create_ctx", "ISHMEM_TEAM_INVALID");
  return guard([&] { create(team, options, ctx, "ishmem_team_create_ctx"); });
}

int ishmem_ctx_destroy(ishmem_ctx_t ctx) {
  if (ctx == ISHMEM_CTX_INVALID) return ISHMEM_SUCCESS;  // OpenSHMEM 1.5: no operation
  return guard([&] {
    runtime();
    if (is_default(ctx))
      fail(ISHMEM_ERR_INVALID_ARG, "ishmem_ctx_destroy: the default context cannot be destroyed");
    ishmemi_ctx &c = live(ctx, "ishmem_ctx_destroy");
    quiet_ctx(c);
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (c.magic.load(std::memory_order_relaxed) != kLiveContext)
      fail(ISHMEM_ERR_INVALID_ARG, "ishmem_ctx_destroy: ctx %p was destroyed by another thread",
           static_cast<void *>(ctx));
    retire(r, c);
  });
}

int ishmem_ctx_get_team(ishmem_ctx_t ctx, ishmem_team_t *team) {
  if (team) *team = ISHMEM_TEAM_INVALID;
  if (ctx == ISHMEM_CTX_INVALID && team && g_rt)
    return invalid_handle_status("ishmem_ctx_get_team", "ISHMEM_CTX_INVALID");
  return guard([&] {
    runtime();
    if (!team) fail(ISHMEM_ERR_INVALID_ARG, "ishmem_ctx_get_team: team is NULL");
    if (is_default(ctx)) {
      *team = ISHMEM_TEAM_WORLD;
      return;
    }
    const ishmemi_ctx &c = live(ctx, "ishmem_ctx_get_team");
    team_of_ctx(c, "ishmem_ctx_get_team");
    *team = c.team;
  });
}

int ishmem_ctx_quiet(ishmem_ctx_t ctx) {
  if (is_default(ctx)) return ishmem_quiet();
  if (ctx == ISHMEM_CTX_INVALID) return ISHMEM_SUCCESS;  // OpenSHMEM 1.5: no operation
  return guard([&] { quiet_ctx(live(ctx, "ishmem_ctx_quiet")); });
}

int ishmem_ctx_fence(ishmem_ctx_t ctx) {
  if (is_default(ctx)) return ishmem_fence();
  if (ctx == ISHMEM_CTX_INVALID) return ISHMEM_SUCCESS;  // OpenSHMEM 1.5: no operation
  // As ishmem_fence: stores to one peer are ordered on a host heap; MPI orders nothing, so
  // there a fence is the context's quiet.
  return guard([&] {
    ishmemi_ctx &c = live(ctx, "ishmem_ctx_fence");
    const Runtime &rt = runtime();
    if (rt.remote || rt.statics->dirty())
      quiet_ctx(c);
    else
      std::atomic_thread_fence(std::memory_order_release);
  });
}

}  // extern "C"
