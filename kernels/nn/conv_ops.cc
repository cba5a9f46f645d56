// Conv2D, _FusedConv2D, Conv2DBackpropInput (transposed convolution) and Conv2DBackpropFilter on
// the CPU, NHWC. Float Conv2D / _FusedConv2D run on oneDNN's direct convolution
// (kernels/math_lib/onednn_conv.h), faster than im2col + GEMM on the benchmarked shapes
// (docs/performance.md), half Conv2D with finite weights too (widened to float once, rounded
// once: HalfConvOnOneDnn), and float Conv2DBackpropInput with finite weights on oneDNN's
// deconvolution (kernels/math_lib/onednn_deconv.h); the other dtypes and Conv2DBackpropFilter use
// im2col and Gemm (kernels/math_lib/gemm.h):
//   Conv2D: out[n,oh,ow,co] = sum over kh,kw,ci of in[n, oh*sh - ph + kh*dh, ow*sw - pw + kw*dw,
//   ci]
//     * filter[kh,kw,ci,co] (zero outside the input). The patches of a block of output pixels are
//     gathered into rows of a [pixels, KH*KW*Cin] matrix and multiplied by the filter viewed as
//     [KH*KW*Cin, Cout], block by block over the kernel's intra-op threads; a 1x1 filter with
//     stride 1 and no padding multiplies the input directly.
//   Conv2DBackpropInput: the gradient of Conv2D with respect to its input, of shape input_sizes:
//     out_backprop [pixels, Cout] times filter^T gives per-pixel patch gradients, which are
//     scatter-added into the input positions they came from (col2im).
//   Conv2DBackpropFilter: the gradient for the filter of shape filter_sizes: the sum over pixel
//     blocks of im2col(input)^T x out_backprop (float and double: TensorFlow 2.21's half
//     Conv2DBackpropFilter gave inconsistent results in graph mode, so there is no reference).
// Errors are TensorFlow's texts: InvalidArgument (Conv2D) "convolution input must be
// 4-dimensional: [1,2,3]", "convolution filter must be 4-dimensional: [3,3,1]", (backprops)
// "filter must be 4-dimensional: [3,3,1]", "input depth must be evenly divisible by filter depth: 3
// vs 2", "Computed output size would be negative: ...", "Conv2DCustomBackpropInput: Size of
// out_backprop doesn't match computed: actual = 3, computed = 4 spatial_dim: 1 input: 5 filter:
// 3 output: 3 stride: 1 dilation: 1", "filter depth must be stricly positive, got 0", "output
// depth must be evenly divisible by number of groups: 4 vs 3", (backprops of grouped filters)
// "Gradients for grouped convolutions are not supported on CPU. ..."; Unimplemented "The Conv2D
// op currently only supports the NHWC tensor format on the CPU. The op was given the format:
// NCHW".
//
// Grouped convolutions (Conv2D and _FusedConv2D): an input depth that is a multiple G of the
// filter's input depth splits the channels into G groups; output channel co sees only the input
// channels of group co / (Cout / G), as TensorFlow 2.21's CPU kernel computes it. Float runs on
// oneDNN's grouped convolution; the other dtypes run each group through im2col + GEMM on
// copies of its channels.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "kernels/framework/index_values.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/conv_window.h"
#include "kernels/math_lib/cwise_op.h"
#include "kernels/math_lib/fused_epilogue.h"
#include "kernels/math_lib/gemm.h"
#include "kernels/math_lib/half_convert.h"
#include "kernels/math_lib/onednn_conv.h"
#include "kernels/math_lib/onednn_deconv.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

#define RILL_CONV_TYPES half, float, double, int32_t

// Writes the patches of output pixels [begin, end) into rows of `col` ([end-begin, patch]),
// zeros where the window hangs over the input's edge.
template <typename T>
void Im2Col(const ConvGeometry& g, const T* in, int64_t begin, int64_t end, T* col) {
  for (int64_t p = begin; p < end; ++p) {
    const int64_t n = p / (g.out_h * g.out_w);
    const int64_t oh = (p / g.out_w) % g.out_h;
    const int64_t ow = p % g.out_w;
    T* row = col + (p - begin) * g.patch();
    const int64_t w0 = ow * g.stride_w - g.pad_w;
    // With dilation 1 and the window inside the row, its k_w taps are one contiguous run.
    const bool row_inside = g.dil_w == 1 && w0 >= 0 && w0 + g.k_w <= g.in_w;
    for (int64_t kh = 0; kh < g.k_h; ++kh) {
      const int64_t h = oh * g.stride_h - g.pad_h + kh * g.dil_h;
      T* dst_row = row + kh * g.k_w * g.in_c;
      if (h < 0 || h >= g.in_h) {
        std::fill(dst_row, dst_row + g.k_w * g.in_c, T());
        continue;
      }
      const T* src_row = in + ((n * g.in_h + h) * g.in_w) * g.in_c;
      if (row_inside) {
        std::copy(src_row + w0 * g.in_c, src_row + (w0 + g.k_w) * g.in_c, dst_row);
        continue;
      }
      for (int64_t kw = 0; kw < g.k_w; ++kw) {
        const int64_t w = w0 + kw * g.dil_w;
        T* dst = dst_row + kw * g.in_c;
        if (w < 0 || w >= g.in_w) {
          std::fill(dst, dst + g.in_c, T());
        } else {
          std::copy(src_row + w * g.in_c, src_row + (w + 1) * g.in_c, dst);
        }
      }
    }
  }
}

