#include "tools/session_runner/memory_report.h"

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

}  // namespace
}  // namespace rill
