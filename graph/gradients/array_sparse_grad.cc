// Gradients of SparseSlice and SparseSoftmax (ops/sparse_ops.cc), with TensorFlow's formulas
// (sparse_grad.py) written with ops Rill registers: TensorFlow's SparseSliceGrad and
// SparseDenseCwiseAdd kernels are replaced by the masks and gathers they compute. See
// grad_registry.h for the contract of a gradient function.
#include <vector>

#include "absl/types/span.h"
#include "core/types.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_registry.h"

namespace rill {
namespace {

using Grads = std::vector<Output>;
using GradSpan = absl::Span<const Output>;

// SparseSlice(indices, values, shape, start, size): the output holds, in the input's order, the
// input entries with start <= index < start + size in every dim. Each such value gets the
// gradient of its output value, the others 0 (what TensorFlow's SparseSliceGrad computes by
// matching the output indices, shifted by start, against the input's).
absl::Status SparseSliceGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& indices = op.inputs[0];
  const Output& start = op.inputs[3];
  const Output& size = op.inputs[4];
  Output inside_dims = ops::LogicalAnd(s, ops::GreaterEqual(s, indices, start),
                                       ops::Less(s, indices, ops::AddV2(s, start, size)));
  Output inside = ops::All(s, inside_dims, ops::Const(s, 1));
  Output positions = ops::Where(s, inside);  // [output entries, 1], int64
  Output values_grad = ops::ScatterNd(s, positions, g[1], ops::Shape(s, op.inputs[1], DT_INT64));
  *out = {Output(), values_grad, Output(), Output(), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SparseSlice", SparseSliceGrad);

// SparseSoftmax(indices, values, shape) -> y over the last dim: dx = (g - sum over the row of
// g * y) * y. The row sums are SparseReduceSum's dense [..., rows, 1] result; each entry reads
// its row's sum at its index divided by shape / [..., rows, 1] (its last coordinate becomes 0),
// the broadcast TensorFlow's SparseDenseCwiseAdd does.
absl::Status SparseSoftmaxGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& indices = op.inputs[0];
  const Output& shape = op.inputs[2];
  const Output& y = op.outputs[0];
  Output row_sums = ops::Neg(s, ops::SparseReduceSum(s, indices, ops::Mul(s, y, g[0]), shape,
                                                     ops::Const(s, -1), /*keep_dims=*/true));
  Output scale = ops::FloorDiv(s, shape, ops::Shape(s, row_sums, DT_INT64));
  Output row_sum = ops::GatherNd(s, row_sums, ops::FloorDiv(s, indices, scale));
  *out = {Output(), ops::Mul(s, ops::AddV2(s, g[0], row_sum), y), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SparseSoftmax", SparseSoftmaxGrad);

}  // namespace
}  // namespace rill
