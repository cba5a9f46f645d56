#include "core/gpu/cuda_probe.h"

#include <cstdio>

#include "gtest/gtest.h"
#ifdef RILL_WITH_CUDA
#include "core/gpu/cuda_probe_kernel.h"
#endif

namespace rill {
namespace {

TEST(CudaProbeTest, NoGpuIsZeroNotAnError) {
  std::string why;
  const int n = CudaDeviceCount(&why);
  EXPECT_GE(n, 0);
  if (n == 0) {
    EXPECT_FALSE(why.empty());
    std::printf("no GPU: %s\n", why.c_str());
  }
}

TEST(CudaProbeTest, NvccBuiltKernelRunsOnAGpu) {
  std::string why;
  if (CudaDeviceCount(&why) == 0) GTEST_SKIP() << "skipped: no GPU found (" << why << ")";
#ifdef RILL_WITH_CUDA
  int out[300] = {};
  ASSERT_EQ(gpu_internal::LaunchDoubleIndices(out, 300), "");
  for (int i = 0; i < 300; ++i) ASSERT_EQ(out[i], 2 * i);
#endif
}

TEST(CudaProbeTest, DiscoveryDescribesEveryGpu) {
  std::string why;
  const std::vector<PhysicalGpu> gpus = DiscoverCudaGpus(&why);
  if (gpus.empty()) GTEST_SKIP() << "skipped: no GPU found (" << why << ")";
  EXPECT_EQ(static_cast<int>(gpus.size()), CudaDeviceCount());
  for (size_t i = 0; i < gpus.size(); ++i) {
    std::printf("%s\n", GpuShortDescription(gpus[i]).c_str());
    EXPECT_EQ(gpus[i].platform_id, static_cast<int>(i));
    EXPECT_FALSE(gpus[i].name.empty());
    EXPECT_EQ(gpus[i].pci_bus_id.size(), 12u) << gpus[i].pci_bus_id;  // "0000:05:00.0"
    EXPECT_GT(gpus[i].total_memory_bytes, 0);
    EXPECT_LE(gpus[i].free_memory_bytes, gpus[i].total_memory_bytes);
  }
}

}  // namespace
}  // namespace rill
