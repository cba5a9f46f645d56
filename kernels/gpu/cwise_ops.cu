// Elementwise CUDA kernels: binary ops with broadcasting, unary ops, BiasAdd, Fill and Cast.
// Grid-stride loops, 256 threads per block.
#include <cuda_runtime.h>

#include <cmath>

#include "kernels/gpu/gpu_launchers.h"

namespace rill {
namespace gpu_kernels {

namespace {

constexpr int kThreads = 256;

unsigned Blocks(int64_t n) {
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < (1 << 20) ? (blocks > 0 ? blocks : 1) : (1 << 20));
}

cudaStream_t S(void* stream) { return static_cast<cudaStream_t>(stream); }

template <typename T>
__device__ T ApplyBinary(BinaryFn fn, T a, T b) {
  switch (fn) {
    case BinaryFn::kAdd:
      return a + b;
    case BinaryFn::kSub:
      return a - b;
    case BinaryFn::kMul:
      return a * b;
    case BinaryFn::kDiv:
      return a / b;
    case BinaryFn::kMaximum:
      return (a != a || a > b) ? a : b;  // NaN propagates, as TF's
    case BinaryFn::kMinimum:
      return (a != a || a < b) ? a : b;
    case BinaryFn::kSquaredDifference:
      return (a - b) * (a - b);
  }
  return a;
}

template <typename T>
__device__ T ApplyUnary(UnaryFn fn, T x) {
  switch (fn) {
    case UnaryFn::kRelu:
      return x > T(0) ? x : T(0);
    case UnaryFn::kRelu6:
      return x > T(0) ? (x < T(6) ? x : T(6)) : T(0);
    case UnaryFn::kSigmoid:
      return T(1) / (T(1) + exp(-x));
    case UnaryFn::kTanh:
      return tanh(x);
    case UnaryFn::kNeg:
      return -x;
    case UnaryFn::kAbs:
      return fabs(x);
    case UnaryFn::kExp:
      return exp(x);
    case UnaryFn::kLog:
      return log(x);
    case UnaryFn::kSqrt:
      return sqrt(x);
    case UnaryFn::kRsqrt:
      return T(1) / sqrt(x);
    case UnaryFn::kSquare:
      return x * x;
    case UnaryFn::kReciprocal:
      return T(1) / x;
  }
  return x;
}

template <typename T>
__global__ void SameShapeBinary(BinaryFn fn, const T* a, const T* b, T* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = ApplyBinary(fn, a[i], b[i]);
  }
}

template <typename T>
__global__ void BroadcastBinary(BinaryFn fn, const T* a, const T* b, T* out, int64_t n,
                                BroadcastIndex index) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    int64_t rest = i, ai = 0, bi = 0;
    for (int d = index.rank - 1; d >= 0; --d) {
      const int64_t c = rest % index.out_dims[d];
      rest /= index.out_dims[d];
      ai += c * index.a_strides[d];
      bi += c * index.b_strides[d];
    }
    out[i] = ApplyBinary(fn, a[ai], b[bi]);
  }
}

template <typename T>
__global__ void Unary(UnaryFn fn, const T* x, T* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = ApplyUnary(fn, x[i]);
  }
}

template <typename T>
__global__ void BiasAdd(const T* x, const T* bias, T* out, int64_t n, int64_t channels,
                        int64_t inner) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = x[i] + bias[(i / inner) % channels];
  }
}

template <typename T>
__global__ void Fill(T* out, T value, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = value;
  }
}

template <typename Src, typename Dst>
__global__ void Cast(const Src* x, Dst* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = static_cast<Dst>(x[i]);
  }
}

}  // namespace

template <typename T>
void LaunchBinary(BinaryFn fn, const T* a, const T* b, T* out, int64_t n,
                  const BroadcastIndex* index, void* stream) {
  if (n <= 0) return;
  if (index == nullptr) {
    SameShapeBinary<T><<<Blocks(n), kThreads, 0, S(stream)>>>(fn, a, b, out, n);
  } else {
    BroadcastBinary<T><<<Blocks(n), kThreads, 0, S(stream)>>>(fn, a, b, out, n, *index);
  }
}

template <typename T>
void LaunchUnary(UnaryFn fn, const T* x, T* out, int64_t n, void* stream) {
  if (n <= 0) return;
  Unary<T><<<Blocks(n), kThreads, 0, S(stream)>>>(fn, x, out, n);
}

template <typename T>
void LaunchBiasAdd(const T* x, const T* bias, T* out, int64_t n, int64_t channels, int64_t inner,
                   void* stream) {
  if (n <= 0) return;
  BiasAdd<T><<<Blocks(n), kThreads, 0, S(stream)>>>(x, bias, out, n, channels, inner);
}

template <typename T>
void LaunchFill(T* out, T value, int64_t n, void* stream) {
  if (n <= 0) return;
  Fill<T><<<Blocks(n), kThreads, 0, S(stream)>>>(out, value, n);
}

template <typename Src, typename Dst>
void LaunchCast(const Src* x, Dst* out, int64_t n, void* stream) {
  if (n <= 0) return;
  Cast<Src, Dst><<<Blocks(n), kThreads, 0, S(stream)>>>(x, out, n);
}

#define RILL_INSTANTIATE(T)                                                                       \
  template void LaunchBinary<T>(BinaryFn, const T*, const T*, T*, int64_t, const BroadcastIndex*, \
                                void*);                                                           \
  template void LaunchUnary<T>(UnaryFn, const T*, T*, int64_t, void*);                            \
  template void LaunchBiasAdd<T>(const T*, const T*, T*, int64_t, int64_t, int64_t, void*);       \
  template void LaunchFill<T>(T*, T, int64_t, void*);
RILL_INSTANTIATE(float)
RILL_INSTANTIATE(double)
#undef RILL_INSTANTIATE
template void LaunchCast<float, double>(const float*, double*, int64_t, void*);
template void LaunchCast<double, float>(const double*, float*, int64_t, void*);
template void LaunchCast<float, float>(const float*, float*, int64_t, void*);
template void LaunchCast<double, double>(const double*, double*, int64_t, void*);

}  // namespace gpu_kernels
}  // namespace rill
