#include "core/gpu/gpu_process_state.h"

#include <cstdint>
#include <cstdlib>
#include <string>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kMiB = int64_t{1} << 20;

PhysicalGpu Gpu(int platform_id, int64_t free_bytes) {
  PhysicalGpu gpu;
  gpu.platform_id = platform_id;
  gpu.name = "NVIDIA H100 80GB HBM3";
  gpu.pci_bus_id = "0000:0" + std::to_string(platform_id) + ":00.0";
  gpu.compute_major = 9;
  gpu.total_memory_bytes = free_bytes;
  gpu.free_memory_bytes = free_bytes;
  return gpu;
}

GpuAllocatorRequest Request(int tf_id, const PhysicalGpu& gpu, int64_t limit, bool growth,
                            std::string option) {
  GpuAllocatorRequest r;
  r.tf_gpu_id = tf_id;
  r.gpu = gpu;
  r.memory_limit_bytes = limit;
  r.allow_growth = growth;
  r.memory_option = std::move(option);
  return r;
}

TEST(GpuProcessStateTest, WithoutGrowthTheWholeLimitIsReservedWhenTheDeviceIsCreated) {
  GpuProcessState state(GpuProcessState::Memory::kSimulated);
  RILL_ASSERT_OK_AND_ASSIGN(
      Allocator * gpu0,
      state.GetGpuAllocator(Request(0, Gpu(0, 1024 * kMiB), 512 * kMiB, false, "default")));
  EXPECT_EQ(gpu0->Name(), "GPU_0_bfc");
  AllocatorStats stats = gpu0->GetStats();
  EXPECT_EQ(stats.bytes_reserved, 512 * kMiB);
  EXPECT_EQ(stats.bytes_limit, 512 * kMiB);
  EXPECT_EQ(stats.bytes_in_use, 0);
  // With growth nothing is taken until a tensor needs it, then a 2 MiB region.
  RILL_ASSERT_OK_AND_ASSIGN(
      Allocator * gpu1,
      state.GetGpuAllocator(Request(1, Gpu(1, 1024 * kMiB), 512 * kMiB, true, "default")));
  EXPECT_EQ(gpu1->GetStats().bytes_reserved, 0);
  void* p = gpu1->AllocateRaw(256, 1000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(gpu1->GetStats().bytes_reserved, 2 * kMiB);
  gpu1->DeallocateRaw(p, 1000);
}

TEST(GpuProcessStateTest, LaterSessionsShareTheAllocatorWhenTheyAskForTheSameOptions) {
  GpuProcessState state(GpuProcessState::Memory::kSimulated);
  const PhysicalGpu gpu = Gpu(0, 1024 * kMiB);
  RILL_ASSERT_OK_AND_ASSIGN(Allocator * first,
                            state.GetGpuAllocator(Request(0, gpu, 400 * kMiB, false,
                                                          "per_process_gpu_memory_fraction 0.4")));
  // A default limit computed later sees less free memory; the option, not the byte count, decides.
  RILL_ASSERT_OK_AND_ASSIGN(Allocator * second,
                            state.GetGpuAllocator(Request(0, gpu, 300 * kMiB, false,
                                                          "per_process_gpu_memory_fraction 0.4")));
  EXPECT_EQ(first, second);
  EXPECT_EQ(second->GetStats().bytes_limit, 400 * kMiB);
}

TEST(GpuProcessStateTest, DifferentMemoryOptionsInALaterSessionFailNamingBoth) {
  GpuProcessState state(GpuProcessState::Memory::kSimulated);
  const PhysicalGpu gpu = Gpu(0, 1024 * kMiB);
  ASSERT_THAT(state.GetGpuAllocator(
                  Request(0, gpu, 400 * kMiB, false, "per_process_gpu_memory_fraction 0.4")),
              IsOk());
  EXPECT_THAT(
      state.GetGpuAllocator(Request(0, gpu, 1000 * kMiB, true, "default")),
      StatusIs(absl::StatusCode::kFailedPrecondition,
               HasSubstr("GPU memory options are per process: /device:GPU:0 (allocator "
                         "GPU_0_bfc, 400.0 MiB) was set up by an earlier session with {memory: "
                         "per_process_gpu_memory_fraction 0.4, allow_growth: false}, but this "
                         "session asks for {memory: default, allow_growth: true}. Give every "
                         "session in the process the same gpu_options")));
  EXPECT_THAT(state.GetGpuAllocator(
                  Request(0, gpu, 400 * kMiB, true, "per_process_gpu_memory_fraction 0.4")),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("allow_growth: true}")));
}

