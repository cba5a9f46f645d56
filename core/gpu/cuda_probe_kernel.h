// Implemented by cuda_probe_kernel.cu (nvcc); only called when RILL_WITH_CUDA is defined.
#ifndef RILL_CORE_GPU_CUDA_PROBE_KERNEL_H_
#define RILL_CORE_GPU_CUDA_PROBE_KERNEL_H_

#include <string>
#include <vector>

#include "core/gpu/physical_gpu.h"

namespace rill {
namespace gpu_internal {

// cudaGetDeviceCount, with failures mapped to 0 and their text in *why_none.
int CudaDeviceCountImpl(std::string* why_none);
// Every GPU the runtime reports, with its properties and free/total memory; failures give an
// empty list and their text in *why_none.
std::vector<PhysicalGpu> DiscoverCudaGpusImpl(std::string* why_none);
// Runs a one-block kernel that writes i*2 into out[i] for i < n; returns the CUDA error text or
// "" on success. Used by the GPU test to prove nvcc-built code runs.
std::string LaunchDoubleIndices(int* host_out, int n);

}  // namespace gpu_internal
}  // namespace rill

#endif  // RILL_CORE_GPU_CUDA_PROBE_KERNEL_H_
