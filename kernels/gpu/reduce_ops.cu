// Reductions and softmax: one block per output element (or row), threads striding over the
// reduced elements, then a shared-memory tree within the block. Works for any set of axes
// (ReduceIndex does the index arithmetic); fast when the reduced elements are many.
#include <cuda_runtime.h>

#include <cmath>

#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/launch_config.h"

namespace rill {
namespace gpu_kernels {

namespace {

using launch::kThreads;
using launch::S;

template <typename T>
__device__ T Identity(ReduceFn fn) {
  switch (fn) {
    case ReduceFn::kProd:
      return T(1);
    case ReduceFn::kMax:
      return -INFINITY;
    case ReduceFn::kMin:
      return INFINITY;
    default:
      return T(0);
  }
}

template <typename T>
__device__ T Combine(ReduceFn fn, T a, T b) {
  switch (fn) {
    case ReduceFn::kProd:
      return a * b;
    case ReduceFn::kMax:
      return (a != a || a > b) ? a : b;
    case ReduceFn::kMin:
      return (a != a || a < b) ? a : b;
    default:
      return a + b;
  }
}

// Reduces `value` over the block (every thread passes one); the result is valid in thread 0.
template <typename T>
__device__ T BlockReduce(ReduceFn fn, T value) {
  __shared__ T partial[kThreads];
  partial[threadIdx.x] = value;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) {
      partial[threadIdx.x] = Combine(fn, partial[threadIdx.x], partial[threadIdx.x + half]);
    }
    __syncthreads();
  }
  const T result = partial[0];
  __syncthreads();  // partial may be reused by the caller's next BlockReduce
  return result;
}

// Block b reduces, for output o = b / parts, the reduced elements r = part * blockDim.x + thread,
// part + parts * blockDim.x, ... (part = b % parts) into out[b]: with parts 1 the whole
// reduction; with more, partial results a second launch combines. Mean sums here and divides
// by `divisor` at the end (0: no division).
// I indexes the input: int32_t when it has fewer than 2^31 elements (the GPU has no 64-bit
// integer division, which the per-dim index split would otherwise use).
template <typename I, typename T>
__global__ void Reduce(ReduceFn fn, const T* in, T* out, ReduceIndex index, I parts,
                       int64_t divisor) {
  const ReduceFn combine = fn == ReduceFn::kMean ? ReduceFn::kSum : fn;
  for (I b = blockIdx.x; b < I(index.outputs) * parts; b += I(gridDim.x)) {
    const I o = b / parts, part = b % parts;
    I base = 0, rest = o;
    for (int d = index.kept_rank - 1; d >= 0; --d) {
      const I dim = I(index.kept_dims[d]);
      base += (rest % dim) * I(index.kept_strides[d]);
      rest /= dim;
    }
    T acc = Identity<T>(combine);
    for (I r = part * I(blockDim.x) + threadIdx.x; r < I(index.reduced_count);
         r += parts * I(blockDim.x)) {
      I offset = base, rr = r;
      for (int d = index.reduced_rank - 1; d >= 0; --d) {
        const I dim = I(index.reduced_dims[d]);
        offset += (rr % dim) * I(index.reduced_strides[d]);
        rr /= dim;
      }
      acc = Combine(combine, acc, in[offset]);
    }
    acc = BlockReduce(combine, acc);
    if (threadIdx.x == 0) out[b] = divisor > 0 ? acc / static_cast<T>(divisor) : acc;
  }
}

template <typename T>
__global__ void Softmax(const T* logits, T* out, int64_t rows, int64_t cols, bool log) {
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const T* x = logits + row * cols;
    T* y = out + row * cols;
    T max_value = -INFINITY;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      max_value = Combine(ReduceFn::kMax, max_value, x[c]);
    }
    max_value = BlockReduce(ReduceFn::kMax, max_value);
    T sum = 0;
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) sum += exp(x[c] - max_value);
    sum = BlockReduce(ReduceFn::kSum, sum);
    for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) {
      const T shifted = x[c] - max_value;
      y[c] = log ? shifted - std::log(sum) : exp(shifted) / sum;
    }
  }
}

