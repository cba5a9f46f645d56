// QuantizedConv2D and QuantizedMatMul on the CPU: the eight-bit layers graph_transforms'
// quantize_nodes writes, quint8 x quint8 -> qint32 (the only pair TensorFlow 2.21's CPU kernels
// compute). Each operand's code for 0.0 (its offset, unclamped: outside [0, 255] when the range
// does not hold 0) is subtracted and the products summed in 32 bits, wrapping as TensorFlow's
// gemmlowp and reference paths do; the result's range is one input step times one filter step
// times the qint32 limits. TensorFlow's quirks are kept so results are its integers bit for bit:
//   - the window starts at out * stride - o, with o = ((out - 1) * stride + filter - in) / 2 for
//     SAME and (... + 1) / 2 for VALID, rounded toward zero and never clamped at 0: a window whose
//     stride leaves a remainder past the last window can start one or more rows late (SAME 10
//     rows, filter 2, stride 5: rows 1-2 and 6-7), and the rows past the input read as padding;
//   - padding reads the input's offset stored in a quint8 (its low 8 bits) when the offset is at
//     least 0 (im2col into gemmlowp), and exactly 0.0 when it is negative (the reference path).
// Errors are TensorFlow's texts (InvalidArgument): attrs ("Current implementation only supports
// equal length strides in the row and column dimensions.", dilation), ranks ("input must be rank 4
// but is rank 3", "min_input must be rank 0 but is rank 1"; QuantizedMatMul's "min_a must be a
// scalar, but got shape[1]", "max_a must be larger than min_a.", "In[0] is not a matrix",
// "Matrix size-incompatible: In[0]: [5,7], In[1]: [6,4]"), "input and filter must have the same
// depth: 3 vs 2", "Invalid input: Shapes dimension cannot be 0.", "filter patch must contain at
// least one element". Where TensorFlow aborts the process (a convolution with no output rows,
// columns or filters) the output is empty. Kernels are immutable after construction; Compute is
// thread-safe.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/nn/quantization_math.h"
#include "ops/window_geometry.h"

