/* Split mode (ISHMEM_MAX_LOCAL_PES, docs/MULTI_NODE.md) on one machine: for each cap k the
 * library is initialized anew and must make nodes of k consecutive PEs: ISHMEM_TEAM_SHARED is
 * this PE's group, ishmem_ptr is non-NULL exactly for its members, the groups counted over MPI
 * are ceil(n / k), and puts to every PE (mapped or through MPI) arrive. ISHMEM_NODE_LOCAL=self
 * is the cap 1; a negative cap, or self beside another cap, fails ishmem_init with
 * ISHMEM_ERR_CONFIG on every PE. The program sets the variables itself, so it runs the same
 * whatever split mode the suite runs in; it initializes MPI itself to reinitialize ishmem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ishmem.h"

static int failures = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s (", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "; last error: \"%s\")\n", ishmemx_last_error());        \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static void set_env(const char *max_local_pes, const char *node_local) {
  if (max_local_pes)
    setenv("ISHMEM_MAX_LOCAL_PES", max_local_pes, 1);
  else
    unsetenv("ISHMEM_MAX_LOCAL_PES");
  if (node_local)
    setenv("ISHMEM_NODE_LOCAL", node_local, 1);
  else
    unsetenv("ISHMEM_NODE_LOCAL");
}

static void expect_config_error(ishmemx_init_attr_t *attr, const char *what) {
  CHECK(ishmemx_init_attr(attr) == ISHMEM_ERR_CONFIG, "%s", what);
  CHECK(strstr(ishmemx_last_error(), what) != NULL || strstr(ishmemx_last_error(), "another PE"),
        "%s", what);
  CHECK(ishmem_n_pes() == -1, "%s", what);
}

/* The PEs of the world form nodes of `k` consecutive PEs (k = 0: one node). */
static void expect_groups(ishmemx_init_attr_t *attr, int k, const char *label) {
  int rank = 0, size = 0, groups = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int cap = k > 0 ? k : size;
  const int first = rank / cap * cap;
  const int members = first + cap <= size ? cap : size - first;
  if (ishmemx_init_attr(attr) != ISHMEM_SUCCESS) {
    CHECK(0, "%s: ishmem_init", label);
    return;
  }
  CHECK(ishmem_team_n_pes(ISHMEM_TEAM_SHARED) == members, "%s: shared team has %d PEs", label,
        ishmem_team_n_pes(ISHMEM_TEAM_SHARED));
  CHECK(ishmem_team_my_pe(ISHMEM_TEAM_SHARED) == rank - first, "%s", label);
  long *sym = (long *)ishmem_calloc((size_t)size, sizeof(long));
  CHECK(sym != NULL, "%s", label);
  for (int pe = 0; sym && pe < size; ++pe) {
    const int same = pe >= first && pe < first + members;
    const int index = ishmem_team_translate_pe(ISHMEM_TEAM_WORLD, pe, ISHMEM_TEAM_SHARED);
    CHECK(index == (same ? pe - first : -1), "%s: PE %d has shared index %d", label, pe, index);
    CHECK((ishmem_ptr(sym, pe) != NULL) == same, "%s: ishmem_ptr to PE %d", label, pe);
    CHECK(ishmem_long_p(sym + rank, 1000L * k + rank, pe) == ISHMEM_SUCCESS, "%s", label);
  }
  /* One leader (shared index 0) per node: the number of nodes. */
  int leader = ishmem_team_my_pe(ISHMEM_TEAM_SHARED) == 0;
  MPI_Allreduce(&leader, &groups, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(groups == (size + cap - 1) / cap, "%s: %d nodes", label, groups);
  CHECK(ishmem_barrier_all() == ISHMEM_SUCCESS, "%s", label);
  for (int pe = 0; sym && pe < size; ++pe)
    CHECK(sym[pe] == 1000L * k + pe, "%s: from PE %d got %ld", label, pe, sym[pe]);
  CHECK(ishmem_barrier_all() == ISHMEM_SUCCESS, "%s", label);
  if (sym) CHECK(ishmem_free(sym) == ISHMEM_SUCCESS, "%s", label);
  CHECK(ishmem_finalize() == ISHMEM_SUCCESS, "%s", label);
}

int main(int argc, char **argv) {
  int rank = 0, any = 0;
  ishmemx_init_attr_t attr;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  attr.comm = MPI_COMM_WORLD;

  set_env("-1", NULL);
  expect_config_error(&attr, "ISHMEM_MAX_LOCAL_PES");
  set_env("2", "self");
  expect_config_error(&attr, "ISHMEM_NODE_LOCAL=self means ISHMEM_MAX_LOCAL_PES=1");
  /* A cap on one PE only: the PEs disagree, and every one of them says so. */
  set_env(rank == 0 ? "2" : NULL, NULL);
  expect_config_error(&attr, "ISHMEM_MAX_LOCAL_PES differs between PEs");

  set_env(NULL, NULL);
  expect_groups(&attr, 0, "no cap");
  set_env("1", NULL);
  expect_groups(&attr, 1, "ISHMEM_MAX_LOCAL_PES=1");
  set_env("2", NULL);
  expect_groups(&attr, 2, "ISHMEM_MAX_LOCAL_PES=2");
  set_env("3", NULL);
  expect_groups(&attr, 3, "ISHMEM_MAX_LOCAL_PES=3");
  set_env(NULL, "self");
  expect_groups(&attr, 1, "ISHMEM_NODE_LOCAL=self");
  set_env("1", "self");
  expect_groups(&attr, 1, "ISHMEM_NODE_LOCAL=self, ISHMEM_MAX_LOCAL_PES=1");

  MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (failures) fprintf(stderr, "PE %d: %d checks failed\n", rank, failures);
  return any ? 1 : 0;
}
