// TridiagonalMatMul's gradient, TensorFlow's (linalg_grad.py), computed by one
// _RillTridiagonalMatMulGrad node (kernels/math/tridiagonal_ops.cc) in place of TensorFlow's
// shifts, products and sums over the rhs columns.
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

}  // namespace
}  // namespace rill
