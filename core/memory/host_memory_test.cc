#include "core/memory/host_memory.h"

#include <sys/sysinfo.h>

#include <cstdint>

#include "gtest/gtest.h"

namespace rill {
namespace {

// The kernel's own count of usable RAM (sysinfo(2): totalram in units of mem_unit bytes), read
// here through another call than the sysconf pages the library multiplies.
TEST(HostMemoryTest, IsTheKernelsTotalRam) {
  struct sysinfo info;
  ASSERT_EQ(sysinfo(&info), 0);
  const uint64_t total = static_cast<uint64_t>(info.totalram) * info.mem_unit;
  EXPECT_EQ(PhysicalMemoryBytes(), total);
  EXPECT_EQ(PhysicalMemoryBytes(), total);  // read once: the same on a second call
}

}  // namespace
}  // namespace rill
