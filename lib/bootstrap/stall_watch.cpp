#include "bootstrap/stall_watch.h"

#include <cstdio>
#include <string>

#include "bootstrap/liveness_ring.h"
#include "bootstrap/mpi_bootstrap.h"
#include "common/error.h"
#include "common/spin_wait.h"

namespace ishmem::detail {
namespace {

using Clock = std::chrono::steady_clock;

// Liveness and deadline checks of a long wait run this often: reading /proc costs a few
// microseconds, and a peer's exit is then noticed within a tenth of a second.
constexpr auto kCheckInterval = std::chrono::milliseconds(100);
constexpr int kMaxPesNamed = 8;

struct Watch {
  MPI_Comm world = MPI_COMM_WORLD;
  double timeout_s = 600;
  const char *variable = "ISHMEM_COLLECTIVE_TIMEOUT";
  const Topology *topo = nullptr;
  ActivityWord *board = nullptr;
  std::size_t step = 0;
  std::uint64_t calls = 0;
  CollectiveOp current = CollectiveOp::none;
  void (*serve)() = nullptr;
} g_watch;
thread_local const char *t_team_call = nullptr;  // watch_enter_team's call on this thread

ActivityWord *word_of(int slot) {
  return reinterpret_cast<ActivityWord *>(reinterpret_cast<char *>(g_watch.board) +
                                          g_watch.step * static_cast<std::size_t>(slot));
}

// Whether process `pid` has ended: it is gone, or a zombie that its launcher has not reaped.
bool process_exited(int pid) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE *f = fopen(path, "r");
  if (!f) return true;
  char buf[512] = {0};
  std::size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  std::string stat(buf, n);
  std::size_t paren = stat.rfind(')');  // the command name may hold spaces and parentheses
  if (paren == std::string::npos || paren + 2 >= stat.size()) return false;
  char state = stat[paren + 2];
  return state == 'Z' || state == 'X';
}

// The first node-local PE among `pes` (all of them if empty) whose process has exited, or -1.
int exited_local_pe(const std::vector<int> &pes) {
  const Topology *topo = g_watch.topo;
  if (!topo) return -1;
  for (int slot = 0; slot < topo->n_local; ++slot) {
    int pe = topo->local_pes[slot];
    if (pe == topo->my_pe) continue;
    bool awaited = pes.empty();
    for (int p : pes) awaited = awaited || p == pe;
    if (awaited && process_exited(topo->local_pids[slot])) return pe;
  }
  return -1;
}

std::string call_text(std::uint64_t word) {
  if (word == 0) return "no collective call yet";
  return std::string(collective_op_name(word >> 48)) + " (call " +
         std::to_string(word & ((std::uint64_t{1} << 48) - 1)) + ")";
}

// What the node-local peers last did, as far as this PE can see.
std::string peers_text() {
  const Topology *topo = g_watch.topo;
  if (!topo || !g_watch.board) return " (no node-local activity to report during setup)";
  std::string text;
  int named = 0;
  for (int slot = 0; slot < topo->n_local && named < kMaxPesNamed; ++slot) {
    int pe = topo->local_pes[slot];
    if (pe == topo->my_pe) continue;
    text += "; PE " + std::to_string(pe);
    if (process_exited(topo->local_pids[slot]))
      text += " (pid " + std::to_string(topo->local_pids[slot]) + ") has exited";
    else
      text += " last entered " + call_text(word_of(slot)->load(std::memory_order_relaxed));
    ++named;
  }
  if (topo->n_nodes > 1) text += "; PEs on other nodes cannot be observed from here";
  return text;
}

std::string pes_text(const std::vector<int> &pes) {
  if (pes.empty()) return "the other PEs";
  std::string text = pes.size() > 1 ? "PEs " : "PE ";
  for (std::size_t i = 0; i < pes.size() && i < kMaxPesNamed; ++i)
    text += (i ? "," : "") + std::to_string(pes[i]);
  if (pes.size() > kMaxPesNamed) text += ",...";
  return text;
}

[[noreturn]] void report_and_abort(const char *what, const std::vector<int> &missing, int exited) {
  std::string reason;
  if (exited >= 0)
    reason = "PE " + std::to_string(exited) + " exited while this PE waited for " +
             pes_text(missing) + " in " + what;
  else
    reason = "waited " + std::to_string(static_cast<long>(g_watch.timeout_s)) + " s (" +
             g_watch.variable + ") for " + pes_text(missing) + " in " + what;
  const std::uint64_t mine = (static_cast<std::uint64_t>(g_watch.current) << 48) | g_watch.calls;
  log(LogLevel::error, "%s: %s%s; aborting the job",
      t_team_call ? t_team_call : call_text(mine).c_str(), reason.c_str(), peers_text().c_str());
  fflush(stderr);
  liveness_announce_abort(1);
  MPI_Abort(g_watch.world, 1);
  // MPI_Abort does not return; if an MPI did, the caller still gets the error.
  fail(ISHMEM_ERR_TIMEOUT, "%s: %s", what, reason.c_str());
}

}  // namespace

void watch_configure(MPI_Comm world, double timeout_s, const char *timeout_variable) {
  g_watch.world = world;
  g_watch.timeout_s = timeout_s;
  g_watch.variable = timeout_variable;
}

void watch_peers(const Topology *topo) {
  g_watch.topo = topo;
}

void watch_serve(void (*serve)()) {
  g_watch.serve = serve;
}

void SpinDeadline::serve() {
  if (g_watch.serve) g_watch.serve();
}

void watch_board(ActivityWord *board, std::size_t step) {
  g_watch.board = board;
  g_watch.step = step;
}

void watch_enter_team(const char *name) {
  t_team_call = name;
}

std::uint64_t watch_enter(CollectiveOp op) {
  t_team_call = nullptr;
  g_watch.current = op;
  ++g_watch.calls;
  if (g_watch.board && g_watch.topo)
    word_of(g_watch.topo->local_rank)
        ->store((static_cast<std::uint64_t>(op) << 48) | g_watch.calls, std::memory_order_relaxed);
  return g_watch.calls;
}

void watch_complete(MPI_Request &req, const char *mpi_call) {
  SpinDeadline deadline(mpi_call);
  int done = 0;
  unsigned polls = 0;
  wait_for(
      [&] {
        ISHMEMI_CHECK_MPI(MPI_Test(&req, &done, MPI_STATUS_IGNORE));
        // A peer's served request may be what its PE waits on before it can join: serve it
        // from the start. Each MPI_Test costs a system call, so the spin phase is long, and
        // on a node with one core per PE the server thread would get the core only after it.
        if (!done && (++polls & 3) == 0 && g_watch.serve) g_watch.serve();
        return done != 0;
      },
      [&] { deadline.poll([](std::vector<int> &) {}); });
}

void watch_expired(const char *what, const std::vector<int> &missing_pes) {
  report_and_abort(what, missing_pes, exited_local_pe(missing_pes));
}

bool SpinDeadline::due() {
  const Clock::time_point now = Clock::now();
  if (start_ == Clock::time_point{}) {
    start_ = now;
    next_ = now + kCheckInterval;
    return false;
  }
  if (now < next_) return false;
  next_ = now + kCheckInterval;
  return true;
}

void SpinDeadline::check(const std::vector<int> &missing_pes) {
  const int exited = exited_local_pe(missing_pes);
  const bool late = Clock::now() - start_ > std::chrono::duration<double>(g_watch.timeout_s);
  if (exited >= 0 || late) report_and_abort(what_, missing_pes, exited);
}

}  // namespace ishmem::detail
