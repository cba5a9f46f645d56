// Giving the heap's free pages back to the system after a session frees what it built a step's
// executors from (the run graph, the optimizer's NodeDefs, kernel construction temporaries):
// glibc keeps those holes resident, and the larger buffers made later (oneDNN's packed weights
// at the first run) rarely fit them (docs/memory.md).
//
// malloc_trim locks every malloc arena in turn, so a session calls TrimHeap once per Create or
// Extend (for the first run signature built after it), not at every new signature while steps
// run on other threads. Thread-safe.
#ifndef RILL_SESSION_HEAP_TRIM_H_
#define RILL_SESSION_HEAP_TRIM_H_

#include <cstdint>

namespace rill {

// ReleaseAllocatorBlockCache, then malloc_trim(0) with glibc. Counts the call either way.
void TrimHeap();

// Frees the buffers CpuAllocator keeps for reuse (core/allocator.cc's large-block cache), without
// trimming the heap: a session calls it when it closes or is destroyed. Other sessions' next
// steps then allocate those sizes anew (one run of page faults). Thread-safe.
void ReleaseAllocatorBlockCache();

// While one that is active exists (on any thread), CpuAllocator's block cache keeps nothing: it
// is released when the scope opens, and buffers freed in the scope go straight back to the C
// library. A session opens one around building a signature after Create or Extend: creation
// frees large tensors (constant folding's inputs, decoded Const values) while it allocates what
// does not come from CpuAllocator (the NodeDefs holding folded values), which can reuse glibc's
// freed memory but not the cache's, so keeping them raised creation's peak by their size.
// Other sessions' steps running meanwhile do not keep their buffers either.
class ScopedAllocatorBlockCacheBypass {
 public:
  explicit ScopedAllocatorBlockCacheBypass(bool active);
  ~ScopedAllocatorBlockCacheBypass();
  ScopedAllocatorBlockCacheBypass(const ScopedAllocatorBlockCacheBypass&) = delete;
  ScopedAllocatorBlockCacheBypass& operator=(const ScopedAllocatorBlockCacheBypass&) = delete;

 private:
  const bool active_;
};

// How many times TrimHeap has run in this process (for tests).
int64_t HeapTrimCount();

}  // namespace rill

#endif  // RILL_SESSION_HEAP_TRIM_H_