unsigned Blocks(int64_t n) {
  return static_cast<unsigned>(n < (1 << 20) ? (n > 0 ? n : 1) : (1 << 20));
}

}  // namespace

int64_t ReduceParts(const ReduceIndex& index) {
  // Enough blocks to fill the GPU (~4 per SM of an H100) when the outputs alone do not, each
  // with at least 16 elements per thread.
  constexpr int64_t kTargetBlocks = 512;
  if (index.outputs >= kTargetBlocks) return 1;
  const int64_t by_work = index.reduced_count / (16 * kThreads);
  const int64_t by_fill = (kTargetBlocks + index.outputs - 1) / index.outputs;
  const int64_t parts = by_work < by_fill ? by_work : by_fill;
  return parts > 1 ? parts : 1;
}

namespace {

// One Reduce launch with int32 indices when the input (outputs * reduced_count elements) and the
// block and element loops' steps past it fit.
template <typename T>
void LaunchReduceKernel(unsigned blocks, ReduceFn fn, const T* in, T* out, const ReduceIndex& index,
                        int64_t parts, int64_t divisor, void* stream) {
  constexpr int64_t kLimit = (int64_t{1} << 31) - (int64_t{1} << 30);
  const bool fits = index.outputs * index.reduced_count < kLimit &&
                    index.outputs * parts < kLimit && parts * kThreads < kLimit;
  if (fits) {
    Reduce<int32_t, T><<<blocks, kThreads, 0, S(stream)>>>(fn, in, out, index,
                                                           static_cast<int32_t>(parts), divisor);
  } else {
    Reduce<int64_t, T><<<blocks, kThreads, 0, S(stream)>>>(fn, in, out, index, parts, divisor);
  }
}

}  // namespace

template <typename T>
void LaunchReduce(ReduceFn fn, const T* in, T* out, const ReduceIndex& index, T* scratch,
                  void* stream) {
  if (index.outputs <= 0) return;
  const int64_t divisor = fn == ReduceFn::kMean ? index.reduced_count : 0;
  const int64_t parts = ReduceParts(index);
  if (parts == 1) {
    LaunchReduceKernel<T>(Blocks(index.outputs), fn, in, out, index, 1, divisor, stream);
    return;
  }
  // Pass 1: `parts` partial results per output, laid out [outputs, parts]; pass 2 reduces each
  // output's row of partials.
  LaunchReduceKernel<T>(Blocks(index.outputs * parts), fn, in, scratch, index, parts, 0, stream);
  ReduceIndex rows;
  rows.kept_rank = 1;
  rows.kept_dims[0] = index.outputs;
  rows.kept_strides[0] = parts;
  rows.reduced_rank = 1;
  rows.reduced_dims[0] = parts;
  rows.reduced_strides[0] = 1;
  rows.outputs = index.outputs;
  rows.reduced_count = parts;
  LaunchReduceKernel<T>(Blocks(index.outputs), fn, scratch, out, rows, 1, divisor, stream);
}

template <typename T>
void LaunchSoftmax(const T* logits, T* out, int64_t rows, int64_t cols, bool log, void* stream) {
  if (rows <= 0 || cols <= 0) return;
  Softmax<T><<<Blocks(rows), kThreads, 0, S(stream)>>>(logits, out, rows, cols, log);
}

template void LaunchReduce<float>(ReduceFn, const float*, float*, const ReduceIndex&, float*,
                                  void*);
template void LaunchReduce<double>(ReduceFn, const double*, double*, const ReduceIndex&, double*,
                                   void*);
template void LaunchSoftmax<float>(const float*, float*, int64_t, int64_t, bool, void*);
template void LaunchSoftmax<double>(const double*, double*, int64_t, int64_t, bool, void*);

}  // namespace gpu_kernels
}  // namespace rill
