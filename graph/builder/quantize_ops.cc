#include "graph/builder/quantize_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

Output QuantizeAndDequantize(const char* op, const Scope& scope, const Input& input,
                             const Input& input_min, const Input& input_max, bool signed_input,
                             int64_t num_bits, bool range_given, const char* round_mode,
                             bool narrow_range, int64_t axis) {
  return OpBuilder(scope, op)
      .Input(input)
      .Input(input_min)
      .Input(input_max)
      .Attr("signed_input", signed_input)
      .Attr("num_bits", num_bits)
      .Attr("range_given", range_given)
      .Attr("round_mode", round_mode)
      .Attr("narrow_range", narrow_range)
      .Attr("axis", axis)
      .Finalize()
      .output(0);
}

Output FakeQuantVars(const char* op, const Scope& scope, const Input& inputs, const Input& min,
                     const Input& max, int64_t num_bits, bool narrow_range) {
  return OpBuilder(scope, op)
      .Input(inputs)
      .Input(min)
      .Input(max)
      .Attr("num_bits", num_bits)
      .Attr("narrow_range", narrow_range)
      .Finalize()
      .output(0);
}

FakeQuantGradientOutputs FakeQuantGradient(const char* op, const Scope& scope,
                                           const Input& gradients, const Input& inputs,
                                           const Input& min, const Input& max, int64_t num_bits,
                                           bool narrow_range) {
  Operation node = OpBuilder(scope, op)
                       .Input(gradients)
                       .Input(inputs)
                       .Input(min)
                       .Input(max)
                       .Attr("num_bits", num_bits)
                       .Attr("narrow_range", narrow_range)
                       .Finalize();
  if (node.num_outputs() != 3) return {};
  return {node.output(0), node.output(1), node.output(2)};
}

}  // namespace

Output FakeQuantWithMinMaxArgs(const Scope& scope, const Input& inputs, float min, float max,
                               int64_t num_bits, bool narrow_range) {
  return OpBuilder(scope, "FakeQuantWithMinMaxArgs")
      .Input(inputs)
      .Attr("min", min)
      .Attr("max", max)
      .Attr("num_bits", num_bits)
      .Attr("narrow_range", narrow_range)
      .Finalize()
      .output(0);
}

Output FakeQuantWithMinMaxVars(const Scope& scope, const Input& inputs, const Input& min,
                               const Input& max, int64_t num_bits, bool narrow_range) {
  return FakeQuantVars("FakeQuantWithMinMaxVars", scope, inputs, min, max, num_bits, narrow_range);
}

Output FakeQuantWithMinMaxVarsPerChannel(const Scope& scope, const Input& inputs, const Input& min,
                                         const Input& max, int64_t num_bits, bool narrow_range) {
  return FakeQuantVars("FakeQuantWithMinMaxVarsPerChannel", scope, inputs, min, max, num_bits,
                       narrow_range);
}

Output QuantizeAndDequantizeV2(const Scope& scope, const Input& input, const Input& input_min,
                               const Input& input_max, bool signed_input, int64_t num_bits,
                               bool range_given, const char* round_mode, bool narrow_range,
                               int64_t axis) {
  return QuantizeAndDequantize("QuantizeAndDequantizeV2", scope, input, input_min, input_max,
                               signed_input, num_bits, range_given, round_mode, narrow_range, axis);
}

Output QuantizeAndDequantizeV4(const Scope& scope, const Input& input, const Input& input_min,
                               const Input& input_max, bool signed_input, int64_t num_bits,
                               bool range_given, const char* round_mode, bool narrow_range,
                               int64_t axis) {
  return QuantizeAndDequantize("QuantizeAndDequantizeV4", scope, input, input_min, input_max,
                               signed_input, num_bits, range_given, round_mode, narrow_range, axis);
}

Output FakeQuantWithMinMaxArgsGradient(const Scope& scope, const Input& gradients,
                                       const Input& inputs, float min, float max, int64_t num_bits,
                                       bool narrow_range) {
  return OpBuilder(scope, "FakeQuantWithMinMaxArgsGradient")
      .Input(gradients)
      .Input(inputs)
      .Attr("min", min)
      .Attr("max", max)
      .Attr("num_bits", num_bits)
      .Attr("narrow_range", narrow_range)
      .Finalize()
      .output(0);
}

