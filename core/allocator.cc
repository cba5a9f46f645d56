#include "core/allocator.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace rill {

std::string AllocatorStats::DebugString() const {
  std::string s = absl::StrCat("Limit: ", bytes_limit, "\nInUse: ", bytes_in_use,
                               "\nMaxInUse: ", peak_bytes_in_use, "\nNumAllocs: ", num_allocs,
                               "\nMaxAllocSize: ", largest_alloc_size);
  if (bytes_reserved > 0) {
    absl::StrAppend(&s, "\nReserved: ", bytes_reserved, "\nLargestFreeBlock: ",
                    largest_free_block);
  }
  return s;
}

CpuAllocator* CpuAllocator::Default() {
  static CpuAllocator* const allocator = new CpuAllocator();
  return allocator;
}

void* CpuAllocator::AllocateRaw(size_t alignment, size_t bytes) {
  const int64_t n = static_cast<int64_t>(bytes);
  if (bytes_limit_ > 0) {
    int64_t now = bytes_in_use_.load(std::memory_order_relaxed);
    do {
      if (now + n > bytes_limit_) return nullptr;
    } while (!bytes_in_use_.compare_exchange_weak(now, now + n, std::memory_order_relaxed));
  } else {
    bytes_in_use_.fetch_add(n, std::memory_order_relaxed);
  }
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  void* ptr = nullptr;
  if (posix_memalign(&ptr, alignment, bytes == 0 ? alignment : bytes) != 0) {
    bytes_in_use_.fetch_sub(n, std::memory_order_relaxed);
    return nullptr;
  }
  num_allocs_.fetch_add(1, std::memory_order_relaxed);
  const int64_t in_use = bytes_in_use_.load(std::memory_order_relaxed);
  int64_t peak = peak_bytes_in_use_.load(std::memory_order_relaxed);
  while (in_use > peak && !peak_bytes_in_use_.compare_exchange_weak(peak, in_use)) {
  }
  int64_t largest = largest_alloc_size_.load(std::memory_order_relaxed);
  while (n > largest && !largest_alloc_size_.compare_exchange_weak(largest, n)) {
  }
  return ptr;
}

void CpuAllocator::DeallocateRaw(void* ptr, size_t bytes) {
  if (ptr == nullptr) return;
  std::free(ptr);
  bytes_in_use_.fetch_sub(static_cast<int64_t>(bytes), std::memory_order_relaxed);
}

AllocatorStats CpuAllocator::GetStats() const {
  AllocatorStats s;
  s.num_allocs = num_allocs_.load();
  s.bytes_in_use = bytes_in_use_.load();
  s.peak_bytes_in_use = peak_bytes_in_use_.load();
  s.largest_alloc_size = largest_alloc_size_.load();
  s.bytes_limit = bytes_limit_;
  return s;
}

}  // namespace rill
