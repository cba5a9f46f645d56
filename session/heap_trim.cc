#include "session/heap_trim.h"

#include <atomic>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace rill {
namespace allocator_internal {
// core/allocator.cc: frees the blocks CpuAllocator keeps for reuse. Declared here rather than in
// core/allocator.h, which most of the tree includes, and weak: a binary without core/allocator.cc
// (heap_trim_test) has nothing to release.
[[gnu::weak]] void ReleaseLargeBlockCache();
[[gnu::weak]] void BeginLargeBlockCacheBypass();
[[gnu::weak]] void EndLargeBlockCacheBypass();
}  // namespace allocator_internal

namespace {

std::atomic<int64_t> g_trims{0};

}  // namespace

void ReleaseAllocatorBlockCache() {
  if (allocator_internal::ReleaseLargeBlockCache != nullptr) {
    allocator_internal::ReleaseLargeBlockCache();
  }
}

ScopedAllocatorBlockCacheBypass::ScopedAllocatorBlockCacheBypass(bool active)
    : active_(active && allocator_internal::BeginLargeBlockCacheBypass != nullptr) {
  if (active_) allocator_internal::BeginLargeBlockCacheBypass();
}

ScopedAllocatorBlockCacheBypass::~ScopedAllocatorBlockCacheBypass() {
  if (active_) allocator_internal::EndLargeBlockCacheBypass();
}

void TrimHeap() {
  // What session creation freed includes large tensors (folded Consts' values, optimizer
  // temporaries) that CpuAllocator keeps for reuse; the steps' buffers are seldom their sizes.
  ReleaseAllocatorBlockCache();
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  g_trims.fetch_add(1, std::memory_order_relaxed);
}

int64_t HeapTrimCount() { return g_trims.load(std::memory_order_relaxed); }

}  // namespace rill
