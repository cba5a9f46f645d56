#include "session/device_mgr.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"
#include "session/placement_log.h"

namespace rill {
namespace {

using ::testing::ElementsAre;

std::vector<PhysicalGpu> Gpus(int n) {
  std::vector<PhysicalGpu> gpus;
  for (int i = 0; i < n; ++i) {
    PhysicalGpu gpu;
    gpu.platform_id = i;
    gpu.name = "Tesla K40c";
    gpu.pci_bus_id = "0000:0" + std::to_string(5 + i) + ":00.0";
    gpu.compute_major = 3;
    gpu.compute_minor = 5;
    gpu.total_memory_bytes = int64_t{12} << 30;
    gpu.free_memory_bytes = int64_t{11} << 30;
    gpus.push_back(gpu);
  }
  return gpus;
}

ConfigProto Config(const std::string& text) {
  ConfigProto config;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &config)) << text;
  return config;
}

std::vector<DeviceAttributes> Attributes(const DeviceMgr& mgr) {
  std::vector<DeviceAttributes> attrs;
  for (const auto& d : mgr.devices()) attrs.push_back(d->attributes());
  return attrs;
}

TEST(DeviceMgrTest, DefaultIsOneCpu) {
  RILL_ASSERT_OK_AND_ASSIGN(auto mgr, DeviceMgr::Create(ConfigProto()));
  EXPECT_THAT(mgr->DeviceNames(), ElementsAre("/job:localhost/replica:0/task:0/device:CPU:0"));
  EXPECT_EQ(mgr->client_device()->device_type(), "CPU");
}

TEST(DeviceMgrTest, ZeroCpusIsTensorFlowsNotFound) {
  EXPECT_THAT(
      DeviceMgr::Create(Config("device_count { key: 'CPU' value: 0 }"), Gpus(2)),
      StatusIs(absl::StatusCode::kNotFound, "No CPU devices are available in this process"));
}

// The seed's `device_count {"CPU": 3, "GPU": 2}` on a four-GPU machine.
TEST(DeviceMgrTest, SeedDeviceCountGivesThreeCpusAndTwoGpus) {
  RILL_ASSERT_OK_AND_ASSIGN(auto mgr,
                            DeviceMgr::Create(Config("device_count { key: 'CPU' value: 3 } "
                                                     "device_count { key: 'GPU' value: 2 }"),
                                              Gpus(4)));
  EXPECT_THAT(mgr->DeviceNames(), ElementsAre("/job:localhost/replica:0/task:0/device:CPU:0",
                                              "/job:localhost/replica:0/task:0/device:CPU:1",
                                              "/job:localhost/replica:0/task:0/device:CPU:2",
                                              "/job:localhost/replica:0/task:0/device:GPU:0",
                                              "/job:localhost/replica:0/task:0/device:GPU:1"));
  Device* gpu1 = mgr->Find("/job:localhost/replica:0/task:0/device:GPU:1");
  ASSERT_NE(gpu1, nullptr);
  EXPECT_EQ(gpu1->device_type(), "GPU");
  EXPECT_EQ(gpu1->attributes().memory_limit(), (int64_t{11} << 30) - (int64_t{500} << 20));
  EXPECT_NE(gpu1->attributes().incarnation(), 0u);
  EXPECT_NE(gpu1->attributes().incarnation(), mgr->devices()[3]->attributes().incarnation());
}

TEST(DeviceMgrTest, DeviceMappingListsGpusOnlyAsTensorFlowDoes) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto mgr, DeviceMgr::Create(Config("gpu_options { visible_device_list: '1,0' }"), Gpus(2)));
  EXPECT_EQ(DeviceMappingText(Attributes(*mgr)),
            "Device mapping:\n"
            "/job:localhost/replica:0/task:0/device:GPU:0 -> device: 1, name: Tesla K40c, pci bus "
            "id: 0000:06:00.0, compute capability: 3.5\n"
            "/job:localhost/replica:0/task:0/device:GPU:1 -> device: 0, name: Tesla K40c, pci bus "
            "id: 0000:05:00.0, compute capability: 3.5\n");
  RILL_ASSERT_OK_AND_ASSIGN(auto cpu_only, DeviceMgr::Create(ConfigProto(), {}));
  EXPECT_EQ(DeviceMappingText(Attributes(*cpu_only)), "Device mapping: no known devices.\n");
}

TEST(DeviceMgrTest, CudaVisibleDevicesThenVisibleDeviceList) {
  // CUDA_VISIBLE_DEVICES=3,2 shows physical GPUs 3 and 2 as visible 0 and 1; the session's
  // visible_device_list "1" then takes physical GPU 2 as GPU:0.
  const std::vector<PhysicalGpu> visible = ApplyCudaVisibleDevices(Gpus(4), "3,2");
  RILL_ASSERT_OK_AND_ASSIGN(
      auto mgr, DeviceMgr::Create(Config("gpu_options { visible_device_list: '1' }"), visible));
  ASSERT_EQ(mgr->devices().size(), 2u);
  EXPECT_EQ(mgr->devices()[1]->attributes().physical_device_desc(),
            "device: 1, name: Tesla K40c, pci bus id: 0000:07:00.0, compute capability: 3.5");
}

TEST(DeviceMgrTest, GpuPlanningErrorsReachTheCaller) {
  EXPECT_THAT(DeviceMgr::Create(Config("gpu_options { visible_device_list: '5' }"), Gpus(2)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "'visible_device_list' listed an invalid GPU id '5' but visible device "
                       "count is 2"));
}

}  // namespace
}  // namespace rill
