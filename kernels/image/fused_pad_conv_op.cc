// FusedResizeAndPadConv2D and FusedPadConv2D on the CPU: the ops TensorFlow's
// optimize_for_inference (tensorflow/python/tools/optimize_for_inference_lib.py) writes for a
// ResizeBilinear (legacy sampling, resize_align_corners) and / or MirrorPad (REFLECT or
// SYMMETRIC, spatial paddings only) feeding a Conv2D (NHWC, no dilation, strides
// [1, sh, sw, 1], SAME or VALID): resize, pad, then convolve.
//
// TensorFlow's CPU kernel fills a cache of resized and padded rows once per row index, whatever
// the batch index, so every output image is the convolution of the FIRST input image; Rill
// computes that (output[b] = output[0] for every b), as TensorFlow 2.21 does.
//
// Resize: in = out * scale (float; scale (in - 1) / (out - 1) with align_corners and out > 1,
// else in / out), top = floor(in), bottom = min(ceil(in), in_size - 1), lerp in T:
// top_row + (bottom_row - top_row) * y_lerp of left + (right - left) * x_lerp. The convolution is
// an im2col product through Gemm (float for half and bfloat16, double for double).
// FusedResizeAndPadConv2D has no half kernel: TensorFlow's half path (its resize and its product
// rounded to half step by step) differs from a float computation by up to 0.19 on the recorded
// cases, beyond half's tolerance; a half graph gets the missing-kernel error.
//
// Errors are InvalidArgument with TensorFlow's texts: "input must be 4-dimensional[...]",
// "shape_t must be 1-D[...]", "shape_t must have two elements[...]", "output dimensions must be
// positive", "paddings must be non-negative: -1 2", "paddings must be less than the dimension
// size: 5, 0 not less than 5" (REFLECT), "paddings must be no greater than the dimension size: 6,
// 0 greater than 5" (SYMMETRIC), "Fused mirror padding only support spatial padding, not
// batches: ..." (and "not channels"), "input and filter must have the same depth: 3 vs 2",
// "Current implementation does not yet support strides in the batch and depth dimensions.",
// "Input tensor can't be empty", "Output tensor can't be empty", and window_geometry's "Computed
// output size would be negative: ...". Rill also checks what TensorFlow's shape function does
// ("paddings must be a matrix with 2 columns: [4,3]", "filter must be 4-dimensional: [3,3,4]",
// "strides must have 4 values: 3").
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/bfloat16.h"
#include "core/half.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/gemm.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

// Elements of t as Acc (float for half, bfloat16 and float; double for double).
template <typename Acc>
std::vector<Acc> Widen(const Tensor& t) {
  std::vector<Acc> v(static_cast<size_t>(t.NumElements()));
  switch (t.dtype()) {
    case DT_HALF:
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<Acc>(static_cast<float>(t.flat<half>()[i]));
      break;
    case DT_BFLOAT16:
      for (size_t i = 0; i < v.size(); ++i)
        v[i] = static_cast<Acc>(static_cast<float>(t.flat<bfloat16>()[i]));
      break;
    case DT_DOUBLE:
      for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<Acc>(t.flat<double>()[i]);
      break;
    default:
      for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<Acc>(t.flat<float>()[i]);
  }
  return v;
}

template <typename Acc>
void Narrow(const std::vector<Acc>& v, int64_t count, Tensor* out, int64_t at) {
  switch (out->dtype()) {
    case DT_HALF:
      for (int64_t i = 0; i < count; ++i)
        out->flat<half>()[at + i] = half(static_cast<float>(v[i]));
      break;
    case DT_BFLOAT16:
      for (int64_t i = 0; i < count; ++i) {
        out->flat<bfloat16>()[at + i] = bfloat16(static_cast<float>(v[i]));
      }
      break;
    case DT_DOUBLE:
      for (int64_t i = 0; i < count; ++i) out->flat<double>()[at + i] = static_cast<double>(v[i]);
      break;
    default:
      for (int64_t i = 0; i < count; ++i) out->flat<float>()[at + i] = static_cast<float>(v[i]);
  }
}

// Source index of padded position p of a dimension of size n padded by `before` (mirror).
int64_t Mirror(int64_t p, int64_t before, int64_t n, bool reflect) {
  int64_t i = p - before;
  if (i < 0) return reflect ? -i : -i - 1;
  if (i >= n) return reflect ? 2 * n - 2 - i : 2 * n - 1 - i;
  return i;
}

float ResizeScale(int64_t in, int64_t out, bool align_corners) {
  return align_corners && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                                  : static_cast<float>(in) / static_cast<float>(out);
}

