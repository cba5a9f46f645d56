#include "session/device_mgr.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "core/device_name.h"
#include "core/gpu/gpu_device.h"
#include "core/logging.h"
#include "core/status_macros.h"
#include "session/gpu_device_plan.h"

namespace rill {

namespace {

DeviceAttributes GpuAttributes(const GpuDevicePlan& plan) {
  DeviceAttributes attrs;
  attrs.set_name(FullDeviceName(kDeviceGpu, plan.tf_gpu_id));
  attrs.set_incarnation(NewDeviceIncarnation());
  attrs.set_device_type(kDeviceGpu);
  attrs.set_memory_limit(plan.memory_limit_bytes);
  attrs.mutable_locality()->set_bus_id(1);
  attrs.set_physical_device_desc(plan.physical_device_desc);
  return attrs;
}

// A GpuDevice with its streams when the memory is CUDA's (a real GPU), else a plain Device over
// simulated memory (GPUs injected by tests), on which no CUDA kernel runs.
absl::StatusOr<std::unique_ptr<Device>> NewGpuDevice(const GpuDevicePlan& plan,
                                                     Allocator* allocator,
                                                     GpuProcessState* gpu_state) {
#ifdef RILL_WITH_CUDA
  if (gpu_state->memory() == GpuProcessState::Memory::kCuda) {
    RILL_ASSIGN_OR_RETURN(
        std::unique_ptr<GpuDevice> gpu,
        GpuDevice::Create(GpuAttributes(plan), allocator, gpu_state->GetGpuHostAllocator(),
                          plan.gpu.platform_id));
    return std::unique_ptr<Device>(std::move(gpu));
  }
#endif
  return std::make_unique<Device>(GpuAttributes(plan), allocator);
}

}  // namespace

absl::StatusOr<std::unique_ptr<DeviceMgr>> DeviceMgr::Create(
    const ConfigProto& config, const std::vector<PhysicalGpu>& visible_gpus,
    GpuProcessState* gpu_state) {
  int num_cpus = 1;
  auto it = config.device_count().find(kDeviceCpu);
  if (it != config.device_count().end()) num_cpus = it->second;
  if (num_cpus <= 0) {
    return absl::NotFoundError("No CPU devices are available in this process");
  }
  auto mgr = std::make_unique<DeviceMgr>();
  for (int i = 0; i < num_cpus; ++i) {
    mgr->devices_.push_back(NewCpuDevice(FullDeviceName(kDeviceCpu, i)));
  }
  RILL_ASSIGN_OR_RETURN(std::vector<GpuDevicePlan> gpus, PlanGpuDevices(config, visible_gpus));
  if (!gpus.empty()) {
    const std::string& growth_message = gpus.front().allow_growth_message;
    if (!growth_message.empty()) RILL_LOG(WARNING) << growth_message;
    if (gpu_state == nullptr) {
      mgr->own_gpu_state_ = std::make_unique<GpuProcessState>(GpuProcessState::Memory::kSimulated);
      gpu_state = mgr->own_gpu_state_.get();
    }
  }
  for (const GpuDevicePlan& plan : gpus) {
    GpuAllocatorRequest request;
    request.tf_gpu_id = plan.tf_gpu_id;
    request.gpu = plan.gpu;
    request.memory_limit_bytes = plan.memory_limit_bytes;
    request.allow_growth = plan.allow_growth;
    request.memory_option = plan.memory_option;
    RILL_ASSIGN_OR_RETURN(Allocator * allocator, gpu_state->GetGpuAllocator(request));
    RILL_ASSIGN_OR_RETURN(std::unique_ptr<Device> device, NewGpuDevice(plan, allocator, gpu_state));
    mgr->gpus_run_cuda_kernels_ = AsGpuDevice(device.get()) != nullptr;
    mgr->devices_.push_back(std::move(device));
    // TensorFlow's line, which users look for to see what each GPU got.
    RILL_LOG(INFO) << "Created TensorFlow device (" << mgr->devices_.back()->name() << " with "
                   << plan.memory_limit_bytes / (int64_t{1} << 20)
                   << " MB memory) -> physical GPU (" << plan.physical_device_desc << ")";
  }
  return mgr;
}

std::vector<std::string> DeviceMgr::DeviceNames() const {
  std::vector<std::string> names;
  for (const auto& d : devices_) names.push_back(d->name());
  return names;
}

Device* DeviceMgr::Find(const std::string& full_name) const {
  for (const auto& d : devices_) {
    if (d->name() == full_name) return d.get();
  }
  return nullptr;
}

}  // namespace rill
