// Elementwise CUDA kernels: binary ops with broadcasting, unary ops, LeakyRelu, BiasAdd, Fill and
// Cast.
// Grid-stride loops, 256 threads per block.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/gpu/gpu_launchers.h"
#include "kernels/gpu/launch_config.h"

namespace rill {
namespace gpu_kernels {

namespace {

using launch::Blocks;
using launch::kThreads;
using launch::S;

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
    case BinaryFn::kPow:
      return pow(a, b);
    case BinaryFn::kFloorDiv:
      return floor(a / b);
    case BinaryFn::kFloorMod: {
      const T r = fmod(a, b);
      return (r != T(0) && ((b < T(0)) != (r < T(0)))) ? r + b : r;
    }
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
    case UnaryFn::kSin:
      return sin(x);
    case UnaryFn::kCos:
      return cos(x);
    case UnaryFn::kErf:
      return erf(x);
    case UnaryFn::kErfc:
      return erfc(x);
    case UnaryFn::kSoftplus: {
      // log(epsilon) + 2, TensorFlow's threshold (the CPU kernel's).
      const T threshold =
          log(sizeof(T) == 4 ? T(1.1920928955078125e-07) : T(2.220446049250313e-16)) + T(2);
      if (x > -threshold) return x;
      if (x < threshold) return exp(x);
      return log1p(exp(x));
    }
    case UnaryFn::kSoftsign:
      return x / (fabs(x) + T(1));
    case UnaryFn::kElu:
      return x < T(0) ? expm1(x) : x;
    case UnaryFn::kSelu: {
      const T scale = T(1.0507009873554804934193349852946);
      const T alpha = T(1.6732632423543772848170429916717);
      return x < T(0) ? scale * alpha * expm1(x) : scale * x;
    }
    case UnaryFn::kFloor:
      return floor(x);
    case UnaryFn::kCeil:
      return ceil(x);
    case UnaryFn::kRound:
      return rint(x);
    case UnaryFn::kSign:
      return x != x ? x : T((T(0) < x) - (x < T(0)));
    case UnaryFn::kLog1p:
      return log1p(x);
    case UnaryFn::kExpm1:
      return expm1(x);
  }
  return x;
}

// Storage type S and the type its arithmetic runs in: float16 elements compute in float32 (as the
// CPU kernels do), every other type in itself.
template <typename S>
struct Elem {
  using C = S;
  __device__ static C Load(S v) { return v; }
  __device__ static S Store(C v) { return v; }
};
template <>
struct Elem<__half> {
  using C = float;
  __device__ static float Load(__half v) { return __half2float(v); }
  __device__ static __half Store(float v) { return __float2half_rn(v); }
};

template <typename T>
__global__ void SameShapeBinary(BinaryFn fn, const T* a, const T* b, T* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    using E = Elem<T>;
    out[i] = E::Store(ApplyBinary(fn, E::Load(a[i]), E::Load(b[i])));
  }
}

// I is int32_t when the output has fewer than 2^31 elements (its operands then too): the GPU has
// no 64-bit integer division, which the per-dim index split would otherwise use.
template <typename I, typename T>
__global__ void BroadcastBinary(BinaryFn fn, const T* a, const T* b, T* out, I n,
                                BroadcastIndex index) {
  for (I i = blockIdx.x * I(blockDim.x) + threadIdx.x; i < n; i += I(blockDim.x) * I(gridDim.x)) {
    I rest = i, ai = 0, bi = 0;
    for (int d = index.rank - 1; d >= 0; --d) {
      const I dim = I(index.out_dims[d]);
      const I c = rest % dim;
      rest /= dim;
      ai += c * I(index.a_strides[d]);
      bi += c * I(index.b_strides[d]);
    }
    using E = Elem<T>;
    out[i] = E::Store(ApplyBinary(fn, E::Load(a[ai]), E::Load(b[bi])));
  }
}

