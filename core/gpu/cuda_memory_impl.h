// Implemented by cuda_memory.cu (nvcc); only called when RILL_WITH_CUDA is defined. Thin wrappers
// over the CUDA runtime's memory calls so that host-compiled code needs no CUDA headers.
// Thread-safe (the CUDA runtime is).
#ifndef RILL_CORE_GPU_CUDA_MEMORY_IMPL_H_
#define RILL_CORE_GPU_CUDA_MEMORY_IMPL_H_

#include <cstddef>
#include <string>

namespace rill {
namespace gpu_internal {

// cudaMalloc on GPU `platform_id`; nullptr (and the CUDA error in *error) when it fails.
void* CudaDeviceMalloc(int platform_id, size_t bytes, std::string* error);
void CudaDeviceFree(int platform_id, void* ptr);
// cudaHostAlloc (page-locked, portable); nullptr (and the error) when it fails.
void* CudaPinnedHostMalloc(size_t bytes, std::string* error);
void CudaPinnedHostFree(void* ptr);
// cudaMemGetInfo on GPU `platform_id`; false (and the error) when it fails.
bool CudaMemoryInfo(int platform_id, size_t* free_bytes, size_t* total_bytes, std::string* error);

}  // namespace gpu_internal
}  // namespace rill

#endif  // RILL_CORE_GPU_CUDA_MEMORY_IMPL_H_