template <bool kResize>
class FusedPadConvOp final : public OpKernel {
 public:
  explicit FusedPadConvOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    if (kResize) ctx.SetStatus(ctx.GetAttr("resize_align_corners", &align_corners_));
    std::string mode, padding;
    ctx.SetStatus(ctx.GetAttr("mode", &mode));
    ctx.SetStatus(ctx.GetAttr("strides", &strides_));
    ctx.SetStatus(ctx.GetAttr("padding", &padding));
    reflect_ = mode == "REFLECT";
    padding_ = PaddingFromString(padding);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& paddings = ctx.input(kResize ? 2 : 1);
    const Tensor& filter = ctx.input(kResize ? 3 : 2);
    if (input.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be 4-dimensional", input.shape().DebugString()));
    }
    int64_t dims[4] = {input.shape().dim(0), input.shape().dim(1), input.shape().dim(2),
                       input.shape().dim(3)};
    const int64_t in_h = dims[1], in_w = dims[2];
    if (kResize) {
      const Tensor& size = ctx.input(1);
      if (size.shape().rank() != 1) {
        return absl::InvalidArgumentError(
            absl::StrCat("shape_t must be 1-D", size.shape().DebugString()));
      }
      if (size.NumElements() != 2) {
        return absl::InvalidArgumentError(
            absl::StrCat("shape_t must have two elements", size.shape().DebugString()));
      }
      dims[1] = size.flat<int32_t>()[0];
      dims[2] = size.flat<int32_t>()[1];
      if (dims[1] <= 0 || dims[2] <= 0) {
        return absl::InvalidArgumentError("output dimensions must be positive");
      }
    }
    if (input.NumElements() == 0) return absl::InvalidArgumentError("Input tensor can't be empty");
    if (paddings.shape().rank() != 2 || paddings.shape().dim(1) != 2 ||
        paddings.shape().dim(0) != 4) {
      return absl::InvalidArgumentError(absl::StrCat("paddings must be a matrix with 2 columns: ",
                                                     paddings.shape().DebugString()));
    }
    const int32_t* pad = paddings.flat<int32_t>().data();
    for (int d = 0; d < 4; ++d) {
      const int64_t before = pad[2 * d], after = pad[2 * d + 1];
      if (before < 0 || after < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("paddings must be non-negative: ", before, " ", after));
      }
      if (reflect_ && (before >= dims[d] || after >= dims[d])) {
        return absl::InvalidArgumentError(
            absl::StrCat("paddings must be less than the dimension size: ", before, ", ", after,
                         " not less than ", dims[d]));
      }
      if (!reflect_ && (before > dims[d] || after > dims[d])) {
        return absl::InvalidArgumentError(
            absl::StrCat("paddings must be no greater than the dimension size: ", before, ", ",
                         after, " greater than ", dims[d]));
      }
    }
    if (pad[0] != 0 || pad[1] != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Fused mirror padding only support spatial padding, not batches: ", pad[0], " ", pad[1]));
    }
    if (pad[6] != 0 || pad[7] != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Fused mirror padding only support spatial padding, not channels: ", pad[6],
                       " ", pad[7]));
    }
    if (filter.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("filter must be 4-dimensional: ", filter.shape().DebugString()));
    }
    const int64_t kh = filter.shape().dim(0), kw = filter.shape().dim(1);
    const int64_t depth = dims[3], out_depth = filter.shape().dim(3);
    if (filter.shape().dim(2) != depth) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input and filter must have the same depth: ", depth, " vs ", filter.shape().dim(2)));
    }
    if (strides_.size() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("strides must have 4 values: ", strides_.size()));
    }
    if (strides_[0] != 1 || strides_[3] != 1) {
      return absl::InvalidArgumentError(
          "Current implementation does not yet support strides in the batch and depth "
          "dimensions.");
    }
    const int64_t padded_h = dims[1] + pad[2] + pad[3], padded_w = dims[2] + pad[4] + pad[5];
    RILL_ASSIGN_OR_RETURN(Window wy, ComputeWindow(padded_h, kh, strides_[1], 1, padding_));
    RILL_ASSIGN_OR_RETURN(Window wx, ComputeWindow(padded_w, kw, strides_[2], 1, padding_));
    const int64_t batch = dims[0];
    if (wy.out * wx.out * out_depth == 0) {
      return absl::InvalidArgumentError("Output tensor can't be empty");
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out,
                          ctx.allocate_output(0, TensorShape({batch, wy.out, wx.out, out_depth})));
    if (input.dtype() == DT_DOUBLE) {
      return Convolve<double>(input, filter, in_h, in_w, dims, pad, kh, kw, wy, wx, out);
    }
    return Convolve<float>(input, filter, in_h, in_w, dims, pad, kh, kw, wy, wx, out);
  }

 private:
  // The first image resized to dims[1] x dims[2] (when kResize), mirror-padded, convolved with
  // the filter; the result is written for every image of the batch.
  template <typename Acc>
  absl::Status Convolve(const Tensor& input, const Tensor& filter, int64_t in_h, int64_t in_w,
                        const int64_t* dims, const int32_t* pad, int64_t kh, int64_t kw,
                        const Window& wy, const Window& wx, Tensor* out) const {
    const int64_t c = dims[3], rh = dims[1], rw = dims[2];
    const int64_t ph = rh + pad[2] + pad[3], pw = rw + pad[4] + pad[5];
    const std::vector<Acc> x = Widen<Acc>(input);  // image 0 is the first in_h * in_w * c
    // The resized image (image 0 only).
    std::vector<Acc> resized;
    if (kResize) {
      resized.resize(static_cast<size_t>(rh * rw * c));
      const float sy = ResizeScale(in_h, rh, align_corners_);
      const float sx = ResizeScale(in_w, rw, align_corners_);
      for (int64_t y = 0; y < rh; ++y) {
        const float fy = static_cast<float>(y) * sy;
        const int64_t top = static_cast<int64_t>(std::floor(fy));
        const int64_t bottom = std::min(static_cast<int64_t>(std::ceil(fy)), in_h - 1);
        const float ly = fy - static_cast<float>(top);
        for (int64_t xx = 0; xx < rw; ++xx) {
          const float fx = static_cast<float>(xx) * sx;
          const int64_t left = static_cast<int64_t>(std::floor(fx));
          const int64_t right = std::min(static_cast<int64_t>(std::ceil(fx)), in_w - 1);
          const float lx = fx - static_cast<float>(left);
          for (int64_t ch = 0; ch < c; ++ch) {
            const Acc tl = x[(top * in_w + left) * c + ch];
            const Acc tr = x[(top * in_w + right) * c + ch];
            const Acc bl = x[(bottom * in_w + left) * c + ch];
            const Acc br = x[(bottom * in_w + right) * c + ch];
            const Acc t = tl + (tr - tl) * static_cast<Acc>(lx);
            const Acc b = bl + (br - bl) * static_cast<Acc>(lx);
            resized[(y * rw + xx) * c + ch] = t + (b - t) * static_cast<Acc>(ly);
          }
        }
      }
    }
    const Acc* src = kResize ? resized.data() : x.data();
    // Mirror-padded image [ph, pw, c].
    std::vector<Acc> padded(static_cast<size_t>(ph * pw * c));
    for (int64_t y = 0; y < ph; ++y) {
      const int64_t sy = Mirror(y, pad[2], rh, reflect_);
      for (int64_t xx = 0; xx < pw; ++xx) {
        const int64_t sx = Mirror(xx, pad[4], rw, reflect_);
        std::copy(src + (sy * rw + sx) * c, src + (sy * rw + sx + 1) * c,
                  padded.begin() + (y * pw + xx) * c);
      }
    }
    // im2col by chunks of output rows, then [rows, kh * kw * c] x [kh * kw * c, out_depth].
    const std::vector<Acc> f = Widen<Acc>(filter);
    const int64_t k = kh * kw * c, od = filter.shape().dim(3);
    const int64_t row_cols = wx.out * k;
    const int64_t chunk = std::max<int64_t>(1, (int64_t{1} << 22) / std::max<int64_t>(1, row_cols));
    std::vector<Acc> result(static_cast<size_t>(wy.out * wx.out * od));
    std::vector<Acc> cols;
    for (int64_t y0 = 0; y0 < wy.out; y0 += chunk) {
      const int64_t rows = std::min(chunk, wy.out - y0);
      cols.assign(static_cast<size_t>(rows * row_cols), Acc(0));
      for (int64_t oy = y0; oy < y0 + rows; ++oy) {
        for (int64_t ox = 0; ox < wx.out; ++ox) {
          Acc* col = cols.data() + ((oy - y0) * wx.out + ox) * k;
          for (int64_t fy = 0; fy < kh; ++fy) {
            const int64_t iy = oy * strides_[1] - wy.pad_before + fy;
            if (iy < 0 || iy >= ph) continue;
            for (int64_t fx = 0; fx < kw; ++fx) {
              const int64_t ix = ox * strides_[2] - wx.pad_before + fx;
              if (ix < 0 || ix >= pw) continue;
              std::copy(padded.begin() + (iy * pw + ix) * c,
                        padded.begin() + (iy * pw + ix + 1) * c, col + (fy * kw + fx) * c);
            }
          }
        }
      }
      GemmDims d{rows * wx.out, od, k, /*lda=*/k, /*ldb=*/od, false, false};
      RILL_RETURN_IF_ERROR(Gemm<Acc>(d, cols.data(), f.data(), result.data() + y0 * wx.out * od));
    }
    const int64_t image = wy.out * wx.out * od;
    for (int64_t b = 0; b < dims[0]; ++b) Narrow<Acc>(result, image, out, b * image);
    return absl::OkStatus();
  }

  bool align_corners_ = false;
  bool reflect_ = true;
  std::vector<int64_t> strides_;
  Padding padding_ = Padding::kValid;
};

REGISTER_KERNEL(KernelDefBuilder("FusedResizeAndPadConv2D")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_FLOAT, DT_DOUBLE})
                    .HostMemory("size")
                    .HostMemory("paddings"),
                FusedPadConvOp<true>);
REGISTER_KERNEL(KernelDefBuilder("FusedPadConv2D")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_HALF, DT_BFLOAT16, DT_FLOAT, DT_DOUBLE})
                    .HostMemory("paddings"),
                FusedPadConvOp<false>);

}  // namespace
}  // namespace rill
