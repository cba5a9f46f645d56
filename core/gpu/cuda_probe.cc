#include "core/gpu/cuda_probe.h"

#include "core/gpu/cuda_memory_impl.h"
#include "core/gpu/cuda_probe_kernel.h"

namespace rill {

bool BuiltWithCuda() {
#ifdef RILL_WITH_CUDA
  return true;
#else
  return false;
#endif
}

int CudaDeviceCount(std::string* why_none) {
#ifdef RILL_WITH_CUDA
  return gpu_internal::CudaDeviceCountImpl(why_none);
#else
  if (why_none != nullptr) *why_none = "Rill was built without the CUDA toolkit";
  return 0;
#endif
}

std::vector<PhysicalGpu> DiscoverCudaGpus(std::string* why_none) {
#ifdef RILL_WITH_CUDA
  return gpu_internal::DiscoverCudaGpusImpl(why_none);
#else
  if (why_none != nullptr) *why_none = "Rill was built without the CUDA toolkit";
  return {};
#endif
}

bool QueryGpuMemory(int platform_id, int64_t* free_bytes, int64_t* total_bytes,
                    std::string* error) {
#ifdef RILL_WITH_CUDA
  size_t free_now = 0, total = 0;
  if (!gpu_internal::CudaMemoryInfo(platform_id, &free_now, &total, error)) return false;
  *free_bytes = static_cast<int64_t>(free_now);
  *total_bytes = static_cast<int64_t>(total);
  return true;
#else
  (void)platform_id;
  (void)free_bytes;
  (void)total_bytes;
  if (error != nullptr) *error = "Rill was built without the CUDA toolkit";
  return false;
#endif
}

}  // namespace rill