// Adds the patch gradients of output pixels [begin, end) (rows of `col`) into `in_grad`.
template <typename T>
void Col2ImAdd(const ConvGeometry& g, const T* col, int64_t begin, int64_t end, T* in_grad) {
  using cwise_internal::Load;
  for (int64_t p = begin; p < end; ++p) {
    const int64_t n = p / (g.out_h * g.out_w);
    const int64_t oh = (p / g.out_w) % g.out_h;
    const int64_t ow = p % g.out_w;
    const T* row = col + (p - begin) * g.patch();
    for (int64_t kh = 0; kh < g.k_h; ++kh) {
      const int64_t h = oh * g.stride_h - g.pad_h + kh * g.dil_h;
      if (h < 0 || h >= g.in_h) continue;
      for (int64_t kw = 0; kw < g.k_w; ++kw) {
        const int64_t w = ow * g.stride_w - g.pad_w + kw * g.dil_w;
        if (w < 0 || w >= g.in_w) continue;
        const T* src = row + (kh * g.k_w + kw) * g.in_c;
        T* dst = in_grad + ((n * g.in_h + h) * g.in_w + w) * g.in_c;
        for (int64_t c = 0; c < g.in_c; ++c) {
          dst[c] = cwise_internal::Store<T>(Load(dst[c]) + Load(src[c]));
        }
      }
    }
  }
}

// Output pixels per im2col block: the column buffer stays near 256 KiB, so the product reads it
// from L2 while it is warm (a buffer of many MiB would be written out to memory and read back).
template <typename T>
int64_t PixelsPerBlock(const ConvGeometry& g) {
  constexpr int64_t kBlockBytes = 256 << 10;
  return std::max<int64_t>(1, kBlockBytes / std::max<int64_t>(1, g.patch() * sizeof(T)));
}

template <typename T>
absl::Status ConvForward(OpKernelContext& ctx, const ConvGeometry& g, const T* in, const T* filter,
                         T* out) {
  GemmDims d;
  d.k = g.patch();
  d.n = g.out_c;
  d.lda = g.patch();
  d.ldb = g.out_c;
  // One product, which Gemm splits over the intra-op threads, when each output pixel is its input
  // pixel: IsPointwise() looks at the padding before the input only, and EXPLICIT padding after
  // it (bottom or right) makes more output pixels than the input has.
  if (g.IsPointwise() && g.out_h == g.in_h && g.out_w == g.in_w) {
    d.threads = ctx.intra_op_threads();
    d.m = g.pixels();
    return Gemm<T>(d, in, filter, out);
  }
  // Blocks of output pixels, spread over the kernel's intra-op threads (ctx.ParallelFor): each
  // thread gathers its block's patches into its own buffer and multiplies them itself.
  const int threads = ctx.intra_op_threads();
  const int64_t pixels = g.pixels();
  const int64_t block =
      std::max<int64_t>(1, std::min(PixelsPerBlock<T>(g), (pixels + threads - 1) / threads));
  const int64_t blocks = (pixels + block - 1) / block;
  d.threads = 1;  // each block's product runs on its worker
  std::atomic<bool> failed{false};
  absl::Status first_error;
  rill::Mutex mu;
  ctx.ParallelFor(blocks, block * g.patch() * g.out_c, [&](int64_t b0, int64_t b1) {
    std::vector<T> col(static_cast<size_t>(block * g.patch()));
    for (int64_t b = b0; b < b1 && !failed.load(); ++b) {
      const int64_t begin = b * block, end = std::min(begin + block, pixels);
      Im2Col(g, in, begin, end, col.data());
      GemmDims bd = d;
      bd.m = end - begin;
      absl::Status s = Gemm<T>(bd, col.data(), filter, out + begin * g.out_c);
      if (!s.ok()) {
        rill::MutexLock lock(&mu);
        if (first_error.ok()) first_error = s;
        failed = true;
      }
    }
  });
  return first_error;
}

