#include "core/gpu/gpu_process_state.h"

#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/gpu/gpu_sub_allocators.h"

namespace rill {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kDefaultHostLimit = int64_t{64} << 30;

std::string MiB(int64_t bytes) {
  return absl::StrFormat("%.1f MiB", static_cast<double>(bytes) / static_cast<double>(kMiB));
}

std::string Describe(const GpuAllocatorRequest& r) {
  return absl::StrCat("{memory: ", r.memory_option,
                      ", allow_growth: ", r.allow_growth ? "true" : "false", "}");
}

// Lets several BFC allocators (virtual devices of one GPU) draw on one simulated GPU.
class SharedSubAllocator final : public SubAllocator {
 public:
  explicit SharedSubAllocator(std::shared_ptr<SubAllocator> memory) : memory_(std::move(memory)) {}
  void* Alloc(size_t alignment, size_t bytes, size_t* bytes_received) override {
    return memory_->Alloc(alignment, bytes, bytes_received);
  }
  void Free(void* ptr, size_t bytes) override { memory_->Free(ptr, bytes); }

 private:
  const std::shared_ptr<SubAllocator> memory_;
};

}  // namespace

GpuProcessState::GpuProcessState(Memory memory) : memory_(memory) {}
GpuProcessState::~GpuProcessState() = default;

GpuProcessState* GpuProcessState::Global() {
  static GpuProcessState* const state = new GpuProcessState(Memory::kCuda);
  return state;
}

absl::StatusOr<Allocator*> GpuProcessState::GetGpuAllocator(const GpuAllocatorRequest& request) {
  rill::MutexLock lock(&mu_);
  auto it = gpus_.find(request.tf_gpu_id);
  if (it != gpus_.end()) {
    const GpuAllocatorRequest& first = it->second.request;
    if (first.gpu.platform_id != request.gpu.platform_id) {
      return absl::AlreadyExistsError(absl::StrCat(
          "TensorFlow device (GPU:", request.tf_gpu_id,
          ") is being mapped to multiple CUDA "
          "devices (",
          request.gpu.platform_id, " now, and ", first.gpu.platform_id,
          " previously), which is not supported. This may be the result of providing different "
          "GPU configurations (ConfigProto.gpu_options, for example different "
          "visible_device_list) when creating multiple Sessions in the same process. This is "
          "not  currently supported, see https://github.com/tensorflow/tensorflow/issues/19083"));
    }
    if (first.memory_option != request.memory_option ||
        first.allow_growth != request.allow_growth) {
      return absl::FailedPreconditionError(absl::StrCat(
          "GPU memory options are per process: /device:GPU:", request.tf_gpu_id, " (allocator GPU_",
          request.tf_gpu_id, "_bfc, ", MiB(first.memory_limit_bytes),
          ") was set up by an earlier session with ", Describe(first),
          ", but this session asks for ", Describe(request),
          ". Give every session in the process the same gpu_options (allow_growth, "
          "per_process_gpu_memory_fraction, experimental.virtual_devices, and the "
          "TF_FORCE_GPU_ALLOW_GROWTH environment variable), or run it in its own process."));
    }
    return it->second.allocator.get();
  }
  const std::string name = absl::StrCat("GPU_", request.tf_gpu_id, "_bfc");
  std::unique_ptr<SubAllocator> memory;
  if (memory_ == Memory::kCuda) {
    memory = std::make_unique<CudaDeviceSubAllocator>(request.gpu.platform_id);
  } else {
    std::shared_ptr<SubAllocator>& simulated = simulated_[request.gpu.platform_id];
    if (simulated == nullptr) {
      simulated = std::make_shared<SimulatedDeviceSubAllocator>(request.gpu.free_memory_bytes);
    }
    memory = std::make_unique<SharedSubAllocator>(simulated);
  }
  SubAllocator* raw_memory = memory.get();
  auto allocator = std::make_unique<BFCAllocator>(
      std::move(memory), static_cast<size_t>(std::max<int64_t>(0, request.memory_limit_bytes)),
      request.allow_growth, name);
  if (!allocator->ReserveNow()) {
    std::string cause;
    if (memory_ == Memory::kCuda) {
      cause = static_cast<CudaDeviceSubAllocator*>(raw_memory)->LastError();
    }
    return absl::ResourceExhaustedError(absl::StrCat(
        "Could not reserve ", MiB(request.memory_limit_bytes), " of GPU memory for /device:GPU:",
        request.tf_gpu_id, " (allocator ", name, ", limit from ", request.memory_option, ") on ",
        GpuShortDescription(request.gpu), ", which had ", MiB(request.gpu.free_memory_bytes),
        " free when the process started", cause.empty() ? "" : absl::StrCat(": ", cause),
        ". Lower the limit (gpu_options.per_process_gpu_memory_fraction or the virtual "
        "devices' memory_limit_mb), or set gpu_options.allow_growth to take memory as it is "
        "needed."));
  }
  Allocator* result = allocator.get();
  gpus_[request.tf_gpu_id] = GpuEntry{request, std::move(allocator)};
  return result;
}

Allocator* GpuProcessState::GetGpuHostAllocator() {
  rill::MutexLock lock(&mu_);
  if (host_ == nullptr) {
    int64_t limit = kDefaultHostLimit;
    int64_t mb = 0;
    const char* env = std::getenv("TF_GPU_HOST_MEM_LIMIT_IN_MB");
    if (env != nullptr && absl::SimpleAtoi(env, &mb) && mb > 0 && mb < (int64_t{1} << 43)) {
      limit = mb * kMiB;
    }
    std::unique_ptr<SubAllocator> memory;
    if (memory_ == Memory::kCuda) {
      memory = std::make_unique<CudaPinnedHostSubAllocator>();
    } else {
      memory = std::make_unique<HostSubAllocator>();
    }
    host_ = std::make_unique<BFCAllocator>(std::move(memory), static_cast<size_t>(limit),
                                           /*allow_growth=*/true, "gpu_host_bfc");
  }
  return host_.get();
}

}  // namespace rill
