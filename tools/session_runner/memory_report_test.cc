#include "tools/session_runner/memory_report.h"

#include <vector>

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(MemoryReportTest, OneAlignedLinePerDeviceWithDashesForHostFigures) {
  DeviceMemoryStats cpu{"/job:localhost/replica:0/task:0/device:CPU:0", "cpu", {}};
  cpu.stats.bytes_in_use = 3 << 20;
  cpu.stats.peak_bytes_in_use = 5 << 20;
  cpu.stats.num_allocs = 42;
  DeviceMemoryStats gpu{"/job:localhost/replica:0/task:0/device:GPU:0", "GPU_0_bfc", {}};
  gpu.stats.bytes_limit = int64_t{32} << 30;
  gpu.stats.bytes_reserved = int64_t{32} << 30;
  gpu.stats.largest_free_block = int64_t{32} << 30;
  EXPECT_EQ(MemoryReport({cpu, gpu}),
            "device                                        allocator        in use          peak"
            "      reserved         limit  largest free    allocs\n"
            "/job:localhost/replica:0/task:0/device:CPU:0  cpu             3.0 MiB       5.0 MiB"
            "             -             -             -        42\n"
            "/job:localhost/replica:0/task:0/device:GPU:0  GPU_0_bfc       0.0 MiB       0.0 MiB"
            "   32768.0 MiB   32768.0 MiB   32768.0 MiB         0\n");
}

TEST(MemoryReportTest, ResidentSetGrowsWithTouchedMemory) {
  const int64_t before = ProcessResidentBytes();
  ASSERT_GT(before, 0);
  constexpr size_t kBytes = size_t{64} << 20;
  std::vector<char> block(kBytes, 1);  // written, so resident
  const int64_t after = ProcessResidentBytes();
  EXPECT_GE(after - before, static_cast<int64_t>(kBytes) * 9 / 10);
  EXPECT_EQ(block[kBytes - 1], 1);
  EXPECT_EQ(ResidentLine(3 << 20), "process resident set: 3.0 MiB\n");
  EXPECT_EQ(ResidentLine(-1), "process resident set: unknown\n");
}

}  // namespace
}  // namespace rill