// A grouped convolution one group at a time: the group's input channels and filter columns are
// copied into dense buffers, convolved by ConvForward, and the result copied into its output
// channels.
template <typename T>
absl::Status GroupedConvForward(OpKernelContext& ctx, const ConvGeometry& g, const T* in,
                                const T* filter, T* out) {
  ConvGeometry gg = g;
  gg.groups = 1;
  gg.in_c = g.in_c / g.groups;
  gg.out_c = g.out_c / g.groups;
  const int64_t in_pixels = g.batch * g.in_h * g.in_w;
  const int64_t taps = g.k_h * g.k_w * gg.in_c;
  const DataType dt = DataTypeToEnum<T>::value;
  RILL_ASSIGN_OR_RETURN(Tensor gin, ctx.allocate_temp(dt, TensorShape({in_pixels, gg.in_c})));
  RILL_ASSIGN_OR_RETURN(Tensor gf, ctx.allocate_temp(dt, TensorShape({taps, gg.out_c})));
  RILL_ASSIGN_OR_RETURN(Tensor gout, ctx.allocate_temp(dt, TensorShape({g.pixels(), gg.out_c})));
  T* gi = gin.flat<T>().data();
  T* gw = gf.flat<T>().data();
  T* go = gout.flat<T>().data();
  for (int64_t grp = 0; grp < g.groups; ++grp) {
    for (int64_t p = 0; p < in_pixels; ++p) {
      std::copy_n(in + p * g.in_c + grp * gg.in_c, gg.in_c, gi + p * gg.in_c);
    }
    // The filter is [k_h, k_w, in_c / groups, out_c]: each tap's row holds every group's columns.
    for (int64_t t = 0; t < taps; ++t) {
      std::copy_n(filter + t * g.out_c + grp * gg.out_c, gg.out_c, gw + t * gg.out_c);
    }
    RILL_RETURN_IF_ERROR(ConvForward<T>(ctx, gg, gi, gw, go));
    for (int64_t p = 0; p < g.pixels(); ++p) {
      std::copy_n(go + p * gg.out_c, gg.out_c, out + p * g.out_c + grp * gg.out_c);
    }
  }
  return absl::OkStatus();
}

// A half Conv2D (groups 1, finite weights) as a float convolution on oneDNN: input and filter
// widened once (F16C), each output accumulated in float and rounded once to half, as the im2col
// path's Gemm does (kernels/math_lib/gemm.h: half operands widened, float products); only the
// order of the sums differs. Keras's mixed_float16 policy runs its convolutions in half: at its
// small maps im2col and the widening inside Gemm took 3-5 G multiply-adds a second. Returns
// false, having written nothing, when the filter holds an inf or NaN weight: oneDNN skips the
// taps that read padding, where im2col forms 0 * inf (NaN), as TensorFlow's Eigen kernels do.
absl::StatusOr<bool> HalfConvOnOneDnn(OpKernelContext& ctx, const ConvGeometry& g, const half* in,
                                      const half* filter, half* out) {
  const int64_t filter_size = g.k_h * g.k_w * g.in_c * g.out_c;
  const int64_t in_size = g.batch * g.in_h * g.in_w * g.in_c;
  const int64_t out_size = g.pixels() * g.out_c;
  RILL_ASSIGN_OR_RETURN(
      Tensor buffer, ctx.allocate_temp(DT_FLOAT, TensorShape({filter_size + in_size + out_size})));
  float* f = buffer.flat<float>().data();
  float* x = f + filter_size;
  float* y = x + in_size;
  HalfToFloat(filter, filter_size, f);
  if (!std::all_of(f, f + filter_size, [](float v) { return std::isfinite(v); })) return false;
  HalfToFloat(in, in_size, x);
  const OneDnnConvShape shape = MakeOneDnnConvShape(
      g, g.batch, g.in_h, g.in_w, g.in_c, g.k_h, g.k_w, g.out_c, 1, false, FusedActivation::kNone);
  RILL_RETURN_IF_ERROR(OneDnnConv2D(shape, ctx.intra_op_threads(), x, f, nullptr, y));
  FloatToHalf(y, out_size, out);
  return true;
}

