// PeerMesh's setup on its own, beside the runtime's: it drops strangers on its socket without
// waiting on them, and logs a flood of them in a few lines; a socket name that is
// taken is retried under a new one; a PE that cannot open its socket fails the node together
// instead of leaving its peers waiting.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "bootstrap/mpi_bootstrap.h"
#include "bootstrap/peer_mesh.h"
#include "mpi_test_util.h"
#include "common/error.h"

using namespace ishmem::detail;
using namespace ishmem_test;

namespace {

constexpr double kTimeout = 20.0;  // the mesh's deadline; a hang shows as a timeout of this

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Outcome {
  int code = ISHMEM_SUCCESS;
  std::string what;
  std::size_t sockets = 0;  // the mesh's open sockets, when it was built
};

// Builds a mesh (collective over the node) and reports how it went.
Outcome build_mesh(const MpiBootstrap &boot) {
  Outcome got;
  try {
    PeerMesh mesh(boot, kTimeout);
    got.sockets = mesh.open_sockets();
  } catch (const Error &e) {
    got.code = e.code();
    got.what = e.what();
  }
  return got;
}

// Inodes of the sockets this process holds.
std::set<unsigned long> own_socket_inodes() {
  std::set<unsigned long> inodes;
  DIR *dir = opendir("/proc/self/fd");
  if (!dir) return inodes;
  while (dirent *e = readdir(dir)) {
    char path[300], target[64];
    snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0) continue;
    target[n] = '\0';
    unsigned long inode = 0;
    if (sscanf(target, "socket:[%lu]", &inode) == 1) inodes.insert(inode);
  }
  closedir(dir);
  return inodes;
}

// The abstract name (without the leading NUL) of the PeerMesh socket this process listens on,
// as any local process can read it from /proc/net/unix; "" while there is none.
std::string own_listening_mesh_socket() {
  const std::set<unsigned long> inodes = own_socket_inodes();
  FILE *f = fopen("/proc/net/unix", "r");
  if (!f) return "";
  char line[512];
  std::string found;
  while (found.empty() && fgets(line, sizeof line, f)) {
    unsigned long flags = 0, inode = 0;
    char path[256] = {0};
    if (sscanf(line, "%*s %*x %*x %lx %*x %*x %lu %255s", &flags, &inode, path) != 3) continue;
    constexpr unsigned long kListening = 0x10000;  // __SO_ACCEPTCON
    if ((flags & kListening) && inodes.count(inode) && strncmp(path, "@ishmem-", 8) == 0)
      found = path + 1;
  }
  fclose(f);
  return found;
}

// The abstract-namespace address of `name` (leading NUL) and its length.
sockaddr_un abstract_address(const std::string &name, socklen_t &len) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  memcpy(addr.sun_path + 1, name.data(), name.size());
  len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  return addr;
}

UniqueFd connect_to_abstract(const std::string &name) {
  socklen_t len;
  sockaddr_un addr = abstract_address(name, len);
  UniqueFd s(socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0));
  if (connect(s.get(), reinterpret_cast<sockaddr *>(&addr), len) != 0) s.reset();
  return s;
}

// A local process that opens `count` connections to node slot 0's bootstrap socket as soon as
// it listens and then says nothing. The other PEs start their setup late, so that the
// strangers are first in the queue: the listener must get past them at once, not after the
// hello wait (2 s) of each.
enum class Stranger { same_user, other_user };

