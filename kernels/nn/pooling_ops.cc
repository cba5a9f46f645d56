// MaxPool, MaxPoolV2 and AvgPool on the CPU, NHWC, and their gradients MaxPoolGrad and
// AvgPoolGrad (spatial windows; see SpatialPoolGrad):
//   MaxPool: out[n,oh,ow,c] = max over the window's in-bounds elements in[n, oh*sh - ph + kh,
//     ow*sw - pw + kw, c] (padding is ignored; a window wholly in the padding gives the type's
//     lowest value, as TensorFlow's initial value); NaN inputs are skipped as TensorFlow's
//     cwiseMax does. With ksize 1 along height and width and ksize > 1 along depth it pools across
//     depth instead: out[n,h,w,c] = max of in[n,h,w,c*kd .. c*kd+kd-1].
//   MaxPoolV2: MaxPool with ksize and strides read from int32 inputs 1 and 2 at run time.
//   AvgPool: the mean of the window's in-bounds elements (divided by their count, not the window
//     size). half is computed in float.
// Output pixels run in parallel over the kernel's intra-op threads (OpKernelContext::ParallelFor),
// the channel loops at the CPU's vector width.
// Errors are TensorFlow's texts: InvalidArgument "Default MaxPoolingOp only supports NHWC on
// device type CPU" (AvgPool: "Default AvgPoolingOp ..."), "Sliding window ksize field must specify
// 4 dimensions", "Sliding window stride field must specify 4 dimensions", "Sliding window ksize
// for dimension 1 was zero.", "tensor_in must be 4-dimensional", the window errors of
// ops/window_geometry.h; Unimplemented "Pooling is not yet supported on the batch dimension.",
// "MaxPooling supports exactly one of pooling across depth or pooling across width/height.",
// "Depthwise max pooling requires the depth window to evenly divide the input depth",
// "Depthwise max pooling requires the depth window to equal the depth stride", "Non-spatial
// pooling is not yet supported. Volunteers? :)".
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/half_convert.h"
#include "kernels/math_lib/simd_dispatch.h"
#include "kernels/nn/pool_geometry.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

#define RILL_MAX_POOL_TYPES half, float, double, int8_t, int16_t, int32_t, int64_t, uint8_t
#define RILL_AVG_POOL_TYPES half, float, double

template <typename T>
T Lowest() {
  if constexpr (std::is_same_v<T, half>) {
    return half::FromBits(0xfbffu);  // -65504
  } else {
    return std::numeric_limits<T>::lowest();
  }
}

// kMax: max pooling, else average pooling, over output pixels [begin, end).
template <bool kMax, typename T>
void SpatialPool(const PoolGeometry& g, const T* in, T* out, int64_t begin, int64_t end) {
  using cwise_internal::Load;
  using cwise_internal::Store;
  using C = decltype(Load(in[0]));
  std::vector<C> acc(g.depth);
  for (int64_t p = begin; p < end; ++p) {
    const int64_t n = p / (g.out_h * g.out_w);
    const int64_t oh = (p / g.out_w) % g.out_h;
    const int64_t ow = p % g.out_w;
    const int64_t h0 = std::max<int64_t>(0, oh * g.stride_h - g.pad_h);
    const int64_t h1 = std::min(g.in_h, oh * g.stride_h - g.pad_h + g.k_h);
    const int64_t w0 = std::max<int64_t>(0, ow * g.stride_w - g.pad_w);
    const int64_t w1 = std::min(g.in_w, ow * g.stride_w - g.pad_w + g.k_w);
    std::fill(acc.begin(), acc.end(), kMax ? Load(Lowest<T>()) : C(0));
    for (int64_t h = h0; h < h1; ++h) {
      for (int64_t w = w0; w < w1; ++w) {
        const T* src = in + ((n * g.in_h + h) * g.in_w + w) * g.depth;
        C* a = acc.data();
        for (int64_t c = 0; c < g.depth; ++c) {
          const C v = Load(src[c]);
          if constexpr (kMax) {
            // An unconditional select (maxps for float; a NaN input compares false, so it stays
            // out) lets the compiler vectorize the channel loop, which a conditional store does
            // not.
            a[c] = a[c] < v ? v : a[c];
          } else {
            a[c] += v;
          }
        }
      }
    }
    T* dst = out + p * g.depth;
    if constexpr (kMax) {
      for (int64_t c = 0; c < g.depth; ++c) dst[c] = Store<T>(acc[c]);
    } else {
      const C count = static_cast<C>(std::max<int64_t>(0, h1 - h0) * std::max<int64_t>(0, w1 - w0));
      for (int64_t c = 0; c < g.depth; ++c) dst[c] = Store<T>(acc[c] / count);
    }
  }
}

