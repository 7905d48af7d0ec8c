// Messages with attached fds over a SOCK_SEQPACKET socketpair: contents, size checks, fd
// limits, peer close and deadlines, and that no received fd ever leaks; deadlines that
// saturate; connecting with a deadline.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bootstrap/fd_channel.h"
#include "common/error.h"
#include "../fd_count.h"

using namespace ishmem::detail;
using ishmem_test::open_fd_count;

namespace {

// A memfd holding `text`.
UniqueFd memfd_with(const std::string &text) {
  UniqueFd fd(memfd_create("fd-channel-test", MFD_CLOEXEC));
  EXPECT_GE(fd.get(), 0);
  EXPECT_EQ(write(fd.get(), text.data(), text.size()), static_cast<ssize_t>(text.size()));
  return fd;
}

std::string read_all(int fd) {
  std::string out;
  char buf[256];
  ssize_t n;
  off_t pos = 0;
  while ((n = pread(fd, buf, sizeof buf, pos)) > 0) {
    out.append(buf, static_cast<std::size_t>(n));
    pos += n;
  }
  return out;
}

struct Payload {
  std::uint64_t tag;
  std::uint32_t count;
  std::uint32_t pad;
};

class FdChannel : public ::testing::Test {
 protected:
  void SetUp() override {
    baseline_ = open_fd_count();
    int sv[2];
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
    a_ = UniqueFd(sv[0]);
    b_ = UniqueFd(sv[1]);
  }
  void TearDown() override {
    a_.reset();
    b_.reset();
    EXPECT_EQ(open_fd_count(), baseline_) << "fds leaked";
  }
  static Deadline soon() { return Deadline::after(5.0); }

  int baseline_ = 0;
  UniqueFd a_, b_;
};

TEST_F(FdChannel, SeveralFdsInOneMessage) {
  const std::vector<std::string> texts = {"first chunk", "second, longer chunk of text",
                                          std::string(5000, 'z')};
  std::vector<UniqueFd> mine;
  std::vector<int> raw;
  for (const auto &t : texts) {
    mine.push_back(memfd_with(t));
    raw.push_back(mine.back().get());
  }
  Payload out{0x1234, 3, 0};
  send_message(a_.get(), &out, sizeof out, raw.data(), raw.size(), soon(), "peer b");
  mine.clear();  // the message holds its own references
  Payload in{};
  std::vector<UniqueFd> got = recv_message(b_.get(), &in, sizeof in, 4, soon(), "peer a");
  EXPECT_EQ(in.tag, 0x1234u);
  EXPECT_EQ(in.count, 3u);
  ASSERT_EQ(got.size(), texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) EXPECT_EQ(read_all(got[i].get()), texts[i]);
}

TEST_F(FdChannel, MessagesWithoutFdsAndMaxPerMessage) {
  Payload out{7, 0, 0}, in{};
  send_message(a_.get(), &out, sizeof out, nullptr, 0, soon(), "peer b");
  EXPECT_TRUE(recv_message(b_.get(), &in, sizeof in, 0, soon(), "peer a").empty());
  EXPECT_EQ(in.tag, 7u);

  std::vector<UniqueFd> mine;
  std::vector<int> raw;
  for (std::size_t i = 0; i < kMaxFdsPerMessage; ++i) {
    mine.push_back(memfd_with("fd " + std::to_string(i)));
    raw.push_back(mine.back().get());
  }
  send_message(a_.get(), &out, sizeof out, raw.data(), raw.size(), soon(), "peer b");
  auto got = recv_message(b_.get(), &in, sizeof in, kMaxFdsPerMessage, soon(), "peer a");
  ASSERT_EQ(got.size(), kMaxFdsPerMessage);
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_EQ(read_all(got[i].get()), "fd " + std::to_string(i));

  // The sender refuses more than the limit.
  mine.push_back(memfd_with("one too many"));
  raw.push_back(mine.back().get());
  EXPECT_THROW(send_message(a_.get(), &out, sizeof out, raw.data(), raw.size(), soon(), "b"),
               Error);
}

TEST_F(FdChannel, WrongSizeIsRejectedAndFdsClosed) {
  std::vector<UniqueFd> mine;
  std::vector<int> raw;
  for (int i = 0; i < 3; ++i) {
    mine.push_back(memfd_with("x"));
    raw.push_back(mine.back().get());
  }
  const int with_sent = open_fd_count();
  Payload out{1, 3, 0};
  // Too long: one byte more than the receiver expects.
  char longer[sizeof(Payload) + 1] = {};
  send_message(a_.get(), longer, sizeof longer, raw.data(), raw.size(), soon(), "b");
  Payload in{};
  EXPECT_THROW(recv_message(b_.get(), &in, sizeof in, 4, soon(), "a"), Error);
  EXPECT_EQ(open_fd_count(), with_sent);
  // Too short.
  send_message(a_.get(), &out, sizeof out - 4, raw.data(), raw.size(), soon(), "b");
  EXPECT_THROW(recv_message(b_.get(), &in, sizeof in, 4, soon(), "a"), Error);
  EXPECT_EQ(open_fd_count(), with_sent);
  // Much too long (truncated by the kernel).
  std::vector<char> big(4096, 'q');
  send_message(a_.get(), big.data(), big.size(), raw.data(), raw.size(), soon(), "b");
  try {
    recv_message(b_.get(), &in, sizeof in, 4, soon(), "peer a");
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("peer a"), std::string::npos) << e.what();
  }
  EXPECT_EQ(open_fd_count(), with_sent);
  // The channel still works afterwards.
  send_message(a_.get(), &out, sizeof out, raw.data(), 1, soon(), "b");
  EXPECT_EQ(recv_message(b_.get(), &in, sizeof in, 4, soon(), "a").size(), 1u);
}

