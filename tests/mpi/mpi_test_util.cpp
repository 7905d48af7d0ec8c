#include "mpi_test_util.h"

#include <cstdio>
#include <cstring>

#include "common/config.h"
#include "runtime/runtime.h"

namespace ishmem_test {

bool all_true(bool ok) {
  int mine = ok ? 1 : 0, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

std::vector<long long> allgather(long long value) {
  int n = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  std::vector<long long> all(static_cast<std::size_t>(n));
  MPI_Allgather(&value, 1, MPI_LONG_LONG, all.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD);
  return all;
}

bool all_equal(long long value) {
  for (long long v : allgather(value))
    if (v != value) return all_true(false);
  return all_true(true);
}

std::size_t heap_mapped_bytes() {
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps) return SIZE_MAX;
  std::size_t total = 0;
  char line[4096];
  while (fgets(line, sizeof line, maps)) {
    if (!strstr(line, "ishmem-heap")) continue;
    unsigned long long start = 0, end = 0;
    if (sscanf(line, "%llx-%llx", &start, &end) == 2) total += end - start;
  }
  fclose(maps);
  return total;
}

std::ptrdiff_t heap_offset(const void *ptr) {
  return static_cast<const char *>(ptr) - ishmem::detail::g_rt->heap->local_base();
}

std::size_t symmetric_size() {
  return ishmem::detail::load_config().symmetric_size;
}

std::ptrdiff_t first_user_offset() {
  const ishmem::detail::Teams &teams = *ishmem::detail::g_rt->teams;
  return heap_offset(teams.areas) +
         static_cast<std::ptrdiff_t>(teams.slots.size() * teams.area_bytes);
}

std::size_t user_heap_size() {
  return symmetric_size() - static_cast<std::size_t>(first_user_offset());
}

bool node_local(int pe) {
  return ishmem_team_translate_pe(ISHMEM_TEAM_WORLD, pe, ISHMEM_TEAM_SHARED) >= 0;
}

bool one_node() {
  return ishmem_team_n_pes(ISHMEM_TEAM_SHARED) == ishmem_n_pes();
}

}  // namespace ishmem_test