// Float windows with the accumulators in vector registers: SpatialPool<kMax, float>'s
// operations in its order (each channel starts from 0, or the lowest float for max, takes the
// window's in-bounds elements row by row and is divided by their count), so the results are the
// same bits; only the loop nest differs (SpatialPool loads and stores a channel vector of
// partial results at every tap). Channels run in blocks of 64 (four AVX-512 vectors; eight AVX2,
// sixteen SSE2 registers), then 16, then a last block of 16 ending at the last channel
// (overlapping the one before); fewer than 16 channels in all run one by one. GCC vector
// extensions, compiled at the clone's width by RunSimd. Faster than oneDNN 2.6's jit pooling
// (average excluding padding), whose results are the same bits (docs/performance.md,
// "Pooling").
using PoolVec = float __attribute__((vector_size(64)));  // 16 floats

template <bool kMax, int kVecs>
inline void PoolChannelBlock(const float* base, int64_t row_stride, int64_t depth, int64_t rows,
                             int64_t cols, float count, float lowest, float* dst) {
  PoolVec acc[kVecs];
  const float init = kMax ? lowest : 0.0f;
#pragma GCC unroll 4
  for (int k = 0; k < kVecs; ++k) acc[k] = PoolVec{} + init;
  for (int64_t h = 0; h < rows; ++h) {
    const float* src = base + h * row_stride;
    for (int64_t w = 0; w < cols; ++w, src += depth) {
#pragma GCC unroll 4
      for (int k = 0; k < kVecs; ++k) {
        PoolVec v;
        std::memcpy(&v, src + 16 * k, sizeof(v));
        if constexpr (kMax) {
          acc[k] = acc[k] < v ? v : acc[k];  // a NaN input compares false and stays out
        } else {
          acc[k] += v;
        }
      }
    }
  }
#pragma GCC unroll 4
  for (int k = 0; k < kVecs; ++k) {
    if constexpr (!kMax) acc[k] = acc[k] / count;
    std::memcpy(dst + 16 * k, &acc[k], sizeof(PoolVec));
  }
}

// Output pixels [begin, end) of a float spatial pooling; see PoolChannelBlock. Max pooling starts
// each channel from `lowest` (the storage type's lowest value: -65504 for half).
template <bool kMax>
void SpatialPoolFloat(const PoolGeometry& g, const float* in, float* out, int64_t begin,
                      int64_t end, float lowest = std::numeric_limits<float>::lowest()) {
  const int64_t row_stride = g.in_w * g.depth;
  for (int64_t p = begin; p < end; ++p) {
    const int64_t n = p / (g.out_h * g.out_w);
    const int64_t oh = (p / g.out_w) % g.out_h;
    const int64_t ow = p % g.out_w;
    const int64_t h0 = std::max<int64_t>(0, oh * g.stride_h - g.pad_h);
    const int64_t h1 = std::min(g.in_h, oh * g.stride_h - g.pad_h + g.k_h);
    const int64_t w0 = std::max<int64_t>(0, ow * g.stride_w - g.pad_w);
    const int64_t w1 = std::min(g.in_w, ow * g.stride_w - g.pad_w + g.k_w);
    const int64_t rows = std::max<int64_t>(0, h1 - h0);
    const int64_t cols = std::max<int64_t>(0, w1 - w0);
    const float count = static_cast<float>(rows * cols);
    const float* base = in + ((n * g.in_h + h0) * g.in_w + w0) * g.depth;
    float* dst = out + p * g.depth;
    int64_t c = 0;
    for (; c + 64 <= g.depth; c += 64) {
      PoolChannelBlock<kMax, 4>(base + c, row_stride, g.depth, rows, cols, count, lowest, dst + c);
    }
    for (; c + 16 <= g.depth; c += 16) {
      PoolChannelBlock<kMax, 1>(base + c, row_stride, g.depth, rows, cols, count, lowest, dst + c);
    }
    if (c == g.depth) continue;
    if (g.depth >= 16) {  // the last 16 channels, some again: the same values are stored twice
      PoolChannelBlock<kMax, 1>(base + g.depth - 16, row_stride, g.depth, rows, cols, count, lowest,
                                dst + g.depth - 16);
      continue;
    }
    float acc[16];  // fewer than 16 channels in all
    std::fill_n(acc, g.depth, kMax ? lowest : 0.0f);
    for (int64_t h = 0; h < rows; ++h) {
      const float* src = base + h * row_stride;
      for (int64_t w = 0; w < cols; ++w, src += g.depth) {
        for (int64_t j = 0; j < g.depth; ++j) {
          if constexpr (kMax) {
            acc[j] = acc[j] < src[j] ? src[j] : acc[j];
          } else {
            acc[j] += src[j];
          }
        }
      }
    }
    for (int64_t j = 0; j < g.depth; ++j) dst[j] = kMax ? acc[j] : acc[j] / count;
  }
}