FakeQuantGradientOutputs FakeQuantWithMinMaxVarsGradient(const Scope& scope, const Input& gradients,
                                                         const Input& inputs, const Input& min,
                                                         const Input& max, int64_t num_bits,
                                                         bool narrow_range) {
  return FakeQuantGradient("FakeQuantWithMinMaxVarsGradient", scope, gradients, inputs, min, max,
                           num_bits, narrow_range);
}

FakeQuantGradientOutputs FakeQuantWithMinMaxVarsPerChannelGradient(
    const Scope& scope, const Input& gradients, const Input& inputs, const Input& min,
    const Input& max, int64_t num_bits, bool narrow_range) {
  return FakeQuantGradient("FakeQuantWithMinMaxVarsPerChannelGradient", scope, gradients, inputs,
                           min, max, num_bits, narrow_range);
}

QuantizeAndDequantizeV4GradOutputs QuantizeAndDequantizeV4Grad(
    const Scope& scope, const Input& gradients, const Input& input, const Input& input_min,
    const Input& input_max, int64_t axis) {
  Operation node = OpBuilder(scope, "QuantizeAndDequantizeV4Grad")
                       .Input(gradients)
                       .Input(input)
                       .Input(input_min)
                       .Input(input_max)
                       .Attr("axis", axis)
                       .Finalize();
  if (node.num_outputs() != 3) return {};
  return {node.output(0), node.output(1), node.output(2)};
}

Output QuantizeAndDequantizeV3(const Scope& scope, const Input& input, const Input& input_min,
                               const Input& input_max, const Input& num_bits, bool signed_input,
                               bool range_given, bool narrow_range, int64_t axis) {
  return OpBuilder(scope, "QuantizeAndDequantizeV3")
      .Input(input)
      .Input(input_min)
      .Input(input_max)
      .Input(num_bits)
      .Attr("signed_input", signed_input)
      .Attr("range_given", range_given)
      .Attr("narrow_range", narrow_range)
      .Attr("axis", axis)
      .Finalize()
      .output(0);
}

Output QuantizeAndDequantize(const Scope& scope, const Input& input, bool signed_input,
                             int64_t num_bits, bool range_given, float input_min, float input_max) {
  return OpBuilder(scope, "QuantizeAndDequantize")
      .Input(input)
      .Attr("signed_input", signed_input)
      .Attr("num_bits", num_bits)
      .Attr("range_given", range_given)
      .Attr("input_min", input_min)
      .Attr("input_max", input_max)
      .Finalize()
      .output(0);
}

QuantizeV2Outputs QuantizeV2(const Scope& scope, const Input& input, const Input& min_range,
                             const Input& max_range, DataType T, const char* mode,
                             const char* round_mode, bool narrow_range, int64_t axis,
                             float ensure_minimum_range) {
  Operation op = OpBuilder(scope, "QuantizeV2")
                     .Input(input)
                     .Input(min_range)
                     .Input(max_range)
                     .Attr("T", T)
                     .Attr("mode", mode)
                     .Attr("round_mode", round_mode)
                     .Attr("narrow_range", narrow_range)
                     .Attr("axis", axis)
                     .Attr("ensure_minimum_range", ensure_minimum_range)
                     .Finalize();
  if (op.num_outputs() != 3) return {};
  return {op.output(0), op.output(1), op.output(2)};
}

Output Dequantize(const Scope& scope, const Input& input, const Input& min_range,
                  const Input& max_range, const char* mode, bool narrow_range, int64_t axis,
                  DataType dtype) {
  return OpBuilder(scope, "Dequantize")
      .Input(input)
      .Input(min_range)
      .Input(max_range)
      .Attr("mode", mode)
      .Attr("narrow_range", narrow_range)
      .Attr("axis", axis)
      .Attr("dtype", dtype)
      .Finalize()
      .output(0);
}

namespace {
QuantizedOutputs ThreeOutputs(const Operation& op) {
  if (op.num_outputs() != 3) return {};
  return {op.output(0), op.output(1), op.output(2)};
}
}  // namespace

std::vector<Output> RequantizationRange(const Scope& scope, const Input& input,
                                        const Input& input_min, const Input& input_max) {
  Operation op = OpBuilder(scope, "RequantizationRange")
                     .Input(input)
                     .Input(input_min)
                     .Input(input_max)
                     .Finalize();
  if (op.num_outputs() != 2) return {};
  return {op.output(0), op.output(1)};
}

