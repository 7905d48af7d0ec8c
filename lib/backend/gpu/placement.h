// Placement of a PE's CPUs next to its GPU: hwloc finds the cores nearest a PCI device and
// binds the process to them. Used by the GPU backends; plain text comes back for ishmem-info.
#pragma once

#include <string>

namespace ishmem::detail {

struct CpuPlacement {
  std::string cpus;  // the PE's cpuset after this call, as a list ("0-7,16-23")
  bool bound = false;
  std::string note;  // why it was not bound, if it was not
};

// Finds the cores nearest the PCI device `bus_id` ("0000:1a:00.0") and, when `bind`, binds
// every thread of this process to them. Never throws: a failure is reported in `note`.
CpuPlacement place_near_pci(const std::string &bus_id, bool bind);

}  // namespace ishmem::detail
