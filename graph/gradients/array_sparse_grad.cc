// Gradients of SparseSlice, SparseSoftmax and SparseDenseCwiseMul / Div (ops/sparse_ops.cc), with
// TensorFlow's formulas
// (sparse_grad.py) written with ops Rill registers: TensorFlow's SparseSliceGrad and
// SparseDenseCwiseAdd kernels are replaced by the masks and gathers they compute. See
// grad_registry.h for the contract of a gradient function.
#include <cstdint>
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

// SparseDenseCwiseMul / Div(indices, values, shape, dense) -> values op dense at the entries.
// Each entry reads dense at its index divided by shape / dense's shape (dense's shape with 1s in
// front to the sparse rank; the leading coordinates dropped): dx = g * d (g / d), and dense
// gets the sum of g * values (g * (-values / d^2)) over the entries reading each element, a
// SparseTensorDenseAdd onto zeros as TensorFlow's sparse_add computes it. None for the indices
// and the shape. (TensorFlow's SparseDenseCwiseAdd gradient raises NotImplementedError; Rill
// registers none.)
absl::Status SparseDenseCwiseGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out,
                                  bool is_mul) {
  const Output& indices = op.inputs[0];
  const Output& values = op.inputs[1];
  const Output& shape = op.inputs[2];
  const Output& dense = op.inputs[3];
  Output dense_shape = ops::Shape(s, dense, DT_INT64);
  Output added = ops::ExpandDims(s, ops::Sub(s, ops::Size(s, shape), ops::Size(s, dense_shape)),
                                 ops::Const(s, 0));
  Output ones = ops::Fill(s, added, ops::Const(s, int64_t{1}));
  Output augmented = ops::ConcatV2(s, {ones, dense_shape}, ops::Const(s, 0));
  Output scaled = ops::FloorDiv(s, indices, ops::FloorDiv(s, shape, augmented));
  scaled = ops::Slice(s, scaled, ops::ConcatV2(s, {ops::Const(s, {0}), added}, ops::Const(s, 0)),
                      ops::Const(s, {-1, -1}));
  Output read = ops::GatherNd(s, dense, scaled);
  Output dx, dy_values;
  if (is_mul) {
    dx = ops::Mul(s, g[0], read);
    dy_values = ops::Mul(s, g[0], values);
  } else {
    dx = ops::RealDiv(s, g[0], read);
    dy_values = ops::Mul(s, g[0], ops::RealDiv(s, ops::Neg(s, values), ops::Square(s, read)));
  }
  Output dy =
      ops::SparseTensorDenseAdd(s, scaled, dy_values, dense_shape, ops::ZerosLike(s, dense));
  *out = {Output(), dx, Output(), dy};
  return absl::OkStatus();
}
absl::Status SparseDenseCwiseMulGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return SparseDenseCwiseGrad(s, op, g, out, /*is_mul=*/true);
}
absl::Status SparseDenseCwiseDivGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return SparseDenseCwiseGrad(s, op, g, out, /*is_mul=*/false);
}
RILL_REGISTER_GRADIENT("SparseDenseCwiseMul", SparseDenseCwiseMulGrad);
RILL_REGISTER_GRADIENT("SparseDenseCwiseDiv", SparseDenseCwiseDivGrad);

}  // namespace
}  // namespace rill
