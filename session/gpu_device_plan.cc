#include "session/gpu_device_plan.h"

#include <climits>
#include <cmath>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"

namespace rill {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

// visible_device_list -> visible GPU ids in TF id order (identity when empty).
absl::StatusOr<std::vector<int>> ParseVisibleDeviceList(const std::string& list,
                                                        int visible_count) {
  std::vector<int> order;
  if (list.empty()) {
    for (int i = 0; i < visible_count; ++i) order.push_back(i);
    return order;
  }
  for (absl::string_view token : absl::StrSplit(list, ',')) {
    int id = 0;
    if (!absl::SimpleAtoi(token, &id)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Could not parse entry in 'visible_device_list': '", token,
                       "'. visible_device_list = ", list));
    }
    if (id < 0 || id >= visible_count) {
      return absl::InvalidArgumentError(
          absl::StrCat("'visible_device_list' listed an invalid GPU id '", id,
                       "' but visible device count is ", visible_count));
    }
    order.push_back(id);
  }
  if (std::set<int>(order.begin(), order.end()).size() != order.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("visible_device_list contained a duplicate entry: ", list));
  }
  return order;
}

// The checks of visible_device_list that need no GPU: every entry an integer >= 0, none
// repeated (TensorFlow's texts where it has one). Run with or without GPUs, so a config that
// cannot work on a GPU machine fails on a CPU-only one too; ids are checked against the GPUs
// present only when there are some (a list naming GPU 0 stays portable).
absl::Status CheckVisibleDeviceListSyntax(const std::string& list) {
  if (list.empty()) return absl::OkStatus();
  std::vector<int> ids;
  for (absl::string_view token : absl::StrSplit(list, ',')) {
    int id = 0;
    if (!absl::SimpleAtoi(token, &id)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Could not parse entry in 'visible_device_list': '", token,
                       "'. visible_device_list = ", list));
    }
    if (id < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'visible_device_list' listed an invalid GPU id '", id, "'; GPU ids are >= 0"));
    }
    ids.push_back(id);
  }
  // Repeats last, as ParseVisibleDeviceList (and TensorFlow) check them.
  if (std::set<int>(ids.begin(), ids.end()).size() != ids.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("visible_device_list contained a duplicate entry: ", list));
  }
  return absl::OkStatus();
}

absl::Status VerifyVirtualDevices(size_t num_gpus_to_use, const GPUOptions& gpu_options,
                                  size_t visible_order_size, size_t valid_count) {
  const auto& virtual_devices = gpu_options.experimental().virtual_devices();
  const size_t n = static_cast<size_t>(virtual_devices.size());
  if (gpu_options.per_process_gpu_memory_fraction() > 0) {
    return absl::InvalidArgumentError(
        "It's invalid to set per_process_gpu_memory_fraction when virtual_devices is set.");
  }
  if (num_gpus_to_use < n) {
    return absl::UnknownError(absl::StrCat("Not enough GPUs to create virtual devices. ",
                                           "num_gpus_to_use: ", num_gpus_to_use,
                                           " #virtual_devices: ", n));
  }
  if (!gpu_options.visible_device_list().empty() && visible_order_size != n) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The number of GPUs in visible_device_list doesn't match the number of elements in the "
        "virtual_devices list. #GPUs in visible_device_list: ",
        visible_order_size, " virtual_devices.size(): ", n));
  }
  if (valid_count != n) {
    return absl::UnknownError(absl::StrCat(
        "The number of valid GPUs doesn't match the number of elements in the virtual_devices "
        "list. #valid GPUs: ",
        valid_count, " virtual_devices.size(): ", n));
  }
  return absl::OkStatus();
}

// The limit of a GPU used whole (no virtual device list for it).
int64_t SingleDeviceMemoryLimit(const ConfigProto& config, const PhysicalGpu& gpu) {
  const GPUOptions& options = config.gpu_options();
  if (options.per_process_gpu_memory_fraction() > 0) {
    return static_cast<int64_t>(static_cast<double>(gpu.total_memory_bytes) *
                                options.per_process_gpu_memory_fraction());
  }
  int64_t reserve = DefaultMinSystemMemory(gpu.free_memory_bytes, gpu.compute_major);
  int64_t from_env = 0;
  const char* env = std::getenv("TF_DEVICE_MIN_SYS_MEMORY_IN_MB");
  if (env != nullptr && absl::SimpleAtoi(env, &from_env) && from_env >= 0) {
    reserve = from_env * kMiB;
  } else if (options.experimental().gpu_system_memory_size_in_mb() > 0) {
    reserve = int64_t{options.experimental().gpu_system_memory_size_in_mb()} * kMiB;
  }
  return std::max<int64_t>(0, gpu.free_memory_bytes - reserve);
}

