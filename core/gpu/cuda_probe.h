// Asks the CUDA runtime how many GPUs this process can use. No toolkit at build time, no driver,
// no GPU, or CUDA_VISIBLE_DEVICES="" all mean 0, never an error (../shared/notes/gpu.md): a
// machine without GPUs runs Rill on its CPUs. Thread-safe.
#ifndef RILL_CORE_GPU_CUDA_PROBE_H_
#define RILL_CORE_GPU_CUDA_PROBE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "core/gpu/physical_gpu.h"

namespace rill {

// True when Rill was built with the CUDA toolkit (RILL_WITH_CUDA).
bool BuiltWithCuda();
// The number of usable GPUs (0 when none). `why_none`, if non-null, receives the reason when 0.
int CudaDeviceCount(std::string* why_none = nullptr);
// The GPUs this process can use (the driver has applied CUDA_VISIBLE_DEVICES), with name, PCI bus
// id, compute capability and free/total memory; empty with the reason in `why_none` when none.
std::vector<PhysicalGpu> DiscoverCudaGpus(std::string* why_none = nullptr);

// Free and total memory of GPU `platform_id` as the driver reports them now (cudaMemGetInfo);
// false with the reason in *error without CUDA or when the query fails.
bool QueryGpuMemory(int platform_id, int64_t* free_bytes, int64_t* total_bytes, std::string* error);

}  // namespace rill

#endif  // RILL_CORE_GPU_CUDA_PROBE_H_
