// Messages with attached file descriptors over a connected AF_UNIX SOCK_SEQPACKET socket, and
// the connect that makes one. Every call has a deadline and retries EINTR; received data is
// checked for size and truncation, and every received fd is owned by a UniqueFd so nothing
// leaks on error paths.
#pragma once

#include <sys/socket.h>

#include <cstddef>
#include <ctime>
#include <utility>
#include <vector>

namespace ishmem::detail {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd &&other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd &operator=(UniqueFd &&other) noexcept {
    if (this != &other) reset(std::exchange(other.fd_, -1));
    return *this;
  }
  UniqueFd(const UniqueFd &) = delete;
  UniqueFd &operator=(const UniqueFd &) = delete;
  ~UniqueFd() { reset(); }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1);
  explicit operator bool() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

class Deadline {
 public:
  // `seconds` from now. Saturates: NaN or negative is already past, a huge value is forever.
  static Deadline after(double seconds);
  // Milliseconds left, at least 0; for poll().
  int remaining_ms() const;
  bool expired() const { return remaining_ms() == 0; }

 private:
  timespec end_{};
};

// Waits until `sock` is ready for `events` (or hung up: the next call reports it); throws
// on timeout, saying it waited to `what` `peer`.
void wait_ready(int sock, short events, const Deadline &deadline, const char *peer,
                const char *what);

// Most fds one message carries.
constexpr std::size_t kMaxFdsPerMessage = 16;

// Connects `sock` to `addr` by the deadline, leaving the socket non-blocking (the calls below
// need no more). A full AF_UNIX backlog is retried until the deadline; throws on an error or
// timeout, naming `peer`.
void connect_with_deadline(int sock, const sockaddr *addr, socklen_t len, const Deadline &deadline,
                           const char *peer);
// Sends `len` bytes and `fds` (not closed) in one message. Throws on error or deadline.
void send_message(int sock, const void *data, std::size_t len, const int *fds, std::size_t nfds,
                  const Deadline &deadline, const char *peer);
// Receives one message of exactly `len` bytes carrying at most `max_fds` fds. Throws, with
// every received fd closed, on timeout, EOF, a wrong size or truncated data or fds.
std::vector<UniqueFd> recv_message(int sock, void *data, std::size_t len, std::size_t max_fds,
                                   const Deadline &deadline, const char *peer);

// The checks recv_message makes on what recvmsg returned, apart from the socket (the fuzz
// target tests/fuzz/fd_message_fuzz.cpp drives it with arbitrary control data). `msg` and `n`
// are as recvmsg left them, for a message that must be exactly `len` bytes with at most
// `max_fds` fds. Every fd of the SCM_RIGHTS control data (whole ints inside msg_controllen
// only) is first handed, in order, to `adopt`, which returns false when it has no room (it has
// then closed the fd), so that no error below leaves one unowned. Then throws, naming `peer`,
// on more fds than `adopt` took, EOF, truncated data or fds, a wrong size, or more than
// `max_fds` fds. Returns the number of fds taken.
using AdoptFd = bool (*)(int fd, void *context);
std::size_t check_received(const msghdr &msg, ssize_t n, std::size_t len, std::size_t max_fds,
                           AdoptFd adopt, void *context, const char *peer);

}  // namespace ishmem::detail