namespace rill {
namespace {

using quantization::FloatToCodeUnclamped;
using quantization::ProductRange;

absl::StatusOr<float> RankZeroRange(const OpKernelContext& ctx, int i, const char* name) {
  const Tensor& t = ctx.input(i);
  if (t.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be rank 0 but is rank ", t.shape().rank()));
  }
  return t.flat<float>()[0];
}

void SetRange(OpKernelContext& ctx, float lo, float hi) {
  ctx.set_output(1, Tensor::Scalar<float>(lo));
  ctx.set_output(2, Tensor::Scalar<float>(hi));
}

class QuantizedConv2DOp final : public OpKernel {
 public:
  explicit QuantizedConv2DOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    std::vector<int64_t> strides, dilations = {1, 1, 1, 1};
    std::string padding;
    absl::Status s = ctx.GetAttr("strides", &strides);
    if (s.ok()) s = ctx.GetAttr("padding", &padding);
    if (s.ok()) s = ctx.GetAttr("dilations", &dilations);
    if (s.ok() && strides.size() != 4) {
      s = absl::InvalidArgumentError("Sliding window strides field must specify 4 dimensions");
    }
    if (s.ok() && strides[1] != strides[2]) {
      s = absl::InvalidArgumentError(
          "Current implementation only supports equal length strides in the row and column "
          "dimensions.");
    }
    if (s.ok() && (strides[0] != 1 || strides[3] != 1)) {
      s = absl::InvalidArgumentError(
          "Current implementation does not yet support strides in the batch and depth "
          "dimensions.");
    }
    if (s.ok() && dilations.size() != 4) {
      s = absl::InvalidArgumentError("Dilations field must specify 4 dimensions");
    }
    if (s.ok() && (dilations[1] != 1 || dilations[2] != 1)) {
      s = absl::InvalidArgumentError(
          "Current implementation only supports dilated rate as 1 in the row and column "
          "dimensions.");
    }
    if (s.ok() && (dilations[0] != 1 || dilations[3] != 1)) {
      s = absl::InvalidArgumentError(
          "Current implementation does not yet support dilations in the batch and depth "
          "dimensions.");
    }
    ctx.SetStatus(s);
    if (s.ok()) {
      stride_ = strides[1];
      padding_ = PaddingFromString(padding);
    }
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& filter = ctx.input(1);
    if (input.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be rank 4 but is rank ", input.shape().rank()));
    }
    if (filter.shape().rank() != 4) {
      return absl::InvalidArgumentError(
          absl::StrCat("filter must be rank 4 but is rank ", filter.shape().rank()));
    }
    RILL_ASSIGN_OR_RETURN(const float min_input, RankZeroRange(ctx, 2, "min_input"));
    RILL_ASSIGN_OR_RETURN(const float max_input, RankZeroRange(ctx, 3, "max_input"));
    RILL_ASSIGN_OR_RETURN(const float min_filter, RankZeroRange(ctx, 4, "min_filter"));
    RILL_ASSIGN_OR_RETURN(const float max_filter, RankZeroRange(ctx, 5, "max_filter"));
    const int64_t batch = input.shape().dim(0), in_h = input.shape().dim(1);
    const int64_t in_w = input.shape().dim(2), depth = input.shape().dim(3);
    const int64_t f_h = filter.shape().dim(0), f_w = filter.shape().dim(1);
    const int64_t out_d = filter.shape().dim(3);
    if (depth != filter.shape().dim(2)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "input and filter must have the same depth: ", depth, " vs ", filter.shape().dim(2)));
    }
    if (input.NumElements() == 0) {
      return absl::InvalidArgumentError("Invalid input: Shapes dimension cannot be 0.");
    }
    if (f_h * f_w * depth == 0) {
      return absl::InvalidArgumentError("filter patch must contain at least one element");
    }
    RILL_ASSIGN_OR_RETURN(Window wh, ComputeWindow(in_h, f_h, stride_, 1, padding_));
    RILL_ASSIGN_OR_RETURN(Window ww, ComputeWindow(in_w, f_w, stride_, 1, padding_));
    const int64_t out_h = wh.out, out_w = ww.out;
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape,
                          TensorShape::FromDims({batch, out_h, out_w, out_d}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    float min_out, max_out;
    ProductRange<uint8_t, uint8_t, int32_t>(min_input, max_input, min_filter, max_filter, &min_out,
                                            &max_out);
    SetRange(ctx, min_out, max_out);
    if (out->NumElements() == 0) return absl::OkStatus();

    const int64_t in_offset = FloatToCodeUnclamped<uint8_t>(0.0f, min_input, max_input);
    const int64_t f_offset = FloatToCodeUnclamped<uint8_t>(0.0f, min_filter, max_filter);
    // What a padded tap contributes before the filter factor (see the file comment).
    const uint32_t pad_value =
        in_offset < 0 ? 0u : static_cast<uint32_t>((in_offset & 0xFF) - in_offset);
    // TensorFlow's window origin (see the file comment; C++ division rounds toward zero).
    const int64_t valid = padding_ == Padding::kValid ? 1 : 0;
    const int64_t top = ((out_h - 1) * stride_ + f_h - in_h + valid) / 2;
    const int64_t left = ((out_w - 1) * stride_ + f_w - in_w + valid) / 2;
    const uint8_t* x = &input.flat<quint8>().data()->value;
    // The filter with its offset removed, as 32-bit words (HWIO, output channel innermost).
    std::vector<uint32_t> w(filter.NumElements());
    const quint8* fq = filter.flat<quint8>().data();
    for (size_t i = 0; i < w.size(); ++i) {
      w[i] = static_cast<uint32_t>(static_cast<int64_t>(fq[i].value) - f_offset);
    }
    int32_t* y = &out->flat<qint32>().data()->value;
    const int64_t pixels = batch * out_h * out_w;
    ctx.ParallelFor(pixels, f_h * f_w * depth * out_d, [&](int64_t begin, int64_t end) {
      std::vector<uint32_t> acc(out_d);
      for (int64_t p = begin; p < end; ++p) {
        const int64_t b = p / (out_h * out_w);
        const int64_t oy = (p / out_w) % out_h, ox = p % out_w;
        std::fill(acc.begin(), acc.end(), 0u);
        for (int64_t fy = 0; fy < f_h; ++fy) {
          const int64_t iy = oy * stride_ - top + fy;
          for (int64_t fx = 0; fx < f_w; ++fx) {
            const int64_t ix = ox * stride_ - left + fx;
            const bool inside = iy >= 0 && iy < in_h && ix >= 0 && ix < in_w;
            const uint8_t* src = x + ((b * in_h + iy) * in_w + ix) * depth;
            const uint32_t* taps = w.data() + (fy * f_w + fx) * depth * out_d;
            for (int64_t c = 0; c < depth; ++c) {
              const uint32_t v =
                  inside ? static_cast<uint32_t>(static_cast<int64_t>(src[c]) - in_offset)
                         : pad_value;
              if (v == 0) continue;
              const uint32_t* row = taps + c * out_d;
              for (int64_t o = 0; o < out_d; ++o) acc[o] += v * row[o];
            }
          }
        }
        int32_t* dst = y + p * out_d;
        for (int64_t o = 0; o < out_d; ++o) dst[o] = static_cast<int32_t>(acc[o]);
      }
    });
    return absl::OkStatus();
  }

 private:
  int64_t stride_ = 1;
  Padding padding_ = Padding::kValid;
};