// Conv2D forward, and with `bias` _FusedConv2D's bias and activation: float on oneDNN (half too,
// through HalfConvOnOneDnn), the other dtypes by im2col + GEMM (per group when grouped) then the
// epilogue. With `sum` (and a bias)
// `out` holds a residual addend of the output's shape on entry and gets act((conv + bias) +
// addend), in that order of operations (oneDNN's sum post-op; a temporary product elsewhere),
// the activation as a pass after it (NaN stays NaN).
template <typename T>
absl::Status ConvForwardFused(OpKernelContext& ctx, const ConvGeometry& g, const T* in,
                              const T* filter, const T* bias, FusedActivation act, T* out,
                              OneDnnPackedWeights* packed, bool sum = false) {
  if constexpr (std::is_same_v<T, float>) {
    if (StridesAndDilationsWithinInput(g, g.in_h, g.in_w)) {
      OneDnnConvShape shape = MakeOneDnnConvShape(g, g.batch, g.in_h, g.in_w, g.in_c, g.k_h, g.k_w,
                                                  g.out_c, g.groups, bias != nullptr, act);
      shape.sum = sum;
      return OneDnnConv2D(shape, ctx.intra_op_threads(), in, filter, bias, out, packed,
                          ctx.step_id());
    }
  }
  if constexpr (std::is_same_v<T, half>) {
    if (g.groups == 1 && bias == nullptr && !sum &&
        StridesAndDilationsWithinInput(g, g.in_h, g.in_w)) {
      RILL_ASSIGN_OR_RETURN(const bool done, HalfConvOnOneDnn(ctx, g, in, filter, out));
      if (done) return absl::OkStatus();
    }
  }
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (sum) {
      const int64_t n = g.pixels() * g.out_c;
      RILL_ASSIGN_OR_RETURN(Tensor conv,
                            ctx.allocate_temp(DataTypeToEnum<T>::value, TensorShape({n})));
      T* c = conv.flat<T>().data();
      RILL_RETURN_IF_ERROR(ConvForwardFused<T>(ctx, g, in, filter, bias, FusedActivation::kNone, c,
                                               packed, /*sum=*/false));
      for (int64_t i = 0; i < n; ++i) out[i] = ApplyAddActivation<T>(c[i] + out[i], act);
      return absl::OkStatus();
    }
  }
  if (g.groups > 1) {
    RILL_RETURN_IF_ERROR(GroupedConvForward<T>(ctx, g, in, filter, out));
  } else {
    RILL_RETURN_IF_ERROR(ConvForward<T>(ctx, g, in, filter, out));
  }
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {  // _FusedConv2D's
    if (bias != nullptr) BiasActivation<T>(ctx, out, bias, g.pixels(), g.out_c, act);
  }
  return absl::OkStatus();
}

template <typename T>
absl::Status ConvBackpropInput(OpKernelContext& ctx, const ConvGeometry& g, const T* filter,
                               const T* out_backprop, T* in_grad) {
  std::fill(in_grad, in_grad + g.batch * g.in_h * g.in_w * g.in_c, T());
  GemmDims d;  // [pixels, Cout] x filter^T [Cout, patch]
  d.threads = ctx.intra_op_threads();
  d.k = g.out_c;
  d.n = g.patch();
  d.lda = g.out_c;
  d.ldb = g.out_c;
  d.transpose_b = true;
  const int64_t block = std::min(PixelsPerBlock<T>(g), g.pixels());
  RILL_ASSIGN_OR_RETURN(
      Tensor col, ctx.allocate_temp(DataTypeToEnum<T>::value, TensorShape({block, g.patch()})));
  T* c = col.flat<T>().data();
  for (int64_t begin = 0; begin < g.pixels(); begin += block) {
    const int64_t end = std::min(begin + block, g.pixels());
    d.m = end - begin;
    RILL_RETURN_IF_ERROR(Gemm<T>(d, out_backprop + begin * g.out_c, filter, c));
    Col2ImAdd(g, c, begin, end, in_grad);  // sequential: patches overlap
  }
  return absl::OkStatus();
}

// dW[patch, Cout] = sum over pixel blocks of col(block)^T [patch, pixels] x dOut(block).
template <typename T>
absl::Status ConvBackpropFilter(OpKernelContext& ctx, const ConvGeometry& g, const T* in,
                                const T* out_backprop, T* filter_grad) {
  using C = typename CwiseComputeType<T>::type;
  const int64_t patch = g.patch();
  std::vector<C> sum(static_cast<size_t>(patch * g.out_c), C(0));
  const int64_t block = std::min(PixelsPerBlock<T>(g), g.pixels());
  RILL_ASSIGN_OR_RETURN(Tensor col,
                        ctx.allocate_temp(DataTypeToEnum<T>::value, TensorShape({block, patch})));
  RILL_ASSIGN_OR_RETURN(Tensor part,
                        ctx.allocate_temp(DataTypeToEnum<T>::value, TensorShape({patch, g.out_c})));
  GemmDims d;
  d.m = patch;
  d.n = g.out_c;
  d.transpose_a = true;
  d.lda = patch;
  d.ldb = g.out_c;
  d.threads = ctx.intra_op_threads();
  T* c = col.flat<T>().data();
  T* pp = part.flat<T>().data();
  for (int64_t begin = 0; begin < g.pixels(); begin += block) {
    const int64_t end = std::min(begin + block, g.pixels());
    Im2Col(g, in, begin, end, c);
    d.k = end - begin;
    RILL_RETURN_IF_ERROR(Gemm<T>(d, c, out_backprop + begin * g.out_c, pp));
    for (size_t i = 0; i < sum.size(); ++i) sum[i] += cwise_internal::Load(pp[i]);
  }
  for (size_t i = 0; i < sum.size(); ++i) filter_grad[i] = cwise_internal::Store<T>(sum[i]);
  return absl::OkStatus();
}

