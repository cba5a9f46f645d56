#include "core/gpu/physical_gpu.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

std::vector<PhysicalGpu> FourGpus() {
  std::vector<PhysicalGpu> gpus;
  for (int i = 0; i < 4; ++i) {
    PhysicalGpu gpu;
    gpu.platform_id = i;
    gpu.name = "NVIDIA H100 80GB HBM3";
    gpu.pci_bus_id = "0000:0" + std::to_string(i + 5) + ":00.0";
    gpu.compute_major = 9;
    gpus.push_back(gpu);
  }
  return gpus;
}

std::vector<std::string> BusIds(const std::vector<PhysicalGpu>& gpus) {
  std::vector<std::string> ids;
  for (const PhysicalGpu& g : gpus)
    ids.push_back(std::to_string(g.platform_id) + "@" + g.pci_bus_id);
  return ids;
}

TEST(PhysicalGpuTest, ShortDescriptionIsTensorFlows) {
  PhysicalGpu gpu;
  gpu.platform_id = 1;
  gpu.name = "Tesla K40c";
  gpu.pci_bus_id = "0000:05:00.0";
  gpu.compute_major = 3;
  gpu.compute_minor = 5;
  EXPECT_EQ(GpuShortDescription(gpu),
            "device: 1, name: Tesla K40c, pci bus id: 0000:05:00.0, compute "
            "capability: 3.5");
}

TEST(PhysicalGpuTest, UnsetCudaVisibleDevicesKeepsAll) {
  EXPECT_EQ(ApplyCudaVisibleDevices(FourGpus(), nullptr).size(), 4u);
}

TEST(PhysicalGpuTest, CudaVisibleDevicesSelectsReordersAndRenumbers) {
  EXPECT_THAT(BusIds(ApplyCudaVisibleDevices(FourGpus(), "2,0")),
              ::testing::ElementsAre("0@0000:07:00.0", "1@0000:05:00.0"));
  EXPECT_THAT(BusIds(ApplyCudaVisibleDevices(FourGpus(), " 3")),
              ::testing::ElementsAre("0@0000:08:00.0"));
}

TEST(PhysicalGpuTest, CudaVisibleDevicesStopsAtTheFirstInvalidEntry) {
  EXPECT_TRUE(ApplyCudaVisibleDevices(FourGpus(), "").empty());
  EXPECT_TRUE(ApplyCudaVisibleDevices(FourGpus(), "-1").empty());
  EXPECT_THAT(BusIds(ApplyCudaVisibleDevices(FourGpus(), "1,x,0")),
              ::testing::ElementsAre("0@0000:06:00.0"));
  EXPECT_THAT(BusIds(ApplyCudaVisibleDevices(FourGpus(), "1,7,0")),
              ::testing::ElementsAre("0@0000:06:00.0"));
  EXPECT_THAT(BusIds(ApplyCudaVisibleDevices(FourGpus(), "1,1,0")),
              ::testing::ElementsAre("0@0000:06:00.0"));
}

}  // namespace
}  // namespace rill
