#include "graph/builder/ragged_text_ops.h"

#include <string>

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

std::vector<Output> AllOutputs(const Operation& op) {
  std::vector<Output> out;
  for (int i = 0; i < op.num_outputs(); ++i) out.push_back(op.output(i));
  return out;
}

}  // namespace

Output RaggedBincount(const Scope& scope, const Input& splits, const Input& values,
                      const Input& size, const Input& weights, bool binary_output) {
  return OpBuilder(scope, "RaggedBincount")
      .Input(splits)
      .Input(values)
      .Input(size)
      .Input(weights)
      .Attr("binary_output", binary_output)
      .Finalize()
      .output(0);
}

Output SparseBincount(const Scope& scope, const Input& indices, const Input& values,
                      const Input& dense_shape, const Input& size, const Input& weights,
                      bool binary_output) {
  return OpBuilder(scope, "SparseBincount")
      .Input(indices)
      .Input(values)
      .Input(dense_shape)
      .Input(size)
      .Input(weights)
      .Attr("binary_output", binary_output)
      .Finalize()
      .output(0);
}

std::vector<Output> DenseCountSparseOutput(const Scope& scope, const Input& values,
                                           const Input& weights, bool binary_output,
                                           int64_t minlength, int64_t maxlength) {
  return AllOutputs(OpBuilder(scope, "DenseCountSparseOutput")
                        .Input(values)
                        .Input(weights)
                        .Attr("binary_output", binary_output)
                        .Attr("minlength", minlength)
                        .Attr("maxlength", maxlength)
                        .Finalize());
}

std::vector<Output> SparseCountSparseOutput(const Scope& scope, const Input& indices,
                                            const Input& values, const Input& dense_shape,
                                            const Input& weights, bool binary_output,
                                            int64_t minlength, int64_t maxlength) {
  return AllOutputs(OpBuilder(scope, "SparseCountSparseOutput")
                        .Input(indices)
                        .Input(values)
                        .Input(dense_shape)
                        .Input(weights)
                        .Attr("binary_output", binary_output)
                        .Attr("minlength", minlength)
                        .Attr("maxlength", maxlength)
                        .Finalize());
}

std::vector<Output> RaggedCountSparseOutput(const Scope& scope, const Input& splits,
                                            const Input& values, const Input& weights,
                                            bool binary_output, int64_t minlength,
                                            int64_t maxlength) {
  return AllOutputs(OpBuilder(scope, "RaggedCountSparseOutput")
                        .Input(splits)
                        .Input(values)
                        .Input(weights)
                        .Attr("binary_output", binary_output)
                        .Attr("minlength", minlength)
                        .Attr("maxlength", maxlength)
                        .Finalize());
}

std::vector<Output> RaggedRange(const Scope& scope, const Input& starts, const Input& limits,
                                const Input& deltas, DataType tsplits) {
  return AllOutputs(OpBuilder(scope, "RaggedRange")
                        .Input(starts)
                        .Input(limits)
                        .Input(deltas)
                        .Attr("Tsplits", tsplits)
                        .Finalize());
}

std::vector<Output> RaggedGather(const Scope& scope, absl::Span<const Output> params_nested_splits,
                                 const Input& params_dense_values, const Input& indices,
                                 int output_ragged_rank) {
  return AllOutputs(OpBuilder(scope, "RaggedGather")
                        .InputList(params_nested_splits)
                        .Input(params_dense_values)
                        .Input(indices)
                        .Attr("OUTPUT_RAGGED_RANK", output_ragged_rank)
                        .Finalize());
}

std::vector<Output> RaggedTensorToSparse(const Scope& scope,
                                         absl::Span<const Output> rt_nested_splits,
                                         const Input& rt_dense_values) {
  return AllOutputs(OpBuilder(scope, "RaggedTensorToSparse")
                        .InputList(rt_nested_splits)
                        .Input(rt_dense_values)
                        .Finalize());
}

std::vector<Output> UnicodeDecode(const Scope& scope, const Input& input,
                                  absl::string_view input_encoding, absl::string_view errors) {
  return AllOutputs(OpBuilder(scope, "UnicodeDecode")
                        .Input(input)
                        .Attr("input_encoding", input_encoding)
                        .Attr("errors", errors)
                        .Finalize());
}

std::vector<Output> UnicodeDecodeWithOffsets(const Scope& scope, const Input& input,
                                             absl::string_view input_encoding,
                                             absl::string_view errors) {
  return AllOutputs(OpBuilder(scope, "UnicodeDecodeWithOffsets")
                        .Input(input)
                        .Attr("input_encoding", input_encoding)
                        .Attr("errors", errors)
                        .Finalize());
}

Output UnicodeEncode(const Scope& scope, const Input& input_values, const Input& input_splits,
                     absl::string_view output_encoding, absl::string_view errors) {
  return OpBuilder(scope, "UnicodeEncode")
      .Input(input_values)
      .Input(input_splits)
      .Attr("output_encoding", output_encoding)
      .Attr("errors", errors)
      .Finalize()
      .output(0);
}

Output UnicodeScript(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "UnicodeScript").Input(input).Finalize().output(0);
}

Output UnicodeTranscode(const Scope& scope, const Input& input, absl::string_view input_encoding,
                        absl::string_view output_encoding, absl::string_view errors) {
  return OpBuilder(scope, "UnicodeTranscode")
      .Input(input)
      .Attr("input_encoding", input_encoding)
      .Attr("output_encoding", output_encoding)
      .Attr("errors", errors)
      .Finalize()
      .output(0);
}

std::vector<Output> SelfAdjointEigV2(const Scope& scope, const Input& input, bool compute_v) {
  return AllOutputs(
      OpBuilder(scope, "SelfAdjointEigV2").Input(input).Attr("compute_v", compute_v).Finalize());
}

std::vector<Output> DynamicPartition(const Scope& scope, const Input& data, const Input& partitions,
                                     int num_partitions) {
  return AllOutputs(OpBuilder(scope, "DynamicPartition")
                        .Input(data)
                        .Input(partitions)
                        .Attr("num_partitions", num_partitions)
                        .Finalize());
}

Output MulNoNan(const Scope& scope, const Input& x, const Input& y) {
  return OpBuilder(scope, "MulNoNan").Input(x).Input(y).Finalize().output(0);
}

Output PopulationCount(const Scope& scope, const Input& x) {
  return OpBuilder(scope, "PopulationCount").Input(x).Finalize().output(0);
}

Output ImageProjectiveTransformV3(const Scope& scope, const Input& images, const Input& transforms,
                                  const Input& output_shape, const Input& fill_value,
                                  absl::string_view interpolation, absl::string_view fill_mode) {
  return OpBuilder(scope, "ImageProjectiveTransformV3")
      .Input(images)
      .Input(transforms)
      .Input(output_shape)
      .Input(fill_value)
      .Attr("interpolation", interpolation)
      .Attr("fill_mode", fill_mode)
      .Finalize()
      .output(0);
}

Output ImageProjectiveTransformV2(const Scope& scope, const Input& images, const Input& transforms,
                                  const Input& output_shape, absl::string_view interpolation,
                                  absl::string_view fill_mode) {
  return OpBuilder(scope, "ImageProjectiveTransformV2")
      .Input(images)
      .Input(transforms)
      .Input(output_shape)
      .Attr("interpolation", interpolation)
      .Attr("fill_mode", fill_mode)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
