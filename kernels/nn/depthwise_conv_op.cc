// DepthwiseConv2dNative, _FusedDepthwiseConv2dNative (+ bias and Relu/Relu6) and its two backprops
// (DepthwiseConv2dNativeBackpropInput/Filter, at the end) on the CPU, NHWC: each input channel ci
// is convolved with its own `multiplier` filters, out[n,oh,ow,ci*M+m] = sum over kh,kw of in[n,
// oh*sh - ph + kh*dh, ow*sw - pw + kw*dw, ci] * filter[kh,kw,ci,m] (zero outside the input). float
// runs on oneDNN as a grouped convolution (kernels/math_lib/onednn_conv.h, bias and activation as
// post-ops); half and double: for each output pixel the window's taps are accumulated over the
// contiguous channel vector (vectorized), pixels in parallel over the kernel's intra-op threads
// (OpKernelContext::ParallelFor). half as TensorFlow's CPU kernel computes it: taps in (kh, kw)
// order from a zero accumulator held in half, each tap a float multiply-add rounded to half
// (Eigen's half packet pmadd), padding taps included (so an inf or NaN filter tap over the
// padding gives NaN); with multiplier 1 each tap's channel vector goes through HalfMulAddRound
// (kernels/math_lib/half_convert.h, F16C where the CPU has it), the same arithmetic.
// Errors are TensorFlow's texts: InvalidArgument "input must be 4-dimensional[2,3]", "filter must
// be 4-dimensional: [3,3,2]", "input and filter must have the same depth: 3 vs 2", "filter must
// not have zero elements (i.e. all dimensions must be non-zero)", "Computed output size would be
// negative: ..."; Unimplemented for data_format NCHW ("The DepthwiseConv2dNative op
// currently only supports the NHWC tensor format on the CPU. ...").
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/conv_window.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/fused_epilogue.h"
#include "kernels/math_lib/half_convert.h"
#include "kernels/math_lib/onednn_conv.h"

