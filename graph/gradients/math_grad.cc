// Gradients of the ops of ops/math_ops.cc: elementwise arithmetic with broadcasting, unary
// functions, reductions, matrix products and casts. Formulas are TensorFlow's (math_grad.py).
#include <vector>

#include "absl/types/span.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_helpers.h"
#include "graph/gradients/grad_registry.h"

namespace rill {
namespace {

using Grads = std::vector<Output>;
using GradSpan = absl::Span<const Output>;

// --- Broadcasting binary ops ---------------------------------------------------------------

absl::Status AddGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  grad::BinaryGrads r = grad::ReduceBroadcast(s, op.inputs[0], op.inputs[1], g[0], g[0]);
  *out = {r.gx, r.gy};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Add", AddGrad);
RILL_REGISTER_GRADIENT("AddV2", AddGrad);

absl::Status SubGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  grad::BinaryGrads r =
      grad::ReduceBroadcast(s, op.inputs[0], op.inputs[1], g[0], ops::Neg(s, g[0]));
  *out = {r.gx, r.gy};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Sub", SubGrad);

absl::Status MulGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  const Output& y = op.inputs[1];
  grad::BinaryGrads r = grad::ReduceBroadcast(s, x, y, ops::Mul(s, g[0], grad::MaybeConj(s, y)),
                                              ops::Mul(s, grad::MaybeConj(s, x), g[0]));
  *out = {r.gx, r.gy};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Mul", MulGrad);

// d(x/y) = g/y, -g*x/y^2 (conjugated for complex operands).
absl::Status DivGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output x = grad::MaybeConj(s, op.inputs[0]);
  const Output y = grad::MaybeConj(s, op.inputs[1]);
  Output gx = ops::RealDiv(s, g[0], y);
  Output gy = ops::Mul(s, g[0], ops::RealDiv(s, ops::RealDiv(s, ops::Neg(s, x), y), y));
  grad::BinaryGrads r = grad::ReduceBroadcast(s, op.inputs[0], op.inputs[1], gx, gy);
  *out = {r.gx, r.gy};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("RealDiv", DivGrad);
RILL_REGISTER_GRADIENT("Div", DivGrad);

// --- Unary functions -----------------------------------------------------------------------

absl::Status NegGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Neg(s, g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Neg", NegGrad);

absl::Status SquareGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output two_x = ops::Mul(s, grad::ScalarLike(s, 2.0, op.inputs[0]), op.inputs[0]);
  *out = {ops::Mul(s, g[0], grad::MaybeConj(s, two_x))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Square", SquareGrad);

absl::Status SqrtGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::SqrtGrad(s, op.outputs[0], g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Sqrt", SqrtGrad);

absl::Status RsqrtGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::RsqrtGrad(s, op.outputs[0], g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Rsqrt", RsqrtGrad);

absl::Status ExpGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Mul(s, g[0], grad::MaybeConj(s, op.outputs[0]))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Exp", ExpGrad);

absl::Status LogGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Mul(s, g[0], ops::Reciprocal(s, grad::MaybeConj(s, op.inputs[0])))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Log", LogGrad);

absl::Status TanhGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::TanhGrad(s, grad::MaybeConj(s, op.outputs[0]), g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Tanh", TanhGrad);

absl::Status SigmoidGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::SigmoidGrad(s, grad::MaybeConj(s, op.outputs[0]), g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Sigmoid", SigmoidGrad);

absl::Status IdentityGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {g[0]};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Identity", IdentityGrad);

// Cast: the gradient is cast back when both dtypes are floating or complex; none otherwise.
bool IsFloatingOrComplex(DataType t) {
  return t == DT_HALF || t == DT_FLOAT || t == DT_DOUBLE || t == DT_BFLOAT16 || t == DT_COMPLEX64 ||
         t == DT_COMPLEX128;
}

absl::Status CastGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const DataType src = BaseType(op.inputs[0].dtype());
  if (!IsFloatingOrComplex(src) || !IsFloatingOrComplex(BaseType(op.outputs[0].dtype()))) {
    *out = {Output()};
    return absl::OkStatus();
  }
  *out = {ops::Cast(s, g[0], src)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Cast", CastGrad);

// --- Reductions ----------------------------------------------------------------------------

// The gradient of Sum broadcast back to the input's shape.
Output SumGradOf(const Scope& s, const GradOp& op, const Output& g) {
  Output input_shape = ops::Shape(s, op.inputs[0]);
  Output kept = grad::ReducedShape(s, input_shape, op.inputs[1]);
  return ops::BroadcastTo(s, ops::Reshape(s, g, kept), input_shape);
}

absl::Status SumGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {SumGradOf(s, op, g[0]), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Sum", SumGrad);

absl::Status MeanGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output sum_grad = SumGradOf(s, op, g[0]);
  Output input_size = ops::Prod(s, ops::Shape(s, op.inputs[0]), ops::Const(s, 0));
  Output output_size = ops::Prod(s, ops::Shape(s, op.outputs[0]), ops::Const(s, 0));
  Output factor = ops::FloorDiv(s, input_size, ops::Maximum(s, output_size, ops::Const(s, 1)));
  *out = {ops::RealDiv(s, sum_grad, ops::Cast(s, factor, BaseType(sum_grad.dtype()))), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Mean", MeanGrad);

// --- Matrix products -------------------------------------------------------------------------

absl::Status MatMulGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool ta, op.GetBool("transpose_a"));
  RILL_ASSIGN_OR_RETURN(bool tb, op.GetBool("transpose_b"));
  const Output a = grad::MaybeConj(s, op.inputs[0]);
  const Output b = grad::MaybeConj(s, op.inputs[1]);
  auto mm = [&](const Output& x, const Output& y, bool tx, bool ty) {
    return ops::MatMul(s, x, y, ops::MatMulAttrs().TransposeA(tx).TransposeB(ty));
  };
  if (!ta && !tb) {
    *out = {mm(g[0], b, false, true), mm(a, g[0], true, false)};
  } else if (!ta && tb) {
    *out = {mm(g[0], b, false, false), mm(g[0], a, true, false)};
  } else if (ta && !tb) {
    *out = {mm(b, g[0], false, true), mm(a, g[0], false, false)};
  } else {
    *out = {mm(b, g[0], true, true), mm(g[0], a, true, true)};
  }
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatMul", MatMulGrad);

}  // namespace
}  // namespace rill
