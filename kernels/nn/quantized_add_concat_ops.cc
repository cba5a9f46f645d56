// QuantizedBiasAdd and QuantizedConcat on the CPU: the two eight-bit kernels of quantize_nodes
// graphs that move codes from one range into another through floats (quantization_math.h's
// CodeToFloat / FloatToCodeFast, TensorFlow's Eigen expressions evaluated in float), so results are
// TensorFlow 2.21's integers bit for bit.
//   QuantizedBiasAdd (quint8 + quint8 and qint8 + qint8 -> qint32, as TensorFlow registers it):
//     the result's range is +-131072 times the largest magnitude of the two ranges' ends; input and
//     bias are each requantized into it, and the qint32 code of 0.0 is added once more, as
//     TensorFlow's QuantizedAddUsingEigen does (32-bit sums wrap).
//   QuantizedConcat (quint8, qint32): the result's range spans every input's and 0 below (its
//     minimum is at most 0; symmetric about 0 for qint32); an input already in that range is
//     copied, others are requantized into it.
//     A range is read as its first element, whatever its shape, as TensorFlow reads it.
// Errors are TensorFlow's texts (InvalidArgument): "`min_input` must be rank 0 but is rank 1",
// "Input tensor must be at least 2D: [6]", "Biases must be 1D: [2,3]", "Must provide as many
// biases as the last dimension of the input tensor: [5] vs. [4,6]"; "Concat dim tensor should be
// a scalar integer, but got shape [1]", "ConcatOp : Expected concatenating dimensions in the range
// [0, 3), but got 3", "ConcatOp : Ranks of all input tensors should match: ...", "ConcatOp :
// Dimensions of inputs should match: ...". A concat range with no element, which TensorFlow reads
// past, is refused ("input_mins[1] must hold one value"). Kernels are immutable after
// construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/nn/quantization_math.h"

namespace rill {
namespace {

using quantization::CodeToFloat;
using quantization::FloatToCode;
using quantization::FloatToCodeFast;

absl::StatusOr<float> BiasRange(const OpKernelContext& ctx, int i, const char* name) {
  const Tensor& t = ctx.input(i);
  if (t.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("`", name, "` must be rank 0 but is rank ", t.shape().rank()));
  }
  return t.flat<float>()[0];
}

class QuantizedBiasAddOp final : public OpKernel {
 public:
  explicit QuantizedBiasAddOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    const Tensor& bias = ctx.input(1);
    RILL_ASSIGN_OR_RETURN(const float in_min, BiasRange(ctx, 2, "min_input"));
    RILL_ASSIGN_OR_RETURN(const float in_max, BiasRange(ctx, 3, "max_input"));
    RILL_ASSIGN_OR_RETURN(const float bias_min, BiasRange(ctx, 4, "min_bias"));
    RILL_ASSIGN_OR_RETURN(const float bias_max, BiasRange(ctx, 5, "max_bias"));
    if (input.shape().rank() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input tensor must be at least 2D: ", input.shape().DebugString()));
    }
    if (bias.shape().rank() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("Biases must be 1D: ", bias.shape().DebugString()));
    }
    const int64_t channels = input.shape().dim(input.shape().rank() - 1);
    if (bias.shape().dim(0) != channels) {
      return absl::InvalidArgumentError(
          absl::StrCat("Must provide as many biases as the last dimension of the input tensor: ",
                       bias.shape().DebugString(), " vs. ", input.shape().DebugString()));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, input.shape()));
    const float out_max =
        std::max(in_max, std::max(-in_min, std::max(bias_max, -bias_min))) * (1 << 17);
    const float out_min = -out_max;
    ctx.set_output(1, Tensor::Scalar<float>(out_min));
    ctx.set_output(2, Tensor::Scalar<float>(out_max));
    if (out->NumElements() == 0) return absl::OkStatus();
    const uint32_t zero = static_cast<uint32_t>(FloatToCode<int32_t>(0.0f, out_min, out_max));
    const FloatToCodeFast<int32_t> to_total(out_min, out_max);
    int32_t* y = &out->flat<qint32>().data()->value;
    auto run = [&](const auto* x, const auto* b) {
      using Int = std::remove_const_t<std::remove_pointer_t<decltype(x)>>;
      const CodeToFloat<Int> in_float(in_min, in_max);
      const CodeToFloat<Int> bias_float(bias_min, bias_max);
      std::vector<uint32_t> bias_total(channels);
      for (int64_t c = 0; c < channels; ++c) {
        bias_total[c] = static_cast<uint32_t>(to_total(bias_float(b[c]))) + zero;
      }
      const int64_t rows = input.NumElements() / channels;
      ctx.ParallelFor(rows, channels * 4, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          for (int64_t c = 0; c < channels; ++c) {
            const int64_t i = r * channels + c;
            y[i] = static_cast<int32_t>(static_cast<uint32_t>(to_total(in_float(x[i]))) +
                                        bias_total[c]);
          }
        }
      });
    };
    if (input.dtype() == DT_QUINT8) {
      run(&input.flat<quint8>().data()->value, &bias.flat<quint8>().data()->value);
    } else {
      run(&input.flat<qint8>().data()->value, &bias.flat<qint8>().data()->value);
    }
    return absl::OkStatus();
  }
};

