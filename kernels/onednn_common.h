// What Rill's oneDNN kernels (onednn_conv, onednn_matmul) share: the process's CPU engine and a
// per-thread growing buffer for reordered filters and scratchpads.
#ifndef RILL_KERNELS_ONEDNN_COMMON_H_
#define RILL_KERNELS_ONEDNN_COMMON_H_

#include <cstddef>
#include <cstdlib>
#include <memory>

#include <dnnl.hpp>

namespace rill {

// The oneDNN engine of the process (the CPU). Thread-safe; never destroyed.
dnnl::engine& OneDnnEngine();

// A 64-byte aligned buffer that only grows (malloc'ing reordered filters and scratchpads per
// call cost page faults on every run: the small CNN's 200 KiB filter was mmapped and zeroed by
// the kernel each time). Not thread-safe: one per thread.
class GrowingBuffer {
 public:
  // nullptr when the memory cannot be had.
  void* Get(size_t bytes) {
    if (bytes > size_) {
      data_.reset(static_cast<char*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
      size_ = data_ != nullptr ? bytes : 0;
    }
    return data_.get();
  }

 private:
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  std::unique_ptr<char, Free> data_;
  size_t size_ = 0;
};

}  // namespace rill

#endif  // RILL_KERNELS_ONEDNN_COMMON_H_
