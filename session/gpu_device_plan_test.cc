#include "session/gpu_device_plan.h"

#include <cstdlib>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kGiB = int64_t{1} << 30;

std::vector<PhysicalGpu> Gpus(int n) {
  std::vector<PhysicalGpu> gpus;
  for (int i = 0; i < n; ++i) {
    PhysicalGpu gpu;
    gpu.platform_id = i;
    gpu.name = "NVIDIA H100 80GB HBM3";
    gpu.pci_bus_id = "0000:1" + std::to_string(i) + ":00.0";
    gpu.compute_major = 9;
    gpu.total_memory_bytes = 80 * kGiB;
    gpu.free_memory_bytes = 79 * kGiB;
    gpus.push_back(gpu);
  }
  return gpus;
}

ConfigProto Config(const std::string& text) {
  ConfigProto config;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &config)) << text;
  return config;
}

// "tf_id->platform_id" for each planned device.
std::vector<std::string> Mapping(const std::vector<GpuDevicePlan>& plan) {
  std::vector<std::string> out;
  for (const GpuDevicePlan& d : plan) {
    out.push_back(std::to_string(d.tf_gpu_id) + "->" + std::to_string(d.platform_gpu_id));
  }
  return out;
}

TEST(GpuDevicePlanTest, NoGpuIsNoDeviceAndNoError) {
  RILL_ASSERT_OK_AND_ASSIGN(auto plan,
                            PlanGpuDevices(Config("device_count { key: 'GPU' value: 4 } "
                                                  "gpu_options { visible_device_list: '0,3' "
                                                  "per_process_gpu_memory_fraction: 0.5 }"),
                                           {}));
  EXPECT_TRUE(plan.empty());
}

TEST(GpuDevicePlanTest, OptionsThatCannotWorkAreRefusedWithoutAGpuToo) {
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { visible_device_list: '0,0,x,-1' }"), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Could not parse entry in 'visible_device_list': 'x'. "
                       "visible_device_list = 0,0,x,-1"));
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { visible_device_list: '0,-1' }"), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "'visible_device_list' listed an invalid GPU id '-1'; GPU ids are >= 0"));
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { visible_device_list: '1,1' }"), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "visible_device_list contained a duplicate entry: 1,1"));
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { per_process_gpu_memory_fraction: -0.5 }"), {}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("gpu_options.per_process_gpu_memory_fraction is -0.5; it must be "
                                 "a number >= 0")));
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { experimental { virtual_devices { "
                                    "memory_limit_mb: -5 } } }"),
                             {}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("memory_limit_mb[0] is -5")));
  // device_count {"GPU": 0} asks for no GPU: the list is not read, as in TensorFlow.
  RILL_EXPECT_OK(PlanGpuDevices(
      Config("device_count { key: 'GPU' value: 0 } gpu_options { visible_device_list: 'x' }"), {}));
}

TEST(GpuDevicePlanTest, AllVisibleGpusInOrderByDefault) {
  RILL_ASSERT_OK_AND_ASSIGN(auto plan, PlanGpuDevices(ConfigProto(), Gpus(3)));
  EXPECT_THAT(Mapping(plan), ::testing::ElementsAre("0->0", "1->1", "2->2"));
  EXPECT_EQ(plan[2].physical_device_desc,
            "device: 2, name: NVIDIA H100 80GB HBM3, pci bus id: 0000:12:00.0, "
            "compute capability: 9.0");
}

TEST(GpuDevicePlanTest, DeviceCountCapsInTfIdOrder) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto plan, PlanGpuDevices(Config("device_count { key: 'GPU' value: 2 }"), Gpus(4)));
  EXPECT_THAT(Mapping(plan), ::testing::ElementsAre("0->0", "1->1"));
  RILL_ASSERT_OK_AND_ASSIGN(
      plan, PlanGpuDevices(Config("device_count { key: 'GPU' value: 2 }"), Gpus(1)));
  EXPECT_THAT(Mapping(plan), ::testing::ElementsAre("0->0"));
}

TEST(GpuDevicePlanTest, DeviceCountZeroDoesNotParseTheVisibleList) {
  RILL_ASSERT_OK_AND_ASSIGN(auto plan,
                            PlanGpuDevices(Config("device_count { key: 'GPU' value: 0 } "
                                                  "gpu_options { visible_device_list: 'garbage' }"),
                                           Gpus(2)));
  EXPECT_TRUE(plan.empty());
}

TEST(GpuDevicePlanTest, VisibleDeviceListRenumbers) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto plan, PlanGpuDevices(Config("gpu_options { visible_device_list: '3,1' }"), Gpus(4)));
  EXPECT_THAT(Mapping(plan), ::testing::ElementsAre("0->3", "1->1"));
  EXPECT_THAT(plan[0].physical_device_desc, HasSubstr("device: 3,"));
}