// Whether every element of the float tensor `t` is finite.
bool AllFinite(const Tensor& t) {
  const float* v = t.flat<float>().data();
  return std::all_of(v, v + t.NumElements(), [](float x) { return std::isfinite(x); });
}

// Zeros into `out` (a convolution over an empty input depth); all-zero bytes are zero in every
// convolution dtype.
absl::Status FillZeros(DataType dt, Tensor* out) {
  std::memset(out->raw_data(), 0, static_cast<size_t>(out->NumElements()) * DataTypeSize(dt));
  return absl::OkStatus();
}

absl::Status CheckFourDims(const Tensor& t, const char* what) {
  if (t.shape().rank() == 4) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      what, " must be 4-dimensional", what[0] == 'f' ? ": " : "", t.shape().DebugString()));
}

class ConvOpBase : public OpKernel {
 public:
  explicit ConvOpBase(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (HasConstantWeights(ctx)) packed_ = std::make_unique<OneDnnPackedWeights>();
    absl::StatusOr<Conv2DAttrs> attrs = ParseNhwcConvAttrs(ctx);
    if (attrs.ok()) {
      attrs_ = *std::move(attrs);
    } else {
      ctx.SetStatus(attrs.status());
    }
  }

 protected:
  // The geometry for an NHWC input of `in_shape` and an HWIO filter (NhwcConvGeometry).
  absl::StatusOr<ConvGeometry> Geometry(const TensorShape& in_shape, const TensorShape& filter,
                                        bool grouped = false) const {
    return NhwcConvGeometry(attrs_, in_shape, filter, grouped);
  }

  Conv2DAttrs attrs_;
  // The packed filter when the optimizer found it constant (Conv2D / _FusedConv2D /
  // Conv2DBackpropInput); else null.
  std::unique_ptr<OneDnnPackedWeights> packed_;
};

class Conv2DOp final : public ConvOpBase {
 public:
  explicit Conv2DOp(OpKernelConstruction& ctx) : ConvOpBase(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    RILL_RETURN_IF_ERROR(CheckConvolutionFourDims(input, "input"));
    RILL_RETURN_IF_ERROR(CheckConvolutionFourDims(filter, "filter"));
    RILL_ASSIGN_OR_RETURN(ConvGeometry g,
                          Geometry(input.shape(), filter.shape(), /*grouped=*/true));
    RILL_RETURN_IF_ERROR(CheckFilterHasElements(filter));
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.out_h, g.out_w, g.out_c}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    if (g.groups == 0) return FillZeros(input.dtype(), out);
    return VisitKernelTypes<RILL_CONV_TYPES>(*this, input.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return ConvForwardFused<T>(ctx, g, input.flat<T>().data(), filter.flat<T>().data(), nullptr,
                                 FusedActivation::kNone, out->flat<T>().data(),
                                 HoldConstantWeights(packed_.get(), filter));
    });
  }
};

// x = x > 0 ? x : x * alpha over data[0, n), at the CPU's vector width (simd_dispatch.h). Not
// inlined: inlined where the compiler can see the whole kernel it made the select a conditional
// store (a store only where x <= 0), which keeps the loop scalar.
template <typename T>
__attribute__((noinline)) void LeakyReluRange(T* data, int64_t n, T alpha) {
  RunSimd([&] {
    for (int64_t i = 0; i < n; ++i) {
      const T x = data[i];
      const T scaled = x * alpha;  // formed for every element: no branch in the loop
      data[i] = x > T(0) ? x : scaled;
    }
  });
}

