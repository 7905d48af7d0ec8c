#include "bootstrap/peer_mesh.h"

#include <poll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

#include "bootstrap/agreed_step.h"
#include "common/error.h"

namespace ishmem::detail {
namespace {

constexpr std::uint64_t kHelloMagic = 0x69736d656d48454cull;  // "ismemHEL"
constexpr std::size_t kTokenBytes = 16;
// Longest wait for a connecting peer's hello: a connection that stays silent is a stranger.
// Each connection waits on its own clock, beside the others (HelloReader).
constexpr double kHelloSeconds = 2.0;

struct Hello {
  std::uint64_t magic;
  unsigned char token[kTokenBytes];
  std::int32_t slot;
  std::int32_t pid;
};

// Attempts at a free random name before giving up; a collision needs another process to hold
// one of 2^128 names, so more than one attempt means someone is squatting.
constexpr int kBindAttempts = 4;
constexpr std::size_t kNameRandomBytes = 16;

// The name a PE listens under, as published to its node peers: NUL-terminated, without the
// abstract namespace's leading NUL.
struct NameRecord {
  char name[64];
};

sockaddr_un socket_address(const char *name, socklen_t &len) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  // Abstract namespace (leading NUL): nothing on disk to clean up.
  const std::size_t n = strnlen(name, sizeof addr.sun_path - 1);
  memcpy(addr.sun_path + 1, name, n);
  len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
  return addr;
}

// Binds `sock` under a fresh random name, drawing a new one while the name is taken. Returns 0
// with the name in `out`, or an errno value; never throws (see the caller).
int bind_random_name(int sock, NameRecord &out, int &attempts) {
  for (attempts = 1; attempts <= kBindAttempts; ++attempts) {
    unsigned char random[kNameRandomBytes];
    if (getrandom(random, sizeof random, 0) != static_cast<ssize_t>(sizeof random))
      return errno ? errno : EIO;
    char *p = out.name;
    p += sprintf(p, "ishmem-");
    for (unsigned char b : random) p += sprintf(p, "%02x", b);
    if (PeerMesh::name_hook_for_testing)
      PeerMesh::name_hook_for_testing(attempts - 1, out.name, sizeof out.name);
    out.name[sizeof out.name - 1] = '\0';
    socklen_t len;
    sockaddr_un addr = socket_address(out.name, len);
    if (bind(sock, reinterpret_cast<sockaddr *>(&addr), len) == 0) return 0;
    if (errno != EADDRINUSE) return errno;
  }
  --attempts;
  return EADDRINUSE;
}

// Logs dropped connections: the first few each on a line, then a count once a second and at
// the end of setup, so that a stranger cannot flood the log.
class DropLog {
 public:
  ~DropLog() { flush(); }
  void drop(const char *fmt, ...) __attribute__((format(printf, 2, 3))) {
    ++dropped_;
    if (dropped_ <= kLoggedEach) {
      char line[256];
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(line, sizeof line, fmt, ap);
      va_end(ap);
      log(LogLevel::warn, "dropped a bootstrap connection %s%s", line,
          dropped_ == kLoggedEach ? " (further ones are counted)" : "");
      last_ = std::chrono::steady_clock::now();
      return;
    }
    ++unlogged_;
    if (std::chrono::steady_clock::now() - last_ >= std::chrono::seconds(1)) flush();
  }

 private:
  static constexpr int kLoggedEach = 3;
  void flush() {
    if (unlogged_ == 0) return;
    log(LogLevel::warn, "dropped %d more bootstrap connection(s) from strangers (%d in all)",
        unlogged_, dropped_);
    unlogged_ = 0;
    last_ = std::chrono::steady_clock::now();
  }
  int dropped_ = 0;
  int unlogged_ = 0;
  std::chrono::steady_clock::time_point last_{};
};

// Accepts connections on a listening socket and reads each one's hello, all of them at once:
// each connection waits for its hello under a short deadline of its own, so that a silent or
// slow one costs the others nothing. Another user's connection is dropped before anything is
// read. Every fd it holds is closed when it goes, on every path.
class HelloReader {
 public:
  struct Arrival {
    UniqueFd sock;
    pid_t pid;  // SO_PEERCRED's, of the same user
    Hello hello;
  };
  HelloReader(int listener, uid_t uid, DropLog &dropped)
      : listener_(listener), uid_(uid), dropped_(dropped) {}

