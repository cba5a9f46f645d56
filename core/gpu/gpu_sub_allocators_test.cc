#include "core/gpu/gpu_sub_allocators.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "core/gpu/cuda_probe.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

constexpr int64_t kGiB = int64_t{1} << 30;

TEST(SimulatedDeviceSubAllocatorTest, CapacityIsAHardCapSharedByAllRegions) {
  SimulatedDeviceSubAllocator memory(3 << 20);
  size_t got = 0;
  void* a = memory.Alloc(256, 2 << 20, &got);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(got, size_t{2} << 20);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 4096, 0u);
  std::memset(a, 7, got);  // the region is real, writable memory
  got = 0;
  EXPECT_EQ(memory.Alloc(256, 2 << 20, &got), nullptr);  // 4 MiB > 3 MiB
  EXPECT_EQ(got, 0u);
  EXPECT_EQ(memory.reserved_bytes(), 2 << 20);
  void* b = memory.Alloc(256, 1 << 20, &got);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(memory.reserved_bytes(), 3 << 20);
  memory.Free(a, size_t{2} << 20);
  memory.Free(b, size_t{1} << 20);
  EXPECT_EQ(memory.reserved_bytes(), 0);
}

TEST(SimulatedDeviceSubAllocatorTest, AnEightyGigabyteGpuCostsNoRamUntilTouched) {
  SimulatedDeviceSubAllocator memory(80 * kGiB);
  size_t got = 0;
  void* region = memory.Alloc(256, static_cast<size_t>(78 * kGiB), &got);
  ASSERT_NE(region, nullptr);
  static_cast<char*>(region)[0] = 1;
  static_cast<char*>(region)[got - 1] = 2;
  memory.Free(region, got);
}

TEST(CudaDeviceSubAllocatorTest, WithoutAGpuReturnsNullAndSaysWhy) {
  std::string why;
  if (CudaDeviceCount(&why) > 0) GTEST_SKIP() << "skipped: a GPU is present (see the GPU test)";
  CudaDeviceSubAllocator memory(0);
  size_t got = 0;
  EXPECT_EQ(memory.Alloc(256, 1 << 20, &got), nullptr);
  EXPECT_FALSE(memory.LastError().empty());
  CudaPinnedHostSubAllocator pinned;
  EXPECT_EQ(pinned.Alloc(256, 1 << 20, &got), nullptr);
}

TEST(CudaDeviceSubAllocatorTest, OnAGpuAllocatesDeviceAndPinnedMemory) {
  std::string why;
  if (CudaDeviceCount(&why) == 0) GTEST_SKIP() << "skipped: no GPU found (" << why << ")";
  CudaDeviceSubAllocator memory(0);
  size_t got = 0;
  void* device = memory.Alloc(256, 64 << 20, &got);
  ASSERT_NE(device, nullptr) << memory.LastError();
  EXPECT_EQ(got, size_t{64} << 20);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(device) % 256, 0u);
  memory.Free(device, got);
  // More than any GPU has: a clean failure with CUDA's reason.
  EXPECT_EQ(memory.Alloc(256, size_t{1} << 50, &got), nullptr);
  EXPECT_NE(memory.LastError().find("memory"), std::string::npos) << memory.LastError();
  CudaPinnedHostSubAllocator pinned;
  void* host = pinned.Alloc(256, 1 << 20, &got);
  ASSERT_NE(host, nullptr);
  std::memset(host, 1, 1 << 20);
  pinned.Free(host, got);
}

}  // namespace
}  // namespace rill