TEST(GpuProcessStateTest, RemappingATensorFlowIdToAnotherGpuIsTensorFlowsAlreadyExists) {
  GpuProcessState state(GpuProcessState::Memory::kSimulated);
  ASSERT_THAT(state.GetGpuAllocator(Request(0, Gpu(0, 1024 * kMiB), kMiB, true, "default")),
              IsOk());
  EXPECT_THAT(
      state.GetGpuAllocator(Request(0, Gpu(1, 1024 * kMiB), kMiB, true, "default")),
      StatusIs(absl::StatusCode::kAlreadyExists,
               "TensorFlow device (GPU:0) is being mapped to multiple CUDA devices (1 now, and 0 "
               "previously), which is not supported. This may be the result of providing "
               "different GPU configurations (ConfigProto.gpu_options, for example different "
               "visible_device_list) when creating multiple Sessions in the same process. This "
               "is not  currently supported, see "
               "https://github.com/tensorflow/tensorflow/issues/19083"));
}

TEST(GpuProcessStateTest, VirtualDevicesShareTheirGpusMemory) {
  GpuProcessState state(GpuProcessState::Memory::kSimulated);
  const PhysicalGpu gpu = Gpu(0, 1536 * kMiB);
  ASSERT_THAT(state.GetGpuAllocator(
                  Request(0, gpu, 1024 * kMiB, false, "virtual device memory_limit_mb 1024")),
              IsOk());
  // The second 1024 MiB device does not fit in what is left of the 1536 MiB GPU.
  EXPECT_THAT(
      state.GetGpuAllocator(
          Request(1, gpu, 1024 * kMiB, false, "virtual device memory_limit_mb 1024")),
      StatusIs(absl::StatusCode::kResourceExhausted,
               "Could not reserve 1024.0 MiB of GPU memory for /device:GPU:1 (allocator "
               "GPU_1_bfc, limit from virtual device memory_limit_mb 1024) on device: 0, name: "
               "NVIDIA H100 80GB HBM3, pci bus id: 0000:00:00.0, compute capability: 9.0, which "
               "had 1536.0 MiB free when the process started. Lower the limit "
               "(gpu_options.per_process_gpu_memory_fraction or the virtual devices' "
               "memory_limit_mb), or set gpu_options.allow_growth to take memory as it is "
               "needed."));
  // Nothing was registered for GPU:1: a smaller request succeeds afterwards.
  RILL_ASSERT_OK_AND_ASSIGN(Allocator * gpu1,
                            state.GetGpuAllocator(Request(1, gpu, 512 * kMiB, false,
                                                          "virtual device memory_limit_mb 512")));
  EXPECT_EQ(gpu1->GetStats().bytes_reserved, 512 * kMiB);
}

TEST(GpuProcessStateTest, OutOfMemoryLeavesTheAllocatorUsable) {
  GpuProcessState state(GpuProcessState::Memory::kSimulated);
  RILL_ASSERT_OK_AND_ASSIGN(
      Allocator * gpu0,
      state.GetGpuAllocator(Request(0, Gpu(0, 64 * kMiB), 16 * kMiB, false, "default")));
  EXPECT_EQ(gpu0->AllocateRaw(256, 32 * kMiB), nullptr);
  void* p = gpu0->AllocateRaw(256, 8 * kMiB);
  ASSERT_NE(p, nullptr);
  AllocatorStats stats = gpu0->GetStats();
  EXPECT_EQ(stats.bytes_in_use, 8 * kMiB);
  EXPECT_EQ(stats.largest_free_block, 8 * kMiB);
  gpu0->DeallocateRaw(p, 8 * kMiB);
}

TEST(GpuProcessStateTest, PinnedHostAllocatorGrowsAndHonoursItsLimitVariable) {
  setenv("TF_GPU_HOST_MEM_LIMIT_IN_MB", "8", 1);
  GpuProcessState state(GpuProcessState::Memory::kSimulated);
  Allocator* host = state.GetGpuHostAllocator();
  unsetenv("TF_GPU_HOST_MEM_LIMIT_IN_MB");
  EXPECT_EQ(host, state.GetGpuHostAllocator());
  EXPECT_EQ(host->Name(), "gpu_host_bfc");
  EXPECT_EQ(host->GetStats().bytes_limit, 8 * kMiB);
  EXPECT_EQ(host->GetStats().bytes_reserved, 0);
  void* p = host->AllocateRaw(64, 4096);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(host->GetStats().bytes_reserved, 2 * kMiB);
  EXPECT_EQ(host->AllocateRaw(64, 16 * kMiB), nullptr);
  host->DeallocateRaw(p, 4096);
}

}  // namespace
}  // namespace rill
