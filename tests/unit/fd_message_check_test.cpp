// check_received, the checks on what recvmsg returned, without a socket: control data whose
// header claims more fds than the buffer holds (or is shorter than a header) yields only the
// fds inside it; the size, truncation and fd-limit checks. The fuzz target
// tests/fuzz/fd_message_fuzz.cpp found the first case reading past the control data.
#include <gtest/gtest.h>

#include <sys/socket.h>

#include <cstring>
#include <vector>

#include "bootstrap/fd_channel.h"
#include "common/error.h"

using namespace ishmem::detail;

namespace {

// Records each adopted fd (never closes it: the values are made up).
bool record(int fd, void *context) {
  static_cast<std::vector<int> *>(context)->push_back(fd);
  return true;
}

// A control buffer holding one SCM_RIGHTS header that claims `claimed_len` as cmsg_len,
// followed by words of 0x7f (which must never be taken for fds).
struct Control {
  alignas(cmsghdr) unsigned char bytes[sizeof(cmsghdr) + 64];
  explicit Control(std::size_t claimed_len) {
    memset(bytes, 0x7f, sizeof bytes);
    cmsghdr header{};
    header.cmsg_len = claimed_len;
    header.cmsg_level = SOL_SOCKET;
    header.cmsg_type = SCM_RIGHTS;
    memcpy(bytes, &header, sizeof header);
  }
};

msghdr message_over(Control &control, std::size_t controllen) {
  msghdr msg{};
  msg.msg_control = control.bytes;
  msg.msg_controllen = controllen;
  return msg;
}

TEST(CheckReceived, TakesOnlyFdsInsideTheControlData) {
  // The header says one fd follows, but the control data ends with the header.
  Control control(CMSG_LEN(sizeof(int)));
  msghdr msg = message_over(control, sizeof(cmsghdr));
  std::vector<int> fds;
  EXPECT_EQ(check_received(msg, 8, 8, 16, record, &fds, "test"), 0u);
  EXPECT_TRUE(fds.empty()) << "took fd " << fds.front() << " from past the control data";
}

TEST(CheckReceived, HeaderShorterThanItselfTakesNothing) {
  Control control(4);  // below CMSG_LEN(0): the count must not wrap around
  msghdr msg = message_over(control, sizeof control.bytes);
  std::vector<int> fds;
  EXPECT_EQ(check_received(msg, 8, 8, 16, record, &fds, "test"), 0u);
  EXPECT_TRUE(fds.empty());
}

TEST(CheckReceived, WholeFdsAreTakenAndChecked) {
  Control control(CMSG_LEN(2 * sizeof(int)));
  const int sent[2] = {5, 6};
  memcpy(control.bytes + (CMSG_DATA(reinterpret_cast<cmsghdr *>(control.bytes)) - control.bytes),
         sent, sizeof sent);
  msghdr msg = message_over(control, CMSG_SPACE(2 * sizeof(int)));
  std::vector<int> fds;
  EXPECT_EQ(check_received(msg, 8, 8, 2, record, &fds, "test"), 2u);
  EXPECT_EQ(fds, (std::vector<int>{5, 6}));
  // Each check throws with the fds already handed over: the caller owns and closes them.
  fds.clear();
  EXPECT_THROW(check_received(msg, 8, 8, 1, record, &fds, "test"), Error);  // over the limit
  EXPECT_EQ(fds.size(), 2u);
  EXPECT_THROW(check_received(msg, 7, 8, 2, record, &fds, "test"), Error);  // short
  EXPECT_THROW(check_received(msg, 0, 8, 2, record, &fds, "test"), Error);  // EOF
  msg.msg_flags = MSG_CTRUNC;
  EXPECT_THROW(check_received(msg, 8, 8, 2, record, &fds, "test"), Error);
}

}  // namespace