// TensorFlow's check of a QuantizedMatMul range: a scalar (min_a), or one element (the others).
absl::StatusOr<float> MatMulRange(const OpKernelContext& ctx, int i, const char* name,
                                  bool scalar) {
  const Tensor& t = ctx.input(i);
  if (scalar ? t.shape().rank() != 0 : t.NumElements() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " must be a scalar, but got shape", t.shape().DebugString()));
  }
  return t.flat<float>()[0];
}

class QuantizedMatMulOp final : public OpKernel {
 public:
  explicit QuantizedMatMulOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::Status s = ctx.GetAttr("transpose_a", &transpose_a_);
    if (s.ok()) s = ctx.GetAttr("transpose_b", &transpose_b_);
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& a = ctx.input(0);
    const Tensor& b = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(const float min_a, MatMulRange(ctx, 2, "min_a", true));
    RILL_ASSIGN_OR_RETURN(const float max_a, MatMulRange(ctx, 3, "max_a", false));
    RILL_ASSIGN_OR_RETURN(const float min_b, MatMulRange(ctx, 4, "min_b", false));
    RILL_ASSIGN_OR_RETURN(const float max_b, MatMulRange(ctx, 5, "max_b", false));
    if (!(max_a > min_a)) return absl::InvalidArgumentError("max_a must be larger than min_a.");
    if (!(max_b > min_b)) return absl::InvalidArgumentError("max_b must be larger than min_b.");
    if (a.shape().rank() != 2) return absl::InvalidArgumentError("In[0] is not a matrix");
    if (b.shape().rank() != 2) return absl::InvalidArgumentError("In[1] is not a matrix");
    const int64_t k = a.shape().dim(transpose_a_ ? 0 : 1);
    if (k != b.shape().dim(transpose_b_ ? 1 : 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Matrix size-incompatible: In[0]: ", a.shape().DebugString(),
                       ", In[1]: ", b.shape().DebugString()));
    }
    const int64_t m = a.shape().dim(transpose_a_ ? 1 : 0);
    const int64_t n = b.shape().dim(transpose_b_ ? 0 : 1);
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims({m, n}));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    float min_c, max_c;
    ProductRange<uint8_t, uint8_t, int32_t>(min_a, max_a, min_b, max_b, &min_c, &max_c);
    SetRange(ctx, min_c, max_c);
    if (out->NumElements() == 0) return absl::OkStatus();

    const int64_t a_offset = FloatToCodeUnclamped<uint8_t>(0.0f, min_a, max_a);
    const int64_t b_offset = FloatToCodeUnclamped<uint8_t>(0.0f, min_b, max_b);
    const uint8_t* ap = &a.flat<quint8>().data()->value;
    const uint8_t* bp = &b.flat<quint8>().data()->value;
    // b with its offset removed, as [k, n] 32-bit words.
    std::vector<uint32_t> bk(k * n);
    for (int64_t r = 0; r < k; ++r) {
      for (int64_t c = 0; c < n; ++c) {
        const uint8_t v = transpose_b_ ? bp[c * k + r] : bp[r * n + c];
        bk[r * n + c] = static_cast<uint32_t>(static_cast<int64_t>(v) - b_offset);
      }
    }
    int32_t* y = &out->flat<qint32>().data()->value;
    ctx.ParallelFor(m, k * n, [&](int64_t begin, int64_t end) {
      std::vector<uint32_t> acc(n);
      for (int64_t i = begin; i < end; ++i) {
        std::fill(acc.begin(), acc.end(), 0u);
        for (int64_t r = 0; r < k; ++r) {
          const uint8_t av = transpose_a_ ? ap[r * m + i] : ap[i * k + r];
          const uint32_t v = static_cast<uint32_t>(static_cast<int64_t>(av) - a_offset);
          if (v == 0) continue;
          const uint32_t* row = bk.data() + r * n;
          for (int64_t c = 0; c < n; ++c) acc[c] += v * row[c];
        }
        for (int64_t c = 0; c < n; ++c) y[i * n + c] = static_cast<int32_t>(acc[c]);
      }
    });
    return absl::OkStatus();
  }

 private:
  bool transpose_a_ = false;
  bool transpose_b_ = false;
};

REGISTER_KERNEL(KernelDefBuilder("QuantizedConv2D")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tinput", {DT_QUINT8})
                    .TypeConstraint("Tfilter", {DT_QUINT8})
                    .TypeConstraint("out_type", {DT_QINT32}),
                QuantizedConv2DOp);
REGISTER_KERNEL(KernelDefBuilder("QuantizedMatMul")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T1", {DT_QUINT8})
                    .TypeConstraint("T2", {DT_QUINT8})
                    .TypeConstraint("Toutput", {DT_QINT32}),
                QuantizedMatMulOp);

}  // namespace
}  // namespace rill
