// PhysicalGpu: what the CUDA driver reports about one GPU the process can see, the input from
// which the device manager makes TensorFlow GPU devices. Discovery (cuda_probe.h) fills it on a
// machine with GPUs; tests build it by hand, so every GPU rule is tested without a GPU.
//
//   PhysicalGpu gpu;
//   gpu.name = "NVIDIA H100 80GB HBM3";
//   gpu.pci_bus_id = "0000:05:00.0";
//   gpu.compute_major = 9;
//   GpuShortDescription(gpu);
//   // "device: 0, name: NVIDIA H100 80GB HBM3, pci bus id: 0000:05:00.0, compute capability: 9.0"
//
// Plain data; the functions are pure and thread-safe.
#ifndef RILL_CORE_GPU_PHYSICAL_GPU_H_
#define RILL_CORE_GPU_PHYSICAL_GPU_H_

#include <cstdint>
#include <string>
#include <vector>

namespace rill {

struct PhysicalGpu {
  // The CUDA device ordinal inside this process (after CUDA_VISIBLE_DEVICES), which TensorFlow
  // calls the platform GPU id and prints as "device: N".
  int platform_id = 0;
  std::string name;        // "NVIDIA H100 80GB HBM3"
  std::string pci_bus_id;  // "0000:05:00.0"
  int compute_major = 0;
  int compute_minor = 0;
  int64_t total_memory_bytes = 0;
  int64_t free_memory_bytes = 0;
  int multiprocessor_count = 0;
};

// TensorFlow's physical_device_desc for a GPU (spec §3):
// "device: <platform id>, name: <name>, pci bus id: <bus id>, compute capability: <maj>.<min>".
std::string GpuShortDescription(const PhysicalGpu& gpu);

// What the CUDA driver does with CUDA_VISIBLE_DEVICES, for GPUs injected by tests (real discovery
// already sees the driver's result). `value` null means the variable is unset: every GPU stays.
// Otherwise it is a comma-separated list of ordinals into `all`; the listed GPUs become visible in
// that order and are renumbered 0..k-1 (platform_id). As with the driver, the list ends at the
// first entry that is not a valid, not yet listed ordinal, so "" and "-1" hide every GPU and
// "1,x,0" shows only GPU 1.
std::vector<PhysicalGpu> ApplyCudaVisibleDevices(const std::vector<PhysicalGpu>& all,
                                                 const char* value);

}  // namespace rill

#endif  // RILL_CORE_GPU_PHYSICAL_GPU_H_