namespace rill {
namespace {

#define RILL_DEPTHWISE_TYPES half, float, double

struct DepthwiseGeometry : ConvWindows {
  int64_t batch, in_h, in_w, in_c, mult;
  int64_t k_h, k_w;
};

// The most elements of DepthwiseHalfRows' tiled filter (4 MiB of half): its size is the
// window's taps times an output row, which a large window over a wide map makes far larger than
// the filter, input or output; past it the per-pixel loop (the same arithmetic) runs instead.
constexpr int64_t kMaxTiledHalfFilter = int64_t{1} << 21;

// half with multiplier 1 and column stride 1, no bias: output rows [begin, end) (of batch *
// out_h), each tap applied to a whole row at once. For a tap the row's windows read consecutive
// input columns (the ones inside the input, padding before and after), so the tap is one
// HalfMulAddRound call per run of columns over out_w * in_c accumulators, with the tap's
// filter channels repeated across the row (`tiled`: [k_h * k_w][out_w * in_c]). Each
// accumulator still takes its taps in (kh, kw) order, each a float multiply-add rounded to
// half: DepthwisePixels' arithmetic, element for element, in a few calls per row where that
// made 9 calls of in_c elements per pixel.
void DepthwiseHalfRows(const DepthwiseGeometry& g, const half* in, const half* tiled, int64_t begin,
                       int64_t end, half* out) {
  const int64_t row = g.out_w * g.in_c;
  std::vector<float> acc(row);
  for (int64_t r = begin; r < end; ++r) {
    const int64_t n = r / g.out_h, oh = r % g.out_h;
    std::fill(acc.begin(), acc.end(), 0.0f);
    for (int64_t kh = 0; kh < g.k_h; ++kh) {
      const int64_t h = oh * g.stride_h - g.pad_h + kh * g.dil_h;
      const bool row_inside = h >= 0 && h < g.in_h;
      for (int64_t kw = 0; kw < g.k_w; ++kw) {
        const half* f = tiled + (kh * g.k_w + kw) * row;
        // Output columns [lo, hi) read input column ow - pad_w + kw * dil_w inside the input.
        const int64_t shift = kw * g.dil_w - g.pad_w;
        const int64_t lo = row_inside ? std::clamp<int64_t>(-shift, 0, g.out_w) : g.out_w;
        const int64_t hi = row_inside ? std::clamp<int64_t>(g.in_w - shift, lo, g.out_w) : g.out_w;
        if (lo > 0) HalfMulAddRound(nullptr, f, lo * g.in_c, acc.data());
        if (hi > lo) {
          const half* x = in + ((n * g.in_h + h) * g.in_w + lo + shift) * g.in_c;
          HalfMulAddRound(x, f + lo * g.in_c, (hi - lo) * g.in_c, acc.data() + lo * g.in_c);
        }
        const int64_t after = hi;
        if (after < g.out_w) {
          HalfMulAddRound(nullptr, f + after * g.in_c, (g.out_w - after) * g.in_c,
                          acc.data() + after * g.in_c);
        }
      }
    }
    FloatToHalf(acc.data(), row, out + r * row);
  }
}

// Output pixels [begin, end); with `bias` (the fused kernel) each channel gets bias[c] and then
// `act` in the compute type before it is stored.
template <typename T>
void DepthwisePixels(const DepthwiseGeometry& g, const T* in, const T* filter, const T* bias,
                     FusedActivation act, int64_t begin, int64_t end, T* out) {
  using cwise_internal::Load;
  using C = decltype(Load(in[0]));
  // half: TensorFlow's Eigen packet loop keeps the accumulator in half (see the file comment).
  constexpr bool kRoundEachTap = std::is_same_v<T, half>;
  const int64_t out_c = g.in_c * g.mult;
  std::vector<C> acc(out_c);
  for (int64_t p = begin; p < end; ++p) {
    const int64_t n = p / (g.out_h * g.out_w);
    const int64_t oh = (p / g.out_w) % g.out_h;
    const int64_t ow = p % g.out_w;
    std::fill(acc.begin(), acc.end(), C(0));
    for (int64_t kh = 0; kh < g.k_h; ++kh) {
      const int64_t h = oh * g.stride_h - g.pad_h + kh * g.dil_h;
      if constexpr (!kRoundEachTap) {
        if (h < 0 || h >= g.in_h) continue;
      }
      for (int64_t kw = 0; kw < g.k_w; ++kw) {
        const int64_t w = ow * g.stride_w - g.pad_w + kw * g.dil_w;
        const T* f = filter + (kh * g.k_w + kw) * out_c;  // [in_c, mult] for this tap
        const bool inside = h >= 0 && h < g.in_h && w >= 0 && w < g.in_w;
        if constexpr (kRoundEachTap) {
          // TensorFlow multiplies the zero padding too (0 * inf is NaN) and rounds the
          // accumulator to half after each tap's float multiply-add.
          const T* x = inside ? in + ((n * g.in_h + h) * g.in_w + w) * g.in_c : nullptr;
          if (g.mult == 1) {  // the channel vector at once (F16C conversions when the CPU has them)
            HalfMulAddRound(x, f, g.in_c, acc.data());
            continue;
          }
          for (int64_t c = 0; c < g.in_c; ++c) {
            const C xc = inside ? Load(x[c]) : C(0);
            for (int64_t m = 0; m < g.mult; ++m) {
              const int64_t k = c * g.mult + m;
              acc[k] = static_cast<C>(static_cast<T>(acc[k] + xc * Load(f[k])));
            }
          }
          continue;
        }
        if (!inside) continue;
        const T* x = in + ((n * g.in_h + h) * g.in_w + w) * g.in_c;
        if (g.mult == 1) {
          for (int64_t c = 0; c < g.in_c; ++c) acc[c] += Load(x[c]) * Load(f[c]);
        } else {
          for (int64_t c = 0; c < g.in_c; ++c) {
            const C xc = Load(x[c]);
            for (int64_t m = 0; m < g.mult; ++m)
              acc[c * g.mult + m] += xc * Load(f[c * g.mult + m]);
          }
        }
      }
    }
    T* o = out + p * out_c;
    if (bias == nullptr) {
      if constexpr (std::is_same_v<T, half>) {
        FloatToHalf(acc.data(), out_c, o);
      } else {
        for (int64_t c = 0; c < out_c; ++c) o[c] = cwise_internal::Store<T>(acc[c]);
      }
      continue;
    }
    for (int64_t c = 0; c < out_c; ++c) acc[c] += Load(bias[c]);
    switch (act) {
      case FusedActivation::kNone:
        break;
      case FusedActivation::kRelu:
        for (int64_t c = 0; c < out_c; ++c) acc[c] = std::max(acc[c], C(0));
        break;
      case FusedActivation::kRelu6:
        for (int64_t c = 0; c < out_c; ++c) acc[c] = std::min(std::max(acc[c], C(0)), C(6));
        break;
      case FusedActivation::kSwish:
        for (int64_t c = 0; c < out_c; ++c) acc[c] = Swish(acc[c]);
        break;
      case FusedActivation::kHardSwish:
        for (int64_t c = 0; c < out_c; ++c) acc[c] = HardSwish(acc[c]);
        break;
    }
    for (int64_t c = 0; c < out_c; ++c) o[c] = cwise_internal::Store<T>(acc[c]);
  }
}

// DepthwiseConv2dNative, and with kFused _FusedDepthwiseConv2dNative (made by the graph
// optimizer from DepthwiseConv2dNative + BiasAdd [+ Relu | Relu6 | swish]; float and double): the
// bias and activation are applied to each pixel's channels before they are stored.
template <bool kFused>
class DepthwiseConv2dNativeOp final : public OpKernel {
 public:
  explicit DepthwiseConv2dNativeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (HasConstantWeights(ctx)) packed_ = std::make_unique<OneDnnPackedWeights>();
    absl::StatusOr<Conv2DAttrs> attrs = ParseNhwcConvAttrs(ctx);
    if (attrs.ok()) {
      attrs_ = *std::move(attrs);
    } else {
      ctx.SetStatus(attrs.status());
      return;
    }
    if constexpr (kFused) {
      absl::StatusOr<FusedActivation> act = ParseFusedOps(ctx);
      if (act.ok()) activation_ = *act;
      ctx.SetStatus(act.status());
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(const ConvGeometry shared,
                          NhwcDepthwiseGeometry(attrs_, input.shape(), filter.shape()));
    if (filter.NumElements() == 0) {
      return absl::InvalidArgumentError(
          "filter must not have zero elements (i.e. all dimensions must be non-zero)");
    }
    DepthwiseGeometry g;
    static_cast<ConvWindows&>(g) = shared;
    g.batch = shared.batch;
    g.in_h = shared.in_h;
    g.in_w = shared.in_w;
    g.in_c = shared.in_c;
    g.k_h = shared.k_h;
    g.k_w = shared.k_w;
    g.mult = filter.shape().dim(3);
    if constexpr (kFused) RILL_RETURN_IF_ERROR(CheckBias(ctx.input(2), g.in_c * g.mult));
    RILL_ASSIGN_OR_RETURN(
        Tensor * out,
        ctx.allocate_output(0, TensorShape({g.batch, g.out_h, g.out_w, g.in_c * g.mult})));
    if (out->NumElements() == 0) return absl::OkStatus();
    // Float on oneDNN's grouped convolution (kernels/math_lib/onednn_conv.h).
    if (input.dtype() == DT_FLOAT && StridesAndDilationsWithinInput(g, g.in_h, g.in_w)) {
      const OneDnnConvShape s =
          MakeOneDnnConvShape(g, g.batch, g.in_h, g.in_w, g.in_c, g.k_h, g.k_w, g.in_c * g.mult,
                              /*groups=*/g.in_c, /*has_bias=*/kFused, activation_);
      RILL_RETURN_IF_ERROR(OneDnnConv2D(
          s, ctx.intra_op_threads(), input.flat<float>().data(), filter.flat<float>().data(),
          kFused ? ctx.input(2).flat<float>().data() : nullptr, out->flat<float>().data(),
          HoldConstantWeights(packed_.get(), filter), ctx.step_id()));
      RecordOneDnnConvBound(
          *out, ctx.step_id());  // a Relu6 run inside oneDNN: its readers need not scan it
      return absl::OkStatus();
    }
    auto run = [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* x = input.flat<T>().data();
      const T* f = filter.flat<T>().data();
      const T* bias = kFused ? ctx.input(2).flat<T>().data() : nullptr;
      T* y = out->flat<T>().data();
      if constexpr (std::is_same_v<T, half>) {
        const int64_t row = g.out_w * g.in_c;
        if (g.mult == 1 && g.stride_w == 1 && bias == nullptr &&
            g.k_h * g.k_w * row <= kMaxTiledHalfFilter) {
          std::vector<half> tiled(static_cast<size_t>(g.k_h * g.k_w * row));
          for (int64_t t = 0; t < g.k_h * g.k_w; ++t) {
            for (int64_t ow = 0; ow < g.out_w; ++ow) {
              std::copy_n(f + t * g.in_c, g.in_c, tiled.data() + t * row + ow * g.in_c);
            }
          }
          ctx.ParallelFor(g.batch * g.out_h, g.k_h * g.k_w * row, [&](int64_t b, int64_t e) {
            DepthwiseHalfRows(g, x, tiled.data(), b, e, y);
          });
          return absl::OkStatus();
        }
      }
      ctx.ParallelFor(
          g.batch * g.out_h * g.out_w, g.k_h * g.k_w * g.in_c * g.mult,
          [&](int64_t b, int64_t e) { DepthwisePixels(g, x, f, bias, activation_, b, e, y); });
      return absl::OkStatus();
    };
    if constexpr (kFused) {
      return VisitKernelTypes<float, double>(*this, input.dtype(), run);
    } else {
      return VisitKernelTypes<RILL_DEPTHWISE_TYPES>(*this, input.dtype(), run);
    }
  }