// _FusedConv2D (made by the graph optimizer from Conv2D + BiasAdd [+ Relu | Relu6 | LeakyRelu],
// NHWC): the convolution into the output, then bias and activation in one pass
// (kernels/math_lib/fused_epilogue.h). With fused_ops ["BiasAdd", "Add" [, "Relu" | "Relu6"]]
// (a residual AddV2 after the convolution, whose other operand is args[1]) the output is
// act((conv + bias) + addend), the unfused nodes' operations in their order: an addend of the
// output's shape is copied into the output (or its buffer taken over when nothing else holds
// it) and summed into by the convolution; one of another shape is broadcast as AddV2 does
// (its errors: "Incompatible shapes: ..."). With fused_ops ["BiasAdd", "LeakyRelu"] (TensorFlow's
// remapper's form, attr leakyrelu_alpha) the convolution and bias are followed by a pass over the
// output computing the LeakyRelu kernel's x > 0 ? x : x * alpha, so results are the unfused
// nodes' bit for bit.
class FusedConv2DOp final : public ConvOpBase {
 public:
  explicit FusedConv2DOp(OpKernelConstruction& ctx) : ConvOpBase(ctx) {
    std::vector<std::string> names;
    int64_t num_args = 0;
    if (ctx.GetAttr("fused_ops", &names).ok() && ctx.GetAttr("num_args", &num_args).ok() &&
        names.size() == 2 && names[0] == "BiasAdd" && names[1] == "LeakyRelu" && num_args == 1) {
      float alpha = 0.2f;
      if (ctx.def().attr().count("leakyrelu_alpha") > 0) {  // else the op's default
        absl::Status s = ctx.GetAttr("leakyrelu_alpha", &alpha);
        if (!s.ok()) {
          ctx.SetStatus(s);
          return;
        }
      }
      leaky_ = true;
      alpha_ = alpha;
      return;
    }
    absl::StatusOr<FusedConvOps> ops = ParseFusedConvOps(ctx);
    if (ops.ok()) {
      activation_ = ops->activation;
      add_ = ops->add;
    }
    ctx.SetStatus(ops.status());
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    const Tensor& bias = ctx.input(2);
    RILL_RETURN_IF_ERROR(CheckConvolutionFourDims(input, "input"));
    RILL_RETURN_IF_ERROR(CheckConvolutionFourDims(filter, "filter"));
    RILL_ASSIGN_OR_RETURN(ConvGeometry g,
                          Geometry(input.shape(), filter.shape(), /*grouped=*/true));
    RILL_RETURN_IF_ERROR(CheckFilterHasElements(filter));
    RILL_RETURN_IF_ERROR(CheckBias(bias, g.out_c));
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({g.batch, g.out_h, g.out_w, g.out_c}));
    if (add_) return ComputeWithAddend(ctx, g, out_shape);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    if (g.groups == 0) {  // an empty input depth: only the bias and activation remain
      RILL_RETURN_IF_ERROR(FillZeros(input.dtype(), out));
      return VisitKernelTypes<float, double>(*this, input.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        BiasActivation<T>(ctx, out->flat<T>().data(), bias.flat<T>().data(), g.pixels(), g.out_c,
                          activation_);
        if (leaky_) LeakyReluInPlace<T>(ctx, out->flat<T>().data(), out->NumElements());
        return absl::OkStatus();
      });
    }
    absl::Status s = VisitKernelTypes<float, double>(*this, input.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      RILL_RETURN_IF_ERROR(ConvForwardFused<T>(
          ctx, g, input.flat<T>().data(), filter.flat<T>().data(), bias.flat<T>().data(),
          activation_, out->flat<T>().data(), HoldConstantWeights(packed_.get(), filter)));
      if (leaky_) LeakyReluInPlace<T>(ctx, out->flat<T>().data(), out->NumElements());
      return absl::OkStatus();
    });
    if (!s.ok()) return s;
    RecordOneDnnConvBound(
        *out, ctx.step_id());  // a Relu6 run inside oneDNN: its readers need not scan it
    return absl::OkStatus();
  }

 private:
  // x = x > 0 ? x : x * alpha over `n` elements, split over the intra-op threads, as the
  // LeakyRelu kernel computes it (alpha a float, widened for double; NaN stays NaN).
  template <typename T>
  void LeakyReluInPlace(OpKernelContext& ctx, T* data, int64_t n) const {
    const T alpha = static_cast<T>(alpha_);
    ctx.ParallelFor(n, 2, [data, alpha](int64_t begin, int64_t end) {
      LeakyReluRange<T>(data + begin, end - begin, alpha);
    });
  }

  // fused_ops ["BiasAdd", "Add" [, act]]: see the class comment.
  absl::Status ComputeWithAddend(OpKernelContext& ctx, const ConvGeometry& g,
                                 const TensorShape& conv_shape) const {
    const Tensor& input = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    const Tensor& bias = ctx.input(2);
    const Tensor& addend = ctx.input(3);
    return VisitKernelTypes<float, double>(*this, input.dtype(), [&](auto tag) -> absl::Status {
      using T = typename decltype(tag)::type;
      if (addend.shape() == conv_shape) {
        RILL_ASSIGN_OR_RETURN(Tensor * out,
                              ctx.forward_input_or_allocate_output({3}, 0, conv_shape));
        const int64_t n = out->NumElements();
        T* o = out->flat<T>().data();
        if (n == 0) return absl::OkStatus();
        if (o != addend.flat<T>().data()) std::memcpy(o, addend.flat<T>().data(), n * sizeof(T));
        if (g.groups == 0) {  // an empty input depth: the product is zero
          for (int64_t i = 0; i < n; ++i) {
            o[i] = ApplyAddActivation<T>((T(0) + bias.flat<T>()[i % g.out_c]) + o[i], activation_);
          }
          return absl::OkStatus();
        }
        return ConvForwardFused<T>(ctx, g, input.flat<T>().data(), filter.flat<T>().data(),
                                   bias.flat<T>().data(), activation_, o,
                                   HoldConstantWeights(packed_.get(), filter), /*sum=*/true);
      }
      // A broadcast addend: conv + bias into a temporary, then the sum with AddV2's broadcasting.
      RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                            BroadcastShapes(conv_shape, addend.shape()));
      RILL_ASSIGN_OR_RETURN(Tensor conv, ctx.allocate_temp(input.dtype(), conv_shape));
      T* c = conv.flat<T>().data();
      if (conv.NumElements() > 0) {
        if (g.groups == 0) {
          RILL_RETURN_IF_ERROR(FillZeros(input.dtype(), &conv));
          BiasActivation<T>(ctx, c, bias.flat<T>().data(), g.pixels(), g.out_c,
                            FusedActivation::kNone);
        } else {
          RILL_RETURN_IF_ERROR(ConvForwardFused<T>(
              ctx, g, input.flat<T>().data(), filter.flat<T>().data(), bias.flat<T>().data(),
              FusedActivation::kNone, c, HoldConstantWeights(packed_.get(), filter)));
        }
      }
      RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
      if (out->NumElements() == 0) return absl::OkStatus();
      T* z = out->flat<T>().data();
      const T* a = addend.flat<T>().data();
      ForEachBroadcastRow(
          conv_shape, addend.shape(), out_shape,
          [&](int64_t o, int64_t oc, int64_t oa, int64_t inner, int64_t sc, int64_t sa) {
            for (int64_t j = 0; j < inner; ++j) {
              z[o + j] = ApplyAddActivation<T>(c[oc + j * sc] + a[oa + j * sa], activation_);
            }
          });
      return absl::OkStatus();
    });
  }

  FusedActivation activation_ = FusedActivation::kNone;
  bool add_ = false;    // fused_ops has "Add": args[1] is a residual addend
  bool leaky_ = false;  // fused_ops is ["BiasAdd", "LeakyRelu"], alpha_ its slope
  float alpha_ = 0.2f;
};