TEST_F(FdChannel, MoreFdsThanExpectedAreClosed) {
  std::vector<UniqueFd> mine;
  std::vector<int> raw;
  for (int i = 0; i < 5; ++i) {
    mine.push_back(memfd_with("y"));
    raw.push_back(mine.back().get());
  }
  const int with_sent = open_fd_count();
  Payload out{2, 5, 0}, in{};
  send_message(a_.get(), &out, sizeof out, raw.data(), raw.size(), soon(), "b");
  EXPECT_THROW(recv_message(b_.get(), &in, sizeof in, 2, soon(), "a"), Error);
  EXPECT_EQ(open_fd_count(), with_sent);
  send_message(a_.get(), &out, sizeof out, raw.data(), raw.size(), soon(), "b");
  EXPECT_THROW(recv_message(b_.get(), &in, sizeof in, 0, soon(), "a"), Error);
  EXPECT_EQ(open_fd_count(), with_sent);
}

TEST_F(FdChannel, PeerClosedThrows) {
  a_.reset();
  Payload in{};
  try {
    recv_message(b_.get(), &in, sizeof in, 1, soon(), "pe 3");
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("pe 3"), std::string::npos) << e.what();
  }
  Payload out{};
  EXPECT_THROW(send_message(b_.get(), &out, sizeof out, nullptr, 0, soon(), "pe 3"), Error);
}

TEST_F(FdChannel, PeerClosedAfterSendingStillDelivers) {
  UniqueFd fd = memfd_with("last words");
  int raw = fd.get();
  Payload out{9, 1, 0}, in{};
  send_message(a_.get(), &out, sizeof out, &raw, 1, soon(), "b");
  a_.reset();
  auto got = recv_message(b_.get(), &in, sizeof in, 1, soon(), "a");
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(read_all(got[0].get()), "last words");
  EXPECT_THROW(recv_message(b_.get(), &in, sizeof in, 1, soon(), "a"), Error);
}

TEST_F(FdChannel, RecvTimesOut) {
  Payload in{};
  auto start = std::chrono::steady_clock::now();
  try {
    recv_message(b_.get(), &in, sizeof in, 1, Deadline::after(0.2), "pe 5");
    ADD_FAILURE() << "no timeout";
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ISHMEM_ERR_TIMEOUT) << e.what();
    EXPECT_NE(std::string(e.what()).find("pe 5"), std::string::npos) << e.what();
  }
  double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(waited, 0.15);
  EXPECT_LT(waited, 10.0);  // generous: the machine may be busy
}

TEST_F(FdChannel, SendTimesOutWhenPeerDoesNotRead) {
  // Fill the socket buffer; a send then waits for room until the deadline.
  std::vector<char> block(16 * 1024, 's');
  int rc = 0, sent = 0;
  try {
    for (sent = 0; sent < 100000; ++sent)
      send_message(a_.get(), block.data(), block.size(), nullptr, 0, Deadline::after(0.1), "b");
  } catch (const Error &e) {
    rc = e.code();
  }
  EXPECT_EQ(rc, ISHMEM_ERR_TIMEOUT);
  EXPECT_GT(sent, 0);
}

TEST(Deadline, RemainingTime) {
  Deadline d = Deadline::after(30.0);
  EXPECT_GT(d.remaining_ms(), 20000);
  EXPECT_LE(d.remaining_ms(), 30000);
  EXPECT_FALSE(d.expired());
  Deadline past = Deadline::after(0.0);
  EXPECT_EQ(past.remaining_ms(), 0);
  EXPECT_TRUE(past.expired());
  Deadline half = Deadline::after(0.5);
  EXPECT_LE(half.remaining_ms(), 500);
}

TEST(Deadline, HugeAndInvalidTimesSaturate) {
  // Far beyond what poll() can wait: never expired, and the wait is capped (about 11.5 days)
  // instead of overflowing into the past.
  for (double forever : {1e6, 1e9, 1e16, 1e19, 1e300, HUGE_VAL}) {
    SCOPED_TRACE(forever);
    Deadline d = Deadline::after(forever);
    EXPECT_FALSE(d.expired());
    EXPECT_GT(d.remaining_ms(), 999000000);
    EXPECT_LE(d.remaining_ms(), 1000000000);
  }
  // Negative or not a number: already past.
  for (double past : {-1.0, -1e300, -HUGE_VAL, std::nan("")}) {
    SCOPED_TRACE(past);
    Deadline d = Deadline::after(past);
    EXPECT_TRUE(d.expired());
    EXPECT_EQ(d.remaining_ms(), 0);
  }
}

