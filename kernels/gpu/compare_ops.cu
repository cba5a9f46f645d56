// CUDA kernels with bool results: the comparisons (broadcasting) and IsNan. Grid-stride loops,
// 256 threads per block.
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/launch_config.h"

namespace rill {
namespace gpu_kernels {

namespace {

using launch::Blocks;
using launch::kThreads;
using launch::S;

template <typename T>
__device__ bool ApplyCompare(CompareFn fn, T a, T b) {
  switch (fn) {
    case CompareFn::kLess:
      return a < b;
    case CompareFn::kLessEqual:
      return a <= b;
    case CompareFn::kGreater:
      return a > b;
    case CompareFn::kGreaterEqual:
      return a >= b;
    case CompareFn::kEqual:
      return a == b;
    case CompareFn::kNotEqual:
      return a != b;
  }
  return false;
}

// Operand offsets of output element i (BroadcastIndex's coordinates and strides).
__device__ void Offsets(const BroadcastIndex& index, int64_t i, int64_t* ai, int64_t* bi) {
  int64_t rest = i;
  *ai = 0;
  *bi = 0;
  for (int d = index.rank - 1; d >= 0; --d) {
    const int64_t c = rest % index.out_dims[d];
    rest /= index.out_dims[d];
    *ai += c * index.a_strides[d];
    *bi += c * index.b_strides[d];
  }
}

template <typename T>
__global__ void Compare(CompareFn fn, const T* a, const T* b, bool* out, int64_t n,
                        BroadcastIndex index, bool broadcast) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    int64_t ai = i, bi = i;
    if (broadcast) Offsets(index, i, &ai, &bi);
    out[i] = ApplyCompare(fn, a[ai], b[bi]);
  }
}

template <typename T>
__global__ void IsNan(const T* x, bool* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = x[i] != x[i];
  }
}

}  // namespace

template <typename T>
void LaunchCompare(CompareFn fn, const T* a, const T* b, bool* out, int64_t n,
                   const BroadcastIndex* index, void* stream) {
  if (n <= 0) return;
  Compare<T><<<Blocks(n), kThreads, 0, S(stream)>>>(
      fn, a, b, out, n, index != nullptr ? *index : BroadcastIndex{}, index != nullptr);
}

template <typename T>
void LaunchIsNan(const T* x, bool* out, int64_t n, void* stream) {
  if (n <= 0) return;
  IsNan<T><<<Blocks(n), kThreads, 0, S(stream)>>>(x, out, n);
}

template void LaunchCompare<float>(CompareFn, const float*, const float*, bool*, int64_t,
                                   const BroadcastIndex*, void*);
template void LaunchCompare<double>(CompareFn, const double*, const double*, bool*, int64_t,
                                    const BroadcastIndex*, void*);
template void LaunchCompare<int64_t>(CompareFn, const int64_t*, const int64_t*, bool*, int64_t,
                                     const BroadcastIndex*, void*);
template void LaunchIsNan<float>(const float*, bool*, int64_t, void*);
template void LaunchIsNan<double>(const double*, bool*, int64_t, void*);

}  // namespace gpu_kernels
}  // namespace rill