TEST(GpuDevicePlanTest, VisibleDeviceListErrorsAreTensorFlows) {
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { visible_device_list: '0,a' }"), Gpus(2)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Could not parse entry in 'visible_device_list': 'a'. "
                       "visible_device_list = 0,a"));
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { visible_device_list: '0,2' }"), Gpus(2)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "'visible_device_list' listed an invalid GPU id '2' but visible device "
                       "count is 2"));
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { visible_device_list: '1,1' }"), Gpus(2)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "visible_device_list contained a duplicate entry: 1,1"));
}

TEST(GpuDevicePlanTest, VirtualDevicesSplitOneGpu) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto plan, PlanGpuDevices(Config("gpu_options { visible_device_list: '1' experimental { "
                                       "virtual_devices { memory_limit_mb: [1024.7, 2048] } } }"),
                                Gpus(2)));
  EXPECT_THAT(Mapping(plan), ::testing::ElementsAre("0->1", "1->1"));
  EXPECT_EQ(plan[0].memory_limit_bytes, 1024 * kMiB);  // truncated to whole MiB
  EXPECT_EQ(plan[1].memory_limit_bytes, 2048 * kMiB);
}

TEST(GpuDevicePlanTest, EmptyVirtualDeviceEntryIsOneWholeGpu) {
  RILL_ASSERT_OK_AND_ASSIGN(auto plan,
                            PlanGpuDevices(Config("gpu_options { experimental { virtual_devices { "
                                                  "memory_limit_mb: 100 } virtual_devices {} } }"),
                                           Gpus(2)));
  EXPECT_THAT(Mapping(plan), ::testing::ElementsAre("0->0", "1->1"));
  EXPECT_EQ(plan[0].memory_limit_bytes, 100 * kMiB);
  EXPECT_EQ(plan[1].memory_limit_bytes, 79 * kGiB - 1536 * kMiB);
}

TEST(GpuDevicePlanTest, VirtualDeviceErrorsAreTensorFlows) {
  EXPECT_THAT(
      PlanGpuDevices(Config("gpu_options { per_process_gpu_memory_fraction: 0.5 experimental { "
                            "virtual_devices {} } }"),
                     Gpus(1)),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "It's invalid to set per_process_gpu_memory_fraction when virtual_devices is set."));
  EXPECT_THAT(
      PlanGpuDevices(Config("device_count { key: 'GPU' value: 0 } gpu_options { "
                            "visible_device_list: '0' experimental { virtual_devices {} } }"),
                     Gpus(1)),
      StatusIs(absl::StatusCode::kUnknown,
               "Not enough GPUs to create virtual devices. num_gpus_to_use: 0 "
               "#virtual_devices: 1"));
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { visible_device_list: '0,1' experimental { "
                                    "virtual_devices {} } }"),
                             Gpus(2)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "The number of GPUs in visible_device_list doesn't match the number of "
                       "elements in the virtual_devices list. #GPUs in visible_device_list: 2 "
                       "virtual_devices.size(): 1"));
  EXPECT_THAT(
      PlanGpuDevices(Config("gpu_options { experimental { virtual_devices {} } }"), Gpus(2)),
      StatusIs(absl::StatusCode::kUnknown,
               "The number of valid GPUs doesn't match the number of elements in the "
               "virtual_devices list. #valid GPUs: 2 virtual_devices.size(): 1"));
}

// Found by tests/fuzz:config_proto_fuzzer (UBSan: "-nan is outside the range of representable
// values of type 'long'"): memory sizes that cannot become byte counts are refused.
TEST(GpuDevicePlanTest, NonFiniteOrNegativeMemorySizesAreInvalidArgument) {
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { experimental { virtual_devices { "
                                    "memory_limit_mb: 1024 memory_limit_mb: nan } } }"),
                             Gpus(1)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "gpu_options.experimental.virtual_devices[0].memory_limit_mb[1] is nan; "
                       "each memory limit must be a finite number of MiB >= 0"));
  EXPECT_THAT(PlanGpuDevices(Config("gpu_options { experimental { virtual_devices { "
                                    "memory_limit_mb: -5 } } }"),
                             Gpus(1)),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("memory_limit_mb[0] is -5")));
  EXPECT_THAT(
      PlanGpuDevices(Config("gpu_options { per_process_gpu_memory_fraction: inf }"), Gpus(1)),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("gpu_options.per_process_gpu_memory_fraction is inf; it must be a "
                         "number >= 0")));
}