  // Waits, by `deadline` at the latest, for connections and hellos; returns the hellos that
  // arrived (possibly none). `peers` is how many peers may still connect: room for them and
  // kStrangerRoom more unheard connections; beyond it, new ones wait in the backlog.
  std::vector<Arrival> next(const Deadline &deadline, int peers) {
    std::vector<pollfd> polled;
    polled.reserve(pending_.size() + 1);
    int wait_ms = deadline.remaining_ms();
    for (const Pending &p : pending_) {
      polled.push_back(pollfd{p.sock.get(), POLLIN, 0});
      wait_ms = std::min(wait_ms, p.deadline.remaining_ms());
    }
    const bool room = pending_.size() < static_cast<std::size_t>(peers) + kStrangerRoom;
    if (room) polled.push_back(pollfd{listener_, POLLIN, 0});
    int rc = poll(polled.data(), polled.size(), wait_ms);
    if (rc < 0 && errno != EINTR) fail_errno("poll", __FILE__, __LINE__);
    std::vector<Arrival> arrived;
    // `polled` holds the pending connections in order, then the listener: read the hellos
    // and drop the expired before a new connection joins the list.
    std::vector<Pending> still;
    still.reserve(pending_.size() + 1);
    for (std::size_t i = 0; i < pending_.size(); ++i) {
      Pending &p = pending_[i];
      if (rc > 0 && polled[i].revents != 0) {
        read_hello(p, arrived);
      } else if (p.deadline.expired()) {
        dropped_.drop("from pid %d: no hello within %g s", p.pid, kHelloSeconds);
      } else {
        still.push_back(std::move(p));
      }
    }
    pending_ = std::move(still);
    if (room && rc > 0 && polled.back().revents != 0) accept_one(deadline);
    return arrived;
  }

  // Drops, and logs, the connections still unheard when every peer has arrived.
  void drop_unheard() {
    for (const Pending &p : pending_)
      dropped_.drop("from pid %d: no hello by the end of setup", p.pid);
    pending_.clear();
  }

 private:
  // Unheard connections kept beyond the peers still to come: enough for a few strangers, few
  // enough that a flood of them cannot use up the fds.
  static constexpr std::size_t kStrangerRoom = 64;
  struct Pending {
    UniqueFd sock;
    pid_t pid;
    Deadline deadline;
  };

  void accept_one(const Deadline &deadline) {
    int fd = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0 && (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN)) return;
    if (fd < 0) fail_errno("accept4", __FILE__, __LINE__);
    UniqueFd s(fd);
    ucred cred{};
    socklen_t cred_len = sizeof cred;
    if (getsockopt(s.get(), SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) < 0) {
      dropped_.drop("whose SO_PEERCRED failed: %s", strerror(errno));
      return;
    }
    if (cred.uid != uid_) {
      dropped_.drop("from pid %d of another user (uid %d)", cred.pid, cred.uid);
      return;
    }
    const double hello_s = std::min(kHelloSeconds, deadline.remaining_ms() / 1000.0);
    pending_.push_back(Pending{std::move(s), cred.pid, Deadline::after(hello_s)});
  }

  // `p` is readable or hung up: its hello, or the reason it is dropped.
  void read_hello(Pending &p, std::vector<Arrival> &arrived) {
    Hello got{};
    try {
      recv_message(p.sock.get(), &got, sizeof got, 0, p.deadline, "a connecting peer");
    } catch (const Error &e) {
      dropped_.drop("from pid %d: %s", p.pid, e.what());
      return;
    }
    arrived.push_back(Arrival{std::move(p.sock), p.pid, got});
  }

  int listener_;
  uid_t uid_;
  DropLog &dropped_;
  std::vector<Pending> pending_;
};

ucred peer_credentials(int sock) {
  ucred cred{};
  socklen_t len = sizeof cred;
  ISHMEMI_CHECK_SYS(getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len));
  return cred;
}

}  // namespace

PeerMesh::NameHook PeerMesh::name_hook_for_testing = nullptr;

const char *PeerMesh::peer_name(int slot) {
  snprintf(name_buf_, sizeof name_buf_, "pe %d", topo_.local_pes[slot]);
  return name_buf_;
}

