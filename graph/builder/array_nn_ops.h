// Builder wrappers for the block-rearranging, structured-matrix, 3-D window and N-d scatter ops
// (TensorFlow's C++ API names): SpaceToBatchND, BatchToSpaceND, SpaceToBatch, BatchToSpace,
// DepthToSpace, SpaceToDepth, Roll, ReverseSequence, MatrixBandPart, MatrixDiagV3,
// MatrixDiagPartV3, MatrixSetDiagV3, Conv3D, Conv3DBackpropInputV2, MaxPool3D, AvgPool3D,
// ScatterNd and TensorScatterUpdate / Add / Sub / Max / Min. Included by graph/builder/ops.h.
//
//   Output batched = ops::SpaceToBatchND(root, x, ops::Const(root, {2, 2}), paddings);
//   Output y = ops::Conv3D(root, x, filter, {1, 2, 2, 2, 1}, "SAME");
//
// Index operands are Outputs (int32 or int64); the 3-D ops are NDHWC. Errors are recorded in the
// scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_ARRAY_NN_OPS_H_
#define RILL_GRAPH_BUILDER_ARRAY_NN_OPS_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// Space <-> batch: block_shape [M], paddings / crops [M, 2]; the 4-D forms take block_size.
Output SpaceToBatchND(const Scope& scope, const Output& input, const Output& block_shape,
                      const Output& paddings);
Output BatchToSpaceND(const Scope& scope, const Output& input, const Output& block_shape,
                      const Output& crops);
Output SpaceToBatch(const Scope& scope, const Input& input, const Input& paddings,
                    int64_t block_size);
Output BatchToSpace(const Scope& scope, const Input& input, const Input& crops, int64_t block_size);
Output DepthToSpace(const Scope& scope, const Input& input, int64_t block_size);
Output SpaceToDepth(const Scope& scope, const Input& input, int64_t block_size);

// Rearrangements: shift and axis scalars or vectors; seq_lengths [input.dims(batch_dim)].
Output Roll(const Scope& scope, const Output& input, const Output& shift, const Output& axis);
Output ReverseSequence(const Scope& scope, const Input& input, const Input& seq_lengths,
                       int64_t seq_dim, int64_t batch_dim = 0);

// Banded and diagonal matrices: k is an int32 scalar or [k0, k1]; align as in TensorFlow.
Output MatrixBandPart(const Scope& scope, const Output& input, const Output& num_lower,
                      const Output& num_upper);
Output MatrixDiagV3(const Scope& scope, const Input& diagonal, const Input& k,
                    const Input& num_rows, const Input& num_cols, const Input& padding_value,
                    absl::string_view align = "RIGHT_LEFT");
Output MatrixDiagPartV3(const Scope& scope, const Input& input, const Input& k,
                        const Input& padding_value, absl::string_view align = "RIGHT_LEFT");
Output MatrixSetDiagV3(const Scope& scope, const Input& input, const Input& diagonal,
                       const Input& k, absl::string_view align = "RIGHT_LEFT");
// The V1 forms: the main diagonal only (MatrixDiag makes square matrices).
Output MatrixDiag(const Scope& scope, const Input& diagonal);
Output MatrixDiagPart(const Scope& scope, const Input& input);
Output MatrixSetDiag(const Scope& scope, const Input& input, const Input& diagonal);
// Diag: a rank-r tensor on the diagonal of a rank-2r one; DiagPart: the inverse.
Output Diag(const Scope& scope, const Input& diagonal);
Output DiagPart(const Scope& scope, const Input& input);

// 3-D convolution and pooling (NDHWC; strides and ksize have 5 values).
Output Conv3D(const Scope& scope, const Input& input, const Input& filter,
              const std::vector<int64_t>& strides, absl::string_view padding);
// The gradient of Conv3D with respect to its input of shape `input_sizes` (transposed conv).
Output Conv3DBackpropInputV2(const Scope& scope, const Input& input_sizes, const Input& filter,
                             const Input& out_backprop, const std::vector<int64_t>& strides,
                             absl::string_view padding);
Output MaxPool3D(const Scope& scope, const Input& input, const std::vector<int64_t>& ksize,
                 const std::vector<int64_t>& strides, absl::string_view padding);
Output AvgPool3D(const Scope& scope, const Input& input, const std::vector<int64_t>& ksize,
                 const std::vector<int64_t>& strides, absl::string_view padding);

// N-d scatters: indices [..., K] into `shape` (zeros) or into a copy of `tensor`.
Output ScatterNd(const Scope& scope, const Output& indices, const Output& updates,
                 const Output& shape);
Output TensorScatterUpdate(const Scope& scope, const Output& tensor, const Output& indices,
                           const Output& updates);
Output TensorScatterAdd(const Scope& scope, const Output& tensor, const Output& indices,
                        const Output& updates);
Output TensorScatterSub(const Scope& scope, const Output& tensor, const Output& indices,
                        const Output& updates);
Output TensorScatterMax(const Scope& scope, const Output& tensor, const Output& indices,
                        const Output& updates);
Output TensorScatterMin(const Scope& scope, const Output& tensor, const Output& indices,
                        const Output& updates);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_ARRAY_NN_OPS_H_
