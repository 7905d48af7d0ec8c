#include "bootstrap/fd_channel.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include "common/error.h"

namespace ishmem::detail {

void UniqueFd::reset(int fd) {
  if (fd_ >= 0) close(fd_);  // close() is not retried on EINTR: the fd is gone either way
  fd_ = fd;
}

Deadline Deadline::after(double seconds) {
  // Saturates: NaN or a negative time is already past, and a huge one is capped far enough
  // ahead to count as forever, so that neither the double-to-time_t cast nor the sum overflows
  // (the monotonic clock starts near boot, far below the cap).
  constexpr double kForever = static_cast<double>(std::numeric_limits<time_t>::max() / 2);
  if (!(seconds > 0)) seconds = 0;
  if (seconds > kForever) seconds = kForever;
  Deadline d;
  clock_gettime(CLOCK_MONOTONIC, &d.end_);
  auto whole = static_cast<time_t>(seconds);
  d.end_.tv_sec += whole;
  d.end_.tv_nsec += static_cast<long>((seconds - static_cast<double>(whole)) * 1e9);
  if (d.end_.tv_nsec >= 1000000000L) {
    d.end_.tv_sec += 1;
    d.end_.tv_nsec -= 1000000000L;
  }
  return d;
}

int Deadline::remaining_ms() const {
  constexpr long long kMaxMs = 1000000000;  // about 11.5 days; poll() takes an int
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  // Both times are non-negative, so the difference of seconds cannot overflow; it is checked
  // before it is multiplied.
  long long secs = static_cast<long long>(end_.tv_sec) - static_cast<long long>(now.tv_sec);
  if (secs > kMaxMs / 1000) return static_cast<int>(kMaxMs);
  long long ms = secs * 1000 + (end_.tv_nsec - now.tv_nsec) / 1000000;
  if (ms <= 0) return 0;
  return ms > kMaxMs ? static_cast<int>(kMaxMs) : static_cast<int>(ms);
}

void wait_ready(int sock, short events, const Deadline &deadline, const char *peer,
                const char *what) {
  for (;;) {
    pollfd p{sock, events, 0};
    int rc = poll(&p, 1, deadline.remaining_ms());
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) fail_errno("poll", __FILE__, __LINE__);
    if (rc == 0)
      fail(ISHMEM_ERR_TIMEOUT, "timed out waiting to %s %s (ISHMEM_BOOTSTRAP_TIMEOUT)", what, peer);
    return;  // readable, writable, or hung up: the next call reports which
  }
}

void connect_with_deadline(int sock, const sockaddr *addr, socklen_t len, const Deadline &deadline,
                           const char *peer) {
  int flags = fcntl(sock, F_GETFL);
  if (flags < 0 || fcntl(sock, F_SETFL, flags | O_NONBLOCK) < 0)
    fail_errno("fcntl (make bootstrap socket non-blocking)", __FILE__, __LINE__);
  int backoff_ms = 1;
  for (;;) {
    if (connect(sock, addr, len) == 0 || errno == EISCONN) return;
    if (errno == EINTR) continue;
    if (errno == EINPROGRESS || errno == EALREADY) {
      // A connection under way (not AF_UNIX, which never waits): poll, then read its outcome.
      wait_ready(sock, POLLOUT, deadline, peer, "connect to");
      int err = 0;
      socklen_t err_len = sizeof err;
      if (getsockopt(sock, SOL_SOCKET, SO_ERROR, &err, &err_len) < 0) err = errno;
      if (err == 0) return;
      fail(ISHMEM_ERR_SYSTEM, "cannot connect to %s: %s", peer, strerror(err));
    }
    if (errno != EAGAIN) fail(ISHMEM_ERR_SYSTEM, "cannot connect to %s: %s", peer, strerror(errno));
    // An AF_UNIX listener with a full backlog: there is nothing to poll on, so try again after
    // a short, growing pause until the deadline.
    int left = deadline.remaining_ms();
    if (left == 0)
      fail(ISHMEM_ERR_TIMEOUT,
           "timed out connecting to %s: its connection queue stayed full "
           "(ISHMEM_BOOTSTRAP_TIMEOUT)",
           peer);
    poll(nullptr, 0, std::min(left, backoff_ms));
    backoff_ms = std::min(backoff_ms * 2, 50);
  }
}