template <typename T>
__global__ void Unary(UnaryFn fn, const T* x, T* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    using E = Elem<T>;
    out[i] = E::Store(ApplyUnary(fn, E::Load(x[i])));
  }
}

template <typename T>
__global__ void BiasAdd(const T* x, const T* bias, T* out, int64_t n, int64_t channels,
                        int64_t inner) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    using E = Elem<T>;
    out[i] = E::Store(E::Load(x[i]) + E::Load(bias[(i / inner) % channels]));
  }
}

template <typename T>
__global__ void Fill(T* out, T value, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = value;
  }
}

// The CPU kernel's conversions (kernels/math/cast_op.cc): to bool `!= 0`; floating to a 32- or
// 64-bit integer truncates, a NaN or out-of-range value giving the integer's minimum (x86's
// result, which C++ and CUDA leave undefined).
template <typename Dst, typename Src>
__device__ Dst CastValue(Src v) {
  if constexpr (std::is_same_v<Dst, bool>) {
    return v != Src(0);
  } else if constexpr (std::is_integral_v<Dst> && std::is_floating_point_v<Src>) {
    const double x = static_cast<double>(v);
    if constexpr (sizeof(Dst) == 4) {
      if (!(x >= -2147483648.0 && x < 2147483648.0)) return INT32_MIN;
    } else {
      if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return INT64_MIN;
    }
    return static_cast<Dst>(x);
  } else {
    return static_cast<Dst>(v);
  }
}

template <typename Src, typename Dst>
__global__ void Cast(const Src* x, Dst* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = CastValue<Dst>(x[i]);
  }
}

template <typename T>
__global__ void LeakyRelu(const T* x, T* out, int64_t n, T alpha) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = x[i] < T(0) ? x[i] * alpha : x[i];
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
    if (launch::Use32Bit(n)) {
      BroadcastBinary<int32_t, T>
          <<<Blocks(n), kThreads, 0, S(stream)>>>(fn, a, b, out, static_cast<int32_t>(n), *index);
    } else {
      BroadcastBinary<int64_t, T><<<Blocks(n), kThreads, 0, S(stream)>>>(fn, a, b, out, n, *index);
    }
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

template <typename T>
void LaunchLeakyRelu(const T* x, T* out, int64_t n, T alpha, void* stream) {
  if (n <= 0) return;
  LeakyRelu<T><<<Blocks(n), kThreads, 0, S(stream)>>>(x, out, n, alpha);
}

template <typename Src, typename Dst>
void LaunchCast(const Src* x, Dst* out, int64_t n, void* stream) {
  if (n <= 0) return;
  Cast<Src, Dst><<<Blocks(n), kThreads, 0, S(stream)>>>(x, out, n);
}

// float16 as its 16 bits on the host side (kernels/gpu/gpu_launchers.h), __half here.
void LaunchBinaryHalf(BinaryFn fn, const uint16_t* a, const uint16_t* b, uint16_t* out, int64_t n,
                      const BroadcastIndex* index, void* stream) {
  LaunchBinary<__half>(fn, reinterpret_cast<const __half*>(a), reinterpret_cast<const __half*>(b),
                       reinterpret_cast<__half*>(out), n, index, stream);
}

void LaunchUnaryHalf(UnaryFn fn, const uint16_t* x, uint16_t* out, int64_t n, void* stream) {
  LaunchUnary<__half>(fn, reinterpret_cast<const __half*>(x), reinterpret_cast<__half*>(out), n,
                      stream);
}

void LaunchBiasAddHalf(const uint16_t* x, const uint16_t* bias, uint16_t* out, int64_t n,
                       int64_t channels, int64_t inner, void* stream) {
  LaunchBiasAdd<__half>(reinterpret_cast<const __half*>(x), reinterpret_cast<const __half*>(bias),
                        reinterpret_cast<__half*>(out), n, channels, inner, stream);
}

void LaunchFillHalf(uint16_t* out, uint16_t value, int64_t n, void* stream) {
  LaunchFill<uint16_t>(out, value, n, stream);  // the bits, copied
}