class Conv2DBackpropInputOp final : public ConvOpBase {
 public:
  explicit Conv2DBackpropInputOp(OpKernelConstruction& ctx) : ConvOpBase(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& sizes = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    const Tensor& out_backprop = ctx.input(2);
    if (sizes.shape().rank() != 1 || sizes.NumElements() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("Conv2DBackpropInput: input_sizes input must be 1-dim with 4 elements, not ",
                       sizes.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape in_shape, TensorShape::FromDims(IndexValues(sizes)));
    RILL_RETURN_IF_ERROR(CheckFourDims(filter, "filter"));
    RILL_RETURN_IF_ERROR(CheckFourDims(out_backprop, "out_backprop"));
    RILL_ASSIGN_OR_RETURN(ConvGeometry g, Geometry(in_shape, filter.shape()));
    const int64_t computed[] = {g.batch, g.out_h, g.out_w, g.out_c};
    const int64_t inputs[] = {g.batch, g.in_h, g.in_w, g.in_c};
    const int64_t filters[] = {0, g.k_h, g.k_w, g.out_c};
    for (int d = 0; d < 4; ++d) {
      if (out_backprop.shape().dim(d) != computed[d]) {
        if (d == 0 || d == 3) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Conv2DCustomBackpropInput: ", d == 0 ? "input and out_backprop must have the "
                                                      "same batch size"
                                                    : "filter and out_backprop must have the "
                                                      "same out_depth"));
        }
        return absl::InvalidArgumentError(absl::StrCat(
            "Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = ",
            out_backprop.shape().dim(d), ", computed = ", computed[d], " spatial_dim: ", d,
            " input: ", inputs[d], " filter: ", filters[d],
            " output: ", out_backprop.shape().dim(d), " stride: ", attrs_.strides[d],
            " dilation: ", attrs_.dilations[d]));
      }
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, in_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    if (filter.dtype() == DT_HALF) return HalfBackpropInput(ctx, g, filter, out_backprop, out);
    // float with finite weights: oneDNN's deconvolution (kernels/math_lib/onednn_deconv.h),
    // unless it refuses the geometry. An inf or NaN weight keeps the im2col path, which forms
    // every product of a weight and a gradient element (oneDNN need not form those whose target
    // lies in the padding).
    // A constant filter (packed_) is reordered once and its finiteness read from the packed
    // weights' cached bound (finite only when every weight is); a variable's on every call.
    if (filter.dtype() == DT_FLOAT) {
      OneDnnPackedWeights* packed = HoldConstantWeights(packed_.get(), filter);
      const float* f = filter.flat<float>().data();
      const bool finite = (packed != nullptr && std::isfinite(packed->MaxOutputAbsSum(
                                                    f, g.k_h * g.k_w * g.in_c, g.out_c, false))) ||
                          AllFinite(filter);
      if (finite &&
          OneDnnConv2DBackpropInput(g, ctx.intra_op_threads(), f, out_backprop.flat<float>().data(),
                                    out->flat<float>().data(), packed)
              .ok()) {
        return absl::OkStatus();
      }
    }
    return VisitKernelTypes<RILL_CONV_TYPES>(*this, filter.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return ConvBackpropInput<T>(ctx, g, filter.flat<T>().data(), out_backprop.flat<T>().data(),
                                  out->flat<T>().data());
    });
  }

 private:
  // half: the gradient is accumulated in float and rounded once (half partial sums of overlapping
  // patches lose too much precision to agree with TensorFlow's results).
  static absl::Status HalfBackpropInput(OpKernelContext& ctx, const ConvGeometry& g,
                                        const Tensor& filter, const Tensor& out_backprop,
                                        Tensor* out) {
    auto to_float = [&](const Tensor& t) -> absl::StatusOr<Tensor> {
      RILL_ASSIGN_OR_RETURN(Tensor f, ctx.allocate_temp(DT_FLOAT, t.shape()));
      for (int64_t i = 0; i < t.NumElements(); ++i) {
        f.flat<float>()[i] = static_cast<float>(t.flat<half>()[i]);
      }
      return f;
    };
    RILL_ASSIGN_OR_RETURN(Tensor f, to_float(filter));
    RILL_ASSIGN_OR_RETURN(Tensor b, to_float(out_backprop));
    RILL_ASSIGN_OR_RETURN(Tensor grad, ctx.allocate_temp(DT_FLOAT, out->shape()));
    RILL_RETURN_IF_ERROR(ConvBackpropInput<float>(
        ctx, g, f.flat<float>().data(), b.flat<float>().data(), grad.flat<float>().data()));
    for (int64_t i = 0; i < grad.NumElements(); ++i) {
      out->flat<half>()[i] = half(grad.flat<float>()[i]);
    }
    return absl::OkStatus();
  }
};