 private:
  Conv2DAttrs attrs_;
  FusedActivation activation_ = FusedActivation::kNone;
  std::unique_ptr<OneDnnPackedWeights> packed_;  // when the filter is a Const (float only)
};

// The backprops walk every (output pixel, tap) pair once and accumulate in the compute type:
//   input:  dx[n,h,w,c] += sum_m dy[n,oh,ow,c*M+m] * filter[kh,kw,c,m]
//   filter: df[kh,kw,c,m] += x[n,h,w,c] * dy[n,oh,ow,c*M+m]
template <bool kFilter, typename T>
void DepthwiseBackprop(const DepthwiseGeometry& g, const T* x_or_filter, const T* dy, T* out,
                       int64_t out_size) {
  using cwise_internal::Load;
  using C = decltype(Load(dy[0]));
  std::vector<C> acc(static_cast<size_t>(out_size), C(0));
  const int64_t out_c = g.in_c * g.mult;
  for (int64_t p = 0; p < g.batch * g.out_h * g.out_w; ++p) {
    const int64_t n = p / (g.out_h * g.out_w);
    const int64_t oh = (p / g.out_w) % g.out_h;
    const int64_t ow = p % g.out_w;
    const T* d = dy + p * out_c;
    for (int64_t kh = 0; kh < g.k_h; ++kh) {
      const int64_t h = oh * g.stride_h - g.pad_h + kh * g.dil_h;
      if (h < 0 || h >= g.in_h) continue;
      for (int64_t kw = 0; kw < g.k_w; ++kw) {
        const int64_t w = ow * g.stride_w - g.pad_w + kw * g.dil_w;
        if (w < 0 || w >= g.in_w) continue;
        const int64_t px = ((n * g.in_h + h) * g.in_w + w) * g.in_c;
        const int64_t tap = (kh * g.k_w + kw) * out_c;
        for (int64_t c = 0; c < g.in_c; ++c) {
          for (int64_t m = 0; m < g.mult; ++m) {
            const int64_t k = c * g.mult + m;
            if constexpr (kFilter) {
              acc[tap + k] += Load(x_or_filter[px + c]) * Load(d[k]);
            } else {
              acc[px + c] += Load(d[k]) * Load(x_or_filter[tap + k]);
            }
          }
        }
      }
    }
  }
  for (int64_t i = 0; i < out_size; ++i) out[i] = cwise_internal::Store<T>(acc[i]);
}

template <bool kFilter>
class DepthwiseBackpropOp final : public OpKernel {
 public:
  explicit DepthwiseBackpropOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::StatusOr<Conv2DAttrs> attrs = ParseNhwcConvAttrs(ctx);
    if (attrs.ok()) {
      attrs_ = *std::move(attrs);
    } else {
      ctx.SetStatus(attrs.status());
    }
  }

