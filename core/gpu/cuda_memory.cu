#include <cuda_runtime.h>

#include "core/gpu/cuda_memory_impl.h"

namespace rill {
namespace gpu_internal {

namespace {
bool Check(cudaError_t err, std::string* error) {
  if (err == cudaSuccess) return true;
  if (error != nullptr) *error = cudaGetErrorString(err);
  cudaGetLastError();  // clears the sticky-free error so later calls are not blamed for it
  return false;
}
}  // namespace

void* CudaDeviceMalloc(int platform_id, size_t bytes, std::string* error) {
  void* ptr = nullptr;
  if (!Check(cudaSetDevice(platform_id), error)) return nullptr;
  if (!Check(cudaMalloc(&ptr, bytes), error)) return nullptr;
  return ptr;
}

void CudaDeviceFree(int platform_id, void* ptr) {
  if (cudaSetDevice(platform_id) == cudaSuccess) cudaFree(ptr);
}

void* CudaPinnedHostMalloc(size_t bytes, std::string* error) {
  void* ptr = nullptr;
  if (!Check(cudaHostAlloc(&ptr, bytes, cudaHostAllocPortable), error)) return nullptr;
  return ptr;
}

void CudaPinnedHostFree(void* ptr) { cudaFreeHost(ptr); }

bool CudaMemoryInfo(int platform_id, size_t* free_bytes, size_t* total_bytes, std::string* error) {
  if (!Check(cudaSetDevice(platform_id), error)) return false;
  return Check(cudaMemGetInfo(free_bytes, total_bytes), error);
}

}  // namespace gpu_internal
}  // namespace rill
