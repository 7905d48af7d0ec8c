// ishmem-info: the version, backend, PE layout, heap size and every ISHMEM_* variable.
// Run it alone or under mpirun to see the node-local layout of a job. --env-markdown prints
// the variables as README.md's Markdown table (tests/env_table.py compares the two).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ishmem.h"
#include "common/config.h"
#include "runtime/runtime.h"

using namespace ishmem::detail;

namespace {

// A Markdown meaning as terminal text: `code` loses its backquotes, [text](target) keeps text.
std::string plain_text(const char *markdown) {
  std::string out;
  for (const char *p = markdown; *p; ++p) {
    if (*p == '`') continue;
    if (*p == ']' && p[1] == '(') {
      const char *close = strchr(p, ')');
      if (close) {
        p = close;
        continue;
      }
    }
    if (*p != '[') out += *p;
  }
  return out;
}

// README.md's table of the variables, from the config table alone (no ishmem_init).
int print_env_markdown() {
  printf("| variable | default | meaning |\n|---|---|---|\n");
  for (const ConfigVarInfo &v : config_vars())
    printf("| `%s` | `%s` | %s |\n", v.name, v.default_value, v.doc);
  return ferror(stdout) ? 1 : 0;
}

}  // namespace

int main(int argc, char **argv) {
  bool help = argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0);
  if (help) {
    printf(
        "usage: [mpirun -np N] ishmem-info [--env-markdown]\nPrints ishmem's build, layout and "
        "settings;\n--env-markdown prints only the ISHMEM_* variables as a Markdown table.\n");
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "--env-markdown") == 0) return print_env_markdown();
  if (argc > 1) {
    fprintf(stderr, "ishmem-info: unknown option %s (see --help)\n", argv[1]);
    return 2;
  }
  if (ishmem_init() != ISHMEM_SUCCESS) {
    fprintf(stderr, "ishmem-info: ishmem_init failed: %s\n", ishmemx_last_error());
    return 1;
  }
  const Runtime &rt = *g_rt;
  const Topology &topo = rt.boot->topology();
  struct Row {
    int pe, node, slot, pid;
    char placement[96];
  } mine{};
  mine.pe = topo.my_pe;
  mine.node = topo.local_pes[0];
  mine.slot = topo.local_rank;
  mine.pid = topo.local_pids[topo.local_rank];
  snprintf(mine.placement, sizeof mine.placement, "%s", rt.backend->placement().c_str());
  std::vector<Row> rows(topo.n_pes);
  rt.boot->allgather(&mine, rows.data(), sizeof mine, false);
  if (topo.my_pe == 0) {
    char name[ISHMEM_MAX_NAME_LEN];
    int major, minor;
    ishmem_info_get_name(name);
    ishmem_info_get_version(&major, &minor);
    printf("ishmem %s (OpenSHMEM %d.%d, vendor %s)\n", ISHMEMX_VERSION_STRING, major, minor, name);
    printf("backend: %s\n", ishmemx_backend_name());
    printf("PEs: %d on %d node(s)\n", topo.n_pes, topo.n_nodes);
    printf("heap: %zu bytes per PE (window of %d slots, %zu bytes apart)\n", rt.heap->capacity(),
           topo.n_local, rt.heap->stride());
    printf("\n%-6s %-10s %-6s %-8s %s\n", "PE", "node", "slot", "pid", "placement");
    for (const Row &r : rows)
      printf("%-6d %-10s %-6d %-8d %s\n", r.pe, ("pe" + std::to_string(r.node)).c_str(), r.slot,
             r.pid, r.placement);
    printf("\nEnvironment (ISHMEM_*):\n");
    for (const ConfigVarInfo &v : config_vars()) {
      printf("  %s=%s\n", v.name, config_value_text(rt.config, v.name).c_str());
      printf("      %s [%s%s%s, default %s]\n", plain_text(v.doc).c_str(), v.kind,
             *v.choices ? ": " : "", v.choices, v.default_value);
    }
  }
  return ishmem_finalize() == ISHMEM_SUCCESS ? 0 : 1;
}
