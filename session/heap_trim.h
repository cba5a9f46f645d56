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

// malloc_trim(0) with glibc; nothing elsewhere. Counts the call either way.
void TrimHeap();

// How many times TrimHeap has run in this process (for tests).
int64_t HeapTrimCount();

}  // namespace rill

#endif  // RILL_SESSION_HEAP_TRIM_H_
