// PhysicalMemoryBytes is sysconf's page count times page size, the same on every call.
#include "core/memory/host_memory.h"

#include <unistd.h>

#include <cstdint>

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(HostMemoryTest, IsSysconfsPhysicalMemory) {
  const uint64_t want =
      static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  EXPECT_EQ(PhysicalMemoryBytes(), want);
  EXPECT_EQ(PhysicalMemoryBytes(), want);
  EXPECT_GT(want, uint64_t{1} << 20);
}

}  // namespace
}  // namespace rill
