// Where GPU allocators get their regions (core/memory/sub_allocator.h):
//   - CudaDeviceSubAllocator: device memory of one GPU (cudaMalloc / cudaFree). The BFC
//     allocator named GPU_<id>_bfc sits on it.
//   - CudaPinnedHostSubAllocator: page-locked host memory (cudaHostAlloc), for the staging
//     buffers of host<->device copies (the gpu_host_bfc allocator).
//   - SimulatedDeviceSubAllocator: host address space standing in for a GPU's memory, with the
//     GPU's capacity as a hard cap, for GPUs injected by tests (PhysicalGpu lists made by hand).
//     Regions are reserved with mmap(MAP_NORESERVE), so a simulated 80 GB GPU costs no RAM until
//     its pages are touched.
// In a build without the CUDA toolkit the CUDA sub-allocators return nullptr (there is no GPU to
// give memory); callers turn that into ResourceExhausted. All are thread-safe.
//
//   auto device = std::make_unique<CudaDeviceSubAllocator>(/*platform_id=*/0);
//   BFCAllocator gpu0(std::move(device), limit, /*allow_growth=*/false, "GPU_0_bfc");
#ifndef RILL_CORE_GPU_GPU_SUB_ALLOCATORS_H_
#define RILL_CORE_GPU_GPU_SUB_ALLOCATORS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/memory/sub_allocator.h"
#include "core/mutex.h"

namespace rill {

class CudaDeviceSubAllocator final : public SubAllocator {
 public:
  explicit CudaDeviceSubAllocator(int platform_id) : platform_id_(platform_id) {}
  void* Alloc(size_t alignment, size_t bytes, size_t* bytes_received) override;
  void Free(void* ptr, size_t bytes) override;
  // The CUDA error of the last failed Alloc ("" when none failed), for out-of-memory reports.
  std::string LastError() const;

 private:
  const int platform_id_;
  mutable rill::Mutex mu_;
  std::string last_error_ ABSL_GUARDED_BY(mu_);
};

class CudaPinnedHostSubAllocator final : public SubAllocator {
 public:
  void* Alloc(size_t alignment, size_t bytes, size_t* bytes_received) override;
  void Free(void* ptr, size_t bytes) override;
};

class SimulatedDeviceSubAllocator final : public SubAllocator {
 public:
  // At most `capacity_bytes` may be reserved at once (all allocators sharing this object, as
  // virtual devices share one physical GPU).
  explicit SimulatedDeviceSubAllocator(int64_t capacity_bytes) : capacity_(capacity_bytes) {}
  void* Alloc(size_t alignment, size_t bytes, size_t* bytes_received) override;
  void Free(void* ptr, size_t bytes) override;
  int64_t reserved_bytes() const { return reserved_.load(std::memory_order_relaxed); }

 private:
  const int64_t capacity_;
  std::atomic<int64_t> reserved_{0};
};

}  // namespace rill

#endif  // RILL_CORE_GPU_GPU_SUB_ALLOCATORS_H_
