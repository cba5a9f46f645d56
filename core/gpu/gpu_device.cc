#include "core/gpu/gpu_device.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/gpu/cuda_blas.h"
#include "core/gpu/cuda_dnn.h"
#include "core/gpu/cuda_stream.h"
#include "core/mutex.h"

namespace rill {

using gpu_internal::CudaCopy;

struct GpuDevice::Shared {
  int platform_id = 0;
  Stream compute = nullptr, host_to_device = nullptr, device_to_host = nullptr,
         device_to_device = nullptr;
  Mutex mu;
  std::vector<Event> free_events ABSL_GUARDED_BY(mu);
  void* blas ABSL_GUARDED_BY(mu) = nullptr;  // cublasHandle_t
  void* dnn ABSL_GUARDED_BY(mu) = nullptr;   // cudnnHandle_t
  std::unique_ptr<ThreadPool> callbacks;     // runs the waiter's callbacks
  std::unique_ptr<EventWaiter> waiter;
};

namespace {

// The GPUs' shared parts, by allocator (one per TF GPU id and process state). Never destroyed:
// streams and the waiter thread last as long as the process, as TensorFlow's do.
Mutex registry_mu;

std::map<Allocator*, GpuDevice::Shared*>& Registry() ABSL_EXCLUSIVE_LOCKS_REQUIRED(registry_mu) {
  static auto* registry = new std::map<Allocator*, GpuDevice::Shared*>();
  return *registry;
}

// Copies of pageable host memory into pinned staging buffers of this size or more are split over
// the staging pool's threads: one thread's memcpy (~7 GB/s) is several times slower than the
// copy engine (~50 GB/s on an H200).
constexpr size_t kParallelStagingBytes = size_t{8} << 20;
constexpr size_t kStagingChunkBytes = size_t{1} << 20;

// The process's staging threads (at most 8), made on the first large copy. Never destroyed.
ThreadPool& StagingPool() {
  static ThreadPool* const pool = new ThreadPool("gpu_staging", std::min(8, DefaultNumThreads()));
  return *pool;
}

// dst = src (`bytes` bytes), split over the staging pool when large.
void StageCopy(void* dst, const void* src, size_t bytes) {
  if (bytes < kParallelStagingBytes) {
    std::memcpy(dst, src, bytes);
    return;
  }
  const int64_t chunks =
      static_cast<int64_t>((bytes + kStagingChunkBytes - 1) / kStagingChunkBytes);
  // One chunk is a million cycles or so: every chunk is worth a block of its own.
  StagingPool().ParallelFor(chunks, int64_t{1} << 20, [&](int64_t begin, int64_t end) {
    const size_t from = static_cast<size_t>(begin) * kStagingChunkBytes;
    const size_t to = std::min(bytes, static_cast<size_t>(end) * kStagingChunkBytes);
    std::memcpy(static_cast<char*>(dst) + from, static_cast<const char*>(src) + from, to - from);
  });
}

}  // namespace

GpuDevice::GpuDevice(DeviceAttributes attributes, Allocator* allocator,
                     Allocator* pinned_host_allocator, int platform_id, Shared* shared)
    : Device(std::move(attributes), allocator),
      platform_id_(platform_id),
      pinned_host_allocator_(pinned_host_allocator),
      shared_(shared) {}

absl::StatusOr<std::unique_ptr<GpuDevice>> GpuDevice::Create(DeviceAttributes attributes,
                                                             Allocator* allocator,
                                                             Allocator* pinned_host_allocator,
                                                             int platform_id) {
  const std::string name = attributes.name();
  const std::string short_name = name.substr(name.rfind("device:") + 7);
  Shared* shared = nullptr;
  {
    MutexLock lock(&registry_mu);
    auto it = Registry().find(allocator);
    if (it != Registry().end()) {
      shared = it->second;
    } else {
      auto fresh = std::make_unique<Shared>();
      fresh->platform_id = platform_id;
      std::string error;
      for (Stream* s : {&fresh->compute, &fresh->host_to_device, &fresh->device_to_host,
                        &fresh->device_to_device}) {
        if (!gpu_internal::CudaCreateStream(platform_id, s, &error)) {
          for (Stream made : {fresh->compute, fresh->host_to_device, fresh->device_to_host,
                              fresh->device_to_device}) {
            gpu_internal::CudaDestroyStream(platform_id, made);
          }
          return absl::InternalError(
              absl::StrCat("CUDA error on ", name, " creating a CUDA stream: ", error));
        }
      }
      fresh->callbacks = std::make_unique<ThreadPool>("gpu_done_" + short_name, 2);
      fresh->waiter = std::make_unique<EventWaiter>(short_name, fresh->callbacks.get());
      shared = fresh.release();
      Registry()[allocator] = shared;
    }
  }
  return std::unique_ptr<GpuDevice>(
      new GpuDevice(std::move(attributes), allocator, pinned_host_allocator, platform_id, shared));
}

GpuDevice::~GpuDevice() { (void)Sync(); }

GpuDevice::Stream GpuDevice::compute_stream() const { return shared_->compute; }
GpuDevice::Stream GpuDevice::host_to_device_stream() const { return shared_->host_to_device; }
GpuDevice::Stream GpuDevice::device_to_host_stream() const { return shared_->device_to_host; }
GpuDevice::Stream GpuDevice::device_to_device_stream() const { return shared_->device_to_device; }

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
  for (Stream s : {shared_->compute, shared_->host_to_device, shared_->device_to_host,
                   shared_->device_to_device}) {
    if (s != nullptr && !gpu_internal::CudaStreamSynchronize(platform_id_, s, &error)) {
      return CudaError("synchronizing a stream", error);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<GpuDevice::Event> GpuDevice::TakeEvent() {
  {
    MutexLock lock(&shared_->mu);
    if (!shared_->free_events.empty()) {
      Event e = shared_->free_events.back();
      shared_->free_events.pop_back();
      return e;
    }
  }
  Event e = nullptr;
  std::string error;
  if (!gpu_internal::CudaCreateEvent(platform_id_, &e, &error)) {
    return CudaError("creating a CUDA event", error);
  }
  return e;  // joins the pool when returned
}

void GpuDevice::ReturnEvent(Event event) {
  MutexLock lock(&shared_->mu);
  shared_->free_events.push_back(event);
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
  // The wait must not touch `this` (a session's device may be gone when it runs): only the
  // process-lifetime shared part and copies.
  Shared* shared = shared_;
  const int platform_id = platform_id_;
  const std::string device_name = name();
  shared_->waiter->Enqueue(
      [shared, platform_id, event, device_name]() -> absl::Status {
        std::string wait_error;
        const bool ok = gpu_internal::CudaEventSynchronize(platform_id, event, &wait_error);
        {
          MutexLock lock(&shared->mu);
          shared->free_events.push_back(event);
        }
        if (ok) return absl::OkStatus();
        return absl::InternalError(
            absl::StrCat("CUDA error on ", device_name, " waiting for an event: ", wait_error));
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
    StageCopy(staging->raw_data(), host.raw_data(), bytes);
  }
  std::string error;
  absl::Status s =
      StreamWaitsFor(shared_->host_to_device, shared_->compute);  // the target memory is free
  if (!s.ok()) return s;
  if (!gpu_internal::CudaMemcpyAsync(platform_id_, device.raw_data(), staging->raw_data(), bytes,
                                     CudaCopy::kHostToDevice, shared_->host_to_device, &error)) {
    return CudaError("copying host to device", error);
  }
  s = StreamWaitsFor(shared_->compute, shared_->host_to_device);  // kernels read it after the copy
  ThenExecute(shared_->host_to_device, [keep = *std::move(staging)](absl::Status) {});
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
  absl::Status s =
      StreamWaitsFor(shared_->device_to_host, shared_->compute);  // the producer has run
  std::string error;
  if (s.ok() &&
      !gpu_internal::CudaMemcpyAsync(platform_id_, host->raw_data(), device.raw_data(), bytes,
                                     CudaCopy::kDeviceToHost, shared_->device_to_host, &error)) {
    s = CudaError("copying device to host", error);
  }
  if (!s.ok()) {
    done(s);
    return;
  }
  ThenExecute(shared_->device_to_host, [source = device, result = *std::move(host),
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
  absl::Status s = StreamWaitsFor(shared_->device_to_device, shared_->compute);
  if (!s.ok()) return s;
  std::string error;
  if (!gpu_internal::CudaMemcpyPeerAsync(dst.raw_data(), platform_id_, src.raw_data(),
                                         src_platform_id, bytes, shared_->device_to_device,
                                         &error)) {
    return CudaError("copying between GPUs", error);
  }
  s = StreamWaitsFor(shared_->compute, shared_->device_to_device);
  ThenExecute(shared_->device_to_device, [keep = src](absl::Status) {});
  return s;
}

absl::StatusOr<void*> GpuDevice::BlasHandle() {
  MutexLock lock(&shared_->mu);
  if (shared_->blas == nullptr) {
    std::string error;
    if (!gpu_internal::CublasCreate(platform_id_, shared_->compute, &shared_->blas, &error)) {
      return CudaError("creating the cuBLAS handle", error);
    }
  }
  return shared_->blas;
}

absl::StatusOr<void*> GpuDevice::DnnHandle() {
  MutexLock lock(&shared_->mu);
  if (shared_->dnn == nullptr) {
    std::string error;
    if (!gpu_internal::CudnnCreate(platform_id_, shared_->compute, &shared_->dnn, &error)) {
      return CudaError("creating the cuDNN handle", error);
    }
  }
  return shared_->dnn;
}

GpuDevice* AsGpuDevice(Device* device) { return dynamic_cast<GpuDevice*>(device); }

}  // namespace rill
