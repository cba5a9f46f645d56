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

}  // namespace
}  // namespace rill
