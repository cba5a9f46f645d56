#include <cuda_runtime.h>

#include <cctype>

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

std::vector<PhysicalGpu> DiscoverCudaGpusImpl(std::string* why_none) {
  std::vector<PhysicalGpu> gpus;
  const int count = CudaDeviceCountImpl(why_none);
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop;
    cudaError_t err = cudaGetDeviceProperties(&prop, i);
    char bus_id[32] = {};
    if (err == cudaSuccess) err = cudaDeviceGetPCIBusId(bus_id, sizeof(bus_id), i);
    size_t free_bytes = 0, total_bytes = 0;
    if (err == cudaSuccess) err = cudaSetDevice(i);
    if (err == cudaSuccess) err = cudaMemGetInfo(&free_bytes, &total_bytes);
    if (err != cudaSuccess) {
      if (why_none != nullptr) *why_none = cudaGetErrorString(err);
      return {};
    }
    PhysicalGpu gpu;
    gpu.platform_id = i;
    gpu.name = prop.name;
    gpu.pci_bus_id = bus_id;
    // TensorFlow prints the bus id in lower case ("0000:05:00.0").
    for (char& c : gpu.pci_bus_id) c = static_cast<char>(std::tolower(c));
    gpu.compute_major = prop.major;
    gpu.compute_minor = prop.minor;
    gpu.total_memory_bytes = static_cast<int64_t>(total_bytes);
    gpu.free_memory_bytes = static_cast<int64_t>(free_bytes);
    gpu.multiprocessor_count = prop.multiProcessorCount;
    gpus.push_back(std::move(gpu));
  }
  return gpus;
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