// Max over groups of k_d channels for pixels [begin, end).
template <typename T>
void DepthwiseMaxPool(const PoolGeometry& g, const T* in, T* out, int64_t begin, int64_t end) {
  using cwise_internal::Load;
  for (int64_t p = begin; p < end; ++p) {
    for (int64_t c = 0; c < g.out_d; ++c) {
      const T* src = in + p * g.depth + c * g.k_d;
      auto m = Load(Lowest<T>());
      for (int64_t k = 0; k < g.k_d; ++k) {
        if (m < Load(src[k])) m = Load(src[k]);
      }
      out[p * g.out_d + c] = cwise_internal::Store<T>(m);
    }
  }
}

template <bool kMax, typename... Ts>
absl::Status RunPool(const OpKernel& kernel, OpKernelContext& ctx, const PoolSpec& spec) {
  const Tensor& input = ctx.input(0);
  RILL_ASSIGN_OR_RETURN(PoolGeometry g, NhwcPoolGeometry(spec, input.shape()));
  if (!kMax && g.k_d != 1) {
    return absl::UnimplementedError("Non-spatial pooling is not yet supported. Volunteers? :)");
  }
  RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                        TensorShape::FromDims({g.batch, g.out_h, g.out_w, g.out_d}));
  RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
  if (out->NumElements() == 0) return absl::OkStatus();
  return VisitKernelTypes<Ts...>(kernel, input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = input.flat<T>().data();
    T* y = out->flat<T>().data();
    const int64_t pixels = g.batch * g.out_h * g.out_w;
    if (g.k_d != 1) {
      ctx.ParallelFor(pixels, g.depth, [&](int64_t begin, int64_t end) {
        DepthwiseMaxPool<T>(g, x, y, begin, end);
      });
    } else {
      // At the CPU's vector width (kernels/math_lib/simd_dispatch.h): the channel loops add,
      // compare and divide element by element, so every width gives the same results.
      // Float: about 0.125 cycles per window element and channel (16 lanes, two vector loads
      // and adds a cycle), so only pools of some 40 us and more split over the threads.
      constexpr bool kInFloat = std::is_same_v<T, float> || std::is_same_v<T, half>;
      const int64_t cost =
          kInFloat ? std::max<int64_t>(1, g.k_h * g.k_w * g.depth / 8) : g.k_h * g.k_w * g.depth;
      if constexpr (std::is_same_v<T, half>) {
        // The float pooling on the input widened once by F16C (exact), each block's results
        // rounded back to half (exact for max; one rounding of the float mean for average, as
        // SpatialPool<half> does).
        std::vector<float> in_f(input.NumElements()), out_f(out->NumElements());
        HalfToFloat(x, input.NumElements(), in_f.data());
        const float lowest = static_cast<float>(Lowest<half>());
        ctx.ParallelFor(pixels, cost, [&](int64_t begin, int64_t end) {
          RunSimd(
              [&] { SpatialPoolFloat<kMax>(g, in_f.data(), out_f.data(), begin, end, lowest); });
          FloatToHalf(out_f.data() + begin * g.depth, (end - begin) * g.depth, y + begin * g.depth);
        });
        return absl::OkStatus();
      }
      ctx.ParallelFor(pixels, cost, [&](int64_t begin, int64_t end) {
        if constexpr (std::is_same_v<T, float>) {
          RunSimd([&] { SpatialPoolFloat<kMax>(g, x, y, begin, end); });
        } else {
          cwise_internal::RunSimdFor<T>([&] { SpatialPool<kMax, T>(g, x, y, begin, end); });
        }
      });
    }
    return absl::OkStatus();
  });
}

