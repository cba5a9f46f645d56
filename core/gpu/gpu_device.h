// GpuDevice: a CUDA GPU as a Rill device (/job:localhost/replica:0/task:0/device:GPU:N). Besides
// the Device basics (its BFC allocator GPU_N_bfc over cudaMalloc'ed memory) it owns
//   - four CUDA streams: compute (every kernel, in node order), host-to-device,
//     device-to-host and device-to-device copies; events order them, so copies overlap compute
//     and nothing in the run path synchronizes the host with the whole device;
//   - an EventWaiter thread that runs callbacks once a stream reaches a point (a finished
//     device-to-host copy hands its tensor to the rendezvous from there);
//   - a cuBLAS handle bound to the compute stream (made on first use);
//   - the process's pinned host allocator (gpu_host_bfc) for staging copies.
// The streams, waiter, events and cuBLAS handle belong to the GPU (its allocator GPU_N_bfc), not to
// one session: every session's GpuDevice for /device:GPU:N shares them, as it shares the memory,
// so one session's freed buffers are never reused by another's stream while a queued kernel still
// reads them. They live as long as the process.
// Only real CUDA GPUs are GpuDevices: fake GPUs injected by tests (simulated memory) are plain
// Devices, which is how CUDA kernels know they cannot run there (AsGpuDevice returns null).
//
// Memory rule (as TensorFlow's): kernels enqueue on the compute stream and their inputs may be
// freed and reused as soon as they return, since later compute work is ordered after them. Copy
// streams first wait for the compute stream (CopyHostToDevice, CopyDeviceToHost, CopyFromPeer
// do), so a copy never writes memory a queued kernel still reads, and the compute stream waits
// for a copy into device memory before any kernel reads it.
//
// Errors: Internal with CUDA's error name and text, and the device name. Thread-safe. Only built
// with a CUDA toolkit (RILL_WITH_CUDA); the header compiles everywhere.
#ifndef RILL_CORE_GPU_GPU_DEVICE_H_
#define RILL_CORE_GPU_GPU_DEVICE_H_

#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "core/device.h"
#include "core/gpu/event_waiter.h"
#include "core/tensor.h"

namespace rill {

class GpuDevice final : public Device {
 public:
  using Stream = void*;  // cudaStream_t
  using Event = void*;   // cudaEvent_t
  struct Shared;  // the GPU's streams, waiter, events, cuBLAS and cuDNN handles (gpu_device.cc)

  // `allocator` (device memory) and `pinned_host_allocator` are not owned and outlive it.
  static absl::StatusOr<std::unique_ptr<GpuDevice>> Create(DeviceAttributes attributes,
                                                           Allocator* allocator,
                                                           Allocator* pinned_host_allocator,
                                                           int platform_id);
  ~GpuDevice() override;  // finishes the work queued on the GPU's streams

  int platform_id() const { return platform_id_; }
  Stream compute_stream() const;
  Stream host_to_device_stream() const;
  Stream device_to_host_stream() const;
  Stream device_to_device_stream() const;
  Allocator* pinned_host_allocator() const { return pinned_host_allocator_; }

  // Waits for every stream; returns the first error CUDA reports.
  absl::Status Sync() override;

  // Later work on `stream` waits (on the GPU) for everything enqueued on `after` so far.
  absl::Status StreamWaitsFor(Stream stream, Stream after);
  // Runs `done` on the waiter thread once everything enqueued on `stream` so far has completed
  // (with CUDA's error if it failed). `done` may enqueue GPU work.
  void ThenExecute(Stream stream, EventWaiter::Callback done);

  // Copies `host` (host memory, any allocator) into `device` (this GPU's memory, same byte
  // size), through a pinned staging buffer: returns once the host buffer may be reused; kernels
  // on the compute stream enqueued after the call see the data.
  absl::Status CopyHostToDevice(const Tensor& host, const Tensor& device);
  // Copies `device` (this GPU's memory) into a new pinned host tensor, after the compute work
  // enqueued so far; `done` gets it on the waiter thread when the copy is complete.
  void CopyDeviceToHost(const Tensor& device, std::function<void(absl::StatusOr<Tensor>)> done);
  // Copies `src` (memory of the GPU with CUDA ordinal `src_platform_id`, complete) into `dst`
  // (this GPU's memory); compute work enqueued after the call sees the data.
  absl::Status CopyFromPeer(const Tensor& src, int src_platform_id, const Tensor& dst);

  // The cuBLAS handle (cublasHandle_t) bound to the compute stream, made on first use.
  absl::StatusOr<void*> BlasHandle();
  // The cuDNN handle (cudnnHandle_t) bound to the compute stream, made on first use (cuDNN is
  // loaded then: core/gpu/cuda_dnn.h).
  absl::StatusOr<void*> DnnHandle();

  // Internal with `what`, CUDA's `error` and this device's name.
  absl::Status CudaError(absl::string_view what, const std::string& error) const;
  // OK, or Internal naming `kernel` when the last kernel launch on this thread failed.
  absl::Status LaunchStatus(absl::string_view kernel) const;

 private:
  GpuDevice(DeviceAttributes attributes, Allocator* allocator, Allocator* pinned_host_allocator,
            int platform_id, Shared* shared);
  absl::StatusOr<Event> TakeEvent();
  void ReturnEvent(Event event);

  const int platform_id_;
  Allocator* const pinned_host_allocator_;  // Not owned.
  Shared* const shared_;                    // Not owned; lives as long as the process.
};

// The GpuDevice behind `device`, or null for CPUs and simulated GPUs (always null in a build
// without CUDA).
#ifdef RILL_WITH_CUDA
GpuDevice* AsGpuDevice(Device* device);
#else
inline GpuDevice* AsGpuDevice(Device*) { return nullptr; }
#endif

}  // namespace rill

#endif  // RILL_CORE_GPU_GPU_DEVICE_H_
