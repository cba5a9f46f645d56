#include "graph/builder/sparse_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

std::vector<Output> Outputs(const Operation& node) {
  std::vector<Output> out;
  for (int i = 0; i < node.num_outputs(); ++i) out.push_back(node.output(i));
  return out;
}

}  // namespace

Output SparseToDense(const Scope& scope, const Input& sparse_indices, const Input& output_shape,
                     const Input& sparse_values, const Input& default_value,
                     bool validate_indices) {
  return OpBuilder(scope, "SparseToDense")
      .Input(sparse_indices)
      .Input(output_shape)
      .Input(sparse_values)
      .Input(default_value)
      .Attr("validate_indices", validate_indices)
      .Finalize()
      .output(0);
}

Output SparseTensorDenseMatMul(const Scope& scope, const Input& a_indices, const Input& a_values,
                               const Input& a_shape, const Input& b, bool adjoint_a,
                               bool adjoint_b) {
  return OpBuilder(scope, "SparseTensorDenseMatMul")
      .Input(a_indices)
      .Input(a_values)
      .Input(a_shape)
      .Input(b)
      .Attr("adjoint_a", adjoint_a)
      .Attr("adjoint_b", adjoint_b)
      .Finalize()
      .output(0);
}

Output SparseReduceSum(const Scope& scope, const Input& input_indices, const Input& input_values,
                       const Input& input_shape, const Input& reduction_axes, bool keep_dims) {
  return OpBuilder(scope, "SparseReduceSum")
      .Input(input_indices)
      .Input(input_values)
      .Input(input_shape)
      .Input(reduction_axes)
      .Attr("keep_dims", keep_dims)
      .Finalize()
      .output(0);
}

std::vector<Output> SparseAdd(const Scope& scope, const Input& a_indices, const Input& a_values,
                              const Input& a_shape, const Input& b_indices, const Input& b_values,
                              const Input& b_shape, const Input& thresh) {
  return Outputs(OpBuilder(scope, "SparseAdd")
                     .Input(a_indices)
                     .Input(a_values)
                     .Input(a_shape)
                     .Input(b_indices)
                     .Input(b_values)
                     .Input(b_shape)
                     .Input(thresh)
                     .Finalize());
}

std::vector<Output> SparseReorder(const Scope& scope, const Input& input_indices,
                                  const Input& input_values, const Input& input_shape) {
  return Outputs(OpBuilder(scope, "SparseReorder")
                     .Input(input_indices)
                     .Input(input_values)
                     .Input(input_shape)
                     .Finalize());
}

std::vector<Output> SparseReshape(const Scope& scope, const Input& input_indices,
                                  const Input& input_shape, const Input& new_shape) {
  return Outputs(OpBuilder(scope, "SparseReshape")
                     .Input(input_indices)
                     .Input(input_shape)
                     .Input(new_shape)
                     .Finalize());
}

std::vector<Output> SparseFillEmptyRows(const Scope& scope, const Input& indices,
                                        const Input& values, const Input& dense_shape,
                                        const Input& default_value) {
  return Outputs(OpBuilder(scope, "SparseFillEmptyRows")
                     .Input(indices)
                     .Input(values)
                     .Input(dense_shape)
                     .Input(default_value)
                     .Finalize());
}

Output SparseReduceMax(const Scope& scope, const Input& input_indices, const Input& input_values,
                       const Input& input_shape, const Input& reduction_axes, bool keep_dims) {
  return OpBuilder(scope, "SparseReduceMax")
      .Input(input_indices)
      .Input(input_values)
      .Input(input_shape)
      .Input(reduction_axes)
      .Attr("keep_dims", keep_dims)
      .Finalize()
      .output(0);
}

std::vector<Output> SparseSlice(const Scope& scope, const Input& indices, const Input& values,
                                const Input& shape, const Input& start, const Input& size) {
  return Outputs(OpBuilder(scope, "SparseSlice")
                     .Input(indices)
                     .Input(values)
                     .Input(shape)
                     .Input(start)
                     .Input(size)
                     .Finalize());
}

Output SparseSoftmax(const Scope& scope, const Input& sp_indices, const Input& sp_values,
                     const Input& sp_shape) {
  return OpBuilder(scope, "SparseSoftmax")
      .Input(sp_indices)
      .Input(sp_values)
      .Input(sp_shape)
      .Finalize()
      .output(0);
}