template <bool kMax>
class PoolOp final : public OpKernel {
 public:
  explicit PoolOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::StatusOr<PoolSpec> spec =
        ParsePoolAttrs(ctx, kMax ? "MaxPoolingOp" : "AvgPoolingOp", "CPU", /*attr_windows=*/true);
    if (!spec.ok()) {
      ctx.SetStatus(spec.status());
      return;
    }
    spec_ = *std::move(spec);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    if constexpr (kMax) {
      return RunPool<true, RILL_MAX_POOL_TYPES>(*this, ctx, spec_);
    } else {
      return RunPool<false, RILL_AVG_POOL_TYPES>(*this, ctx, spec_);
    }
  }

 private:
  PoolSpec spec_;
};

class MaxPoolV2Op final : public OpKernel {
 public:
  explicit MaxPoolV2Op(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::StatusOr<PoolSpec> spec =
        ParsePoolAttrs(ctx, "MaxPoolingOp", "CPU", /*attr_windows=*/false);
    if (!spec.ok()) {
      ctx.SetStatus(spec.status());
      return;
    }
    padding_ = spec->padding;
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    PoolSpec spec;
    spec.padding = padding_;
    spec.ksize = IndexValues(ctx.input(1));
    spec.strides = IndexValues(ctx.input(2));
    RILL_RETURN_IF_ERROR(CheckKsizeAndStrides(spec));
    return RunPool<true, RILL_MAX_POOL_TYPES>(*this, ctx, spec);
  }

 private:
  Padding padding_ = Padding::kValid;
};

// MaxPoolGrad: each output's gradient goes to the first maximum of its window (scanned row by
// row, as TensorFlow's CPU kernel); AvgPoolGrad: each output's gradient is divided by its window's
// element count (padding excluded) and spread over the window. Spatial windows only
// (Unimplemented for depth pooling). The result is zeroed first and accumulated in the compute
// type; windows overlap, so pixels run sequentially per image.
template <bool kMax, typename T>
void SpatialPoolGrad(const PoolGeometry& g, const T* in, const T* grad, T* out) {
  using cwise_internal::Load;
  using cwise_internal::Store;
  using C = decltype(Load(grad[0]));
  std::vector<C> acc(static_cast<size_t>(g.batch * g.in_h * g.in_w * g.depth), C(0));
  for (int64_t p = 0; p < g.batch * g.out_h * g.out_w; ++p) {
    const int64_t n = p / (g.out_h * g.out_w);
    const int64_t oh = (p / g.out_w) % g.out_h;
    const int64_t ow = p % g.out_w;
    const int64_t h0 = std::max<int64_t>(0, oh * g.stride_h - g.pad_h);
    const int64_t h1 = std::min(g.in_h, oh * g.stride_h - g.pad_h + g.k_h);
    const int64_t w0 = std::max<int64_t>(0, ow * g.stride_w - g.pad_w);
    const int64_t w1 = std::min(g.in_w, ow * g.stride_w - g.pad_w + g.k_w);
    const T* gp = grad + p * g.depth;
    const int64_t base = n * g.in_h * g.in_w;
    for (int64_t c = 0; c < g.depth; ++c) {
      if constexpr (kMax) {
        int64_t best = -1;
        C best_value = Load(Lowest<T>());
        for (int64_t h = h0; h < h1; ++h) {
          for (int64_t w = w0; w < w1; ++w) {
            const int64_t at = (base + h * g.in_w + w) * g.depth + c;
            const C v = Load(in[at]);
            if (best < 0 || v > best_value) {
              best = at;
              best_value = v;
            }
          }
        }
        if (best >= 0) acc[best] += Load(gp[c]);
      } else {
        const int64_t count = std::max<int64_t>(0, h1 - h0) * std::max<int64_t>(0, w1 - w0);
        if (count == 0) continue;
        const C share = Load(gp[c]) / static_cast<C>(count);
        for (int64_t h = h0; h < h1; ++h) {
          for (int64_t w = w0; w < w1; ++w) acc[(base + h * g.in_w + w) * g.depth + c] += share;
        }
      }
    }
  }
  for (size_t i = 0; i < acc.size(); ++i) out[i] = Store<T>(acc[i]);
}

