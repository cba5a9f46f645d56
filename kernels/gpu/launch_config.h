// The launch shape every elementwise CUDA kernel of kernels/gpu/ uses: grid-stride loops of
// kThreads threads per block over at most 2^20 blocks, on the stream a launcher is given (a
// cudaStream_t passed as void*), and the index type a kernel may use for n elements. Included by
// the .cu files only (nvcc). Pure; thread-safe.
#ifndef RILL_KERNELS_GPU_LAUNCH_CONFIG_H_
#define RILL_KERNELS_GPU_LAUNCH_CONFIG_H_

#include <cuda_runtime.h>

#include <cstdint>

namespace rill {
namespace gpu_kernels {
namespace launch {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = int64_t{1} << 20;

// Blocks of kThreads for n elements (at least 1, at most kMaxBlocks: the loops stride past).
inline unsigned Blocks(int64_t n) {
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < kMaxBlocks ? (blocks > 0 ? blocks : 1) : kMaxBlocks);
}

inline cudaStream_t S(void* stream) { return static_cast<cudaStream_t>(stream); }

// Whether indices up to `largest` and a grid-stride loop's step past them fit in int32_t. The GPU
// has no 64-bit integer division, so kernels that split a flat index into coordinates run several
// times faster on int32_t indices.
inline bool Use32Bit(int64_t largest) {
  return largest < (int64_t{1} << 31) - int64_t{kThreads} * kMaxBlocks;
}

}  // namespace launch
}  // namespace gpu_kernels
}  // namespace rill

#endif  // RILL_KERNELS_GPU_LAUNCH_CONFIG_H_