void send_message(int sock, const void *data, std::size_t len, const int *fds, std::size_t nfds,
                  const Deadline &deadline, const char *peer) {
  if (nfds > kMaxFdsPerMessage)
    fail(ISHMEM_ERR_INTERNAL, "send_message: %zu fds exceed %zu", nfds, kMaxFdsPerMessage);
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFdsPerMessage)];
  iovec iov{const_cast<void *>(data), len};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  if (nfds > 0) {
    memset(control, 0, sizeof control);
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
    cmsghdr *cm = CMSG_FIRSTHDR(&msg);
    cm->cmsg_level = SOL_SOCKET;
    cm->cmsg_type = SCM_RIGHTS;
    cm->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
    memcpy(CMSG_DATA(cm), fds, sizeof(int) * nfds);
  }
  for (;;) {
    wait_ready(sock, POLLOUT, deadline, peer, "send to");
    ssize_t n = sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) fail(ISHMEM_ERR_SYSTEM, "sendmsg to %s failed: %s", peer, strerror(errno));
    if (static_cast<std::size_t>(n) != len)
      fail(ISHMEM_ERR_SYSTEM, "sendmsg to %s sent %zd of %zu bytes", peer, n, len);
    return;
  }
}

std::vector<UniqueFd> recv_message(int sock, void *data, std::size_t len, std::size_t max_fds,
                                   const Deadline &deadline, const char *peer) {
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFdsPerMessage)];
  // One byte more than expected, so that an over-long message shows up as MSG_TRUNC or n > len.
  std::vector<char> buf(len + 1);
  iovec iov{buf.data(), buf.size()};
  // Room for every fd a message can carry, allocated before any fd arrives: taking ownership
  // below allocates nothing, so no fd is ever in hand without its UniqueFd.
  std::vector<UniqueFd> fds;
  fds.reserve(kMaxFdsPerMessage);
  msghdr msg{};
  ssize_t n;
  for (;;) {
    wait_ready(sock, POLLIN, deadline, peer, "receive from");
    msg = msghdr{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) fail(ISHMEM_ERR_SYSTEM, "recvmsg from %s failed: %s", peer, strerror(errno));
    break;
  }
  // Room for every fd was reserved above, so taking one allocates nothing and cannot throw;
  // any beyond it (there are none) is closed at once and counted by check_received.
  auto adopt = [](int fd, void *context) {
    auto &owned = *static_cast<std::vector<UniqueFd> *>(context);
    UniqueFd taken(fd);
    if (owned.size() == owned.capacity()) return false;
    owned.push_back(std::move(taken));
    return true;
  };
  check_received(msg, n, len, max_fds, adopt, &fds, peer);
  memcpy(data, buf.data(), len);
  return fds;
}

std::size_t check_received(const msghdr &msg, ssize_t n, std::size_t len, std::size_t max_fds,
                           AdoptFd adopt, void *context, const char *peer) {
  // Take ownership of every fd first, so that each error below closes them.
  std::size_t taken = 0, extra = 0;
  for (const cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm;
       cm = CMSG_NXTHDR(const_cast<msghdr *>(&msg), const_cast<cmsghdr *>(cm))) {
    if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS) continue;
    // Only fds that lie inside the control data: cmsg_len is not checked against
    // msg_controllen by CMSG_FIRSTHDR, and one shorter than a header would wrap around.
    const auto *payload = reinterpret_cast<const unsigned char *>(CMSG_DATA(cm));
    const auto *end = static_cast<const unsigned char *>(msg.msg_control) + msg.msg_controllen;
    const std::size_t claimed = cm->cmsg_len >= CMSG_LEN(0) ? cm->cmsg_len - CMSG_LEN(0) : 0;
    const std::size_t present = payload < end ? static_cast<std::size_t>(end - payload) : 0;
    const std::size_t count = std::min(claimed, present) / sizeof(int);
    for (std::size_t i = 0; i < count; ++i) {
      int fd;
      memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof fd);
      if (adopt(fd, context))
        ++taken;
      else
        ++extra;
    }
  }
  if (extra > 0) fail(ISHMEM_ERR_SYSTEM, "message from %s carried more than %zu fds", peer, taken);
  if (n == 0) fail(ISHMEM_ERR_SYSTEM, "%s closed the connection (has it exited?)", peer);
  if (msg.msg_flags & MSG_CTRUNC)
    fail(ISHMEM_ERR_SYSTEM, "message from %s carried more fds than fit", peer);
  if ((msg.msg_flags & MSG_TRUNC) || static_cast<std::size_t>(n) != len)
    fail(ISHMEM_ERR_SYSTEM, "message from %s has %zd bytes, expected %zu", peer, n, len);
  if (taken > max_fds)
    fail(ISHMEM_ERR_SYSTEM, "message from %s carried %zu fds, expected at most %zu", peer, taken,
         max_fds);
  return taken;
}

}  // namespace ishmem::detail
