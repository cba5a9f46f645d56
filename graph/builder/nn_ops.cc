#include "graph/builder/nn_ops.h"

#include <string>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {

Output BatchMatMul(const Scope& scope, const Input& x, const Input& y, bool adj_x, bool adj_y) {
  return OpBuilder(scope, "BatchMatMul")
      .Input(x)
      .Input(y)
      .Attr("adj_x", adj_x)
      .Attr("adj_y", adj_y)
      .Finalize()
      .output(0);
}
Output BatchMatMulV2(const Scope& scope, const Input& x, const Input& y, bool adj_x, bool adj_y) {
  return OpBuilder(scope, "BatchMatMulV2")
      .Input(x)
      .Input(y)
      .Attr("adj_x", adj_x)
      .Attr("adj_y", adj_y)
      .Finalize()
      .output(0);
}
Output BatchMatMulV3(const Scope& scope, const Input& x, const Input& y, DataType tout, bool adj_x,
                     bool adj_y) {
  return OpBuilder(scope, "BatchMatMulV3")
      .Input(x)
      .Input(y)
      .Attr("Tout", tout)
      .Attr("adj_x", adj_x)
      .Attr("adj_y", adj_y)
      .Finalize()
      .output(0);
}
Output BiasAdd(const Scope& scope, const Input& value, const Input& bias,
               absl::string_view data_format) {
  return OpBuilder(scope, "BiasAdd")
      .Input(value)
      .Input(bias)
      .Attr("data_format", std::string(data_format))
      .Finalize()
      .output(0);
}
Output Softmax(const Scope& scope, const Input& logits) {
  return OpBuilder(scope, "Softmax").Input(logits).Finalize().output(0);
}
Output LogSoftmax(const Scope& scope, const Input& logits) {
  return OpBuilder(scope, "LogSoftmax").Input(logits).Finalize().output(0);
}
Output L2Loss(const Scope& scope, const Input& t) {
  return OpBuilder(scope, "L2Loss").Input(t).Finalize().output(0);
}

namespace {
Output Conv(const Scope& scope, const char* op, const Input& input, const Input& filter,
            const std::vector<int64_t>& strides, absl::string_view padding,
            const ConvOptions& attrs) {
  return OpBuilder(scope, op)
      .Input(input)
      .Input(filter)
      .Attr("strides", strides)
      .Attr("padding", std::string(padding))
      .Attr("dilations", attrs.dilations)
      .Attr("data_format", attrs.data_format)
      .Finalize()
      .output(0);
}
XentOutputs Xent(const Scope& scope, const char* op, const Output& features, const Output& labels) {
  Operation o = OpBuilder(scope, op).Input(features).Input(labels).Finalize();
  return {o.output(0), o.output(1)};
}
}  // namespace

Output Conv2D(const Scope& scope, const Input& input, const Input& filter,
              const std::vector<int64_t>& strides, absl::string_view padding,
              const ConvOptions& attrs) {
  return Conv(scope, "Conv2D", input, filter, strides, padding, attrs);
}
Output DepthwiseConv2dNative(const Scope& scope, const Input& input, const Input& filter,
                             const std::vector<int64_t>& strides, absl::string_view padding,
                             const ConvOptions& attrs) {
  return Conv(scope, "DepthwiseConv2dNative", input, filter, strides, padding, attrs);
}
Output Conv2DBackpropInput(const Scope& scope, const Input& input_sizes, const Input& filter,
                           const Input& out_backprop, const std::vector<int64_t>& strides,
                           absl::string_view padding, const ConvOptions& attrs) {
  return OpBuilder(scope, "Conv2DBackpropInput")
      .Input(input_sizes)
      .Input(filter)
      .Input(out_backprop)
      .Attr("strides", strides)
      .Attr("padding", std::string(padding))
      .Attr("dilations", attrs.dilations)
      .Attr("data_format", attrs.data_format)
      .Finalize()
      .output(0);
}
Output Einsum(const Scope& scope, absl::Span<const Output> inputs, absl::string_view equation) {
  return OpBuilder(scope, "Einsum")
      .InputList(inputs)
      .Attr("equation", std::string(equation))
      .Finalize()
      .output(0);
}
XentOutputs SoftmaxCrossEntropyWithLogits(const Scope& scope, const Output& features,
                                          const Output& labels) {
  return Xent(scope, "SoftmaxCrossEntropyWithLogits", features, labels);
}
XentOutputs SparseSoftmaxCrossEntropyWithLogits(const Scope& scope, const Output& features,
                                                const Output& labels) {
  return Xent(scope, "SparseSoftmaxCrossEntropyWithLogits", features, labels);
}

std::vector<Output> CTCGreedyDecoder(const Scope& scope, const Input& inputs,
                                     const Input& sequence_length, bool merge_repeated,
                                     int64_t blank_index) {
  Operation node = OpBuilder(scope, "CTCGreedyDecoder")
                       .Input(inputs)
                       .Input(sequence_length)
                       .Attr("merge_repeated", merge_repeated)
                       .Attr("blank_index", blank_index)
                       .Finalize();
  return {node.output(0), node.output(1), node.output(2), node.output(3)};
}

CTCBeamSearchDecoderOutputs CTCBeamSearchDecoder(const Scope& scope, const Input& inputs,
                                                 const Input& sequence_length, int64_t beam_width,
                                                 int64_t top_paths, bool merge_repeated) {
  Operation node = OpBuilder(scope, "CTCBeamSearchDecoder")
                       .Input(inputs)
                       .Input(sequence_length)
                       .Attr("beam_width", beam_width)
                       .Attr("top_paths", top_paths)
                       .Attr("merge_repeated", merge_repeated)
                       .Finalize();
  CTCBeamSearchDecoderOutputs out;
  if (node.num_outputs() != 3 * top_paths + 1) return out;
  for (int64_t p = 0; p < top_paths; ++p) {
    out.decoded_indices.push_back(node.output(p));
    out.decoded_values.push_back(node.output(top_paths + p));
    out.decoded_shape.push_back(node.output(2 * top_paths + p));
  }
  out.log_probability = node.output(3 * top_paths);
  return out;
}

}  // namespace ops
}  // namespace rill