void expect_setup_survives(Stranger kind, int count) {
  MpiBootstrap boot(MPI_COMM_WORLD, false);
  const Topology &topo = boot.topology();
  if (!all_true(topo.n_local > 1)) GTEST_SKIP() << "needs two node-local PEs";
  if (kind == Stranger::other_user && !all_true(geteuid() == 0))
    GTEST_SKIP() << "needs root, to connect as another user";
  const bool listener_pe = topo.local_rank == 0;

  std::atomic<bool> stop{false};
  std::atomic<int> connected{0};  // connections made, or -1: one could not be
  std::vector<UniqueFd> silent;   // the same-user stranger's ends
  pid_t child = -1;
  std::thread watcher;
  if (listener_pe) {
    watcher = std::thread([&] {
      while (!stop) {
        std::string name = own_listening_mesh_socket();
        if (name.empty()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
          continue;
        }
        if (kind == Stranger::same_user) {
          for (int i = 0; i < count; ++i) {
            silent.push_back(connect_to_abstract(name));
            if (!silent.back()) {
              connected = -1;
              return;
            }
          }
          connected = count;
          return;
        }
        // Another user: a child process that drops to nobody, connects and waits to be killed.
        int ready[2];
        if (pipe(ready) != 0) {
          connected = -1;
          return;
        }
        child = fork();
        if (child == 0) {
          close(ready[0]);
          char ok = 'n';
          if (setgid(65534) == 0 && setuid(65534) == 0) {
            sockaddr_un addr{};
            addr.sun_family = AF_UNIX;
            memcpy(addr.sun_path + 1, name.data(), name.size());
            socklen_t len =
                static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
            int s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
            if (s >= 0 && connect(s, reinterpret_cast<sockaddr *>(&addr), len) == 0) ok = 'y';
          }
          if (write(ready[1], &ok, 1) != 1) _exit(1);
          for (;;) pause();
        }
        close(ready[1]);
        char ok = 'n';
        if (child < 0 || read(ready[0], &ok, 1) != 1) ok = 'n';
        close(ready[0]);
        connected = ok == 'y' ? 1 : -1;
        return;
      }
    });
  } else {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  const auto start = std::chrono::steady_clock::now();
  const Outcome got = build_mesh(boot);
  const std::size_t sockets = got.sockets;
  const double took = seconds_since(start);
  stop = true;
  if (watcher.joinable()) watcher.join();
  if (child > 0) {
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
  }
  silent.clear();

  EXPECT_EQ(got.code, ISHMEM_SUCCESS) << got.what;
  EXPECT_EQ(sockets, static_cast<std::size_t>(topo.n_local - 1));
  if (listener_pe) {
    EXPECT_EQ(connected.load(), count) << "the stranger did not get to connect";
    // The peers start 0.5 s late. A silent connection of the same user waits for its hello
    // (2 s) beside the peers', not ahead of them; another user's is dropped before anything
    // is read. Either way, setup ends well before one hello wait, let alone one per stranger.
    EXPECT_LT(took, 1.5) << "setup waited on the stranger";
  }
}

TEST(PeerMeshSetup, SilentConnectionOfTheSameUserCostsThePeersNothing) {
  expect_setup_survives(Stranger::same_user, 1);
}

TEST(PeerMeshSetup, SeveralSilentConnectionsCostThePeersNothing) {
  expect_setup_survives(Stranger::same_user, 4);
}

TEST(PeerMeshSetup, ConnectionOfAnotherUserIsDroppedAtOnce) {
  expect_setup_survives(Stranger::other_user, 1);
}

TEST(PeerMeshSetup, PeThatCannotOpenItsSocketFailsTheNodeTogether) {
  MpiBootstrap boot(MPI_COMM_WORLD, false);
  const Topology &topo = boot.topology();
  if (!all_true(topo.n_local > 1)) GTEST_SKIP() << "needs two node-local PEs";
  const bool victim = topo.local_rank == topo.n_local - 1;
  rlimit saved{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
  if (victim) {
    // No fd numbers left: the socket() for the listener fails with EMFILE.
    int lowest = dup(STDERR_FILENO);
    ASSERT_GE(lowest, 0);
    close(lowest);
    rlimit none = saved;
    none.rlim_cur = static_cast<rlim_t>(lowest);
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &none), 0);
  }
  const Outcome got = build_mesh(boot);
  if (victim) {
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &saved), 0);
  }
  EXPECT_EQ(got.code, ISHMEM_ERR_SYSTEM) << got.what;
  const char *why =
      victim ? "cannot listen on the bootstrap socket" : "could not open its bootstrap socket";
  EXPECT_NE(got.what.find(why), std::string::npos) << got.what;
}

// A socket bound by "another process" (here this one, which the kernel treats alike: abstract
// names are per network namespace, whoever binds them) under `name`.
UniqueFd bind_abstract(const std::string &name) {
  socklen_t len;
  sockaddr_un addr = abstract_address(name, len);
  UniqueFd s(socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0));
  if (s && bind(s.get(), reinterpret_cast<sockaddr *>(&addr), len) != 0) s.reset();
  return s;
}

std::string g_squatted;    // the name the hook substitutes
int g_squatted_tries = 0;  // how many attempts it substitutes it for
int g_attempts = 0;        // how many attempts it saw
std::string g_last_name;   // the name of the last attempt

void squat_hook(int attempt, char *name, std::size_t capacity) {
  if (attempt < g_squatted_tries) snprintf(name, capacity, "%s", g_squatted.c_str());
  g_attempts = attempt + 1;
  g_last_name = name;
}

struct HookGuard {
  explicit HookGuard(PeerMesh::NameHook hook) { PeerMesh::name_hook_for_testing = hook; }
  ~HookGuard() { PeerMesh::name_hook_for_testing = nullptr; }
};

