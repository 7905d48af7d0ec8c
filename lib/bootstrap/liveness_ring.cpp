#include "bootstrap/liveness_ring.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/stall_watch.h"
#include "common/error.h"

namespace ishmem::detail {
namespace {

constexpr std::uint32_t kMagic = 0x49534c56;  // "ISLV"
constexpr int kTag = 0x4c56;
constexpr int kMaxAddrs = 4;
constexpr std::size_t kHostLen = 64;
// A machine that vanishes sends no FIN: it is noticed once keepalives go unanswered, after
// kKeepIdleS of silence and kKeepCount probes kKeepIntervalS apart (7 s). The probes are a
// few bytes a second per connection, and TCP retransmits through ordinary packet loss.
constexpr int kKeepIdleS = 2, kKeepIntervalS = 1, kKeepCount = 5;
constexpr char kLeave = 'L';  // finalize: the connection closes next, as it should
constexpr char kAbort = 'A';  // this PE aborts the job: every PE that hears it does too
// Each message is its letter and a status byte: the exit status of an abort, 0 otherwise.

// How a PE is reached: what it sends both neighbours before they connect.
struct Listing {
  std::uint32_t magic;
  std::uint32_t ok;                // 0: it could not open its listener (the step fails on every PE)
  std::uint32_t addrs[kMaxAddrs];  // IPv4, network order
  std::uint16_t n_addrs;
  std::uint16_t port;  // network order
  std::int32_t pid;
  std::uint64_t nonce;  // echoed by the connecting PE: a stray connection cannot pose as it
  char host[kHostLen];
};

struct Hello {
  std::uint32_t magic;
  std::int32_t pe;
  std::uint64_t nonce;
};

std::atomic<LivenessRing *> g_ring{nullptr};

// This machine's IPv4 addresses other nodes may reach: those of interfaces that are up, not
// loopback; the loopback address only where there is nothing else (one machine, split mode).
void list_addresses(Listing &mine) {
  ifaddrs *list = nullptr;
  if (getifaddrs(&list) != 0) fail_errno("getifaddrs", __FILE__, __LINE__);
  for (ifaddrs *a = list; a && mine.n_addrs < kMaxAddrs; a = a->ifa_next)
    if (a->ifa_addr && a->ifa_addr->sa_family == AF_INET && (a->ifa_flags & IFF_UP) &&
        !(a->ifa_flags & IFF_LOOPBACK))
      mine.addrs[mine.n_addrs++] = reinterpret_cast<sockaddr_in *>(a->ifa_addr)->sin_addr.s_addr;
  freeifaddrs(list);
  if (mine.n_addrs == 0) mine.addrs[mine.n_addrs++] = htonl(INADDR_LOOPBACK);
}

UniqueFd open_listener(Listing &mine) {
  UniqueFd sock(ISHMEMI_CHECK_SYS(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  ISHMEMI_CHECK_SYS(bind(sock.get(), reinterpret_cast<sockaddr *>(&addr), sizeof addr));
  ISHMEMI_CHECK_SYS(listen(sock.get(), 4));
  socklen_t len = sizeof addr;
  ISHMEMI_CHECK_SYS(getsockname(sock.get(), reinterpret_cast<sockaddr *>(&addr), &len));
  mine.port = addr.sin_port;
  list_addresses(mine);
  if (getrandom(&mine.nonce, sizeof mine.nonce, 0) != sizeof mine.nonce)
    fail_errno("getrandom", __FILE__, __LINE__);
  mine.ok = 1;
  return sock;
}

void check_listing(const Listing &l, int pe) {
  if (l.magic != kMagic || l.n_addrs < 1 || l.n_addrs > kMaxAddrs ||
      memchr(l.host, '\0', kHostLen) == nullptr)
    fail(ISHMEM_ERR_INTERNAL, "malformed liveness listing from PE %d", pe);
  if (!l.ok) fail(ISHMEM_ERR_SYSTEM, "PE %d could not open its liveness listener", pe);
}

void keep_alive(int sock) {
  const int on = 1;
  ISHMEMI_CHECK_SYS(setsockopt(sock, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on));
  ISHMEMI_CHECK_SYS(setsockopt(sock, IPPROTO_TCP, TCP_KEEPIDLE, &kKeepIdleS, sizeof(int)));
  ISHMEMI_CHECK_SYS(setsockopt(sock, IPPROTO_TCP, TCP_KEEPINTVL, &kKeepIntervalS, sizeof(int)));
  ISHMEMI_CHECK_SYS(setsockopt(sock, IPPROTO_TCP, TCP_KEEPCNT, &kKeepCount, sizeof(int)));
}

// Connects to `to` at one of its addresses; throws naming every address tried.
UniqueFd connect_to(const Listing &to, int pe, int my_pe, const Deadline &deadline) {
  std::string tried;
  for (int i = 0; i < to.n_addrs; ++i) {
    char ip[INET_ADDRSTRLEN] = "?";
    inet_ntop(AF_INET, &to.addrs[i], ip, sizeof ip);
    const std::string peer = "PE " + std::to_string(pe) + " (" + to.host + ") at " + ip;
    UniqueFd sock;
    try {
      sock.reset(ISHMEMI_CHECK_SYS(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)));
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_addr.s_addr = to.addrs[i];
      addr.sin_port = to.port;
      connect_with_deadline(sock.get(), reinterpret_cast<sockaddr *>(&addr), sizeof addr, deadline,
                            peer.c_str());
      Hello hello{kMagic, my_pe, to.nonce};
      send_message(sock.get(), &hello, sizeof hello, nullptr, 0, deadline, peer.c_str());
      return sock;
    } catch (const Error &e) {
      tried += std::string(tried.empty() ? "" : "; ") + e.what();
    }
  }
  fail(ISHMEM_ERR_SYSTEM, "cannot open the liveness connection: %s", tried.c_str());
}

// Accepts the previous PE's connection, skipping any that does not prove to be it.
UniqueFd accept_from(int listener, const Listing &mine, int pe, const Deadline &deadline) {
  const std::string peer = "PE " + std::to_string(pe);
  for (;;) {
    wait_ready(listener, POLLIN, deadline, peer.c_str(), "accept the liveness connection of");
    UniqueFd sock(ISHMEMI_CHECK_SYS(accept4(listener, nullptr, nullptr, SOCK_CLOEXEC)));
    Hello hello{};
    FirstError attempt;
    attempt.attempt(
        [&] { recv_message(sock.get(), &hello, sizeof hello, 0, deadline, peer.c_str()); });
    if (attempt.ok() && hello.magic == kMagic && hello.pe == pe && hello.nonce == mine.nonce)
      return sock;
    log(LogLevel::warn, "ignored a connection to the liveness listener that is not %s",
        peer.c_str());
  }
}

std::string node_pes_text(const std::vector<int> &node_leader, int pe) {
  std::string text;
  int named = 0;
  for (std::size_t p = 0; p < node_leader.size(); ++p) {
    if (node_leader[p] != node_leader[pe]) continue;
    if (++named > 16) return text + ",...";
    text += (text.empty() ? "" : ",") + std::to_string(p);
  }
  return text;
}

}  // namespace

LivenessRing::LivenessRing(const MpiBootstrap &boot, double timeout_s)
    : world_(boot.world()),
      keepalive_s_(kKeepIdleS + kKeepCount * kKeepIntervalS),
      node_leader_(boot.topology().node_leader) {
  const Topology &topo = boot.topology();
  const Deadline deadline = Deadline::after(timeout_s);
  next_.pe = (topo.my_pe + 1) % topo.n_pes;
  prev_.pe = (topo.my_pe + topo.n_pes - 1) % topo.n_pes;
  Listing mine{};
  mine.magic = kMagic;
  mine.pid = static_cast<std::int32_t>(getpid());
  if (gethostname(mine.host, kHostLen - 1) != 0) snprintf(mine.host, kHostLen, "?");
  // Both neighbours need this PE's listing whatever happens here, or they would wait for it.
  FirstError listening;
  UniqueFd listener;
  listening.attempt([&] { listener = open_listener(mine); });
  Listing theirs[2]{};  // next's, prev's
  MPI_Request reqs[4];
  ISHMEMI_CHECK_MPI(
      MPI_Irecv(&theirs[0], sizeof(Listing), MPI_BYTE, next_.pe, kTag, world_, &reqs[0]));
  ISHMEMI_CHECK_MPI(
      MPI_Irecv(&theirs[1], sizeof(Listing), MPI_BYTE, prev_.pe, kTag, world_, &reqs[1]));
  ISHMEMI_CHECK_MPI(MPI_Isend(&mine, sizeof mine, MPI_BYTE, prev_.pe, kTag, world_, &reqs[2]));
  ISHMEMI_CHECK_MPI(MPI_Isend(&mine, sizeof mine, MPI_BYTE, next_.pe, kTag, world_, &reqs[3]));
  for (MPI_Request &r : reqs) watch_complete(r, "MPI_Irecv");
  listening.rethrow();
  check_listing(theirs[0], next_.pe);
  check_listing(theirs[1], prev_.pe);
  next_.pid = theirs[0].pid;
  next_.host = theirs[0].host;
  prev_.pid = theirs[1].pid;
  prev_.host = theirs[1].host;
  // The connect completes in the listener's backlog, so every PE connects before it accepts.
  next_.sock = connect_to(theirs[0], next_.pe, topo.my_pe, deadline);
  prev_.sock = accept_from(listener.get(), mine, prev_.pe, deadline);
  keep_alive(next_.sock.get());
  keep_alive(prev_.sock.get());
  wake_.reset(ISHMEMI_CHECK_SYS(eventfd(0, EFD_CLOEXEC)));
  try {
    thread_ = std::thread(&LivenessRing::watch, this);
  } catch (const std::system_error &e) {
    fail(ISHMEM_ERR_SYSTEM, "cannot start the liveness thread: %s", e.what());
  }
  g_ring.store(this, std::memory_order_release);
}

LivenessRing::~LivenessRing() {
  stop();
}

void LivenessRing::stop() {
  LivenessRing *self = this;
  g_ring.compare_exchange_strong(self, nullptr);
  if (!thread_.joinable()) return;
  const std::uint64_t one = 1;
  // The thread sleeps in poll() on the eventfd; if the write fails there is no way to wake
  // it, and joining would hang: leave it to end with the process.
  if (write(wake_.get(), &one, sizeof one) == static_cast<ssize_t>(sizeof one))
    thread_.join();
  else
    thread_.detach();
}

void LivenessRing::leave() {
  tell_neighbours(kLeave);
  stop();
}

void LivenessRing::tell_neighbours(char what, int status) {
  const char message[2] = {what, static_cast<char>(status & 0xff)};
  // Best effort: a neighbour that has left already closed its end.
  for (Neighbour *n : {&next_, &prev_})
    if (send(n->sock.get(), message, sizeof message, MSG_NOSIGNAL | MSG_DONTWAIT) !=
        static_cast<ssize_t>(sizeof message))
      log(LogLevel::debug, "liveness: telling PE %d failed: %s", n->pe, strerror(errno));
}

void LivenessRing::watch() {
  Neighbour *side[2] = {&next_, &prev_};
  pollfd fds[3] = {
      {next_.sock.get(), POLLIN, 0}, {prev_.sock.get(), POLLIN, 0}, {wake_.get(), POLLIN, 0}};
  for (;;) {
    int rc = poll(fds, 3, -1);
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) {
      log(LogLevel::error, "liveness: poll failed (%s): lost PEs are no longer noticed here",
          strerror(errno));
      return;
    }
    if (fds[2].revents) return;
    for (int s = 0; s < 2; ++s) {
      if (!fds[s].revents) continue;
      char buf[16];
      ssize_t n = recv(fds[s].fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      const char *abort = n > 0 ? static_cast<const char *>(memchr(buf, kAbort, n)) : nullptr;
      if (abort) {
        // A PE that aborts the job itself is already in MPI_Abort on another thread: a
        // second call would race it (Open MPI's abort is not thread-safe).
        if (aborting_.load(std::memory_order_acquire)) return;
        // A launcher that keeps survivors (orte_enable_recovery) does not end the job on
        // MPI_Abort: each PE passes the abort on around the ring and ends itself, with the
        // status of the PE that began it.
        const int status = abort + 1 < buf + n ? static_cast<unsigned char>(abort[1]) : 1;
        log(LogLevel::info, "PE %d aborted the job (status %d); ending this PE too", side[s]->pe,
            status);
        end_job(status);
        return;
      }
      if (n > 0 && !memchr(buf, kLeave, n)) continue;  // nothing else is ever sent
      fds[s].fd = -1;                                  // poll() skips it from here on
      // Ended as announced, or before setup was done (every PE's setup then fails), or
      // while this PE ends the job itself: nothing to report.
      if (n > 0 || !armed_.load(std::memory_order_acquire) ||
          aborting_.load(std::memory_order_acquire))
        continue;
      report_lost(*side[s], n == 0 ? 0 : errno);
      return;
    }
  }
}

void LivenessRing::end_job(int status) {
  aborting_.store(true, std::memory_order_release);
  tell_neighbours(kAbort, status);
  MPI_Abort(world_, status);
  // MPI_Abort does not return; an MPI that did leaves the PE to its deadlines.
}

void LivenessRing::report_lost(const Neighbour &who, int err) {
  std::string why;
  if (err == 0)
    why = "closed its connection without ishmem_finalize: its process ended or was killed";
  else if (err == ETIMEDOUT)
    why = "stopped answering TCP keepalives for " + std::to_string(keepalive_s_) +
          " s: its node is down or cut off";
  else
    why = std::string("lost its connection: ") + strerror(err);
  log(LogLevel::error, "PE %d (pid %d on %s) %s; the PEs of its node are %s; aborting the job",
      who.pe, who.pid, who.host.c_str(), why.c_str(), node_pes_text(node_leader_, who.pe).c_str());
  fflush(stderr);
  end_job(1);
}

void liveness_announce_abort(int status) {
  LivenessRing *ring = g_ring.load(std::memory_order_acquire);
  if (!ring) return;
  ring->aborting_.store(true, std::memory_order_release);
  ring->tell_neighbours(kAbort, status);
}

}  // namespace ishmem::detail