Output SparseTensorDenseAdd(const Scope& scope, const Input& a_indices, const Input& a_values,
                            const Input& a_shape, const Input& b) {
  return OpBuilder(scope, "SparseTensorDenseAdd")
      .Input(a_indices)
      .Input(a_values)
      .Input(a_shape)
      .Input(b)
      .Finalize()
      .output(0);
}

namespace {
Output SparseDenseCwise(const Scope& scope, const char* op, const Input& sp_indices,
                        const Input& sp_values, const Input& sp_shape, const Input& dense) {
  return OpBuilder(scope, op)
      .Input(sp_indices)
      .Input(sp_values)
      .Input(sp_shape)
      .Input(dense)
      .Finalize()
      .output(0);
}
}  // namespace

Output SparseDenseCwiseMul(const Scope& scope, const Input& sp_indices, const Input& sp_values,
                           const Input& sp_shape, const Input& dense) {
  return SparseDenseCwise(scope, "SparseDenseCwiseMul", sp_indices, sp_values, sp_shape, dense);
}
Output SparseDenseCwiseAdd(const Scope& scope, const Input& sp_indices, const Input& sp_values,
                           const Input& sp_shape, const Input& dense) {
  return SparseDenseCwise(scope, "SparseDenseCwiseAdd", sp_indices, sp_values, sp_shape, dense);
}
Output SparseDenseCwiseDiv(const Scope& scope, const Input& sp_indices, const Input& sp_values,
                           const Input& sp_shape, const Input& dense) {
  return SparseDenseCwise(scope, "SparseDenseCwiseDiv", sp_indices, sp_values, sp_shape, dense);
}

std::vector<Output> SparseCross(const Scope& scope, absl::Span<const Output> indices,
                                absl::Span<const Output> values, absl::Span<const Output> shapes,
                                absl::Span<const Output> dense_inputs, bool hashed_output,
                                int64_t num_buckets, int64_t hash_key, DataType out_type,
                                DataType internal_type) {
  return Outputs(OpBuilder(scope, "SparseCross")
                     .InputList(indices)
                     .InputList(values)
                     .InputList(shapes)
                     .InputList(dense_inputs)
                     .Attr("hashed_output", hashed_output)
                     .Attr("num_buckets", num_buckets)
                     .Attr("hash_key", hash_key)
                     .Attr("out_type", out_type)
                     .Attr("internal_type", internal_type)
                     .Finalize());
}

std::vector<Output> SparseCrossV2(const Scope& scope, absl::Span<const Output> indices,
                                  absl::Span<const Output> values, absl::Span<const Output> shapes,
                                  absl::Span<const Output> dense_inputs, const Input& sep) {
  return Outputs(OpBuilder(scope, "SparseCrossV2")
                     .InputList(indices)
                     .InputList(values)
                     .InputList(shapes)
                     .InputList(dense_inputs)
                     .Input(sep)
                     .Finalize());
}

std::vector<Output> SparseCrossHashed(const Scope& scope, absl::Span<const Output> indices,
                                      absl::Span<const Output> values,
                                      absl::Span<const Output> shapes,
                                      absl::Span<const Output> dense_inputs,
                                      const Input& num_buckets, const Input& strong_hash,
                                      const Input& salt) {
  return Outputs(OpBuilder(scope, "SparseCrossHashed")
                     .InputList(indices)
                     .InputList(values)
                     .InputList(shapes)
                     .InputList(dense_inputs)
                     .Input(num_buckets)
                     .Input(strong_hash)
                     .Input(salt)
                     .Finalize());
}

Output RaggedTensorToTensor(const Scope& scope, const Input& shape, const Input& values,
                            const Input& default_value,
                            absl::Span<const Output> row_partition_tensors,
                            const std::vector<std::string>& row_partition_types) {
  return OpBuilder(scope, "RaggedTensorToTensor")
      .Input(shape)
      .Input(values)
      .Input(default_value)
      .InputList(row_partition_tensors)
      .Attr("row_partition_types", row_partition_types)
      .Finalize()
      .output(0);
}

Output EditDistance(const Scope& scope, const Input& hypothesis_indices,
                    const Input& hypothesis_values, const Input& hypothesis_shape,
                    const Input& truth_indices, const Input& truth_values, const Input& truth_shape,
                    bool normalize) {
  return OpBuilder(scope, "EditDistance")
      .Input(hypothesis_indices)
      .Input(hypothesis_values)
      .Input(hypothesis_shape)
      .Input(truth_indices)
      .Input(truth_values)
      .Input(truth_shape)
      .Attr("normalize", normalize)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
