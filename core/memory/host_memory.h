// The host's physical memory, the bound kernels check a requested output against before
// allocating it: a request larger than the machine could ever hold (a width of 2^31 - 1 over many
// strings, a list resized to 2^40 elements) is answered ResourceExhausted at once instead of
// failing deep in an allocator (std::bad_alloc) or being over-committed and killed later.
#ifndef RILL_CORE_MEMORY_HOST_MEMORY_H_
#define RILL_CORE_MEMORY_HOST_MEMORY_H_

#include <cstdint>

namespace rill {

// The host's physical memory in bytes (sysconf's page count times page size), read once per
// process; the largest uint64_t when the system does not say. Thread-safe.
uint64_t PhysicalMemoryBytes();

}  // namespace rill

#endif  // RILL_CORE_MEMORY_HOST_MEMORY_H_
