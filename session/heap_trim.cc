#include "session/heap_trim.h"

#include <atomic>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace rill {
namespace {

std::atomic<int64_t> g_trims{0};

}  // namespace

void TrimHeap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
  g_trims.fetch_add(1, std::memory_order_relaxed);
}

int64_t HeapTrimCount() { return g_trims.load(std::memory_order_relaxed); }

}  // namespace rill
