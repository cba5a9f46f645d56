// Builder wrappers for the sparse-tensor ops (TensorFlow's C++ API names). A sparse tensor is
// (indices [nnz, rank] int64, values [nnz], dense_shape [rank] int64). Included by
// graph/builder/ops.h.
//
//   Output dense = ops::SparseToDense(root, indices, shape, values, ops::Const(root, 0.f));
//
// Multi-output ops return their outputs in OpDef order. Errors are recorded in the scope (see
// op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_SPARSE_OPS_H_
#define RILL_GRAPH_BUILDER_SPARSE_OPS_H_

#include <string>
#include <vector>

#include "absl/types/span.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

Output SparseToDense(const Scope& scope, const Input& sparse_indices, const Input& output_shape,
                     const Input& sparse_values, const Input& default_value,
                     bool validate_indices = true);
Output SparseTensorDenseMatMul(const Scope& scope, const Input& a_indices, const Input& a_values,
                               const Input& a_shape, const Input& b, bool adjoint_a = false,
                               bool adjoint_b = false);
Output SparseReduceSum(const Scope& scope, const Input& input_indices, const Input& input_values,
                       const Input& input_shape, const Input& reduction_axes,
                       bool keep_dims = false);
// sum_indices, sum_values, sum_shape.
std::vector<Output> SparseAdd(const Scope& scope, const Input& a_indices, const Input& a_values,
                              const Input& a_shape, const Input& b_indices, const Input& b_values,
                              const Input& b_shape, const Input& thresh);
// output_indices, output_values.
std::vector<Output> SparseReorder(const Scope& scope, const Input& input_indices,
                                  const Input& input_values, const Input& input_shape);
// output_indices, output_shape.
std::vector<Output> SparseReshape(const Scope& scope, const Input& input_indices,
                                  const Input& input_shape, const Input& new_shape);
// output_indices, output_values, empty_row_indicator, reverse_index_map.
std::vector<Output> SparseFillEmptyRows(const Scope& scope, const Input& indices,
                                        const Input& values, const Input& dense_shape,
                                        const Input& default_value);

// output_indices, output_values, output_shape: the crosses of the sparse and dense features
// (out_type int64: hashed into num_buckets with hash_key; string: joined with "_X_").
std::vector<Output> SparseCross(const Scope& scope, absl::Span<const Output> indices,
                                absl::Span<const Output> values, absl::Span<const Output> shapes,
                                absl::Span<const Output> dense_inputs, bool hashed_output,
                                int64_t num_buckets, int64_t hash_key, DataType out_type,
                                DataType internal_type);
// tf.sparse.cross: the crosses as strings joined with the scalar string `sep`.
std::vector<Output> SparseCrossV2(const Scope& scope, absl::Span<const Output> indices,
                                  absl::Span<const Output> values, absl::Span<const Output> shapes,
                                  absl::Span<const Output> dense_inputs, const Input& sep);
// tf.sparse.cross_hashed: the crosses hashed into num_buckets (int64 scalar); strong_hash (bool
// scalar) keys SipHash with salt ([2] int64).
std::vector<Output> SparseCrossHashed(const Scope& scope, absl::Span<const Output> indices,
                                      absl::Span<const Output> values,
                                      absl::Span<const Output> shapes,
                                      absl::Span<const Output> dense_inputs,
                                      const Input& num_buckets, const Input& strong_hash,
                                      const Input& salt);

// The dense maximum over the axes (positions without entries are 0).
Output SparseReduceMax(const Scope& scope, const Input& input_indices, const Input& input_values,
                       const Input& input_shape, const Input& reduction_axes,
                       bool keep_dims = false);
// output_indices, output_values, output_shape: the entries inside [start, start + size).
std::vector<Output> SparseSlice(const Scope& scope, const Input& indices, const Input& values,
                                const Input& shape, const Input& start, const Input& size);
// Softmax over the innermost dim of the entries (values in row-major order of the indices).
Output SparseSoftmax(const Scope& scope, const Input& sp_indices, const Input& sp_values,
                     const Input& sp_shape);
// b plus the sparse tensor (same shape).
Output SparseTensorDenseAdd(const Scope& scope, const Input& a_indices, const Input& a_values,
                            const Input& a_shape, const Input& b);
// The sparse tensor's values times, plus or over `dense` broadcast to sp_shape, at its entries
// ([nnz]; the sparse tensor keeps its indices and shape).
Output SparseDenseCwiseMul(const Scope& scope, const Input& sp_indices, const Input& sp_values,
                           const Input& sp_shape, const Input& dense);
Output SparseDenseCwiseAdd(const Scope& scope, const Input& sp_indices, const Input& sp_values,
                           const Input& sp_shape, const Input& dense);
Output SparseDenseCwiseDiv(const Scope& scope, const Input& sp_indices, const Input& sp_values,
                           const Input& sp_shape, const Input& dense);

// A ragged tensor as a dense one of `shape` (-1 dims from the rows), padded with
// default_value; row_partition_types names each partition tensor ("ROW_SPLITS",
// "FIRST_DIM_SIZE" + "VALUE_ROWIDS", ...).
Output RaggedTensorToTensor(const Scope& scope, const Input& shape, const Input& values,
                            const Input& default_value,
                            absl::Span<const Output> row_partition_tensors,
                            const std::vector<std::string>& row_partition_types);

// tf.edit_distance: the Levenshtein distances between the sequences of two sparse tensors
// (indices, values, shape each), grouped by all but the last index; float out.
Output EditDistance(const Scope& scope, const Input& hypothesis_indices,
                    const Input& hypothesis_values, const Input& hypothesis_shape,
                    const Input& truth_indices, const Input& truth_values, const Input& truth_shape,
                    bool normalize = true);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_SPARSE_OPS_H_