// An abstract-namespace SOCK_SEQPACKET listener with a name of its own, for connect tests.
struct Listener {
  UniqueFd fd;
  sockaddr_un addr{};
  socklen_t len = 0;
  explicit Listener(int backlog) {
    addr.sun_family = AF_UNIX;
    int n = snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1, "ishmem-unit-%d-%d",
                     static_cast<int>(getpid()), ++counter);
    len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
    fd = UniqueFd(socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0));
    EXPECT_TRUE(fd);
    EXPECT_EQ(bind(fd.get(), reinterpret_cast<sockaddr *>(&addr), len), 0) << strerror(errno);
    EXPECT_EQ(listen(fd.get(), backlog), 0) << strerror(errno);
  }
  const sockaddr *sa() const { return reinterpret_cast<const sockaddr *>(&addr); }
  static inline int counter = 0;
};

UniqueFd new_socket() {
  return UniqueFd(socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0));
}

TEST(ConnectWithDeadline, ConnectsAndCarriesMessages) {
  const int before = open_fd_count();
  {
    Listener l(4);
    UniqueFd s = new_socket();
    connect_with_deadline(s.get(), l.sa(), l.len, Deadline::after(5.0), "pe 1");
    UniqueFd peer(accept4(l.fd.get(), nullptr, nullptr, SOCK_CLOEXEC));
    ASSERT_TRUE(peer);
    Payload out{42, 0, 0}, in{};
    send_message(s.get(), &out, sizeof out, nullptr, 0, Deadline::after(5.0), "peer");
    recv_message(peer.get(), &in, sizeof in, 0, Deadline::after(5.0), "peer");
    EXPECT_EQ(in.tag, 42u);
  }
  EXPECT_EQ(open_fd_count(), before) << "fds leaked";
}

TEST(ConnectWithDeadline, NobodyListeningFailsAtOnce) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  int n = snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1, "ishmem-unit-nobody-%d",
                   static_cast<int>(getpid()));
  socklen_t len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
  UniqueFd s = new_socket();
  try {
    connect_with_deadline(s.get(), reinterpret_cast<sockaddr *>(&addr), len, Deadline::after(30.0),
                          "pe 7");
    ADD_FAILURE() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.code(), ISHMEM_ERR_SYSTEM) << e.what();
    EXPECT_NE(std::string(e.what()).find("pe 7"), std::string::npos) << e.what();
  }
}

TEST(ConnectWithDeadline, FullBacklogTimesOutThenConnectsOnceThereIsRoom) {
  const int before = open_fd_count();
  {
    Listener l(0);
    // Fill the listener's queue: a non-blocking connect then fails with EAGAIN, and a blocking
    // one would wait for as long as nobody accepts.
    std::vector<UniqueFd> queued;
    for (int i = 0; i < 64; ++i) {
      UniqueFd s(socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
      if (connect(s.get(), l.sa(), l.len) != 0) {
        ASSERT_EQ(errno, EAGAIN) << strerror(errno);
        break;
      }
      queued.push_back(std::move(s));
    }
    ASSERT_FALSE(queued.empty());
    ASSERT_LT(queued.size(), 64u) << "the backlog never filled";

    UniqueFd s = new_socket();
    auto start = std::chrono::steady_clock::now();
    try {
      connect_with_deadline(s.get(), l.sa(), l.len, Deadline::after(0.3), "pe 2");
      ADD_FAILURE() << "no timeout";
    } catch (const Error &e) {
      EXPECT_EQ(e.code(), ISHMEM_ERR_TIMEOUT) << e.what();
      EXPECT_NE(std::string(e.what()).find("pe 2"), std::string::npos) << e.what();
    }
    double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GE(waited, 0.25);
    EXPECT_LT(waited, 10.0);

    // Room appears while the connect is retrying: it completes before its deadline.
    std::thread acceptor([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      UniqueFd a(accept4(l.fd.get(), nullptr, nullptr, SOCK_CLOEXEC));
      EXPECT_TRUE(a);
    });
    UniqueFd t = new_socket();
    EXPECT_NO_THROW(connect_with_deadline(t.get(), l.sa(), l.len, Deadline::after(20.0), "pe 2"));
    acceptor.join();
  }
  EXPECT_EQ(open_fd_count(), before) << "fds leaked";
}

TEST(UniqueFdTest, ClosesAndMoves) {
  const int before = open_fd_count();
  {
    UniqueFd a(dup(0 + STDERR_FILENO));
    EXPECT_TRUE(a);
    EXPECT_EQ(open_fd_count(), before + 1);
    UniqueFd b(std::move(a));
    EXPECT_FALSE(a);
    EXPECT_TRUE(b);
    UniqueFd c;
    c = std::move(b);
    EXPECT_EQ(open_fd_count(), before + 1);
    int raw = c.release();
    EXPECT_FALSE(c);
    c.reset(raw);
  }
  EXPECT_EQ(open_fd_count(), before);
}

}  // namespace
