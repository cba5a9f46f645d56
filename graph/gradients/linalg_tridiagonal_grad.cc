// The gradients of TridiagonalMatMul and TridiagonalSolve, TensorFlow's (linalg_grad.py), with
// internal kernels (kernels/math/tridiagonal_ops.cc) in place of TensorFlow's shifts, products
// and sums over the rhs columns: one _RillTridiagonalMatMulGrad node for the product;
// _RillTridiagonalTranspose and _RillTridiagonalOfProduct around a transposed solve for the
// solve.
#include <vector>

#include "absl/types/span.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_registry.h"

namespace rill {
namespace {

using Grads = std::vector<Output>;
using GradSpan = absl::Span<const Output>;

absl::Status TridiagonalMatMulGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  OpBuilder b(s, "_RillTridiagonalMatMulGrad");
  for (const Output& in : op.inputs) b.Input(in);
  b.Input(g[0]).Attr("T", BaseType(g[0].dtype()));
  Operation node = b.Finalize();
  RILL_RETURN_IF_ERROR(s.status());
  *out = {node.output(0), node.output(1), node.output(2), node.output(3)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TridiagonalMatMul", TridiagonalMatMulGrad);
RILL_REGISTER_NO_GRADIENT("_RillTridiagonalMatMulGrad");

// x = TridiagonalSolve(diagonals, rhs): d rhs solves the transposed system for dx (same
// pivoting attrs), d diagonals = -(the three diagonals of d rhs x^T), as TensorFlow computes them.
absl::Status TridiagonalSolveGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const DataType dtype = BaseType(g[0].dtype());
  OpBuilder transpose(s, "_RillTridiagonalTranspose");
  transpose.Input(op.inputs[0]).Attr("T", dtype);
  Output transposed = transpose.Finalize().output(0);
  OpBuilder solve(s, "TridiagonalSolve");
  solve.Input(transposed).Input(g[0]).Attr("T", dtype);
  for (const char* name : {"partial_pivoting", "perturb_singular"}) {
    auto it = op.node.attr().find(name);
    if (it != op.node.attr().end()) solve.Attr(name, it->second);
  }
  Output rhs_grad = solve.Finalize().output(0);
  OpBuilder product(s, "_RillTridiagonalOfProduct");
  product.Input(rhs_grad).Input(op.outputs[0]).Attr("T", dtype);
  Output diagonals_grad = ops::Neg(s, product.Finalize().output(0));
  RILL_RETURN_IF_ERROR(s.status());
  *out = {diagonals_grad, rhs_grad};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TridiagonalSolve", TridiagonalSolveGrad);
RILL_REGISTER_NO_GRADIENT("_RillTridiagonalTranspose");
RILL_REGISTER_NO_GRADIENT("_RillTridiagonalOfProduct");

}  // namespace
}  // namespace rill
