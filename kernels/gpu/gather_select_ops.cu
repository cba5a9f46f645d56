// The CUDA kernels of GatherV2 and Select/SelectV2, moving elements by size (1, 2, 4 or 8 bytes).
// Grid-stride loops, 256 threads per block, one thread per output element.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "kernels/gpu/copy_launchers.h"
#include "kernels/gpu/launch_config.h"

namespace rill {
namespace gpu_kernels {

namespace {

using launch::Blocks;
using launch::kThreads;
using launch::S;

// I indexes params and out: int32_t when both fit (launch::Use32Bit), since the GPU has no 64-bit
// integer division. Indices are compared in int64_t, so a huge index is still out of range.
template <typename I, typename E, typename Index>
__global__ void GatherKernel(const E* params, const Index* indices, E* out, I outer, I gather_dim,
                             I inner, I n, I total) {
  for (I i = blockIdx.x * I(blockDim.x) + threadIdx.x; i < total;
       i += I(blockDim.x) * I(gridDim.x)) {
    const I k = i % inner;
    const I j = (i / inner) % n;
    const I bo = i / (inner * n);  // b * outer + o
    const I b = bo / outer;
    const int64_t index = static_cast<int64_t>(indices[b * n + j]);
    out[i] = (index >= 0 && index < gather_dim)
                 ? params[(bo * gather_dim + static_cast<I>(index)) * inner + k]
                 : E(0);
  }
}

template <typename E>
__global__ void SelectKernel(const bool* cond, const E* t, const E* e, E* out, int64_t n,
                             int64_t row) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = cond[i / row] ? t[i] : e[i];
  }
}

template <typename E>
__global__ void BroadcastSelectKernel(const bool* cond, const E* t, const E* e, E* out, int64_t n,
                                      SelectIndex index) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    int64_t rest = i, ci = 0, ti = 0, ei = 0;
    for (int d = index.rank - 1; d >= 0; --d) {
      const int64_t c = rest % index.out_dims[d];
      rest /= index.out_dims[d];
      ci += c * index.strides[0][d];
      ti += c * index.strides[1][d];
      ei += c * index.strides[2][d];
    }
    out[i] = cond[ci] ? t[ti] : e[ei];
  }
}

template <typename E, typename Index>
void Gather(const void* params, const Index* indices, void* out, int64_t batch, int64_t outer,
            int64_t gather_dim, int64_t inner, int64_t n, void* stream) {
  const int64_t total = batch * outer * n * inner;
  if (launch::Use32Bit(std::max(total, batch * outer * gather_dim * inner))) {
    GatherKernel<int32_t, E, Index><<<Blocks(total), kThreads, 0, S(stream)>>>(
        static_cast<const E*>(params), indices, static_cast<E*>(out), outer, gather_dim, inner, n,
        total);
  } else {
    GatherKernel<int64_t, E, Index><<<Blocks(total), kThreads, 0, S(stream)>>>(
        static_cast<const E*>(params), indices, static_cast<E*>(out), outer, gather_dim, inner, n,
        total);
  }
}

template <typename E>
void Select(const bool* cond, const void* t, const void* e, void* out, int64_t n, int64_t rows,
            const SelectIndex* index, void* stream) {
  const E* a = static_cast<const E*>(t);
  const E* b = static_cast<const E*>(e);
  E* z = static_cast<E*>(out);
  if (index != nullptr) {
    BroadcastSelectKernel<E><<<Blocks(n), kThreads, 0, S(stream)>>>(cond, a, b, z, n, *index);
  } else {
    SelectKernel<E>
        <<<Blocks(n), kThreads, 0, S(stream)>>>(cond, a, b, z, n, rows > 0 ? n / rows : 1);
  }
}

}  // namespace

template <typename Index>
void LaunchGather(const void* params, const Index* indices, void* out, int element_size,
                  int64_t batch, int64_t outer, int64_t gather_dim, int64_t inner, int64_t n,
                  void* stream) {
  if (batch * outer * n * inner <= 0) return;
  switch (element_size) {
    case 1:
      return Gather<uint8_t, Index>(params, indices, out, batch, outer, gather_dim, inner, n,
                                    stream);
    case 2:
      return Gather<uint16_t, Index>(params, indices, out, batch, outer, gather_dim, inner, n,
                                     stream);
    case 4:
      return Gather<uint32_t, Index>(params, indices, out, batch, outer, gather_dim, inner, n,
                                     stream);
    default:
      return Gather<uint64_t, Index>(params, indices, out, batch, outer, gather_dim, inner, n,
                                     stream);
  }
}

template void LaunchGather<int32_t>(const void*, const int32_t*, void*, int, int64_t, int64_t,
                                    int64_t, int64_t, int64_t, void*);
template void LaunchGather<int64_t>(const void*, const int64_t*, void*, int, int64_t, int64_t,
                                    int64_t, int64_t, int64_t, void*);

void LaunchSelect(const bool* cond, const void* t, const void* e, void* out, int element_size,
                  int64_t n, int64_t rows, const SelectIndex* index, void* stream) {
  if (n <= 0) return;
  switch (element_size) {
    case 1:
      return Select<uint8_t>(cond, t, e, out, n, rows, index, stream);
    case 2:
      return Select<uint16_t>(cond, t, e, out, n, rows, index, stream);
    case 4:
      return Select<uint32_t>(cond, t, e, out, n, rows, index, stream);
    default:
      return Select<uint64_t>(cond, t, e, out, n, rows, index, stream);
  }
}

}  // namespace gpu_kernels
}  // namespace rill
