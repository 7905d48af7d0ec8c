// The device headers leave no internal macro behind: generators and helpers are undefined at
// the end of <ishmem/device.h>, so only documented ISHMEM_/ISHMEMX_ names (and the type
// tables) reach users' code. Also compiled by the GPU compiler (tests/gpu).
#include <gtest/gtest.h>

#include <ishmem/device.h>

#include "leaked_macros.h"

namespace {

TEST(DeviceHeader, NoInternalMacroLeaks) {
  std::vector<std::string> leaked = leaked_ishmem_macros();
  std::string names;
  for (const std::string &name : leaked) names += " " + name;
  EXPECT_TRUE(leaked.empty()) << "still defined after <ishmem/device.h>:" << names;
}

TEST(DeviceHeader, TypeTablesStay) {
  int n = 0;
#define COUNT_TYPE(T, N) ++n;
  ISHMEMI_RMA_TYPES(COUNT_TYPE)
#undef COUNT_TYPE
  EXPECT_EQ(n, 24);
}

}  // namespace
