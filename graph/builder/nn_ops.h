// Builder wrappers for the neural-network ops (TensorFlow's C++ API names). Included by
// graph/builder/ops.h.
//
//   Output logits = ops::BiasAdd(root, ops::MatMul(root, x, w), b);
//   Output probs = ops::Softmax(root, logits);
//
// Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_NN_OPS_H_
#define RILL_GRAPH_BUILDER_NN_OPS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// out[..., m, n] = adj(x) * adj(y) per batch; V2 broadcasts the batch dims.
Output BatchMatMul(const Scope& scope, const Input& x, const Input& y, bool adj_x = false,
                   bool adj_y = false);
Output BatchMatMulV2(const Scope& scope, const Input& x, const Input& y, bool adj_x = false,
                     bool adj_y = false);
// BatchMatMulV3: V2 with the output type `tout` (Rill's kernels: x's and y's type).
Output BatchMatMulV3(const Scope& scope, const Input& x, const Input& y, DataType tout,
                     bool adj_x = false, bool adj_y = false);
// data_format: "NHWC" (channels last) or "NCHW".
Output BiasAdd(const Scope& scope, const Input& value, const Input& bias,
               absl::string_view data_format = "NHWC");
Output Softmax(const Scope& scope, const Input& logits);
Output LogSoftmax(const Scope& scope, const Input& logits);
Output L2Loss(const Scope& scope, const Input& t);

// 2-D convolutions, NHWC (the CPU's layout): strides and dilations have 4 entries (1 for the
// batch and channel dims); padding is "SAME" or "VALID".
struct ConvOptions {
  std::vector<int64_t> dilations = {1, 1, 1, 1};
  std::string data_format = "NHWC";
};
Output Conv2D(const Scope& scope, const Input& input, const Input& filter,
              const std::vector<int64_t>& strides, absl::string_view padding,
              const ConvOptions& attrs = {});
Output DepthwiseConv2dNative(const Scope& scope, const Input& input, const Input& filter,
                             const std::vector<int64_t>& strides, absl::string_view padding,
                             const ConvOptions& attrs = {});
// The gradient of Conv2D with respect to its input of shape `input_sizes` (transposed conv).
Output Conv2DBackpropInput(const Scope& scope, const Input& input_sizes, const Input& filter,
                           const Input& out_backprop, const std::vector<int64_t>& strides,
                           absl::string_view padding, const ConvOptions& attrs = {});

// Einsum over one or two operands, e.g. "bij,bjk->bik".
Output Einsum(const Scope& scope, absl::Span<const Output> inputs, absl::string_view equation);

// Per-row cross entropy of softmax(features) with dense or sparse labels: {loss, backprop}.
struct XentOutputs {
  Output loss, backprop;
};
XentOutputs SoftmaxCrossEntropyWithLogits(const Scope& scope, const Output& features,
                                          const Output& labels);
XentOutputs SparseSoftmaxCrossEntropyWithLogits(const Scope& scope, const Output& features,
                                                const Output& labels);

// Greedy CTC decoding of time-major logits [max_time, batch, classes]: decoded_indices,
// decoded_values, decoded_shape (a sparse tensor) and log_probability.
std::vector<Output> CTCGreedyDecoder(const Scope& scope, const Input& inputs,
                                     const Input& sequence_length, bool merge_repeated = false,
                                     int64_t blank_index = -1);

// Beam-search CTC decoding of time-major logits [max_time, batch, classes] (blank = the last
// class): for each of the top_paths best paths a sparse tensor (decoded_indices[p],
// decoded_values[p], decoded_shape[p]), and log_probability [batch, top_paths]. Each list is
// empty when the node could not be added (the scope holds the error).
struct CTCBeamSearchDecoderOutputs {
  std::vector<Output> decoded_indices, decoded_values, decoded_shape;
  Output log_probability;
};
CTCBeamSearchDecoderOutputs CTCBeamSearchDecoder(const Scope& scope, const Input& inputs,
                                                 const Input& sequence_length, int64_t beam_width,
                                                 int64_t top_paths, bool merge_repeated = true);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_NN_OPS_H_
