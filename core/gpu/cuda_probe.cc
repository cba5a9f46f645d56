#include "core/gpu/cuda_probe.h"

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

}  // namespace rill
