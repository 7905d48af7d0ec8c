// libFuzzer target: the checks on a received fd-exchange message (check_received in
// lib/bootstrap/fd_channel.cpp) over arbitrary control data, result and flags, as a peer or a
// kernel quirk could present them. Input: 8 bytes of header (the recvmsg result, the expected
// length, the fd limit, msg_flags), then the control data. An outcome other than a count of
// adopted fds within the limit or an ISHMEM_ERR_SYSTEM error is a bug, and so is every
// sanitizer report (a read outside the control data above all). Fds are only counted, never
// closed: the values are the fuzzer's.
#include <sys/socket.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "bootstrap/fd_channel.h"
#include "common/error.h"

using namespace ishmem::detail;

namespace {

struct Adopted {
  std::size_t room;
  std::size_t count = 0;
};

bool adopt(int, void *context) {
  auto *adopted = static_cast<Adopted *>(context);
  if (adopted->count == adopted->room) return false;
  ++adopted->count;
  return true;
}

void require(bool ok, const char *what) {
  if (!ok) {
    fprintf(stderr, "fd message fuzz: %s\n", what);
    abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  constexpr std::size_t kHeader = 8;
  if (size < kHeader) return 0;
  const ssize_t n = data[0] | data[1] << 8;  // recvmsg succeeded: 0 (EOF) or more
  const std::size_t len = data[2] | data[3] << 8;
  const std::size_t max_fds = data[4] % (kMaxFdsPerMessage + 2);
  const int flag_bits[] = {0, MSG_TRUNC, MSG_CTRUNC, MSG_TRUNC | MSG_CTRUNC};
  const int flags = flag_bits[data[5] % 4];
  // A heap copy of exactly the control bytes (new[] aligns it as recvmsg's buffer is), so that
  // any read past them is reported.
  const std::size_t control_len = size - kHeader;
  std::unique_ptr<std::uint8_t[]> control(new std::uint8_t[control_len ? control_len : 1]);
  if (control_len) memcpy(control.get(), data + kHeader, control_len);
  msghdr msg{};
  msg.msg_control = control_len ? control.get() : nullptr;
  msg.msg_controllen = control_len;
  msg.msg_flags = flags;
  Adopted adopted{kMaxFdsPerMessage};
  try {
    std::size_t taken = check_received(msg, n, len, max_fds, adopt, &adopted, "a fuzzed peer");
    require(taken == adopted.count && taken <= max_fds, "more fds accepted than allowed");
    require(static_cast<std::size_t>(n) == len && !(flags & (MSG_TRUNC | MSG_CTRUNC)),
            "a short, long or truncated message accepted");
  } catch (const Error &e) {
    require(e.code() == ISHMEM_ERR_SYSTEM, "a message check failed with another code than SYSTEM");
  }
  return 0;
}
