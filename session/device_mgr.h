// DeviceMgr: the devices one session sees, built from its ConfigProto and the GPUs the process
// sees (injected: DiscoverCudaGpus on a GPU machine, fake PhysicalGpus in tests).
// `device_count {"CPU": N}` makes N CPU devices (default 1; 0 fails with TensorFlow's NotFound
// "No CPU devices are available in this process"). GPUs follow gpu_device_plan.h
// (visible_device_list, virtual devices, device_count {"GPU": N}, memory limits); no GPU is not an
// error. Names are TensorFlow's full names, /job:localhost/replica:0/task:0/device:GPU:0.
//
//   RILL_ASSIGN_OR_RETURN(std::unique_ptr<DeviceMgr> mgr, DeviceMgr::Create(config, gpus));
//   mgr->client_device();   // CPU:0, where feeds and fetches live
//
// GPU devices carry TensorFlow's attributes (memory_limit, physical_device_desc for the
// "Device mapping:" log) and their allocator GPU_<id>_bfc from the GpuProcessState (per process,
// as TensorFlow's: without allow_growth each GPU's whole limit is reserved here). GPUs with CUDA
// memory (GpuProcessState::Memory::kCuda) are GpuDevices with their streams (core/gpu/
// gpu_device.h) and run the CUDA kernels; simulated ones (tests) are plain Devices, on which the
// session hides CUDA kernels from the placer (gpus_run_cuda_kernels()).
//
// Owns its devices (and, when none was given, a simulated GpuProcessState of its own). Immutable
// after creation; thread-safe.
#ifndef RILL_SESSION_DEVICE_MGR_H_
#define RILL_SESSION_DEVICE_MGR_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/device.h"
#include "core/gpu/gpu_process_state.h"
#include "core/gpu/physical_gpu.h"
#include "proto/config.pb.h"

namespace rill {

class DeviceMgr {
 public:
  // Errors: NotFound for CPU count 0; the GPU planning errors of gpu_device_plan.h; the
  // allocator errors of GpuProcessState::GetGpuAllocator (AlreadyExists, FailedPrecondition,
  // ResourceExhausted). `gpu_state` null with GPUs: a simulated state private to this manager
  // (for GPUs injected by tests; real GPUs use GpuProcessState::Global()).
  static absl::StatusOr<std::unique_ptr<DeviceMgr>> Create(
      const ConfigProto& config, const std::vector<PhysicalGpu>& visible_gpus = {},
      GpuProcessState* gpu_state = nullptr);

  // In TensorFlow's order: CPUs first (CPU:0 is the client device), then GPUs.
  const std::vector<std::unique_ptr<Device>>& devices() const { return devices_; }
  std::vector<std::string> DeviceNames() const;
  Device* client_device() const { return devices_.front().get(); }
  // nullptr when no device has that full name.
  Device* Find(const std::string& full_name) const;
  // True when its GPUs are real CUDA devices (GpuDevice); false for simulated GPUs or none.
  bool gpus_run_cuda_kernels() const { return gpus_run_cuda_kernels_; }

 private:
  std::unique_ptr<GpuProcessState> own_gpu_state_;  // before devices_: outlives them
  std::vector<std::unique_ptr<Device>> devices_;
  bool gpus_run_cuda_kernels_ = false;
};

}  // namespace rill

#endif  // RILL_SESSION_DEVICE_MGR_H_
