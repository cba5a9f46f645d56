// Reductions and softmax: one block per output element (or row), threads striding over the
// reduced elements, then a shared-memory tree within the block. Works for any set of axes
// (ReduceIndex does the index arithmetic); fast when the reduced elements are many.
#include <cuda_runtime.h>

#include <cmath>

#include "kernels/gpu/gpu_launchers.h"

namespace rill {
namespace gpu_kernels {

namespace {

constexpr int kThreads = 256;

cudaStream_t S(void* stream) { return static_cast<cudaStream_t>(stream); }

template <typename T>
__device__ T Identity(ReduceFn fn) {
  switch (fn) {
    case ReduceFn::kProd: return T(1);
    case ReduceFn::kMax: return -INFINITY;
    case ReduceFn::kMin: return INFINITY;
    default: return T(0);
  }
}

template <typename T>
__device__ T Combine(ReduceFn fn, T a, T b) {
  switch (fn) {
    case ReduceFn::kProd: return a * b;
    case ReduceFn::kMax: return (a != a || a > b) ? a : b;
    case ReduceFn::kMin: return (a != a || a < b) ? a : b;
    default: return a + b;
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

template <typename T>
__global__ void Reduce(ReduceFn fn, const T* in, T* out, ReduceIndex index) {
  for (int64_t o = blockIdx.x; o < index.outputs; o += gridDim.x) {
    int64_t base = 0, rest = o;
    for (int d = index.kept_rank - 1; d >= 0; --d) {
      base += (rest % index.kept_dims[d]) * index.kept_strides[d];
      rest /= index.kept_dims[d];
    }
    T acc = Identity<T>(fn);
    for (int64_t r = threadIdx.x; r < index.reduced_count; r += blockDim.x) {
      int64_t offset = base, rr = r;
      for (int d = index.reduced_rank - 1; d >= 0; --d) {
        offset += (rr % index.reduced_dims[d]) * index.reduced_strides[d];
        rr /= index.reduced_dims[d];
      }
      acc = Combine(fn, acc, in[offset]);
    }
    acc = BlockReduce(fn, acc);
    if (threadIdx.x == 0) {
      out[o] = fn == ReduceFn::kMean ? acc / static_cast<T>(index.reduced_count) : acc;
    }
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

template <typename T>
void LaunchReduce(ReduceFn fn, const T* in, T* out, const ReduceIndex& index, void* stream) {
  if (index.outputs <= 0) return;
  Reduce<T><<<Blocks(index.outputs), kThreads, 0, S(stream)>>>(fn, in, out, index);
}

template <typename T>
void LaunchSoftmax(const T* logits, T* out, int64_t rows, int64_t cols, bool log, void* stream) {
  if (rows <= 0 || cols <= 0) return;
  Softmax<T><<<Blocks(rows), kThreads, 0, S(stream)>>>(logits, out, rows, cols, log);
}

template void LaunchReduce<float>(ReduceFn, const float*, float*, const ReduceIndex&, void*);
template void LaunchReduce<double>(ReduceFn, const double*, double*, const ReduceIndex&, void*);
template void LaunchSoftmax<float>(const float*, float*, int64_t, int64_t, bool, void*);
template void LaunchSoftmax<double>(const double*, double*, int64_t, int64_t, bool, void*);

}  // namespace gpu_kernels
}  // namespace rill