PeerMesh::PeerMesh(const MpiBootstrap &boot, double timeout_s)
    : topo_(boot.topology()), timeout_s_(timeout_s), conn_(boot.topology().n_local) {
  unsigned char token[kTokenBytes] = {0};
  if (topo_.my_pe == 0 && getrandom(token, sizeof token, 0) != static_cast<ssize_t>(sizeof token))
    log(LogLevel::error, "getrandom failed: %s", strerror(errno));  // broadcast anyway: no hang
  boot.broadcast(token, sizeof token, 0);
  const int me = topo_.local_rank;
  const int n = topo_.n_local;
  if (n == 1) return;

  // Nothing before the agreement below may throw: a PE that left here would leave its node
  // peers waiting in it. Every failure feeds `err` instead.
  // Non-blocking: accept() after poll() must not wait for a connection that went away.
  UniqueFd listener(socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  int err = listener ? 0 : errno;
  NameRecord my_name{};
  int attempts = 0;
  if (err == 0) err = bind_random_name(listener.get(), my_name, attempts);
  // A deep backlog: strangers that queue up ahead of the peers do not hold up their connect().
  if (err == 0 && listen(listener.get(), SOMAXCONN) != 0) err = errno;
  // Nobody connects before everybody listens; a failed listener fails the node together.
  agreed_step(
      boot.node(),
      [&] {
        if (err == EADDRINUSE && attempts == kBindAttempts)
          fail(ISHMEM_ERR_SYSTEM,
               "cannot listen on the bootstrap socket: pe %d found all %d random names it drew "
               "in use (is another process squatting them?)",
               topo_.my_pe, attempts);
        if (err != 0)
          fail(ISHMEM_ERR_SYSTEM, "cannot listen on the bootstrap socket: pe %d: %s", topo_.my_pe,
               strerror(err));
      },
      [](int) {
        fail(ISHMEM_ERR_SYSTEM, "a node-local peer could not open its bootstrap socket");
      });
  // Only now, bound, is the name published, and only to the job.
  std::vector<NameRecord> names(n);
  boot.allgather(&my_name, names.data(), sizeof my_name, true);
  const Deadline deadline = Deadline::after(timeout_s_);
  const uid_t uid = geteuid();
  DropLog dropped;

  // Connect to every lower slot; connect() completes from the backlog, without accept().
  Hello hello{kHelloMagic, {}, me, static_cast<std::int32_t>(getpid())};
  memcpy(hello.token, token, kTokenBytes);
  for (int j = 0; j < me; ++j) {
    UniqueFd s(ISHMEMI_CHECK_SYS(socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)));
    if (memchr(names[j].name, '\0', sizeof names[j].name) == nullptr || names[j].name[0] == '\0')
      fail(ISHMEM_ERR_SYSTEM, "%s published a malformed bootstrap socket name", peer_name(j));
    socklen_t len;
    sockaddr_un peer = socket_address(names[j].name, len);
    connect_with_deadline(s.get(), reinterpret_cast<sockaddr *>(&peer), len, deadline,
                          peer_name(j));
    ucred cred = peer_credentials(s.get());
    if (cred.uid != uid || cred.pid != topo_.local_pids[j])
      fail(ISHMEM_ERR_SYSTEM, "bootstrap socket of %s belongs to pid %d uid %d, expected pid %d",
           peer_name(j), cred.pid, cred.uid, topo_.local_pids[j]);
    send_message(s.get(), &hello, sizeof hello, nullptr, 0, deadline, peer_name(j));
    conn_[j] = std::move(s);
  }
  // Accept every higher slot. Any local process can read the socket's name in
  // /proc/net/unix and connect; HelloReader drops strangers without holding up the peers.
  HelloReader reader(listener.get(), uid, dropped);
  int waiting = n - 1 - me;
  while (waiting > 0) {
    if (deadline.expired())
      fail(ISHMEM_ERR_TIMEOUT,
           "timed out waiting for %d node-local peer(s) to connect (ISHMEM_BOOTSTRAP_TIMEOUT)",
           waiting);
    for (HelloReader::Arrival &got : reader.next(deadline, waiting)) {
      const Hello &h = got.hello;
      bool valid = h.magic == kHelloMagic && memcmp(h.token, token, kTokenBytes) == 0 &&
                   h.slot > me && h.slot < n && !conn_[h.slot] && got.pid == h.pid &&
                   h.pid == topo_.local_pids[h.slot];
      if (!valid) {
        dropped.drop("from pid %d uid %d: bad credentials", got.pid, static_cast<int>(uid));
        continue;
      }
      Hello ack = hello;
      send_message(got.sock.get(), &ack, sizeof ack, nullptr, 0, deadline, peer_name(h.slot));
      conn_[h.slot] = std::move(got.sock);
      --waiting;
    }
  }
  reader.drop_unheard();
  for (int j = 0; j < me; ++j) {
    Hello ack{};
    recv_message(conn_[j].get(), &ack, sizeof ack, 0, deadline, peer_name(j));
    if (ack.magic != kHelloMagic || memcmp(ack.token, token, kTokenBytes) != 0 || ack.slot != j ||
        ack.pid != topo_.local_pids[j])
      fail(ISHMEM_ERR_SYSTEM, "%s answered the bootstrap handshake wrongly", peer_name(j));
  }
}

