// RequantizationRange, Requantize, QuantizedRelu and QuantizedRelu6 on the CPU: the qint32
// results of fully quantized graphs (graph_transforms' quantize_nodes: QuantizedConv2D /
// QuantizedMatMul, then the requantization pair) moved to 8 bits, and their activations.
// TensorFlow 2.21 registers both for a qint32 input only, Requantize with a quint8 or qint8 output;
// the arithmetic follows TensorFlow's step for step, so outputs are bit for bit:
//   RequantizationRange: the input's smallest and largest values as floats (QuantizedToFloat in
//     double with its range rounded through a float scale), the minimum capped at 0. On tiny
//     ranges ([-1e-3, 2e-3]) TensorFlow's result differs by one float ulp from this arithmetic
//     (a documented divergence, tests/conformance/conformance_test.cc). An empty
//     input gives (min(0, value of the highest qint32), value of the lowest), as TensorFlow's
//     reductions over nothing do.
//   Requantize to quint8: TensorFlow's 16-bit fixed-point path (range_scale_fp, the input and
//     output offsets, rounding delta, arithmetic shifts, clamped to [0, 255]).
//   Requantize to qint8: dequantized in float ((q - lowest) * scale + min_rounded) and quantized
//     again (round half away from zero of x * scale, minus (round(min * scale) - lowest),
//     clamped).
// Errors are InvalidArgument with TensorFlow's texts: "requested_output_min must be <= 0, but got
// 1", "requested_output_max must be >= requested_output_min, but got -2 and -1", and for a
// non-scalar range "`input_min` must be rank 0 but is rank 1".
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "absl/strings/str_cat.h"
#include "core/quantized_types.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"

namespace rill {
namespace {

// TensorFlow's QuantizedToFloat<qint32>.
float Qint32ToFloat(int64_t q, float range_min, float range_max) {
  if (range_min == range_max) return range_min;
  const int64_t steps = int64_t{1} << 32;
  const double range_adjust = steps / (steps - 1.0);
  const double range = (range_max - range_min) * range_adjust;
  const double range_scale = range / steps;
  const double offset = static_cast<double>(q) - static_cast<double>(INT32_MIN);
  const double min_rounded =
      std::round(range_min / static_cast<float>(range_scale)) * static_cast<float>(range_scale);
  return static_cast<float>(min_rounded + offset * range_scale);
}

absl::StatusOr<float> ScalarInput(OpKernelContext& ctx, int i, const char* name) {
  const Tensor& t = ctx.input(i);
  if (t.shape().rank() != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("`", name, "` must be rank 0 but is rank ", t.shape().rank()));
  }
  return t.flat<float>()[0];
}

class RequantizationRangeOp final : public OpKernel {
 public:
  explicit RequantizationRangeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const float in_min, ScalarInput(ctx, 1, "input_min"));
    RILL_ASSIGN_OR_RETURN(const float in_max, ScalarInput(ctx, 2, "input_max"));
    const Tensor& input = ctx.input(0);
    const qint32* q = input.flat<qint32>().data();
    int32_t lo = std::numeric_limits<int32_t>::max(), hi = std::numeric_limits<int32_t>::min();
    for (int64_t i = 0; i < input.NumElements(); ++i) {
      lo = std::min(lo, q[i].value);
      hi = std::max(hi, q[i].value);
    }
    ctx.set_output(0, Tensor::Scalar<float>(std::min(0.0f, Qint32ToFloat(lo, in_min, in_max))));
    ctx.set_output(1, Tensor::Scalar<float>(Qint32ToFloat(hi, in_min, in_max)));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }
};

