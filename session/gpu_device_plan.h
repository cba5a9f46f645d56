// GPU device planning: which TensorFlow GPU devices a session gets from the GPUs the process sees
// and its ConfigProto, with TensorFlow's rules and error texts (spec §7.1, §7.2, §7.4, §8). Pure:
// the device manager turns the plan into devices; tests feed it fake GPUs.
//
//   RILL_ASSIGN_OR_RETURN(std::vector<GpuDevicePlan> plan, PlanGpuDevices(config, visible));
//   plan[0].tf_gpu_id;             // 0  -> /device:GPU:0
//   plan[0].physical_device_desc;  // "device: 5, name: ..., pci bus id: ..., compute
//   capability: 9.0"
//
// Rules, in TensorFlow's order:
//  - Checked with or without GPUs (Rill's choice: TensorFlow checks nothing without a GPU, so a
//    config that fails on a GPU machine would pass on a CPU-only one): memory fractions and
//    virtual-device limits must be finite and >= 0, and visible_device_list entries integers
//    >= 0 without repeats (unless device_count {"GPU": 0}).
//  - No visible GPU: then no GPU devices and no further check (ids in visible_device_list are not
//    compared with a GPU count, so a config naming GPU 0 runs on a CPU-only host).
//  - device_count {"GPU": n} caps the number used (absent = all); 0 means none, and then
//    visible_device_list is not even parsed.
//  - gpu_options.visible_device_list "a,b" maps visible GPU a to GPU:0, b to GPU:1 (empty =
//    identity). InvalidArgument:
//      "Could not parse entry in 'visible_device_list': '<tok>'. visible_device_list = <list>"
//      "'visible_device_list' listed an invalid GPU id '<id>' but visible device count is <n>"
//      "visible_device_list contained a duplicate entry: <list>"
//  - gpu_options.experimental.virtual_devices: one entry per GPU used; an entry with k
//    memory_limit_mb values makes k GPU devices on that GPU (ids assigned in order), an empty
//    entry one device with the default limit. Errors (code as TensorFlow):
//      InvalidArgument "It's invalid to set per_process_gpu_memory_fraction when virtual_devices
//        is set."
//      Unknown "Not enough GPUs to create virtual devices. num_gpus_to_use: <a> #virtual_devices:
//      <b>" InvalidArgument "The number of GPUs in visible_device_list doesn't match the number of
//        elements in the virtual_devices list. #GPUs in visible_device_list: <a>
//        virtual_devices.size(): <b>"
//      Unknown "The number of valid GPUs doesn't match the number of elements in the
//        virtual_devices list. #valid GPUs: <a> virtual_devices.size(): <b>"
//  - allow_growth: gpu_options.allow_growth unless TF_FORCE_GPU_ALLOW_GROWTH is exactly "true" or
//    "false" (ResolveAllowGrowth).
//  - Memory limit per device: a virtual device's memory_limit_mb (truncated to whole MiB);
//    else per_process_gpu_memory_fraction > 0: total memory x fraction; else free memory minus
//    the memory kept for the system: TF_DEVICE_MIN_SYS_MEMORY_IN_MB (environment) or
//    experimental.gpu_system_memory_size_in_mb when set, else 225 MiB when less than 2 GiB is
//    free, else 500 / 1050 / 1536 MiB for compute capability <= 6 / 7 / >= 8 (TensorFlow 2.x).
//
// Thread safety: pure function (it reads one environment variable).
#ifndef RILL_SESSION_GPU_DEVICE_PLAN_H_
#define RILL_SESSION_GPU_DEVICE_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/gpu/physical_gpu.h"
#include "proto/config.pb.h"

namespace rill {

struct GpuDevicePlan {
  int tf_gpu_id = 0;        // N in /device:GPU:N
  int platform_gpu_id = 0;  // the visible GPU it runs on (PhysicalGpu::platform_id)
  int64_t memory_limit_bytes = 0;
  std::string physical_device_desc;  // GpuShortDescription of that GPU
  PhysicalGpu gpu;                   // the visible GPU itself
  bool allow_growth = false;         // after TF_FORCE_GPU_ALLOW_GROWTH
  // ResolveAllowGrowth's warning ("" when the variable is unset), the same on every device: the
  // device manager logs it once.
  std::string allow_growth_message;
  // Which option set the memory limit, for the per-process rule's messages and comparison:
  // "default", "per_process_gpu_memory_fraction 0.4", "virtual device memory_limit_mb 1024".
  std::string memory_option;
};

// `visible`: the GPUs the process sees, in CUDA ordinal order (DiscoverCudaGpus, or
// ApplyCudaVisibleDevices over fake GPUs in tests). Errors: see the file comment.
absl::StatusOr<std::vector<GpuDevicePlan>> PlanGpuDevices(const ConfigProto& config,
                                                          const std::vector<PhysicalGpu>& visible);

// allow_growth as TensorFlow resolves it: `env_value` (TF_FORCE_GPU_ALLOW_GROWTH, null when unset)
// "true" or "false" overrides `config_value`, and *message gets TensorFlow's warning ("Overriding
// allow_growth setting because the TF_FORCE_GPU_ALLOW_GROWTH environment variable is set.
// Original config value was 0."); any other value keeps `config_value` and *message says the
// value is invalid. *message is "" when the variable is unset.
bool ResolveAllowGrowth(bool config_value, const char* env_value, std::string* message);

// The memory TensorFlow leaves to the system on a GPU with `free_bytes` free and compute
// capability major version `compute_major`, before any override (see the file comment).
int64_t DefaultMinSystemMemory(int64_t free_bytes, int compute_major);

}  // namespace rill

#endif  // RILL_SESSION_GPU_DEVICE_PLAN_H_