std::vector<std::vector<UniqueFd>> PeerMesh::exchange(const ChunkMessage &mine,
                                                      const std::vector<int> &fds) {
  const int me = topo_.local_rank;
  const Deadline deadline = Deadline::after(timeout_s_);
  std::vector<std::vector<UniqueFd>> received;
  // A failure with one peer never cuts the exchange short: every peer's message of this step is
  // read (its fds closed if unwanted), or the next exchange would read it instead of its own.
  // The first error is thrown at the end; a peer's own reported failure only if nothing else
  // went wrong.
  // An out-of-memory error counts like any other (FirstError).
  FirstError first;
  first.attempt([&] { received.resize(topo_.n_local); });
  int peer_status = ISHMEM_SUCCESS;
  int failed_slot = -1;
  // Messages are small and sockets buffer them, so send to all, then receive from all.
  for (int j = 0; j < topo_.n_local; ++j) {
    if (j == me) continue;
    first.attempt([&] {
      send_message(conn_[j].get(), &mine, sizeof mine, fds.data(), fds.size(), deadline,
                   peer_name(j));
    });
  }
  for (int j = 0; j < topo_.n_local; ++j) {
    if (j == me) continue;
    first.attempt([&] {
      ChunkMessage got{};
      std::vector<UniqueFd> got_fds =
          recv_message(conn_[j].get(), &got, sizeof got, kMaxFdsPerMessage, deadline, peer_name(j));
      if (got.magic != kChunkMagic || got.tag != mine.tag)
        fail(ISHMEM_ERR_SYSTEM, "%s sent a malformed chunk message (tag %llu, expected %llu)",
             peer_name(j), static_cast<unsigned long long>(got.tag),
             static_cast<unsigned long long>(mine.tag));
      if (got.status != ISHMEM_SUCCESS) {
        if (failed_slot < 0) {
          peer_status = got.status;
          failed_slot = j;
        }
        return;  // its fds, if any, are closed here
      }
      if (got.offset != mine.offset || got.bytes != mine.bytes || got.nfds != got_fds.size() ||
          (mine.status == ISHMEM_SUCCESS && got.nfds != fds.size()))
        fail(ISHMEM_ERR_MISMATCH,
             "%s exported chunk (offset %llu, %llu bytes, %u fds), this PE (offset %llu, %llu "
             "bytes, %zu fds): heaps diverged",
             peer_name(j), static_cast<unsigned long long>(got.offset),
             static_cast<unsigned long long>(got.bytes), got.nfds,
             static_cast<unsigned long long>(mine.offset),
             static_cast<unsigned long long>(mine.bytes), fds.size());
      if (received.size() > static_cast<std::size_t>(j)) received[j] = std::move(got_fds);
    });
  }
  first.rethrow();
  if (failed_slot >= 0)
    fail(peer_status, "%s could not create its part of the heap chunk at offset %llu",
         peer_name(failed_slot), static_cast<unsigned long long>(mine.offset));
  return received;
}

std::size_t PeerMesh::open_sockets() const {
  std::size_t count = 0;
  for (const auto &c : conn_) count += c ? 1 : 0;
  return count;
}

}  // namespace ishmem::detail