class Conv2DBackpropFilterOp final : public ConvOpBase {
 public:
  explicit Conv2DBackpropFilterOp(OpKernelConstruction& ctx) : ConvOpBase(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& sizes = ctx.input(1);
    const Tensor& out_backprop = ctx.input(2);
    if (sizes.shape().rank() != 1 || sizes.NumElements() != 4) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Conv2DBackpropFilter: filter_sizes input must be 1-dim with 4 elements, not ",
          sizes.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(TensorShape filter_shape, TensorShape::FromDims(IndexValues(sizes)));
    RILL_RETURN_IF_ERROR(CheckFourDims(input, "input"));
    RILL_RETURN_IF_ERROR(CheckFourDims(out_backprop, "out_backprop"));
    RILL_ASSIGN_OR_RETURN(ConvGeometry g, Geometry(input.shape(), filter_shape));
    const TensorShape expected({g.batch, g.out_h, g.out_w, g.out_c});
    if (out_backprop.shape() != expected) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Conv2DCustomBackpropFilter: out_backprop has shape ", out_backprop.shape().DebugString(),
          ", but the convolution gives ", expected.DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, filter_shape));
    if (out->NumElements() == 0) return absl::OkStatus();
    return VisitKernelTypes<float, double>(*this, input.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      return ConvBackpropFilter<T>(ctx, g, input.flat<T>().data(), out_backprop.flat<T>().data(),
                                   out->flat<T>().data());
    });
  }
};

REGISTER_KERNEL(KernelDefBuilder("Conv2DBackpropFilter")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>())
                    .HostMemory("filter_sizes"),
                Conv2DBackpropFilterOp);
REGISTER_KERNEL(KernelDefBuilder("_FusedConv2D")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<float, double>()),
                FusedConv2DOp);
REGISTER_KERNEL(KernelDefBuilder("Conv2D")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_CONV_TYPES>()),
                Conv2DOp);
REGISTER_KERNEL(KernelDefBuilder("Conv2DBackpropInput")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", DataTypesOf<RILL_CONV_TYPES>())
                    .HostMemory("input_sizes"),
                Conv2DBackpropInputOp);

}  // namespace
}  // namespace rill
