#include <cuda_runtime.h>

#include "core/gpu/cuda_probe_kernel.h"

namespace rill {
namespace gpu_internal {

namespace {
__global__ void DoubleIndices(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * i;
}
}  // namespace

int CudaDeviceCountImpl(std::string* why_none) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    if (why_none != nullptr) *why_none = cudaGetErrorString(err);
    return 0;
  }
  if (count == 0 && why_none != nullptr) *why_none = "the CUDA runtime reports no devices";
  return count;
}

std::string LaunchDoubleIndices(int* host_out, int n) {
  int* dev = nullptr;
  cudaError_t err = cudaMalloc(&dev, n * sizeof(int));
  if (err != cudaSuccess) return cudaGetErrorString(err);
  DoubleIndices<<<(n + 127) / 128, 128>>>(dev, n);
  err = cudaMemcpy(host_out, dev, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(dev);
  return err == cudaSuccess ? "" : cudaGetErrorString(err);
}

}  // namespace gpu_internal
}  // namespace rill