// TensorFlow's IsLegacyScalar: rank 0, or one element of rank 1.
bool LegacyScalar(const TensorShape& s) {
  return s.rank() == 0 || (s.rank() == 1 && s.dim(0) == 1);
}

template <typename Int>
class QuantizedConcatOp final : public OpKernel {
 public:
  explicit QuantizedConcatOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& axis_t = ctx.input(0);
    if (axis_t.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Concat dim tensor should be a scalar integer, but got shape ",
                       axis_t.shape().DebugString()));
    }
    const int64_t axis = axis_t.flat<int32_t>()[0];
    const int n = (ctx.num_inputs() - 1) / 3;
    const TensorShape& first = ctx.input(1).shape();
    const int rank = first.rank();
    if (axis < 0 || axis >= rank) {
      return absl::InvalidArgumentError(
          absl::StrCat("ConcatOp : Expected concatenating dimensions in the range [0, ", rank,
                       "), but got ", axis));
    }
    std::vector<std::pair<float, float>> ranges(n);
    float lo = 0.0f;  // TensorFlow 2.21's joint range always reaches down to 0
    float hi = std::numeric_limits<float>::lowest();
    for (int i = 0; i < n; ++i) {
      const Tensor& mn = ctx.input(1 + n + i);
      const Tensor& mx = ctx.input(1 + 2 * n + i);
      if (mn.NumElements() == 0 || mx.NumElements() == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            mn.NumElements() == 0 ? "input_mins[" : "input_maxes[", i, "] must hold one value"));
      }
      ranges[i] = {mn.flat<float>()[0], mx.flat<float>()[0]};
      lo = std::min(lo, ranges[i].first);
      hi = std::max(hi, ranges[i].second);
    }
    if (std::is_signed_v<Int>) {
      const float largest = std::max(std::abs(lo), std::abs(hi));
      lo = -largest;
      hi = largest;
    }
    int64_t outer = 1;
    for (int d = 0; d < axis; ++d) outer *= first.dim(d);
    const bool first_scalar = LegacyScalar(first);
    int64_t concat = 0;
    std::vector<int64_t> widths(n);  // each input's elements per outer row
    for (int i = 0; i < n; ++i) {
      const TensorShape& s = ctx.input(1 + i).shape();
      if (s.rank() != rank && !(first_scalar && LegacyScalar(s))) {
        return absl::InvalidArgumentError(absl::StrCat(
            "ConcatOp : Ranks of all input tensors should match: shape[0] = ", first.DebugString(),
            " vs. shape[", i, "] = ", s.DebugString()));
      }
      for (int d = 0; d < rank; ++d) {
        if (d != axis && s.dim(d) != first.dim(d)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "ConcatOp : Dimensions of inputs should match: shape[0] = ", first.DebugString(),
              " vs. shape[", i, "] = ", s.DebugString()));
        }
      }
      widths[i] = outer == 0 ? 0 : s.num_elements() / outer;
      concat += s.rank() > 0 ? s.dim(axis) : 1;
    }
    std::vector<int64_t> dims(first.dims().begin(), first.dims().end());
    dims[axis] = concat;
    RILL_ASSIGN_OR_RETURN(const TensorShape out_shape, TensorShape::FromDims(dims));
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, out_shape));
    ctx.set_output(1, Tensor::Scalar<float>(lo));
    ctx.set_output(2, Tensor::Scalar<float>(hi));
    if (out->NumElements() == 0) return absl::OkStatus();
    using Q = QuantizedInt<Int>;
    Int* y = &out->flat<Q>().data()->value;
    const FloatToCodeFast<Int> to_out(lo, hi);
    int64_t row_width = 0;
    for (int64_t w : widths) row_width += w;
    int64_t col = 0;
    for (int i = 0; i < n; ++i) {
      const Int* x = &ctx.input(1 + i).flat<Q>().data()->value;
      const bool same = ranges[i].first == lo && ranges[i].second == hi;
      const CodeToFloat<Int> to_float(ranges[i].first, ranges[i].second);
      for (int64_t r = 0; r < outer; ++r) {
        const Int* src = x + r * widths[i];
        Int* dst = y + r * row_width + col;
        if (same) {
          std::memcpy(dst, src, widths[i] * sizeof(Int));
        } else {
          for (int64_t j = 0; j < widths[i]; ++j) dst[j] = to_out(to_float(src[j]));
        }
      }
      col += widths[i];
    }
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("QuantizedBiasAdd")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T1", {DT_QUINT8})
                    .TypeConstraint("T2", {DT_QUINT8})
                    .TypeConstraint("out_type", {DT_QINT32}),
                QuantizedBiasAddOp);
REGISTER_KERNEL(KernelDefBuilder("QuantizedBiasAdd")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T1", {DT_QINT8})
                    .TypeConstraint("T2", {DT_QINT8})
                    .TypeConstraint("out_type", {DT_QINT32}),
                QuantizedBiasAddOp);
REGISTER_KERNEL(KernelDefBuilder("QuantizedConcat")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_QUINT8})
                    .HostMemory("concat_dim"),
                QuantizedConcatOp<uint8_t>);
REGISTER_KERNEL(KernelDefBuilder("QuantizedConcat")
                    .Device(kDeviceCpu)
                    .TypeConstraint("T", {DT_QINT32})
                    .HostMemory("concat_dim"),
                QuantizedConcatOp<int32_t>);

}  // namespace
}  // namespace rill