#define RILL_INSTANTIATE(T)                                                                       \
  template void LaunchBinary<T>(BinaryFn, const T*, const T*, T*, int64_t, const BroadcastIndex*, \
                                void*);                                                           \
  template void LaunchUnary<T>(UnaryFn, const T*, T*, int64_t, void*);                            \
  template void LaunchBiasAdd<T>(const T*, const T*, T*, int64_t, int64_t, int64_t, void*);       \
  template void LaunchFill<T>(T*, T, int64_t, void*);                                             \
  template void LaunchLeakyRelu<T>(const T*, T*, int64_t, T, void*);
RILL_INSTANTIATE(float)
RILL_INSTANTIATE(double)
#undef RILL_INSTANTIATE
namespace {

__global__ void FloatToHalf(const float* x, __half* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = __float2half_rn(x[i]);
  }
}

__global__ void HalfToFloat(const __half* x, float* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = __half2float(x[i]);
  }
}

// The value with its low `bits` mantissa bits cleared; NaN unchanged (its payload may sit there).
__device__ double ClearLowMantissaBits(double v, int bits) {
  if (isnan(v)) return v;
  return __longlong_as_double(__double_as_longlong(v) & ~((1LL << bits) - 1));
}
__device__ float ClearLowMantissaBits(float v, int bits) {
  if (isnan(v)) return v;
  return __int_as_float(__float_as_int(v) & ~((1 << bits) - 1));
}

__global__ void TruncatingDoubleToFloat(const double* x, float* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = __double2float_rn(ClearLowMantissaBits(x[i], 52 - 23));
  }
}

__global__ void TruncatingFloatToHalf(const float* x, __half* out, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < n;
       i += int64_t{blockDim.x} * gridDim.x) {
    out[i] = __float2half_rn(ClearLowMantissaBits(x[i], 23 - 10));
  }
}

}  // namespace

void LaunchTruncatingCastDoubleToFloat(const double* x, float* out, int64_t n, void* stream) {
  if (n <= 0) return;
  TruncatingDoubleToFloat<<<Blocks(n), kThreads, 0, S(stream)>>>(x, out, n);
}

void LaunchTruncatingCastFloatToHalf(const float* x, uint16_t* out, int64_t n, void* stream) {
  if (n <= 0) return;
  TruncatingFloatToHalf<<<Blocks(n), kThreads, 0, S(stream)>>>(x, reinterpret_cast<__half*>(out),
                                                               n);
}

void LaunchCastFloatToHalf(const float* x, uint16_t* out, int64_t n, void* stream) {
  if (n <= 0) return;
  FloatToHalf<<<Blocks(n), kThreads, 0, S(stream)>>>(x, reinterpret_cast<__half*>(out), n);
}

void LaunchCastHalfToFloat(const uint16_t* x, float* out, int64_t n, void* stream) {
  if (n <= 0) return;
  HalfToFloat<<<Blocks(n), kThreads, 0, S(stream)>>>(reinterpret_cast<const __half*>(x), out, n);
}

#define RILL_CAST_FROM(Src)                                                     \
  template void LaunchCast<Src, float>(const Src*, float*, int64_t, void*);     \
  template void LaunchCast<Src, double>(const Src*, double*, int64_t, void*);   \
  template void LaunchCast<Src, int32_t>(const Src*, int32_t*, int64_t, void*); \
  template void LaunchCast<Src, int64_t>(const Src*, int64_t*, int64_t, void*); \
  template void LaunchCast<Src, bool>(const Src*, bool*, int64_t, void*);
RILL_CAST_FROM(float)
RILL_CAST_FROM(double)
RILL_CAST_FROM(int32_t)
RILL_CAST_FROM(int64_t)
RILL_CAST_FROM(bool)
#undef RILL_CAST_FROM

}  // namespace gpu_kernels
}  // namespace rill
