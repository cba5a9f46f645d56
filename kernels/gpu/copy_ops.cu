// The strided-copy CUDA kernel behind the layout ops, and a fill by element size. One thread per
// element of the copied box (grid-stride loop, 256 threads per block): its flat index is split
// into coordinates over the box's dims, which give the source and destination offsets.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "kernels/gpu/copy_launchers.h"
#include "kernels/gpu/launch_config.h"

namespace rill {
namespace gpu_kernels {

namespace {

using launch::Blocks;
using launch::kThreads;
using launch::S;

// I is the index type: int32_t when every offset fits (see Copy), since the GPU has no 64-bit
// integer division and the per-dim division dominates the copy otherwise.
template <typename I, typename E>
__global__ void StridedCopyKernel(StridedCopy copy, const E* src, E* dst, I n) {
  for (I i = blockIdx.x * I(blockDim.x) + threadIdx.x; i < n; i += I(blockDim.x) * I(gridDim.x)) {
    I rest = i, s = I(copy.src_base), d = I(copy.dst_base);
    for (int k = copy.rank - 1; k >= 0; --k) {
      const I dim = I(copy.dims[k]), mod = I(copy.src_mod[k]);
      const I c = rest % dim;
      rest /= dim;
      s += (mod > 0 ? c % mod : c) * I(copy.src_strides[k]);
      d += c * I(copy.dst_strides[k]);
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

// Whether every value a copy's index arithmetic reaches (elements, and source and destination
// offsets from their bases, plus a grid-stride step past the end) fits in int32_t.
bool FitsInt32(const StridedCopy& copy, int64_t n) {
  constexpr int64_t kLimit = (int64_t{1} << 31) - int64_t{kThreads} * launch::kMaxBlocks;
  int64_t src = copy.src_base < 0 ? -copy.src_base : copy.src_base;
  int64_t dst = copy.dst_base < 0 ? -copy.dst_base : copy.dst_base;
  for (int k = 0; k < copy.rank; ++k) {
    const int64_t src_extent = copy.src_mod[k] > 0 ? copy.src_mod[k] : copy.dims[k];
    const int64_t src_stride = copy.src_strides[k] < 0 ? -copy.src_strides[k] : copy.src_strides[k];
    const int64_t dst_stride = copy.dst_strides[k] < 0 ? -copy.dst_strides[k] : copy.dst_strides[k];
    if (src_extent > kLimit || src_stride > kLimit || dst_stride > kLimit) return false;
    src += (src_extent - 1) * src_stride;
    dst += (copy.dims[k] - 1) * dst_stride;
    if (src > kLimit || dst > kLimit) return false;
  }
  return n < kLimit;
}

template <typename E>
void Copy(const StridedCopy& copy, int64_t n, const void* src, void* dst, void* stream) {
  if (FitsInt32(copy, n)) {
    StridedCopyKernel<int32_t, E><<<Blocks(n), kThreads, 0, S(stream)>>>(
        copy, static_cast<const E*>(src), static_cast<E*>(dst), static_cast<int32_t>(n));
  } else {
    StridedCopyKernel<int64_t, E><<<Blocks(n), kThreads, 0, S(stream)>>>(
        copy, static_cast<const E*>(src), static_cast<E*>(dst), n);
  }
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