// TensorFlow's RequantizeManyInNewRangeUsingEigen<qint32, quint8>.
void ToQuint8(const qint32* in, int64_t n, float min_input, float max_input, float min_output,
              float max_output, quint8* out) {
  constexpr int kShift = 16;
  const float input_range = max_input - min_input;
  const float output_range = max_output - min_output;
  const float recip_output_range = output_range == 0.0 ? 0.0 : (255.0 / output_range);
  const float input_rezero = (min_input + max_input) / 2.0;
  const int64_t range_scale_fp =
      output_range == 0.0
          ? 0
          : static_cast<int64_t>(255.0 * (1 << kShift) * input_range / output_range);
  const int64_t input_offset_fp =
      static_cast<int64_t>(input_rezero * recip_output_range * (1 << kShift));
  const int64_t output_offset_fp =
      output_range == 0.0 ? 0 : std::lround((1 << kShift) * (min_output * 255.0) / output_range);
  const int64_t rounding_delta = int64_t{1} << (kShift - 1);
  const int64_t add = input_offset_fp - output_offset_fp + rounding_delta;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t fp = ((static_cast<int64_t>(in[i].value) * range_scale_fp) >> 32) + add;
    const int64_t v = std::clamp<int64_t>(fp >> kShift, 0, 255);
    out[i] = quint8(static_cast<uint8_t>(v));
  }
}

// TensorFlow's RequantizeManyInNewRangeUsingEigen<qint32, qint8>: DEQUANTIZE_WITH_EIGEN then
// QUANTIZE_WITH_EIGEN, in float.
void ToQint8(const qint32* in, int64_t n, float min_input, float max_input, float min_output,
             float max_output, qint8* out) {
  const float in_scale = (max_input - min_input) / ((int64_t{1} << 32) - 1.0);
  const float in_min_rounded =
      max_input == min_input ? min_input : std::round(min_input / in_scale) * in_scale;
  const float in_lowest = static_cast<float>(INT32_MIN);
  const float out_scale = max_output == min_output ? 0.0 : 255.0 / (max_output - min_output);
  const float out_min_scaled = std::round(min_output * out_scale);
  const float out_lowest = -128.0f;
  for (int64_t i = 0; i < n; ++i) {
    const float x = (static_cast<float>(in[i].value) - in_lowest) * in_scale + in_min_rounded;
    float q = std::round(x * out_scale) - (out_min_scaled - out_lowest);
    q = std::min(std::max(q, -128.0f), 127.0f);
    out[i] = qint8(static_cast<int8_t>(static_cast<int32_t>(q)));
  }
}

class RequantizeOp final : public OpKernel {
 public:
  explicit RequantizeOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    ctx.SetStatus(ctx.GetAttr("out_type", &out_type_));
  }
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const float in_min, ScalarInput(ctx, 1, "input_min"));
    RILL_ASSIGN_OR_RETURN(const float in_max, ScalarInput(ctx, 2, "input_max"));
    RILL_ASSIGN_OR_RETURN(const float out_min, ScalarInput(ctx, 3, "requested_output_min"));
    RILL_ASSIGN_OR_RETURN(const float out_max, ScalarInput(ctx, 4, "requested_output_max"));
    if (!(out_min <= 0.0f)) {
      return absl::InvalidArgumentError(
          absl::StrCat("requested_output_min must be <= 0, but got ", out_min));
    }
    if (!(out_max >= out_min)) {
      return absl::InvalidArgumentError(
          absl::StrCat("requested_output_max must be >= requested_output_min, but got ", out_max,
                       " and ", out_min));
    }
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, input.shape()));
    const qint32* in = input.flat<qint32>().data();
    if (out_type_ == DT_QUINT8) {
      ToQuint8(in, input.NumElements(), in_min, in_max, out_min, out_max,
               out->flat<quint8>().data());
    } else {
      ToQint8(in, input.NumElements(), in_min, in_max, out_min, out_max, out->flat<qint8>().data());
    }
    ctx.set_output(1, Tensor::Scalar<float>(out_min));
    ctx.set_output(2, Tensor::Scalar<float>(out_max));
    return absl::OkStatus();
  }

 private:
  DataType out_type_ = DT_QUINT8;
};