TEST(GpuDevicePlanTest, MemoryFractionIsOfTotalMemory) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto plan,
      PlanGpuDevices(Config("gpu_options { per_process_gpu_memory_fraction: 0.25 }"), Gpus(1)));
  EXPECT_EQ(plan[0].memory_limit_bytes, 20 * kGiB);
}

TEST(GpuDevicePlanTest, DefaultLimitLeavesSystemMemory) {
  EXPECT_EQ(DefaultMinSystemMemory(kGiB, 9), 225 * kMiB);
  EXPECT_EQ(DefaultMinSystemMemory(8 * kGiB, 6), 500 * kMiB);
  EXPECT_EQ(DefaultMinSystemMemory(8 * kGiB, 7), 1050 * kMiB);
  EXPECT_EQ(DefaultMinSystemMemory(8 * kGiB, 9), 1536 * kMiB);
  RILL_ASSERT_OK_AND_ASSIGN(auto plan,
                            PlanGpuDevices(Config("gpu_options { experimental { "
                                                  "gpu_system_memory_size_in_mb: 1000 } }"),
                                           Gpus(1)));
  EXPECT_EQ(plan[0].memory_limit_bytes, 79 * kGiB - 1000 * kMiB);
  setenv("TF_DEVICE_MIN_SYS_MEMORY_IN_MB", "10", 1);
  auto with_env = PlanGpuDevices(ConfigProto(), Gpus(1));
  unsetenv("TF_DEVICE_MIN_SYS_MEMORY_IN_MB");  // before any assertion can return
  RILL_ASSERT_OK_AND_ASSIGN(plan, std::move(with_env));
  EXPECT_EQ(plan[0].memory_limit_bytes, 79 * kGiB - 10 * kMiB);
}

}  // namespace
}  // namespace rill

namespace rill {
namespace {

TEST(GpuDevicePlanTest, ForceAllowGrowthVariableOverridesTheConfigWithTensorFlowsWarning) {
  std::string message;
  EXPECT_FALSE(ResolveAllowGrowth(false, nullptr, &message));
  EXPECT_EQ(message, "");
  EXPECT_TRUE(ResolveAllowGrowth(false, "true", &message));
  EXPECT_EQ(message,
            "Overriding allow_growth setting because the TF_FORCE_GPU_ALLOW_GROWTH environment "
            "variable is set. Original config value was 0.");
  EXPECT_FALSE(ResolveAllowGrowth(true, "false", &message));
  EXPECT_THAT(message, HasSubstr("Original config value was 1."));
  // Anything but exactly "true" or "false" keeps the config value and says so.
  EXPECT_TRUE(ResolveAllowGrowth(true, "TRUE", &message));
  EXPECT_EQ(message,
            "The TF_FORCE_GPU_ALLOW_GROWTH environment variable is set but could not be parsed: "
            "\"TRUE\". Valid values are \"true\" or \"false\". Using original config value of 1.");
}

TEST(GpuDevicePlanTest, EachDeviceCarriesItsGrowthAndTheOptionThatSetItsLimit) {
  RILL_ASSERT_OK_AND_ASSIGN(auto plan,
                            PlanGpuDevices(Config("gpu_options { allow_growth: true "
                                                  "per_process_gpu_memory_fraction: 0.4 }"),
                                           Gpus(1)));
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_TRUE(plan[0].allow_growth);
  EXPECT_EQ(plan[0].memory_option, "per_process_gpu_memory_fraction 0.4");
  EXPECT_EQ(plan[0].gpu.pci_bus_id, "0000:10:00.0");
  RILL_ASSERT_OK_AND_ASSIGN(plan,
                            PlanGpuDevices(Config("gpu_options { experimental { virtual_devices { "
                                                  "memory_limit_mb: [1024.7, 512] } } }"),
                                           Gpus(1)));
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_FALSE(plan[0].allow_growth);
  EXPECT_EQ(plan[0].memory_option, "virtual device memory_limit_mb 1024");
  EXPECT_EQ(plan[1].memory_option, "virtual device memory_limit_mb 512");
  RILL_ASSERT_OK_AND_ASSIGN(plan, PlanGpuDevices(ConfigProto(), Gpus(1)));
  EXPECT_EQ(plan[0].memory_option, "default");
  setenv("TF_FORCE_GPU_ALLOW_GROWTH", "true", 1);
  RILL_ASSERT_OK_AND_ASSIGN(plan, PlanGpuDevices(ConfigProto(), Gpus(1)));
  unsetenv("TF_FORCE_GPU_ALLOW_GROWTH");
  EXPECT_TRUE(plan[0].allow_growth);
  EXPECT_THAT(plan[0].allow_growth_message, HasSubstr("Original config value was 0."));
}

}  // namespace
}  // namespace rill
