// The version in ishmem.h is the CMake project version: tests/unit/CMakeLists.txt passes
// PROJECT_VERSION in as ISHMEM_TEST_PROJECT_VERSION, and the header must agree with it.
#include <gtest/gtest.h>

#include <string>

#include "ishmem.h"

TEST(Version, HeaderIsTheProjectVersion) {
  EXPECT_STREQ(ISHMEMX_VERSION_STRING, ISHMEM_TEST_PROJECT_VERSION);
  EXPECT_EQ(std::to_string(ISHMEMX_VERSION_MAJOR) + "." + std::to_string(ISHMEMX_VERSION_MINOR) +
                "." + std::to_string(ISHMEMX_VERSION_PATCH),
            ISHMEMX_VERSION_STRING);
}

TEST(Version, SpecificationVersionIsOpenShmem15) {
  EXPECT_EQ(ISHMEM_MAJOR_VERSION, 1);
  EXPECT_EQ(ISHMEM_MINOR_VERSION, 5);
}
