// SubAllocator: where a BFCAllocator gets its regions (device memory on a GPU, host memory for
// the CPU and tests). Regions are taken whole and given back only when the BFC allocator is
// destroyed.
//
//   HostSubAllocator host;
//   size_t got = 0;
//   void* region = host.Alloc(256, 1 << 20, &got);
//
// Implementations must be thread-safe (the BFC allocator calls them under its own lock, but one
// SubAllocator may serve several allocators).
#ifndef RILL_CORE_MEMORY_SUB_ALLOCATOR_H_
#define RILL_CORE_MEMORY_SUB_ALLOCATOR_H_

#include <cstddef>
#include <cstdlib>

namespace rill {

class SubAllocator {
 public:
  virtual ~SubAllocator() = default;
  // A region of at least `bytes` bytes aligned to `alignment` (a power of two), its real size in
  // *bytes_received; nullptr when the memory is not there.
  virtual void* Alloc(size_t alignment, size_t bytes, size_t* bytes_received) = 0;
  // REQUIRES: `ptr` came from Alloc with *bytes_received == bytes.
  virtual void Free(void* ptr, size_t bytes) = 0;
};

// Host memory from the C library.
class HostSubAllocator final : public SubAllocator {
 public:
  void* Alloc(size_t alignment, size_t bytes, size_t* bytes_received) override {
    void* p = nullptr;
    if (posix_memalign(&p, alignment < sizeof(void*) ? sizeof(void*) : alignment, bytes) != 0) {
      return nullptr;
    }
    *bytes_received = bytes;
    return p;
  }
  void Free(void* ptr, size_t) override { std::free(ptr); }
};

}  // namespace rill

#endif  // RILL_CORE_MEMORY_SUB_ALLOCATOR_H_
