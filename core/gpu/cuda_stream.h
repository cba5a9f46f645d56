// Thin wrappers over the CUDA runtime's streams, events, copies and launch errors, implemented by
// cuda_stream.cu (nvcc), so that host-compiled code needs no CUDA headers. Only built with a CUDA
// toolkit (RILL_WITH_CUDA). Every call first makes `platform_id` the calling thread's current
// device (CUDA's streams, events and launches belong to one device). On failure a call returns
// false and puts CUDA's error text ("cudaErrorInvalidValue: invalid argument") in *error; the
// error is cleared so later calls are not blamed for it. Thread-safe (the CUDA runtime is).
//
//   CudaStream s;
//   if (!CudaCreateStream(0, &s, &error)) return absl::InternalError(error);
//   CudaMemcpyAsync(0, dst, src, bytes, CudaCopy::kHostToDevice, s, &error);
#ifndef RILL_CORE_GPU_CUDA_STREAM_H_
#define RILL_CORE_GPU_CUDA_STREAM_H_

#include <cstddef>
#include <string>

namespace rill {
namespace gpu_internal {

using CudaStream = void*;  // cudaStream_t
using CudaEvent = void*;   // cudaEvent_t

enum class CudaCopy { kHostToDevice, kDeviceToHost, kDeviceToDevice };

bool CudaSetDevice(int platform_id, std::string* error);
// A non-blocking stream (it does not synchronize with the legacy default stream).
bool CudaCreateStream(int platform_id, CudaStream* stream, std::string* error);
void CudaDestroyStream(int platform_id, CudaStream stream);
// An event without timing whose waits block the thread (no spinning).
bool CudaCreateEvent(int platform_id, CudaEvent* event, std::string* error);
void CudaDestroyEvent(int platform_id, CudaEvent event);
bool CudaRecordEvent(int platform_id, CudaEvent event, CudaStream stream, std::string* error);
// Later work on `stream` waits for `event` (on the GPU; the host does not wait).
bool CudaStreamWaitEvent(int platform_id, CudaStream stream, CudaEvent event, std::string* error);
// Blocks the calling thread until `event` has completed.
bool CudaEventSynchronize(int platform_id, CudaEvent event, std::string* error);
bool CudaStreamSynchronize(int platform_id, CudaStream stream, std::string* error);
bool CudaMemcpyAsync(int platform_id, void* dst, const void* src, size_t bytes, CudaCopy kind,
                     CudaStream stream, std::string* error);
// A copy from GPU `src_platform_id` to GPU `dst_platform_id` (peer access when the GPUs allow
// it, staged by the driver otherwise), ordered on `stream` of the destination GPU.
bool CudaMemcpyPeerAsync(void* dst, int dst_platform_id, const void* src, int src_platform_id,
                         size_t bytes, CudaStream stream, std::string* error);
// Synchronous host <-> device copy (kernel construction only: a Const's value).
bool CudaMemcpy(int platform_id, void* dst, const void* src, size_t bytes, CudaCopy kind,
                std::string* error);
bool CudaMemsetAsync(int platform_id, void* dst, int value, size_t bytes, CudaStream stream,
                     std::string* error);
// Where `ptr` points (unified addressing): `*platform_id` is the CUDA ordinal of the GPU whose
// memory (device or managed) it is in, -1 for host memory (pinned or pageable). False with
// CUDA's error when CUDA cannot tell.
bool CudaPointerMemory(const void* ptr, int* platform_id, std::string* error);
// The error of the last kernel launch on this thread (cudaGetLastError): false when it failed.
bool CudaLastLaunchOk(std::string* error);

}  // namespace gpu_internal
}  // namespace rill

#endif  // RILL_CORE_GPU_CUDA_STREAM_H_