// TensorFlow's FloatToQuantized<Q>(v, range_min, range_max) for Q of `bits` bits: in double,
// rounding half away from zero, clamped to Q's range.
int64_t FloatToQuantized(float v, float range_min, float range_max, int bits, int64_t lowest,
                         int64_t highest) {
  if (range_min == range_max) return lowest;
  const int64_t steps = int64_t{1} << bits;
  const double range_adjust = steps / (steps - 1.0);
  const double range = (range_max - range_min) * range_adjust;
  const double range_scale = steps / range;
  const int64_t q =
      static_cast<int64_t>(std::round(v * range_scale) - std::round(range_min * range_scale)) +
      lowest;
  return std::clamp(q, lowest, highest);
}

// QuantizedRelu / QuantizedRelu6: max(x, quantized 0) [and min(., quantized 6)] in the input's
// range, which passes through; TensorFlow registers quint8 -> quint8 and qint32 -> qint32.
template <typename Q>
class QuantizedReluOp final : public OpKernel {
 public:
  using Int = typename Q::Storage;
  explicit QuantizedReluOp(OpKernelConstruction& ctx)
      : OpKernel(ctx), six_(type_string() == "QuantizedRelu6") {}
  absl::Status Compute(OpKernelContext& ctx) const override {
    RILL_ASSIGN_OR_RETURN(const float lo, ScalarInput(ctx, 1, "min_input"));
    RILL_ASSIGN_OR_RETURN(const float hi, ScalarInput(ctx, 2, "max_input"));
    constexpr int64_t kLowest = std::numeric_limits<Int>::min();
    constexpr int64_t kHighest = std::numeric_limits<Int>::max();
    constexpr int kBits = sizeof(Int) * 8;
    const int64_t zero = FloatToQuantized(0.0f, lo, hi, kBits, kLowest, kHighest);
    const int64_t six = six_ ? FloatToQuantized(6.0f, lo, hi, kBits, kLowest, kHighest) : kHighest;
    const Tensor& input = ctx.input(0);
    RILL_ASSIGN_OR_RETURN(Tensor * out, ctx.allocate_output(0, input.shape()));
    const Q* x = input.flat<Q>().data();
    Q* y = out->flat<Q>().data();
    for (int64_t i = 0; i < input.NumElements(); ++i) {
      const int64_t v = std::min(std::max(static_cast<int64_t>(x[i].value), zero), six);
      y[i] = Q(static_cast<Int>(v));
    }
    ctx.set_output(1, Tensor::Scalar<float>(lo));
    ctx.set_output(2, Tensor::Scalar<float>(hi));
    return absl::OkStatus();
  }
  bool IsExpensive() const override { return false; }

 private:
  const bool six_;
};

REGISTER_KERNEL(KernelDefBuilder("RequantizationRange")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tinput", {DT_QINT32}),
                RequantizationRangeOp);
REGISTER_KERNEL(KernelDefBuilder("Requantize")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tinput", {DT_QINT32})
                    .TypeConstraint("out_type", {DT_QUINT8, DT_QINT8}),
                RequantizeOp);

REGISTER_KERNEL(KernelDefBuilder("QuantizedRelu")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tinput", {DT_QUINT8})
                    .TypeConstraint("out_type", {DT_QUINT8}),
                QuantizedReluOp<quint8>);
REGISTER_KERNEL(KernelDefBuilder("QuantizedRelu")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tinput", {DT_QINT32})
                    .TypeConstraint("out_type", {DT_QINT32}),
                QuantizedReluOp<qint32>);
REGISTER_KERNEL(KernelDefBuilder("QuantizedRelu6")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tinput", {DT_QUINT8})
                    .TypeConstraint("out_type", {DT_QUINT8}),
                QuantizedReluOp<quint8>);
REGISTER_KERNEL(KernelDefBuilder("QuantizedRelu6")
                    .Device(kDeviceCpu)
                    .TypeConstraint("Tinput", {DT_QINT32})
                    .TypeConstraint("out_type", {DT_QINT32}),
                QuantizedReluOp<qint32>);

}  // namespace
}  // namespace rill