TEST(PeerMeshSetup, NameTakenByAnotherProcessIsRetriedUnderANewOne) {
  MpiBootstrap boot(MPI_COMM_WORLD, false);
  const Topology &topo = boot.topology();
  if (!all_true(topo.n_local > 1)) GTEST_SKIP() << "needs two node-local PEs";
  g_squatted = "ishmem-squatted-" + std::to_string(getpid());
  UniqueFd squatter = bind_abstract(g_squatted);
  ASSERT_TRUE(all_true(static_cast<bool>(squatter)));
  g_squatted_tries = 1;  // the first name each PE draws is taken
  g_attempts = 0;
  HookGuard hook(squat_hook);
  const Outcome got = build_mesh(boot);
  const std::size_t sockets = got.sockets;
  EXPECT_EQ(got.code, ISHMEM_SUCCESS) << got.what;
  EXPECT_EQ(sockets, static_cast<std::size_t>(topo.n_local - 1));
  // Bound under the second name, a fresh random one.
  EXPECT_EQ(g_attempts, 2);
  EXPECT_EQ(g_last_name.rfind("ishmem-", 0), 0u) << g_last_name;
  EXPECT_NE(g_last_name, g_squatted);
  // Nothing in one PE's name tells another's: no shared part (as a job token was once).
  char mine[64] = {0};
  snprintf(mine, sizeof mine, "%s", g_last_name.c_str());
  std::vector<char> all(sizeof mine * static_cast<std::size_t>(topo.n_pes));
  ASSERT_EQ(
      MPI_Allgather(mine, sizeof mine, MPI_CHAR, all.data(), sizeof mine, MPI_CHAR, MPI_COMM_WORLD),
      MPI_SUCCESS);
  constexpr std::size_t kPrefix = 7;  // "ishmem-"
  for (int pe = 0; pe < topo.n_pes; ++pe) {
    if (pe == topo.my_pe) continue;
    const std::string other(&all[sizeof mine * static_cast<std::size_t>(pe)]);
    EXPECT_NE(other.compare(0, kPrefix + 8, g_last_name, 0, kPrefix + 8), 0)
        << "pe " << pe << " listened under " << other << ", this PE under " << g_last_name;
  }
}

TEST(PeerMeshSetup, PeWhoseNamesAreAllTakenFailsTheNodeNamingItself) {
  MpiBootstrap boot(MPI_COMM_WORLD, false);
  const Topology &topo = boot.topology();
  if (!all_true(topo.n_local > 1)) GTEST_SKIP() << "needs two node-local PEs";
  const bool victim = topo.local_rank == topo.n_local - 1;
  g_squatted = "ishmem-squatted-" + std::to_string(getpid());
  UniqueFd squatter = bind_abstract(g_squatted);
  ASSERT_TRUE(all_true(static_cast<bool>(squatter)));
  g_squatted_tries = victim ? 1000 : 0;
  HookGuard hook(squat_hook);
  const Outcome got = build_mesh(boot);
  EXPECT_EQ(got.code, ISHMEM_ERR_SYSTEM) << got.what;
  const std::string why = victim ? "pe " + std::to_string(topo.my_pe) + " found all"
                                 : std::string("could not open its bootstrap socket");
  EXPECT_NE(got.what.find(why), std::string::npos) << got.what;
}

// Lines of `text` that contain `what`.
int count_lines(const std::string &text, const std::string &what) {
  int count = 0;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    if (text.substr(begin, end - begin).find(what) != std::string::npos) ++count;
    begin = end + 1;
  }
  return count;
}

// A stranger that connects and hangs up, again and again, while node slot 0 waits for its
// peers: slot 0's log gets a few lines and a count, not a line per connection.
TEST(PeerMeshSetup, FloodOfStrangersIsLoggedInAFewLines) {
  MpiBootstrap boot(MPI_COMM_WORLD, false);
  const Topology &topo = boot.topology();
  if (!all_true(topo.n_local > 1)) GTEST_SKIP() << "needs two node-local PEs";
  const bool listener_pe = topo.local_rank == 0;
  constexpr int kStrangers = 200;
  std::atomic<bool> stop{false};
  std::atomic<int> made{0};
  std::thread flood;
  UniqueFd captured;
  int saved_stderr = -1;
  if (listener_pe) {
    captured = UniqueFd(memfd_create("peer-mesh-stderr", MFD_CLOEXEC));
    ASSERT_TRUE(captured);
    fflush(stderr);
    saved_stderr = dup(STDERR_FILENO);
    ASSERT_GE(saved_stderr, 0);
    ASSERT_EQ(dup2(captured.get(), STDERR_FILENO), STDERR_FILENO);
    flood = std::thread([&] {
      std::string name;
      while (!stop && name.empty()) {
        name = own_listening_mesh_socket();
        if (name.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      sockaddr_un addr{};
      addr.sun_family = AF_UNIX;
      memcpy(addr.sun_path + 1, name.data(), name.size());
      socklen_t len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
      while (!stop && made < kStrangers) {
        UniqueFd s(socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
        if (s && connect(s.get(), reinterpret_cast<sockaddr *>(&addr), len) == 0)
          ++made;  // and hangs up at once
        else
          std::this_thread::sleep_for(std::chrono::milliseconds(1));  // backlog full
      }
    });
  } else {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  }
  const Outcome got = build_mesh(boot);
  stop = true;
  if (flood.joinable()) flood.join();
  std::string log;
  if (listener_pe) {
    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    char buf[1 << 16];
    ssize_t n = pread(captured.get(), buf, sizeof buf, 0);
    if (n > 0) log.assign(buf, static_cast<std::size_t>(n));
  }
  EXPECT_EQ(got.code, ISHMEM_SUCCESS) << got.what;
  if (listener_pe) {
    ASSERT_GE(made.load(), 20) << "the stranger did not get to connect often enough\n" << log;
    const int lines = count_lines(log, "bootstrap connection");
    EXPECT_GE(lines, 1) << log;
    EXPECT_LE(lines, 6) << log;
    EXPECT_NE(log.find("in all"), std::string::npos) << "no count of the dropped ones\n" << log;
  }
}

}  // namespace