QuantizedOutputs Requantize(const Scope& scope, const Input& input, const Input& input_min,
                            const Input& input_max, const Input& requested_output_min,
                            const Input& requested_output_max, DataType out_type) {
  return ThreeOutputs(OpBuilder(scope, "Requantize")
                          .Input(input)
                          .Input(input_min)
                          .Input(input_max)
                          .Input(requested_output_min)
                          .Input(requested_output_max)
                          .Attr("out_type", out_type)
                          .Finalize());
}

QuantizedOutputs QuantizedReshape(const Scope& scope, const Input& tensor, const Input& shape,
                                  const Input& input_min, const Input& input_max) {
  return ThreeOutputs(OpBuilder(scope, "QuantizedReshape")
                          .Input(tensor)
                          .Input(shape)
                          .Input(input_min)
                          .Input(input_max)
                          .Finalize());
}

QuantizedOutputs QuantizedRelu(const Scope& scope, const Input& features, const Input& min_features,
                               const Input& max_features, DataType out_type, bool six) {
  return ThreeOutputs(OpBuilder(scope, six ? "QuantizedRelu6" : "QuantizedRelu")
                          .Input(features)
                          .Input(min_features)
                          .Input(max_features)
                          .Attr("out_type", out_type)
                          .Finalize());
}

QuantizedOutputs QuantizedConv2D(const Scope& scope, const Input& input, const Input& filter,
                                 const Input& min_input, const Input& max_input,
                                 const Input& min_filter, const Input& max_filter,
                                 const std::vector<int64_t>& strides, absl::string_view padding) {
  return ThreeOutputs(OpBuilder(scope, "QuantizedConv2D")
                          .Input(input)
                          .Input(filter)
                          .Input(min_input)
                          .Input(max_input)
                          .Input(min_filter)
                          .Input(max_filter)
                          .Attr("out_type", DT_QINT32)
                          .Attr("strides", strides)
                          .Attr("padding", padding)
                          .Finalize());
}

QuantizedOutputs QuantizedMatMul(const Scope& scope, const Input& a, const Input& b,
                                 const Input& min_a, const Input& max_a, const Input& min_b,
                                 const Input& max_b, bool transpose_a, bool transpose_b) {
  return ThreeOutputs(OpBuilder(scope, "QuantizedMatMul")
                          .Input(a)
                          .Input(b)
                          .Input(min_a)
                          .Input(max_a)
                          .Input(min_b)
                          .Input(max_b)
                          .Attr("Toutput", DT_QINT32)
                          .Attr("transpose_a", transpose_a)
                          .Attr("transpose_b", transpose_b)
                          .Finalize());
}

QuantizedOutputs QuantizedBiasAdd(const Scope& scope, const Input& input, const Input& bias,
                                  const Input& min_input, const Input& max_input,
                                  const Input& min_bias, const Input& max_bias) {
  return ThreeOutputs(OpBuilder(scope, "QuantizedBiasAdd")
                          .Input(input)
                          .Input(bias)
                          .Input(min_input)
                          .Input(max_input)
                          .Input(min_bias)
                          .Input(max_bias)
                          .Attr("out_type", DT_QINT32)
                          .Finalize());
}

QuantizedOutputs QuantizedPool(const Scope& scope, const Input& input, const Input& min_input,
                               const Input& max_input, const std::vector<int64_t>& ksize,
                               const std::vector<int64_t>& strides, absl::string_view padding,
                               bool max) {
  return ThreeOutputs(OpBuilder(scope, max ? "QuantizedMaxPool" : "QuantizedAvgPool")
                          .Input(input)
                          .Input(min_input)
                          .Input(max_input)
                          .Attr("ksize", ksize)
                          .Attr("strides", strides)
                          .Attr("padding", padding)
                          .Finalize());
}

QuantizedOutputs QuantizedConcat(const Scope& scope, const Input& concat_dim,
                                 absl::Span<const Output> values, absl::Span<const Output> mins,
                                 absl::Span<const Output> maxes) {
  return ThreeOutputs(OpBuilder(scope, "QuantizedConcat")
                          .Input(concat_dim)
                          .InputList(values)
                          .InputList(mins)
                          .InputList(maxes)
                          .Finalize());
}

}  // namespace ops
}  // namespace rill
