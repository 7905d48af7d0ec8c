#include "backend/gpu/placement.h"

#include <sched.h>

#include <cstdio>
#include <cstdlib>

#ifdef ISHMEM_HAVE_HWLOC
#include <hwloc.h>
#endif

namespace ishmem::detail {
namespace {

// The current affinity mask as a list, without hwloc.
std::string affinity_text() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return "?";
  std::string text;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &set)) continue;
    int last = cpu;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set)) ++last;
    if (!text.empty()) text += ',';
    text += std::to_string(cpu);
    if (last > cpu) text += '-' + std::to_string(last);
    cpu = last;
  }
  return text;
}

}  // namespace

CpuPlacement place_near_pci(const std::string &bus_id, bool bind) {
  CpuPlacement out;
#ifdef ISHMEM_HAVE_HWLOC
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) {
    out.note = "hwloc_topology_init failed";
  } else {
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    if (hwloc_topology_load(topo) != 0) {
      out.note = "hwloc_topology_load failed";
    } else {
      hwloc_obj_t pci = hwloc_get_pcidev_by_busidstring(topo, bus_id.c_str());
      hwloc_obj_t near = pci ? hwloc_get_non_io_ancestor_obj(topo, pci) : nullptr;
      if (!near || !near->cpuset) {
        out.note = "hwloc does not see PCI device " + bus_id;
      } else if (!bind) {
        out.note = "ISHMEM_BIND=none";
        char *text = nullptr;
        if (hwloc_bitmap_list_asprintf(&text, near->cpuset) >= 0 && text)
          out.note += std::string(", nearest cpus ") + text;
        free(text);
      } else if (hwloc_set_cpubind(topo, near->cpuset, HWLOC_CPUBIND_PROCESS) != 0) {
        out.note = "hwloc_set_cpubind failed";
      } else {
        out.bound = true;
      }
    }
    hwloc_topology_destroy(topo);
  }
#else
  (void)bus_id;
  out.note = bind ? "built without hwloc" : "ISHMEM_BIND=none";
#endif
  out.cpus = affinity_text();
  return out;
}

}  // namespace ishmem::detail
