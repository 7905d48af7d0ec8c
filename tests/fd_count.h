// The number of open fds of this process, for tests that check that nothing leaks.
#pragma once

#include <dirent.h>

namespace ishmem_test {

// Entries in /proc/self/fd, not counting the one opendir itself holds; -1 if unreadable.
inline int open_fd_count() {
  DIR *dir = opendir("/proc/self/fd");
  if (!dir) return -1;
  int n = 0;
  while (dirent *e = readdir(dir))
    if (e->d_name[0] != '.') ++n;
  closedir(dir);
  return n - 1;
}

}  // namespace ishmem_test
