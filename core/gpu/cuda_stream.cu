#include <cuda_runtime.h>

#include "core/gpu/cuda_stream.h"

namespace rill {
namespace gpu_internal {

namespace {

bool Check(cudaError_t err, std::string* error) {
  if (err == cudaSuccess) return true;
  if (error != nullptr) {
    *error = std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
  }
  cudaGetLastError();  // clears a non-sticky error so later calls are not blamed for it
  return false;
}

cudaStream_t S(CudaStream s) { return static_cast<cudaStream_t>(s); }
cudaEvent_t E(CudaEvent e) { return static_cast<cudaEvent_t>(e); }

cudaMemcpyKind Kind(CudaCopy kind) {
  switch (kind) {
    case CudaCopy::kHostToDevice:
      return cudaMemcpyHostToDevice;
    case CudaCopy::kDeviceToHost:
      return cudaMemcpyDeviceToHost;
    case CudaCopy::kDeviceToDevice:
      return cudaMemcpyDeviceToDevice;
  }
  return cudaMemcpyDefault;
}

}  // namespace

bool CudaSetDevice(int platform_id, std::string* error) {
  return Check(cudaSetDevice(platform_id), error);
}

bool CudaCreateStream(int platform_id, CudaStream* stream, std::string* error) {
  if (!CudaSetDevice(platform_id, error)) return false;
  cudaStream_t s = nullptr;
  if (!Check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), error)) return false;
  *stream = s;
  return true;
}

void CudaDestroyStream(int platform_id, CudaStream stream) {
  if (stream != nullptr && cudaSetDevice(platform_id) == cudaSuccess) {
    cudaStreamDestroy(S(stream));
  }
}

bool CudaCreateEvent(int platform_id, CudaEvent* event, std::string* error) {
  if (!CudaSetDevice(platform_id, error)) return false;
  cudaEvent_t e = nullptr;
  if (!Check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming | cudaEventBlockingSync), error)) {
    return false;
  }
  *event = e;
  return true;
}

void CudaDestroyEvent(int platform_id, CudaEvent event) {
  if (event != nullptr && cudaSetDevice(platform_id) == cudaSuccess) cudaEventDestroy(E(event));
}

bool CudaRecordEvent(int platform_id, CudaEvent event, CudaStream stream, std::string* error) {
  return CudaSetDevice(platform_id, error) && Check(cudaEventRecord(E(event), S(stream)), error);
}

bool CudaStreamWaitEvent(int platform_id, CudaStream stream, CudaEvent event, std::string* error) {
  return CudaSetDevice(platform_id, error) &&
         Check(cudaStreamWaitEvent(S(stream), E(event), 0), error);
}

bool CudaEventSynchronize(int platform_id, CudaEvent event, std::string* error) {
  return CudaSetDevice(platform_id, error) && Check(cudaEventSynchronize(E(event)), error);
}

bool CudaStreamSynchronize(int platform_id, CudaStream stream, std::string* error) {
  return CudaSetDevice(platform_id, error) && Check(cudaStreamSynchronize(S(stream)), error);
}

bool CudaMemcpyAsync(int platform_id, void* dst, const void* src, size_t bytes, CudaCopy kind,
                     CudaStream stream, std::string* error) {
  if (bytes == 0) return true;
  return CudaSetDevice(platform_id, error) &&
         Check(cudaMemcpyAsync(dst, src, bytes, Kind(kind), S(stream)), error);
}

bool CudaMemcpyPeerAsync(void* dst, int dst_platform_id, const void* src, int src_platform_id,
                         size_t bytes, CudaStream stream, std::string* error) {
  if (bytes == 0) return true;
  return CudaSetDevice(dst_platform_id, error) &&
         Check(cudaMemcpyPeerAsync(dst, dst_platform_id, src, src_platform_id, bytes, S(stream)),
               error);
}

bool CudaMemcpy(int platform_id, void* dst, const void* src, size_t bytes, CudaCopy kind,
                std::string* error) {
  if (bytes == 0) return true;
  return CudaSetDevice(platform_id, error) && Check(cudaMemcpy(dst, src, bytes, Kind(kind)), error);
}

bool CudaMemsetAsync(int platform_id, void* dst, int value, size_t bytes, CudaStream stream,
                     std::string* error) {
  if (bytes == 0) return true;
  return CudaSetDevice(platform_id, error) &&
         Check(cudaMemsetAsync(dst, value, bytes, S(stream)), error);
}

bool CudaPointerMemory(const void* ptr, int* platform_id, std::string* error) {
  cudaPointerAttributes attributes;
  if (!Check(cudaPointerGetAttributes(&attributes, ptr), error)) return false;
  const bool on_gpu =
      attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
  *platform_id = on_gpu ? attributes.device : -1;
  return true;
}

bool CudaLastLaunchOk(std::string* error) { return Check(cudaGetLastError(), error); }

}  // namespace gpu_internal
}  // namespace rill
