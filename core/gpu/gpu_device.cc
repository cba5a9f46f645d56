#include "core/gpu/gpu_device.h"

#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "core/gpu/cuda_blas.h"
#include "core/gpu/cuda_stream.h"

namespace rill {

using gpu_internal::CudaCopy;

GpuDevice::GpuDevice(DeviceAttributes attributes, Allocator* allocator,
                     Allocator* pinned_host_allocator, int platform_id)
    : Device(std::move(attributes), allocator),
      platform_id_(platform_id),
      pinned_host_allocator_(pinned_host_allocator) {}

absl::StatusOr<std::unique_ptr<GpuDevice>> GpuDevice::Create(DeviceAttributes attributes,
                                                             Allocator* allocator,
                                                             Allocator* pinned_host_allocator,
                                                             int platform_id) {
  std::unique_ptr<GpuDevice> d(
      new GpuDevice(std::move(attributes), allocator, pinned_host_allocator, platform_id));
  std::string error;
  for (Stream* s : {&d->compute_, &d->host_to_device_, &d->device_to_host_,
                    &d->device_to_device_}) {
    if (!gpu_internal::CudaCreateStream(platform_id, s, &error)) {
      return d->CudaError("creating a CUDA stream", error);
    }
  }
  const std::string short_name = d->name().substr(d->name().rfind("device:") + 7);
  d->waiter_ = std::make_unique<EventWaiter>(short_name);
  return d;
}

GpuDevice::~GpuDevice() {
  (void)Sync();
  waiter_.reset();  // runs what is queued; its callbacks may still use streams and events
  MutexLock lock(&mu_);
  gpu_internal::CublasDestroy(platform_id_, blas_);
  for (Event e : all_events_) gpu_internal::CudaDestroyEvent(platform_id_, e);
  for (Stream s : {compute_, host_to_device_, device_to_host_, device_to_device_}) {
    gpu_internal::CudaDestroyStream(platform_id_, s);
  }
}

absl::Status GpuDevice::CudaError(absl::string_view what, const std::string& error) const {
  return absl::InternalError(absl::StrCat("CUDA error on ", name(), " ", what, ": ", error));
}

absl::Status GpuDevice::LaunchStatus(absl::string_view kernel) const {
  std::string error;
  if (gpu_internal::CudaLastLaunchOk(&error)) return absl::OkStatus();
  return CudaError(absl::StrCat("launching ", kernel), error);
}

absl::Status GpuDevice::Sync() {
  std::string error;
  for (Stream s : {compute_, host_to_device_, device_to_host_, device_to_device_}) {
    if (s != nullptr && !gpu_internal::CudaStreamSynchronize(platform_id_, s, &error)) {
      return CudaError("synchronizing a stream", error);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<GpuDevice::Event> GpuDevice::TakeEvent() {
  {
    MutexLock lock(&mu_);
    if (!free_events_.empty()) {
      Event e = free_events_.back();
      free_events_.pop_back();
      return e;
    }
  }
  Event e = nullptr;
  std::string error;
  if (!gpu_internal::CudaCreateEvent(platform_id_, &e, &error)) {
    return CudaError("creating a CUDA event", error);
  }
  MutexLock lock(&mu_);
  all_events_.push_back(e);
  return e;
}

void GpuDevice::ReturnEvent(Event event) {
  MutexLock lock(&mu_);
  free_events_.push_back(event);
}

absl::Status GpuDevice::StreamWaitsFor(Stream stream, Stream after) {
  absl::StatusOr<Event> e = TakeEvent();
  if (!e.ok()) return e.status();
  std::string error;
  // A wait covers the work recorded before the call, so the event can be reused right away.
  const bool ok = gpu_internal::CudaRecordEvent(platform_id_, *e, after, &error) &&
                  gpu_internal::CudaStreamWaitEvent(platform_id_, stream, *e, &error);
  ReturnEvent(*e);
  return ok ? absl::OkStatus() : CudaError("ordering two streams", error);
}

void GpuDevice::ThenExecute(Stream stream, EventWaiter::Callback done) {
  absl::StatusOr<Event> e = TakeEvent();
  if (!e.ok()) {
    done(e.status());
    return;
  }
  std::string error;
  if (!gpu_internal::CudaRecordEvent(platform_id_, *e, stream, &error)) {
    ReturnEvent(*e);
    done(CudaError("recording an event", error));
    return;
  }
  const Event event = *e;
  waiter_->Enqueue(
      [this, event]() -> absl::Status {
        std::string wait_error;
        const bool ok = gpu_internal::CudaEventSynchronize(platform_id_, event, &wait_error);
        ReturnEvent(event);
        return ok ? absl::OkStatus() : CudaError("waiting for an event", wait_error);
      },
      std::move(done));
}

absl::Status GpuDevice::CopyHostToDevice(const Tensor& host, const Tensor& device) {
  const size_t bytes = host.TotalBytes();
  if (bytes == 0) return absl::OkStatus();
  // Pageable memory cannot be copied asynchronously: stage it in pinned memory, which the copy
  // keeps alive until it is done. A tensor already in pinned memory (one Rill copied from a GPU)
  // is copied as it is.
  absl::StatusOr<Tensor> staging = host;
  if (host.allocator() != pinned_host_allocator_) {
    staging = Tensor::AllocateUninitialized(pinned_host_allocator_, host.dtype(), host.shape());
    if (!staging.ok()) return staging.status();
    std::memcpy(staging->raw_data(), host.raw_data(), bytes);
  }
  std::string error;
  absl::Status s = StreamWaitsFor(host_to_device_, compute_);  // the target memory is free
  if (!s.ok()) return s;
  if (!gpu_internal::CudaMemcpyAsync(platform_id_, device.raw_data(), staging->raw_data(), bytes,
                                     CudaCopy::kHostToDevice, host_to_device_, &error)) {
    return CudaError("copying host to device", error);
  }
  s = StreamWaitsFor(compute_, host_to_device_);  // kernels read it after the copy
  ThenExecute(host_to_device_, [keep = *std::move(staging)](absl::Status) {});
  return s;
}

void GpuDevice::CopyDeviceToHost(const Tensor& device,
                                 std::function<void(absl::StatusOr<Tensor>)> done) {
  absl::StatusOr<Tensor> host =
      Tensor::AllocateUninitialized(pinned_host_allocator_, device.dtype(), device.shape());
  if (!host.ok()) {
    done(host.status());
    return;
  }
  const size_t bytes = device.TotalBytes();
  absl::Status s = StreamWaitsFor(device_to_host_, compute_);  // the producer has run
  std::string error;
  if (s.ok() && !gpu_internal::CudaMemcpyAsync(platform_id_, host->raw_data(), device.raw_data(),
                                               bytes, CudaCopy::kDeviceToHost, device_to_host_,
                                               &error)) {
    s = CudaError("copying device to host", error);
  }
  if (!s.ok()) {
    done(s);
    return;
  }
  ThenExecute(device_to_host_, [source = device, result = *std::move(host),
                                done = std::move(done)](absl::Status copied) mutable {
    if (!copied.ok()) {
      done(copied);
      return;
    }
    done(std::move(result));
  });
}

absl::Status GpuDevice::CopyFromPeer(const Tensor& src, int src_platform_id, const Tensor& dst) {
  const size_t bytes = src.TotalBytes();
  if (bytes == 0) return absl::OkStatus();
  absl::Status s = StreamWaitsFor(device_to_device_, compute_);
  if (!s.ok()) return s;
  std::string error;
  if (!gpu_internal::CudaMemcpyPeerAsync(dst.raw_data(), platform_id_, src.raw_data(),
                                         src_platform_id, bytes, device_to_device_, &error)) {
    return CudaError("copying between GPUs", error);
  }
  s = StreamWaitsFor(compute_, device_to_device_);
  ThenExecute(device_to_device_, [keep = src](absl::Status) {});
  return s;
}

absl::StatusOr<void*> GpuDevice::BlasHandle() {
  MutexLock lock(&mu_);
  if (blas_ == nullptr) {
    std::string error;
    if (!gpu_internal::CublasCreate(platform_id_, compute_, &blas_, &error)) {
      return CudaError("creating the cuBLAS handle", error);
    }
  }
  return blas_;
}

GpuDevice* AsGpuDevice(Device* device) { return dynamic_cast<GpuDevice*>(device); }

}  // namespace rill
