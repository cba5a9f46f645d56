// Allocator: the memory interface every device exposes, with statistics users can see (bytes in
// use, peak, number of allocations, limit). CpuAllocator is the host implementation.
//
//   Allocator* a = CpuAllocator::Default();
//   void* p = a->AllocateRaw(64, 1024);   // nullptr when out of memory
//   a->DeallocateRaw(p, 1024);
//
// Implementations must be thread-safe: kernels on several threads allocate concurrently.
#ifndef RILL_CORE_ALLOCATOR_H_
#define RILL_CORE_ALLOCATOR_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <string>

namespace rill {

// Every Tensor buffer is aligned to this many bytes (AVX-512 and cache-line friendly).
inline constexpr size_t kTensorAlignment = 64;

struct AllocatorStats {
  int64_t num_allocs = 0;          // allocations made since creation
  int64_t bytes_in_use = 0;        // bytes currently allocated (as requested)
  int64_t peak_bytes_in_use = 0;   // high-water mark of bytes_in_use
  int64_t largest_alloc_size = 0;  // largest single request
  int64_t bytes_limit = 0;         // 0 = no limit
  int64_t bytes_reserved = 0;      // memory taken from the device (BFC regions); 0 for malloc
  int64_t largest_free_block = 0;  // largest request that fits without growing (BFC); 0 if n/a
  std::string DebugString() const;
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  // A short name used in error messages and step stats ("cpu", "GPU_0_bfc").
  virtual std::string Name() const = 0;
  // Returns `bytes` bytes aligned to `alignment` (a power of two), or nullptr when out of memory.
  // Zero bytes returns a non-null pointer that must still be deallocated.
  virtual void* AllocateRaw(size_t alignment, size_t bytes) = 0;
  // REQUIRES: `ptr` came from AllocateRaw on this allocator with the same `bytes`.
  virtual void DeallocateRaw(void* ptr, size_t bytes) = 0;
  virtual AllocatorStats GetStats() const = 0;
};

// Host memory from the C library, aligned to kTensorAlignment, with exact counters (buffers up to
// 64 KiB are recycled through per-thread free lists, see allocator.cc). An optional
// byte limit turns requests beyond it into failures (nullptr), which tests use to exercise OOM.
class CpuAllocator final : public Allocator {
 public:
  explicit CpuAllocator(int64_t bytes_limit = 0) : bytes_limit_(bytes_limit) {}
  // The process-wide host allocator. Never destroyed.
  static CpuAllocator* Default();

  std::string Name() const override { return "cpu"; }
  void* AllocateRaw(size_t alignment, size_t bytes) override;
  void DeallocateRaw(void* ptr, size_t bytes) override;
  AllocatorStats GetStats() const override;
  // Restarts the high-water mark at the bytes now in use, so the peak of what follows can be
  // read (a step's, a loop's).
  void ResetPeak() { peak_bytes_in_use_.store(bytes_in_use_.load()); }

 private:
  const int64_t bytes_limit_;
  std::atomic<int64_t> num_allocs_{0};
  std::atomic<int64_t> bytes_in_use_{0};
  std::atomic<int64_t> peak_bytes_in_use_{0};
  std::atomic<int64_t> largest_alloc_size_{0};
};

// Small host blocks for the runtime's own bookkeeping (each tensor's buffer header), from the
// same per-thread recycling lists as CpuAllocator's small buffers but outside any allocator's
// statistics (they are not tensor memory). A graph that keeps a thousand outputs alive at once
// (the wide benchmark graph) would make glibc's malloc take its slow path for every header.
// Thread-safe; a block may be freed on another thread than the one that took it.
// REQUIRES: `bytes` <= 64 KiB, and FreeHostBlock gets the `bytes` AllocateHostBlock got.
void* AllocateHostBlock(size_t bytes);  // nullptr when the host is out of memory
void FreeHostBlock(void* block, size_t bytes);

// A standard allocator over AllocateHostBlock, for std::allocate_shared.
template <typename T>
struct HostBlockAllocator {
  using value_type = T;
  HostBlockAllocator() = default;
  template <typename U>
  HostBlockAllocator(const HostBlockAllocator<U>&) {}  // NOLINT: rebinding is implicit
  T* allocate(size_t n) {
    void* p = AllocateHostBlock(n * sizeof(T));
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) { FreeHostBlock(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const HostBlockAllocator<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const HostBlockAllocator<U>&) const {
    return false;
  }
};

}  // namespace rill

#endif  // RILL_CORE_ALLOCATOR_H_