// Memory sizes from the config become byte counts; a NaN, infinite, negative or astronomically
// large value would make the conversion undefined (found by tests/fuzz:config_proto_fuzzer:
// memory_limit_mb: nan). InvalidArgument naming the field and the value.
absl::Status ValidateMemoryOptions(const GPUOptions& options) {
  const double fraction = options.per_process_gpu_memory_fraction();
  if (!std::isfinite(fraction) || fraction < 0 || fraction > 1e6) {
    return absl::InvalidArgumentError(absl::StrCat(
        "gpu_options.per_process_gpu_memory_fraction is ", fraction,
        "; it must be a number >= 0 (0 means the default; above 1 oversubscribes with unified "
        "memory)"));
  }
  const auto& virtual_devices = options.experimental().virtual_devices();
  for (int g = 0; g < virtual_devices.size(); ++g) {
    const auto& limits = virtual_devices.Get(g).memory_limit_mb();
    for (int i = 0; i < limits.size(); ++i) {
      const float mb = limits.Get(i);
      // 2^43 MiB = 2^63 bytes.
      if (!std::isfinite(mb) || mb < 0 || mb >= 8.796093e12f) {
        return absl::InvalidArgumentError(
            absl::StrCat("gpu_options.experimental.virtual_devices[", g, "].memory_limit_mb[", i,
                         "] is ", mb, "; each memory limit must be a finite number of MiB >= 0"));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

bool ResolveAllowGrowth(bool config_value, const char* env_value, std::string* message) {
  message->clear();
  if (env_value == nullptr) return config_value;
  const std::string value = env_value;
  if (value == "true" || value == "false") {
    *message = absl::StrCat(
        "Overriding allow_growth setting because the TF_FORCE_GPU_ALLOW_GROWTH environment "
        "variable is set. Original config value was ",
        config_value ? 1 : 0, ".");
    return value == "true";
  }
  *message = absl::StrCat(
      "The TF_FORCE_GPU_ALLOW_GROWTH environment variable is set but could "
      "not be parsed: \"",
      value,
      "\". Valid values are \"true\" or \"false\". Using original "
      "config value of ",
      config_value ? 1 : 0, ".");
  return config_value;
}

int64_t DefaultMinSystemMemory(int64_t free_bytes, int compute_major) {
  if (free_bytes < (int64_t{1} << 31)) return 225 * kMiB;
  if (compute_major <= 6) return 500 * kMiB;
  if (compute_major <= 7) return 1050 * kMiB;
  return 1536 * kMiB;
}

absl::StatusOr<std::vector<GpuDevicePlan>> PlanGpuDevices(const ConfigProto& config,
                                                          const std::vector<PhysicalGpu>& visible) {
  std::vector<GpuDevicePlan> plan;
  RILL_RETURN_IF_ERROR(ValidateMemoryOptions(config.gpu_options()));
  size_t num_gpus_to_use = INT_MAX;
  auto it = config.device_count().find("GPU");
  if (it != config.device_count().end()) num_gpus_to_use = std::max(0, it->second);
  if (num_gpus_to_use > 0) {
    RILL_RETURN_IF_ERROR(CheckVisibleDeviceListSyntax(config.gpu_options().visible_device_list()));
  }
  if (visible.empty()) return plan;
  const GPUOptions& gpu_options = config.gpu_options();
  std::vector<int> visible_order;
  if (num_gpus_to_use > 0) {
    RILL_ASSIGN_OR_RETURN(visible_order, ParseVisibleDeviceList(gpu_options.visible_device_list(),
                                                                static_cast<int>(visible.size())));
  }
  // Every listed GPU is valid here: Rill does not skip GPUs by compute capability or SM count.
  const std::vector<int>& valid = visible_order;
  num_gpus_to_use = std::min(num_gpus_to_use, valid.size());
  const auto& virtual_devices = gpu_options.experimental().virtual_devices();
  if (!virtual_devices.empty()) {
    RILL_RETURN_IF_ERROR(
        VerifyVirtualDevices(num_gpus_to_use, gpu_options, visible_order.size(), valid.size()));
    num_gpus_to_use = static_cast<size_t>(virtual_devices.size());
  }
  std::string growth_message;
  const bool allow_growth = ResolveAllowGrowth(
      gpu_options.allow_growth(), std::getenv("TF_FORCE_GPU_ALLOW_GROWTH"), &growth_message);
  for (size_t i = 0; i < num_gpus_to_use; ++i) {
    const PhysicalGpu& gpu = visible[valid[i]];
    std::vector<std::pair<int64_t, std::string>> limits;  // (bytes, the option that set it)
    if (!virtual_devices.empty()) {
      for (float mb : virtual_devices.Get(static_cast<int>(i)).memory_limit_mb()) {
        const int64_t whole_mb = static_cast<int64_t>(mb);
        limits.emplace_back(whole_mb * kMiB,
                            absl::StrCat("virtual device memory_limit_mb ", whole_mb));
      }
    }
    if (limits.empty()) {
      const double fraction = gpu_options.per_process_gpu_memory_fraction();
      limits.emplace_back(SingleDeviceMemoryLimit(config, gpu),
                          fraction > 0 ? absl::StrCat("per_process_gpu_memory_fraction ", fraction)
                                       : std::string("default"));
    }
    for (auto& [limit, option] : limits) {
      GpuDevicePlan device;
      device.tf_gpu_id = static_cast<int>(plan.size());
      device.platform_gpu_id = gpu.platform_id;
      device.memory_limit_bytes = limit;
      device.physical_device_desc = GpuShortDescription(gpu);
      device.gpu = gpu;
      device.allow_growth = allow_growth;
      device.allow_growth_message = growth_message;
      device.memory_option = std::move(option);
      plan.push_back(std::move(device));
    }
  }
  return plan;
}

}  // namespace rill
