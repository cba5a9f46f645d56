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

#include <vector>

#include "graph/builder/scope.h"

namespace rill {
namespace ops {

Output SparseToDense(const Scope& scope, const Output& sparse_indices, const Output& output_shape,
                     const Output& sparse_values, const Output& default_value,
                     bool validate_indices = true);
Output SparseTensorDenseMatMul(const Scope& scope, const Output& a_indices, const Output& a_values,
                               const Output& a_shape, const Output& b, bool adjoint_a = false,
                               bool adjoint_b = false);
Output SparseReduceSum(const Scope& scope, const Output& input_indices, const Output& input_values,
                       const Output& input_shape, const Output& reduction_axes,
                       bool keep_dims = false);
// sum_indices, sum_values, sum_shape.
std::vector<Output> SparseAdd(const Scope& scope, const Output& a_indices, const Output& a_values,
                              const Output& a_shape, const Output& b_indices,
                              const Output& b_values, const Output& b_shape, const Output& thresh);
// output_indices, output_values.
std::vector<Output> SparseReorder(const Scope& scope, const Output& input_indices,
                                  const Output& input_values, const Output& input_shape);
// output_indices, output_shape.
std::vector<Output> SparseReshape(const Scope& scope, const Output& input_indices,
                                  const Output& input_shape, const Output& new_shape);
// output_indices, output_values, empty_row_indicator, reverse_index_map.
std::vector<Output> SparseFillEmptyRows(const Scope& scope, const Output& indices,
                                        const Output& values, const Output& dense_shape,
                                        const Output& default_value);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_SPARSE_OPS_H_
