// GpuProcessState: the GPU memory state that lives as long as the process, as TensorFlow's
// GPUProcessState: one BFC allocator per TensorFlow GPU id (GPU_<id>_bfc), the TF-id -> CUDA
// device map, and the pinned host allocator for staging copies (gpu_host_bfc). The first
// session that creates /device:GPU:N sets up its allocator with its gpu_options; later sessions
// share it. Closing a session never gives GPU memory back (spec §5.3).
//
// Where TensorFlow silently keeps the first session's memory options, Rill refuses a session
// that asks for different ones (FailedPrecondition naming both), since the second session's
// options would otherwise have no effect.
//
//   GpuAllocatorRequest request;   // from the session's GpuDevicePlan
//   RILL_ASSIGN_OR_RETURN(Allocator* gpu0, GpuProcessState::Global()->GetGpuAllocator(request));
//
// Memory comes from CUDA (Global(), for the GPUs CUDA discovers) or is simulated in host address
// space (a state made with Memory::kSimulated, for GPUs injected by tests; each simulated
// physical GPU's capacity is its free_memory_bytes, shared by its virtual devices).
//
// Owns its allocators; Global() is never destroyed (GPU memory stays reserved for the process).
// Thread-safe.
#ifndef RILL_CORE_GPU_GPU_PROCESS_STATE_H_
#define RILL_CORE_GPU_GPU_PROCESS_STATE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/allocator.h"
#include "core/gpu/physical_gpu.h"
#include "core/memory/bfc_allocator.h"
#include "core/memory/sub_allocator.h"
#include "core/mutex.h"

namespace rill {

// What a session wants for one TensorFlow GPU device.
struct GpuAllocatorRequest {
  int tf_gpu_id = 0;
  PhysicalGpu gpu;  // the CUDA device it runs on (gpu.platform_id)
  int64_t memory_limit_bytes = 0;
  bool allow_growth = false;
  // The option that set the limit ("default", "per_process_gpu_memory_fraction 0.4",
  // "virtual device memory_limit_mb 1024"): two sessions agree when these and allow_growth match
  // (a default limit depends on the free memory at the time, so it is compared by option).
  std::string memory_option;
};

class GpuProcessState {
 public:
  enum class Memory { kCuda, kSimulated };

  explicit GpuProcessState(Memory memory);
  ~GpuProcessState();
  GpuProcessState(const GpuProcessState&) = delete;
  GpuProcessState& operator=(const GpuProcessState&) = delete;

  // The process's state for CUDA-discovered GPUs. Never destroyed.
  static GpuProcessState* Global();

  // The allocator of /device:GPU:<tf_gpu_id>, created on first request. Without allow_growth a
  // new allocator reserves its whole limit at once (TensorFlow takes the memory when the session
  // is created). Errors, and nothing is created:
  //   AlreadyExists: the TF id is already mapped to another CUDA device (TensorFlow's text).
  //   FailedPrecondition: the allocator exists with other memory options (names both).
  //   ResourceExhausted: the reservation failed (names the device, limit, option and what the
  //     GPU had free, and says what to change).
  absl::StatusOr<Allocator*> GetGpuAllocator(const GpuAllocatorRequest& request);

  // Page-locked host memory for host<->device copies: a growing BFC allocator named
  // "gpu_host_bfc", capped at 64 GiB or TF_GPU_HOST_MEM_LIMIT_IN_MB. Plain host memory when
  // simulated.
  Allocator* GetGpuHostAllocator();
  // Whether its GPU memory is CUDA device memory (real GPUs) or simulated (fake GPUs in tests).
  Memory memory() const { return memory_; }

 private:
  struct GpuEntry {
    GpuAllocatorRequest request;  // of the session that created it
    std::unique_ptr<BFCAllocator> allocator;
  };

  const Memory memory_;
  rill::Mutex mu_;
  std::map<int, GpuEntry> gpus_ ABSL_GUARDED_BY(mu_);  // by TF GPU id
  // Simulated memory per physical GPU (platform id), shared by its virtual devices.
  std::map<int, std::shared_ptr<SubAllocator>> simulated_ ABSL_GUARDED_BY(mu_);
  std::unique_ptr<BFCAllocator> host_ ABSL_GUARDED_BY(mu_);
};

}  // namespace rill

#endif  // RILL_CORE_GPU_GPU_PROCESS_STATE_H_
