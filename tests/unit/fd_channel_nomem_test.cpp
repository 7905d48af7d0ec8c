// recv_message when memory runs out: whichever allocation fails, every fd the message carried
// is closed (or still in the socket, unread), never leaked. This program replaces the global
// operator new so that a test can make its Nth allocation from now throw std::bad_alloc.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <new>
#include <vector>

#include "bootstrap/fd_channel.h"
#include "common/error.h"
#include "../fd_count.h"

namespace {
// -1: never fail; otherwise the number of allocations that still succeed.
int g_allocs_until_failure = -1;
}  // namespace

void *operator new(std::size_t bytes) {
  if (g_allocs_until_failure >= 0 && g_allocs_until_failure-- == 0) throw std::bad_alloc();
  if (void *p = std::malloc(bytes ? bytes : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept {
  std::free(p);
}
void operator delete(void *p, std::size_t) noexcept {
  std::free(p);
}

using namespace ishmem::detail;
using ishmem_test::open_fd_count;

namespace {

bool readable(int fd) {
  pollfd p{fd, POLLIN, 0};
  return poll(&p, 1, 0) == 1;
}

TEST(FdChannelNoMemory, EveryFailedAllocationLeavesFdsFlat) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
  UniqueFd a(sv[0]), b(sv[1]);
  std::vector<UniqueFd> mine;
  std::vector<int> raw;
  for (int i = 0; i < 5; ++i) {
    mine.emplace_back(memfd_create("fd-channel-nomem", MFD_CLOEXEC));
    ASSERT_GE(mine.back().get(), 0);
    raw.push_back(mine.back().get());
  }
  const int with_sent = open_fd_count();
  std::uint64_t out = 42, in = 0;
  int failures = 0;
  for (int n = 0; n < 16; ++n) {
    SCOPED_TRACE(n);
    send_message(a.get(), &out, sizeof out, raw.data(), raw.size(), Deadline::after(5), "a");
    bool threw = false;
    std::size_t got = 0;
    g_allocs_until_failure = n;
    try {
      got = recv_message(b.get(), &in, sizeof in, 8, Deadline::after(5), "b").size();
    } catch (const std::bad_alloc &) {
      threw = true;
    }
    g_allocs_until_failure = -1;
    failures += threw;
    if (!threw) {
      EXPECT_EQ(got, raw.size());
    }
    // A failure before the message was read leaves it in the socket: read it now.
    if (readable(b.get())) {
      EXPECT_EQ(recv_message(b.get(), &in, sizeof in, 8, Deadline::after(5), "b").size(),
                raw.size());
    }
    EXPECT_FALSE(readable(b.get()));
    EXPECT_EQ(open_fd_count(), with_sent) << "fds leaked";
  }
  EXPECT_GT(failures, 0) << "no allocation failed: the test proves nothing";
}

}  // namespace