  // BackpropInput(input_sizes, filter, out_backprop); BackpropFilter(input, filter_sizes,
  // out_backprop).
  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& sizes = ctx.input(kFilter ? 1 : 0);
    const Tensor& given = ctx.input(kFilter ? 0 : 1);  // the input (filter op) or the filter
    const Tensor& dy = ctx.input(2);
    if (sizes.shape().rank() != 1 || sizes.NumElements() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat(type_string(), ": ", kFilter ? "filter_sizes" : "input_sizes",
                       " input must be 1-dim with 4 elements, not ", sizes.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape sized, TensorShape::FromDims(IndexValues(sizes)));
    const TensorShape& in_shape = kFilter ? given.shape() : sized;
    const TensorShape& f_shape = kFilter ? sized : given.shape();
    if (in_shape.rank() != 4 || f_shape.rank() != 4 || dy.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat(type_string(), ": input, filter and out_backprop must be 4-dimensional"));
    }
    DepthwiseGeometry g;
    g.batch = in_shape.dim(0);
    g.in_h = in_shape.dim(1);
    g.in_w = in_shape.dim(2);
    g.in_c = in_shape.dim(3);
    g.k_h = f_shape.dim(0);
    g.k_w = f_shape.dim(1);
    g.mult = f_shape.dim(3);
    if (f_shape.dim(2) != g.in_c) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input and filter must have the same depth: ", g.in_c, " vs ", f_shape.dim(2)));
    }
    RILL_ASSIGN_OR_RETURN(static_cast<ConvWindows&>(g),
                          NhwcWindows(attrs_, g.in_h, g.in_w, g.k_h, g.k_w));
    const TensorShape expected({g.batch, g.out_h, g.out_w, g.in_c * g.mult});
    if (dy.shape() != expected) {
      return absl::InvalidArgumentError(
          absl::StrCat(type_string(), ": out_backprop has shape ", dy.shape().DebugString(),
                       ", but the convolution gives ", expected.DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, sized));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<float, double>(*this, dy.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      DepthwiseBackprop<kFilter, T>(g, given.flat<T>().data(), dy.flat<T>().data(),
                                    out->flat<T>().data(), out->NumElements());
      return absl::OkStatus();
    });
  }

 private:
  Conv2DAttrs attrs_;
};

REGISTER_KERNEL(KernelDefBuilder("DepthwiseConv2dNativeBackpropInput")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>())
                    .HostMemory("input_sizes"),
                DepthwiseBackpropOp<false>);
REGISTER_KERNEL(KernelDefBuilder("DepthwiseConv2dNativeBackpropFilter")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>())
                    .HostMemory("filter_sizes"),
                DepthwiseBackpropOp<true>);
REGISTER_KERNEL(KernelDefBuilder("DepthwiseConv2dNative")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_DEPTHWISE_TYPES>()),
                DepthwiseConv2dNativeOp<false>);
REGISTER_KERNEL(KernelDefBuilder("_FusedDepthwiseConv2dNative")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                DepthwiseConv2dNativeOp<true>);

}  // namespace
}  // namespace rill