template <bool kMax>
class PoolGradOp final : public OpKernel {
 public:
  explicit PoolGradOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::StatusOr<PoolSpec> spec =
        ParsePoolAttrs(ctx, kMax ? "MaxPoolingGradOp" : "AvgPoolingGradOp", "CPU",
                       /*attr_windows=*/true);
    if (!spec.ok()) {
      ctx.SetStatus(spec.status());
      return;
    }
    spec_ = *std::move(spec);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    // MaxPoolGrad(orig_input, orig_output, grad); AvgPoolGrad(orig_input_shape, grad).
    const Tensor& grad = ctx.input(kMax ? 2 : 1);
    TensorShape in_shape;
    if (kMax) {
      in_shape = ctx.input(0).shape();
    } else {
      const Tensor& shape_t = ctx.input(0);
      if (shape_t.shape().rank() != 1 || shape_t.NumElements() != 4) {
        return absl::InvalidArgumentError(
            absl::StrCat("orig_input_shape must be 1-dimensional and 4 elements, got ",
                         shape_t.shape().DebugString()));
      }
      RILL_ASSIGN_OR_RETURN(in_shape, TensorShape::FromDims(IndexValues(shape_t)));
    }
    RILL_ASSIGN_OR_RETURN(PoolGeometry g, NhwcPoolGeometry(spec_, in_shape));
    if (g.k_d != 1) {
      return absl::UnimplementedError(
          "Pooling gradients over the depth dimension are not supported");
    }
    const TensorShape out_shape({g.batch, g.out_h, g.out_w, g.depth});
    // orig_output is not read (the maxima are found again in orig_input), but one of another
    // shape means the three inputs are not one pooling's: TensorFlow refuses it first.
    if (kMax && ctx.input(1).shape() != out_shape) {
      return absl::InvalidArgumentError(absl::StrCat("Expected orig_output shape to be ",
                                                     out_shape.DebugString(), ", but got ",
                                                     ctx.input(1).shape().DebugString()));
    }
    if (grad.shape() != out_shape) {
      return absl::InvalidArgumentError(absl::StrCat("Expected grad shape to be ",
                                                     out_shape.DebugString(), ", but got ",
                                                     grad.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    const Tensor in = kMax ? ctx.input(0) : Tensor();
    if constexpr (kMax) {
      return VisitKernelTypes<float, double>(*this, grad.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        SpatialPoolGrad<true, T>(g, in.flat<T>().data(), grad.flat<T>().data(),
                                 out->flat<T>().data());
        return absl::OkStatus();
      });
    } else {
      return VisitKernelTypes<RILL_AVG_POOL_TYPES>(*this, grad.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        SpatialPoolGrad<false, T>(g, nullptr, grad.flat<T>().data(), out->flat<T>().data());
        return absl::OkStatus();
      });
    }
  }

 private:
  PoolSpec spec_;
};

REGISTER_KERNEL(KernelDefBuilder("MaxPoolGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                PoolGradOp<true>);
REGISTER_KERNEL(KernelDefBuilder("AvgPoolGrad")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_AVG_POOL_TYPES>())
                    .HostMemory("orig_input_shape"),
                PoolGradOp<false>);
REGISTER_KERNEL(KernelDefBuilder("MaxPool")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_MAX_POOL_TYPES>()),
                PoolOp<true>);
REGISTER_KERNEL(KernelDefBuilder("MaxPoolV2")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_MAX_POOL_TYPES>())
                    .HostMemory("ksize")
                    .HostMemory("strides"),
                MaxPoolV2Op);
REGISTER_KERNEL(KernelDefBuilder("AvgPool")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_AVG_POOL_TYPES>()),
                PoolOp<false>);

}  // namespace
}  // namespace rill
