#include "core/gpu/gpu_sub_allocators.h"

#include <sys/mman.h>

#ifdef RILL_WITH_CUDA
#include "core/gpu/cuda_memory_impl.h"
#endif

namespace rill {

void* CudaDeviceSubAllocator::Alloc(size_t alignment, size_t bytes, size_t* bytes_received) {
  (void)alignment;  // cudaMalloc aligns to at least 256 bytes, the most the BFC allocator asks
#ifdef RILL_WITH_CUDA
  std::string error;
  void* ptr = gpu_internal::CudaDeviceMalloc(platform_id_, bytes, &error);
  if (ptr == nullptr) {
    rill::MutexLock lock(&mu_);
    last_error_ = error;
    return nullptr;
  }
  *bytes_received = bytes;
  return ptr;
#else
  (void)bytes;
  (void)bytes_received;
  rill::MutexLock lock(&mu_);
  last_error_ = "Rill was built without the CUDA toolkit";
  return nullptr;
#endif
}

void CudaDeviceSubAllocator::Free(void* ptr, size_t bytes) {
  (void)bytes;
#ifdef RILL_WITH_CUDA
  gpu_internal::CudaDeviceFree(platform_id_, ptr);
#else
  (void)ptr;
#endif
}

std::string CudaDeviceSubAllocator::LastError() const {
  rill::MutexLock lock(&mu_);
  return last_error_;
}

void* CudaPinnedHostSubAllocator::Alloc(size_t alignment, size_t bytes, size_t* bytes_received) {
  (void)alignment;  // page-aligned
#ifdef RILL_WITH_CUDA
  void* ptr = gpu_internal::CudaPinnedHostMalloc(bytes, nullptr);
  if (ptr != nullptr) *bytes_received = bytes;
  return ptr;
#else
  (void)bytes;
  (void)bytes_received;
  return nullptr;
#endif
}

void CudaPinnedHostSubAllocator::Free(void* ptr, size_t bytes) {
  (void)bytes;
#ifdef RILL_WITH_CUDA
  gpu_internal::CudaPinnedHostFree(ptr);
#else
  (void)ptr;
#endif
}

void* SimulatedDeviceSubAllocator::Alloc(size_t alignment, size_t bytes, size_t* bytes_received) {
  (void)alignment;  // mmap returns page-aligned memory
  if (bytes == 0) return nullptr;
  const int64_t n = static_cast<int64_t>(bytes);
  int64_t now = reserved_.load(std::memory_order_relaxed);
  do {
    if (n > capacity_ - now) return nullptr;
  } while (!reserved_.compare_exchange_weak(now, now + n, std::memory_order_relaxed));
  void* ptr = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (ptr == MAP_FAILED) {
    reserved_.fetch_sub(n, std::memory_order_relaxed);
    return nullptr;
  }
  *bytes_received = bytes;
  return ptr;
}

void SimulatedDeviceSubAllocator::Free(void* ptr, size_t bytes) {
  munmap(ptr, bytes);
  reserved_.fetch_sub(static_cast<int64_t>(bytes), std::memory_order_relaxed);
}

}  // namespace rill
