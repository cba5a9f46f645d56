// The strided-copy CUDA kernel behind the layout ops, and a fill by element size. One thread per
// element of the copied box (grid-stride loop, 256 threads per block): its flat index is split
// into coordinates over the box's dims, which give the source and destination offsets.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "kernels/gpu/copy_launchers.h"

namespace rill {
namespace gpu_kernels {

namespace {

constexpr int kThreads = 256;

unsigned Blocks(int64_t n) {
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < (1 << 20) ? (blocks > 0 ? blocks : 1) : (1 << 20));
}

cudaStream_t S(void* stream) { return static_cast<cudaStream_t>(stream); }

template <typename E>
__global__ void StridedCopyKernel(StridedCopy copy, const E* src, E* dst, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    int64_t rest = i, s = copy.src_base, d = copy.dst_base;
    for (int k = copy.rank - 1; k >= 0; --k) {
      const int64_t c = rest % copy.dims[k];
      rest /= copy.dims[k];
      s += (copy.src_mod[k] > 0 ? c % copy.src_mod[k] : c) * copy.src_strides[k];
      d += c * copy.dst_strides[k];
    }
    dst[d] = src[s];
  }
}

template <typename E>
__global__ void FillKernel(E* dst, E value, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    dst[i] = value;
  }
}

template <typename E>
void Copy(const StridedCopy& copy, int64_t n, const void* src, void* dst, void* stream) {
  StridedCopyKernel<E><<<Blocks(n), kThreads, 0, S(stream)>>>(copy, static_cast<const E*>(src),
                                                              static_cast<E*>(dst), n);
}

template <typename E>
void Fill(void* dst, const void* value, int64_t n, void* stream) {
  E v;
  std::memcpy(&v, value, sizeof(E));
  FillKernel<E><<<Blocks(n), kThreads, 0, S(stream)>>>(static_cast<E*>(dst), v, n);
}

}  // namespace

void LaunchStridedCopy(const StridedCopy& copy, int element_size, const void* src, void* dst,
                       void* stream) {
  int64_t n = 1;
  for (int k = 0; k < copy.rank; ++k) n *= copy.dims[k];
  if (n <= 0) return;
  switch (element_size) {
    case 1:
      return Copy<uint8_t>(copy, n, src, dst, stream);
    case 2:
      return Copy<uint16_t>(copy, n, src, dst, stream);
    case 4:
      return Copy<uint32_t>(copy, n, src, dst, stream);
    default:
      return Copy<uint64_t>(copy, n, src, dst, stream);
  }
}

void LaunchFillBytes(void* dst, const void* value, int element_size, int64_t n, void* stream) {
  if (n <= 0) return;
  switch (element_size) {
    case 1:
      return Fill<uint8_t>(dst, value, n, stream);
    case 2:
      return Fill<uint16_t>(dst, value, n, stream);
    case 4:
      return Fill<uint32_t>(dst, value, n, stream);
    default:
      return Fill<uint64_t>(dst, value, n, stream);
  }
}

}  // namespace gpu_kernels
}  // namespace rill
