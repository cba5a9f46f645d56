// CUDA kernels of the convolution helpers, pooling and batch norm (kernels/gpu/nn_launchers.h).
// Grid-stride loops of 256 threads per block; the per-channel moments use one block per channel.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>

#include "kernels/gpu/launch_config.h"
#include "kernels/gpu/nn_launchers.h"

namespace rill {
namespace gpu_kernels {

namespace {

using launch::Blocks;
using launch::kThreads;
using launch::S;

#define RILL_FOR_EACH(i, n)                                                 \
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < (n); \
       i += int64_t{blockDim.x} * gridDim.x)

// The same loop with index type I. Kernels index with int32_t when every index fits (Use32Bit):
// the GPU has no 64-bit integer division, so int64_t index arithmetic (a division and a modulo
// per dimension) took several times the memory traffic's time.
#define RILL_FOR_EACH_I(i, n) \
  for (I i = blockIdx.x * I(blockDim.x) + threadIdx.x; i < I(n); i += I(blockDim.x) * I(gridDim.x))

using launch::Use32Bit;

// The largest magnitude a window's coordinate arithmetic reaches along one dim: the last
// window's start plus its dilated extent, and the padding (saturating: a crafted stride or
// dilation near 2^63 must not wrap).
int64_t WindowExtent(int64_t out, int64_t stride, int64_t k, int64_t dilation, int64_t pad) {
  const __int128 extent = static_cast<__int128>(out > 0 ? out - 1 : 0) * stride +
                          static_cast<__int128>(k > 0 ? k - 1 : 0) * dilation + 1 + pad;
  return extent > INT64_MAX ? INT64_MAX : static_cast<int64_t>(extent);
}

// f(int32_t{}) when Use32Bit(largest), else f(int64_t{}): the index type of a launch.
template <typename F>
void WithIndexType(int64_t largest, F&& f) {
  if (Use32Bit(largest)) {
    f(int32_t{});
  } else {
    f(int64_t{});
  }
}

template <typename I, typename T>
__global__ void TransposeMatrix(const T* in, T* out, I rows, I cols) {
  RILL_FOR_EACH_I(i, rows * cols) {
    const I c = i / rows, r = i % rows;  // out[c][r], so writes are coalesced
    out[i] = in[r * cols + c];
  }
}

template <typename I, typename T>
__global__ void PadNhwc(const T* in, T* out, I batch, I in_h, I in_w, I depth, I top, I left,
                        I out_h, I out_w) {
  RILL_FOR_EACH_I(i, batch * out_h * out_w * depth) {
    I rest = i;
    const I c = rest % depth;
    rest /= depth;
    const I w = rest % out_w - left;
    rest /= out_w;
    const I h = rest % out_h - top;
    const I n = rest / out_h;
    out[i] = (h >= 0 && h < in_h && w >= 0 && w < in_w)
                 ? in[((n * in_h + h) * in_w + w) * depth + c]
                 : T(0);  // +0.0 in float32 and float16 alike
  }
}

template <typename I, bool kMax>
__global__ void SpatialPool(const float* in, float* out, PoolDims d) {
  RILL_FOR_EACH_I(i, I(d.batch) * I(d.out_h) * I(d.out_w) * I(d.depth)) {
    I rest = i;
    const I c = rest % I(d.depth);
    rest /= I(d.depth);
    const I ow = rest % I(d.out_w);
    rest /= I(d.out_w);
    const I oh = rest % I(d.out_h);
    const I n = rest / I(d.out_h);
    const I h0 = oh * I(d.stride_h) - I(d.pad_h), w0 = ow * I(d.stride_w) - I(d.pad_w);
    const I h_begin = h0 > 0 ? h0 : 0, w_begin = w0 > 0 ? w0 : 0;
    const I h_end = h0 + I(d.k_h) < I(d.in_h) ? h0 + I(d.k_h) : I(d.in_h);
    const I w_end = w0 + I(d.k_w) < I(d.in_w) ? w0 + I(d.k_w) : I(d.in_w);
    float acc = kMax ? -FLT_MAX : 0.0f;
    I count = 0;
    for (I h = h_begin; h < h_end; ++h) {
      for (I w = w_begin; w < w_end; ++w) {
        const float v = in[((n * I(d.in_h) + h) * I(d.in_w) + w) * I(d.depth) + c];
        if (kMax) {
          if (v > acc) acc = v;  // NaN never compares greater: skipped
        } else {
          acc += v;
        }
        ++count;
      }
    }
    out[i] = kMax ? acc : acc / static_cast<float>(count);
  }
}

template <typename I>
__global__ void DepthMaxPool(const float* in, float* out, I pixels, I depth, I k_d) {
  const I out_d = depth / k_d;
  RILL_FOR_EACH_I(i, pixels * out_d) {
    const I p = i / out_d, c = i % out_d;
    const float* x = in + p * depth + c * k_d;
    float acc = -FLT_MAX;
    for (I k = 0; k < k_d; ++k) {
      if (x[k] > acc) acc = x[k];
    }
    out[i] = acc;
  }
}

// FusedActivation's codes (nn_launchers.h).
__device__ float Activate(float x, int activation) {
  switch (activation) {
    case 1:
      return x > 0.0f ? x : 0.0f;
    case 2:
      return x > 0.0f ? (x < 6.0f ? x : 6.0f) : 0.0f;
    case 3:
      return x * (1.0f / (1.0f + expf(-x)));
    case 4: {
      const float t = x + 3.0f;
      return x * ((t != t ? t : (t > 6.0f ? 6.0f : (t > 0.0f ? t : 0.0f))) / 6.0f);
    }
    default:
      return x;
  }
}

template <typename I>
__global__ void BiasActivation(float* y, const float* bias, I n, I channels, int activation) {
  RILL_FOR_EACH_I(i, n) { y[i] = Activate(y[i] + bias[i % channels], activation); }
}

__device__ float ToFloat(float v) { return v; }
__device__ float ToFloat(__half v) { return __half2float(v); }
template <typename T>
__device__ T FromFloat(float v);
template <>
__device__ float FromFloat<float>(float v) {
  return v;
}
template <>
__device__ __half FromFloat<__half>(float v) {
  return __float2half(v);
}

template <typename I, typename T>
__global__ void Depthwise(const T* x, const T* filter, const float* bias, int activation, T* y,
                          DepthwiseDims d) {
  const I out_c = I(d.in_c) * I(d.mult);
  RILL_FOR_EACH_I(i, I(d.batch) * I(d.out_h) * I(d.out_w) * out_c) {
    I rest = i;
    const I oc = rest % out_c;
    rest /= out_c;
    const I ow = rest % I(d.out_w);
    rest /= I(d.out_w);
    const I oh = rest % I(d.out_h);
    const I n = rest / I(d.out_h);
    const I c = oc / I(d.mult);
    const T* image = x + n * I(d.in_h) * I(d.in_w) * I(d.in_c) + c;
    float acc = 0.0f;
    for (I kh = 0; kh < I(d.k_h); ++kh) {
      const I h = oh * I(d.stride_h) - I(d.pad_h) + kh * I(d.dil_h);
      if (h < 0 || h >= I(d.in_h)) continue;
      for (I kw = 0; kw < I(d.k_w); ++kw) {
        const I w = ow * I(d.stride_w) - I(d.pad_w) + kw * I(d.dil_w);
        if (w < 0 || w >= I(d.in_w)) continue;
        acc += ToFloat(image[(h * I(d.in_w) + w) * I(d.in_c)]) *
               ToFloat(filter[(kh * I(d.k_w) + kw) * out_c + oc]);
      }
    }
    if (bias != nullptr) acc = Activate(acc + bias[oc], activation);
    y[i] = FromFloat<T>(acc);
  }
}

// Depthwise, float with multiplier 1 and in_c % 4 == 0 (MobileNet's and EfficientNet's layers):
// each thread makes four neighbouring channels of one output pixel with 16-byte loads, so the
// index arithmetic is a quarter of Depthwise's and every access is a full vector. K > 0 fixes the
// window (3x3, unrolled); K == 0 reads it from `d`.
template <typename I, int K>
__global__ void DepthwiseVec4(const float4* x, const float4* filter, const float4* bias,
                              int activation, float4* y, DepthwiseDims d) {
  const I c4 = I(d.in_c) / 4;
  const I k_h = K > 0 ? I(K) : I(d.k_h), k_w = K > 0 ? I(K) : I(d.k_w);
  RILL_FOR_EACH_I(i, I(d.batch) * I(d.out_h) * I(d.out_w) * c4) {
    I rest = i;
    const I c = rest % c4;
    rest /= c4;
    const I ow = rest % I(d.out_w);
    rest /= I(d.out_w);
    const I oh = rest % I(d.out_h);
    const I n = rest / I(d.out_h);
    const float4* image = x + n * I(d.in_h) * I(d.in_w) * c4 + c;
    const I h0 = oh * I(d.stride_h) - I(d.pad_h), w0 = ow * I(d.stride_w) - I(d.pad_w);
    float4 acc = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (I kh = 0; kh < k_h; ++kh) {
      const I h = h0 + kh * I(d.dil_h);
      if (h < 0 || h >= I(d.in_h)) continue;
#pragma unroll
      for (I kw = 0; kw < k_w; ++kw) {
        const I w = w0 + kw * I(d.dil_w);
        if (w < 0 || w >= I(d.in_w)) continue;
        const float4 v = image[(h * I(d.in_w) + w) * c4];
        const float4 f = filter[(kh * k_w + kw) * c4 + c];
        acc.x += v.x * f.x;
        acc.y += v.y * f.y;
        acc.z += v.z * f.z;
        acc.w += v.w * f.w;
      }
    }
    if (bias != nullptr) {
      const float4 b = bias[c];
      acc = make_float4(Activate(acc.x + b.x, activation), Activate(acc.y + b.y, activation),
                        Activate(acc.z + b.z, activation), Activate(acc.w + b.w, activation));
    }
    y[i] = acc;
  }
}

bool Aligned16(const void* p) { return reinterpret_cast<uintptr_t>(p) % 16 == 0; }

// Sum over a block into thread 0's return value (blockDim.x == kThreads).
__device__ double BlockSum(double v) {
  __shared__ double partial[kThreads];
  partial[threadIdx.x] = v;
  __syncthreads();
  for (int stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  const double total = partial[0];
  __syncthreads();
  return total;
}

// Block c: the moments of channel c.
__global__ void BatchMoments(const float* x, float* mean, float* variance, NormDims d) {
  const int64_t c = blockIdx.x;
  const int64_t n = d.outer * d.inner;
  auto at = [&](int64_t j) { return x[((j / d.inner) * d.channels + c) * d.inner + j % d.inner]; };
  double sum = 0;
  for (int64_t j = threadIdx.x; j < n; j += kThreads) sum += at(j);
  const float m = static_cast<float>(BlockSum(sum) / static_cast<double>(n));
  double sq = 0;
  for (int64_t j = threadIdx.x; j < n; j += kThreads) {
    const double diff = static_cast<double>(at(j)) - m;
    sq += diff * diff;
  }
  const double total = BlockSum(sq);
  if (threadIdx.x == 0) {
    mean[c] = m;
    variance[c] = static_cast<float>(total / static_cast<double>(n));
  }
}

__global__ void BatchNormFinish(const float* m, const float* v, const float* scale,
                                const float* old_mean, const float* old_var, float epsilon, float f,
                                bool training, int64_t per_channel, int64_t channels, float* factor,
                                float* batch_mean, float* batch_var, float* reserve_1,
                                float* reserve_2) {
  RILL_FOR_EACH(c, channels) {
    factor[c] = scale[c] / sqrtf(v[c] + epsilon);
    if (training) {
      const float adjust = static_cast<float>(per_channel) /
                           static_cast<float>(per_channel > 1 ? per_channel - 1 : 1);
      if (f == 1.0f) {
        batch_mean[c] = m[c];
        batch_var[c] = v[c] * adjust;
      } else {
        batch_mean[c] = (1.0f - f) * old_mean[c] + f * m[c];
        batch_var[c] = (1.0f - f) * old_var[c] + (f * adjust) * v[c];
      }
    } else {
      batch_mean[c] = m[c];
      batch_var[c] = v[c];
    }
    reserve_1[c] = m[c];
    reserve_2[c] = v[c];
  }
}

template <typename I>
__global__ void BatchNormApply(const float* x, const float* m, const float* factor,
                               const float* offset, float* y, NormDims d) {
  RILL_FOR_EACH_I(i, I(d.outer) * I(d.channels) * I(d.inner)) {
    const I c = (i / I(d.inner)) % I(d.channels);
    y[i] = (x[i] - m[c]) * factor[c] + offset[c];
  }
}

}  // namespace

void LaunchTransposeMatrix(const void* in, void* out, int64_t rows, int64_t cols, int element_bytes,
                           void* stream) {
  const int64_t n = rows * cols;
  if (n <= 0) return;
  WithIndexType(n, [&](auto index) {
    using I = decltype(index);
    if (element_bytes == 2) {
      TransposeMatrix<I, uint16_t><<<Blocks(n), kThreads, 0, S(stream)>>>(
          static_cast<const uint16_t*>(in), static_cast<uint16_t*>(out), rows, cols);
    } else {
      TransposeMatrix<I, float><<<Blocks(n), kThreads, 0, S(stream)>>>(
          static_cast<const float*>(in), static_cast<float*>(out), rows, cols);
    }
  });
}

void LaunchPadNhwc(const void* in, void* out, int64_t batch, int64_t in_h, int64_t in_w,
                   int64_t depth, int64_t top, int64_t left, int64_t out_h, int64_t out_w,
                   int element_bytes, void* stream) {
  const int64_t n = batch * out_h * out_w * depth;  // at least the input's elements
  if (n <= 0) return;
  WithIndexType(n, [&](auto index) {
    using I = decltype(index);
    if (element_bytes == 2) {
      PadNhwc<I, uint16_t><<<Blocks(n), kThreads, 0, S(stream)>>>(
          static_cast<const uint16_t*>(in), static_cast<uint16_t*>(out), batch, in_h, in_w, depth,
          top, left, out_h, out_w);
    } else {
      PadNhwc<I, float><<<Blocks(n), kThreads, 0, S(stream)>>>(
          static_cast<const float*>(in), static_cast<float*>(out), batch, in_h, in_w, depth, top,
          left, out_h, out_w);
    }
  });
}

namespace {

template <bool kMax>
void LaunchSpatialPool(const float* in, float* out, const PoolDims& d, void* stream) {
  const int64_t n = d.batch * d.out_h * d.out_w * d.depth;
  if (n <= 0) return;
  const int64_t largest = std::max({n, d.batch * d.in_h * d.in_w * d.depth,
                                    WindowExtent(d.out_h, d.stride_h, d.k_h, 1, d.pad_h),
                                    WindowExtent(d.out_w, d.stride_w, d.k_w, 1, d.pad_w)});
  WithIndexType(largest, [&](auto index) {
    using I = decltype(index);
    SpatialPool<I, kMax><<<Blocks(n), kThreads, 0, S(stream)>>>(in, out, d);
  });
}

}  // namespace

void LaunchMaxPool(const float* in, float* out, const PoolDims& dims, void* stream) {
  LaunchSpatialPool<true>(in, out, dims, stream);
}

void LaunchAvgPool(const float* in, float* out, const PoolDims& dims, void* stream) {
  LaunchSpatialPool<false>(in, out, dims, stream);
}

void LaunchDepthMaxPool(const float* in, float* out, int64_t pixels, int64_t depth, int64_t k_d,
                        void* stream) {
  const int64_t n = pixels * (depth / k_d);
  if (n <= 0) return;
  WithIndexType(pixels * depth, [&](auto index) {
    using I = decltype(index);
    DepthMaxPool<I><<<Blocks(n), kThreads, 0, S(stream)>>>(in, out, pixels, depth, k_d);
  });
}

void LaunchDepthwiseConv(const void* x, const void* filter, const float* bias, int activation,
                         void* y, const DepthwiseDims& d, bool half, void* stream) {
  const int64_t n = d.batch * d.out_h * d.out_w * d.in_c * d.mult;
  if (n <= 0) return;
  // The window arithmetic (strides, dilations and padding may be huge in a crafted graph) must fit
  // too, not only the tensors' sizes.
  const int64_t largest =
      std::max({n, d.batch * d.in_h * d.in_w * d.in_c, d.k_h * d.k_w * d.in_c * d.mult,
                WindowExtent(d.out_h, d.stride_h, d.k_h, d.dil_h, d.pad_h),
                WindowExtent(d.out_w, d.stride_w, d.k_w, d.dil_w, d.pad_w)});
  WithIndexType(largest, [&](auto index) {
    using I = decltype(index);
    const bool vec4 = !half && d.mult == 1 && d.in_c % 4 == 0 && Aligned16(x) &&
                      Aligned16(filter) && Aligned16(y) && (bias == nullptr || Aligned16(bias));
    if (vec4) {
      const auto* x4 = static_cast<const float4*>(x);
      const auto* f4 = static_cast<const float4*>(filter);
      const auto* b4 = reinterpret_cast<const float4*>(bias);
      auto* y4 = static_cast<float4*>(y);
      if (d.k_h == 3 && d.k_w == 3) {
        DepthwiseVec4<I, 3>
            <<<Blocks(n / 4), kThreads, 0, S(stream)>>>(x4, f4, b4, activation, y4, d);
      } else {
        DepthwiseVec4<I, 0>
            <<<Blocks(n / 4), kThreads, 0, S(stream)>>>(x4, f4, b4, activation, y4, d);
      }
    } else if (half) {
      Depthwise<I, __half><<<Blocks(n), kThreads, 0, S(stream)>>>(
          static_cast<const __half*>(x), static_cast<const __half*>(filter), nullptr, 0,
          static_cast<__half*>(y), d);
    } else {
      Depthwise<I, float><<<Blocks(n), kThreads, 0, S(stream)>>>(
          static_cast<const float*>(x), static_cast<const float*>(filter), bias, activation,
          static_cast<float*>(y), d);
    }
  });
}

void LaunchBiasActivation(float* y, const float* bias, int64_t n, int64_t channels, int activation,
                          void* stream) {
  if (n <= 0 || channels <= 0) return;
  WithIndexType(n, [&](auto index) {
    using I = decltype(index);
    BiasActivation<I><<<Blocks(n), kThreads, 0, S(stream)>>>(y, bias, n, channels, activation);
  });
}

void LaunchBatchMoments(const float* x, float* mean, float* variance, const NormDims& dims,
                        void* stream) {
  if (dims.channels <= 0) return;
  BatchMoments<<<static_cast<unsigned>(dims.channels), kThreads, 0, S(stream)>>>(x, mean, variance,
                                                                                 dims);
}

void LaunchBatchNormFinish(const float* m, const float* v, const float* scale,
                           const float* old_mean, const float* old_var, float epsilon,
                           float avg_factor, bool training, int64_t per_channel, int64_t channels,
                           float* factor, float* batch_mean, float* batch_var, float* reserve_1,
                           float* reserve_2, void* stream) {
  if (channels <= 0) return;
  BatchNormFinish<<<Blocks(channels), kThreads, 0, S(stream)>>>(
      m, v, scale, old_mean, old_var, epsilon, avg_factor, training, per_channel, channels, factor,
      batch_mean, batch_var, reserve_1, reserve_2);
}

void LaunchBatchNormApply(const float* x, const float* m, const float* factor, const float* offset,
                          float* y, const NormDims& dims, void* stream) {
  const int64_t n = dims.outer * dims.channels * dims.inner;
  if (n <= 0) return;
  WithIndexType(n, [&](auto index) {
    using I = decltype(index);
    BatchNormApply<I><<<Blocks(n), kThreads, 0, S(stream)>>>(x, m, factor, offset, y, dims);
  });
}

}  // namespace gpu_kernels
}  // namespace rill
