// Gradients of the ops of ops/math_ops.cc: elementwise arithmetic with broadcasting, unary
// functions, reductions, matrix products and casts. Formulas are TensorFlow's (math_grad.py).
#include <limits>
#include <vector>

#include "absl/types/span.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/op_builder.h"
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

// TensorFlow's _SparseMatMulGrad: the products of MatMul's gradient, each made as
// math_ops.matmul makes it from the operands' sparse flags (a, b: the op's attrs; the incoming
// gradient: whether a ReluGrad made it): a SparseMatMul (float out) when a flag is set or float
// meets bfloat16, else a MatMul; a transposed second operand is transposed first; each product is
// cast to its input's dtype.
absl::Status SparseMatMulGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool ta, op.GetBool("transpose_a"));
  RILL_ASSIGN_OR_RETURN(bool tb, op.GetBool("transpose_b"));
  const Output& a = op.inputs[0];
  const Output& b = op.inputs[1];
  const absl::StatusOr<NodeDef> g_node = s.GetNodeDef(g[0].node());
  struct Operand {
    Output t;
    bool sparse;
  };
  const Operand ga{g[0], g_node.ok() && g_node->op() == "ReluGrad"};
  const Operand oa{a, op.BoolOr("a_is_sparse", false)};
  const Operand ob{b, op.BoolOr("b_is_sparse", false)};
  auto product = [&](Operand x, Operand y, DataType out_dtype, bool tx, bool ty) {
    if (ty) y.t = ops::Transpose(s, y.t, {1, 0});
    const DataType dx = x.t.dtype(), dy = y.t.dtype();
    const bool mixed = dx != dy && (dx == DT_BFLOAT16 || dy == DT_BFLOAT16);
    Output p = (x.sparse || y.sparse || mixed)
                   ? ops::SparseMatMul(s, x.t, y.t, tx, false, x.sparse, y.sparse)
                   : ops::MatMul(s, x.t, y.t, ops::MatMulAttrs().TransposeA(tx));
    if (dx == DT_BFLOAT16 && dy == DT_BFLOAT16 && p.dtype() != DT_BFLOAT16) {
      p = ops::Cast(s, p, DT_BFLOAT16);
    }
    return p.dtype() == out_dtype ? p : ops::Cast(s, p, out_dtype);
  };
  const DataType da = a.dtype(), db = b.dtype();
  if (!ta && !tb) {
    *out = {product(ga, ob, da, false, true), product(oa, ga, db, true, false)};
  } else if (!ta && tb) {
    *out = {product(ga, ob, da, false, false), product(ga, oa, db, true, false)};
  } else if (ta && !tb) {
    *out = {product(ob, ga, da, false, true), product(oa, ga, db, false, false)};
  } else {
    *out = {product(ob, ga, da, true, true), product(ga, oa, db, true, true)};
  }
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SparseMatMul", SparseMatMulGrad);

// --- More broadcasting binary ops ----------------------------------------------------------

Grads Reduced(const Scope& s, const GradOp& op, const Output& gx, const Output& gy) {
  grad::BinaryGrads r = grad::ReduceBroadcast(s, op.inputs[0], op.inputs[1], gx, gy);
  return {r.gx, r.gy};
}

// A scalar zero of `like`'s dtype.
Output Zero(const Scope& s, const Output& like) { return grad::ScalarLike(s, 0.0, like); }

absl::Status AddNGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  out->assign(op.inputs.size(), g[0]);
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("AddN", AddNGrad);

// d(x^y) = y*x^(y-1), z*log(x) where x > 0 (0 elsewhere).
absl::Status PowGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output x = grad::MaybeConj(s, op.inputs[0]);
  const Output y = grad::MaybeConj(s, op.inputs[1]);
  Output gx = ops::Mul(s, ops::Mul(s, g[0], y),
                       ops::Pow(s, x, ops::Sub(s, y, grad::ScalarLike(s, 1.0, y))));
  const DataType t = BaseType(x.dtype());
  Output mask = (t == DT_COMPLEX64 || t == DT_COMPLEX128) ? ops::NotEqual(s, x, Zero(s, x))
                                                          : ops::Greater(s, x, Zero(s, x));
  Output safe_x = ops::Select(s, mask, x, ops::OnesLike(s, op.inputs[0]));
  Output log_x = ops::Select(s, mask, ops::Log(s, safe_x), ops::ZerosLike(s, op.inputs[0]));
  Output gy = ops::Mul(s, ops::Mul(s, g[0], grad::MaybeConj(s, op.outputs[0])), log_x);
  *out = Reduced(s, op, gx, gy);
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Pow", PowGrad);

// Maximum: the gradient goes to x where x >= y, else to y; Minimum with x <= y.
absl::Status MaxMinGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out, bool maximum) {
  const Output& x = op.inputs[0];
  const Output& y = op.inputs[1];
  Output zeros = ops::ZerosLike(s, g[0]);
  Output xmask = maximum ? ops::GreaterEqual(s, x, y) : ops::LessEqual(s, x, y);
  *out = Reduced(s, op, ops::SelectV2(s, xmask, g[0], zeros), ops::SelectV2(s, xmask, zeros, g[0]));
  return absl::OkStatus();
}
absl::Status MaximumGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return MaxMinGrad(s, op, g, out, /*maximum=*/true);
}
absl::Status MinimumGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return MaxMinGrad(s, op, g, out, /*maximum=*/false);
}
RILL_REGISTER_GRADIENT("Maximum", MaximumGrad);
RILL_REGISTER_GRADIENT("Minimum", MinimumGrad);

absl::Status SquaredDifferenceGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output x_grad = ops::Mul(s, ops::Mul(s, grad::ScalarLike(s, 2.0, g[0]), g[0]),
                           ops::Sub(s, op.inputs[0], op.inputs[1]));
  *out = Reduced(s, op, x_grad, ops::Neg(s, x_grad));
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SquaredDifference", SquaredDifferenceGrad);

absl::Status DivNoNanGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output x = grad::MaybeConj(s, op.inputs[0]);
  const Output y = grad::MaybeConj(s, op.inputs[1]);
  Output gx = ops::DivNoNan(s, g[0], y);
  Output gy = ops::Mul(s, g[0], ops::DivNoNan(s, ops::DivNoNan(s, ops::Neg(s, x), y), y));
  *out = Reduced(s, op, gx, gy);
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("DivNoNan", DivNoNanGrad);

// MulNoNan (TensorFlow's math_grad.py): MulNoNan(g, y) for x, MulNoNan(x, g) for y, each summed
// over its broadcast dims.
absl::Status MulNoNanGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  auto mul_no_nan = [&](const Output& a, const Output& b) {
    return OpBuilder(s, "MulNoNan").Input(a).Input(b).Finalize().output(0);
  };
  *out = Reduced(s, op, mul_no_nan(g[0], op.inputs[1]), mul_no_nan(op.inputs[0], g[0]));
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MulNoNan", MulNoNanGrad);
RILL_REGISTER_NO_GRADIENT("PopulationCount");

// FloorDiv and TruncateDiv are piecewise constant: no gradient, as in TensorFlow.
absl::Status NoInputGrads(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  out->assign(op.inputs.size(), Output());
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("FloorDiv", NoInputGrads);
RILL_REGISTER_GRADIENT("TruncateDiv", NoInputGrads);
// Floor, Ceil and Round: TensorFlow returns None; ArgMax/ArgMin have integer outputs.
RILL_REGISTER_GRADIENT("Floor", NoInputGrads);
RILL_REGISTER_GRADIENT("Ceil", NoInputGrads);
RILL_REGISTER_GRADIENT("Round", NoInputGrads);
RILL_REGISTER_GRADIENT("Rint", NoInputGrads);
RILL_REGISTER_GRADIENT("ArgMax", NoInputGrads);
RILL_REGISTER_GRADIENT("ArgMin", NoInputGrads);

// d(x mod y) = 1, -floor(x/y).
absl::Status FloorModGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output x = grad::MaybeConj(s, op.inputs[0]);
  const Output y = grad::MaybeConj(s, op.inputs[1]);
  Output gy = ops::Mul(s, g[0], ops::Neg(s, ops::FloorDiv(s, x, y)));
  *out = Reduced(s, op, g[0], gy);
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("FloorMod", FloorModGrad);

// Xlogy, Xlog1py, Xdivy: the x partial is the op applied to (x != 0); zero where x is zero.
enum class XOp { kXlogy, kXlog1py, kXdivy };
absl::Status XOpGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out, XOp kind) {
  const Output& x = op.inputs[0];
  const Output& y = op.inputs[1];
  Output not_zero_x = ops::Cast(s, ops::NotEqual(s, x, Zero(s, x)), BaseType(x.dtype()));
  Output partial_x, partial_y;
  switch (kind) {
    case XOp::kXlogy:
      partial_x = ops::Xlogy(s, not_zero_x, y);
      partial_y = ops::Xdivy(s, x, y);
      break;
    case XOp::kXlog1py:
      partial_x = ops::Xlog1py(s, not_zero_x, y);
      partial_y = ops::Xdivy(s, x, ops::AddV2(s, y, grad::ScalarLike(s, 1.0, y)));
      break;
    case XOp::kXdivy:
      partial_x = ops::Xdivy(s, not_zero_x, y);
      partial_y = ops::Xdivy(s, ops::Neg(s, x), ops::Square(s, y));
      break;
  }
  *out = Reduced(s, op, ops::Mul(s, partial_x, g[0]), ops::Mul(s, partial_y, g[0]));
  return absl::OkStatus();
}
absl::Status XlogyGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return XOpGrad(s, op, g, out, XOp::kXlogy);
}
absl::Status Xlog1pyGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return XOpGrad(s, op, g, out, XOp::kXlog1py);
}
absl::Status XdivyGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return XOpGrad(s, op, g, out, XOp::kXdivy);
}
RILL_REGISTER_GRADIENT("Xlogy", XlogyGrad);
RILL_REGISTER_GRADIENT("Xlog1py", Xlog1pyGrad);
RILL_REGISTER_GRADIENT("Xdivy", XdivyGrad);

// atan2(y, x): x/(x^2+y^2), -y/(x^2+y^2).
absl::Status Atan2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& y = op.inputs[0];
  const Output& x = op.inputs[1];
  Output grad_inv = ops::RealDiv(s, g[0], ops::AddV2(s, ops::Square(s, y), ops::Square(s, x)));
  *out = Reduced(s, op, ops::Mul(s, x, grad_inv), ops::Mul(s, ops::Neg(s, y), grad_inv));
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Atan2", Atan2Grad);

// polygamma(a, x): polygamma(a + 1, x) for x; none for the order a, as in TensorFlow.
absl::Status PolygammaGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& a = op.inputs[0];
  const Output& x = op.inputs[1];
  Output partial_x = ops::Polygamma(s, ops::AddV2(s, a, grad::ScalarLike(s, 1.0, a)), x);
  *out = Reduced(s, op, Output(), ops::Mul(s, partial_x, g[0]));
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Polygamma", PolygammaGrad);

// igamma(a, x): IgammaGradA(a, x) for a; exp(-x + (a - 1) log x - lgamma(a)) for x, in log space
// as in TensorFlow (Gamma(a) grows large).
Grads IgammaPartials(const Scope& s, const GradOp& op, GradSpan g) {
  const Output& a = op.inputs[0];
  const Output& x = op.inputs[1];
  Output partial_a = ops::IgammaGradA(s, a, x);
  Output log_partial_x =
      ops::Sub(s,
               ops::AddV2(s, ops::Neg(s, x),
                          ops::Mul(s, ops::Sub(s, a, grad::ScalarLike(s, 1.0, a)), ops::Log(s, x))),
               ops::Lgamma(s, a));
  return Reduced(s, op, ops::Mul(s, partial_a, g[0]),
                 ops::Mul(s, ops::Exp(s, log_partial_x), g[0]));
}

absl::Status IgammaGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = IgammaPartials(s, op, g);
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Igamma", IgammaGrad);

// igammac(a, x) = 1 - igamma(a, x): Igamma's partials negated.
absl::Status IgammacGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Grads p = IgammaPartials(s, op, g);
  *out = {ops::Neg(s, p[0]), ops::Neg(s, p[1])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Igammac", IgammacGrad);

// zeta(x, q): -x zeta(x + 1, q) for q; none for x, as in TensorFlow.
absl::Status ZetaGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  const Output& q = op.inputs[1];
  Output partial_q =
      ops::Mul(s, ops::Neg(s, x), ops::Zeta(s, ops::AddV2(s, x, grad::ScalarLike(s, 1.0, x)), q));
  *out = Reduced(s, op, Output(), ops::Mul(s, partial_q, g[0]));
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Zeta", ZetaGrad);

// betainc(a, b, x): x^(a-1) (1-x)^(b-1) / B(a, b) for x, in log space through xlogy and xlog1py
// (a or b of 1 gives 0, not NaN, at the ends) as in TensorFlow; none for a and b. TensorFlow
// reduces over the broadcast of a's shape against x's, which is x's own shape or a scalar x's.
absl::Status BetaincGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& a = op.inputs[0];
  const Output& b = op.inputs[1];
  const Output& x = op.inputs[2];
  Output log_beta = ops::Sub(s, ops::AddV2(s, ops::Lgamma(s, a), ops::Lgamma(s, b)),
                             ops::Lgamma(s, ops::AddV2(s, a, b)));
  Output one = grad::ScalarLike(s, 1.0, a);
  Output partial_x =
      ops::Exp(s, ops::Sub(s,
                           ops::AddV2(s, ops::Xlog1py(s, ops::Sub(s, b, one), ops::Neg(s, x)),
                                      ops::Xlogy(s, ops::Sub(s, a, one), x)),
                           log_beta));
  grad::BinaryGrads r = grad::ReduceBroadcast(s, a, x, Output(), ops::Mul(s, partial_x, g[0]));
  *out = {Output(), Output(), r.gy};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Betainc", BetaincGrad);

// --- Selection and clipping ----------------------------------------------------------------

absl::Status SelectGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& c = op.inputs[0];
  Output zeros = ops::ZerosLike(s, op.inputs[1]);
  *out = {Output(), ops::Select(s, c, g[0], zeros), ops::Select(s, c, zeros, g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Select", SelectGrad);

// SelectV2 broadcasts all three operands: each branch's gradient is summed back to its shape.
absl::Status SelectV2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& c = op.inputs[0];
  const Output& z = op.outputs[0];
  Output zero = Zero(s, g[0]);
  Output gx = ops::SelectV2(s, c, g[0], zero);
  Output gy = ops::SelectV2(s, c, zero, g[0]);
  *out = {Output(), grad::ReduceBroadcast(s, op.inputs[1], z, gx, Output()).gx,
          grad::ReduceBroadcast(s, op.inputs[2], z, gy, Output()).gx};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SelectV2", SelectV2Grad);

// ClipByValue(t, lo, hi): t gets the gradient where it was not clipped, lo where t < lo, hi
// where t > hi (lo and hi summed back to their broadcast shapes).
absl::Status ClipByValueGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  const Output& y = op.inputs[1];
  const Output& z = op.inputs[2];
  Output sx = ops::Shape(s, x);
  Output sy = ops::Shape(s, y);
  Output sz = ops::Shape(s, z);
  Output zeros = ops::Fill(s, ops::Shape(s, g[0]), Zero(s, g[0]));
  Output xymask = ops::Less(s, x, y);
  Output xzmask = ops::Greater(s, x, z);
  Output ry = ops::BroadcastGradientArgs(s, sx, sy).r1;
  Output rz = ops::BroadcastGradientArgs(s, sx, sz).r1;
  Output xgrad = ops::Select(s, ops::LogicalOr(s, xymask, xzmask), zeros, g[0]);
  Output ygrad = ops::Select(s, xymask, g[0], zeros);
  Output zgrad = ops::Select(s, xzmask, g[0], zeros);
  *out = {xgrad, ops::Reshape(s, ops::Sum(s, ygrad, ry), sy),
          ops::Reshape(s, ops::Sum(s, zgrad, rz), sz)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("ClipByValue", ClipByValueGrad);

// --- More unary functions ------------------------------------------------------------------

// Registers `name` with the gradient g * f(op), f built from the forward op.
#define RILL_UNARY_GRAD(name, body)                                                   \
  absl::Status name##Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) { \
    const Output& x = op.inputs[0];                                                   \
    const Output& y = op.outputs[0];                                                  \
    (void)x;                                                                          \
    (void)y;                                                                          \
    *out = {body};                                                                    \
    return absl::OkStatus();                                                          \
  }                                                                                   \
  RILL_REGISTER_GRADIENT(#name, name##Grad)

RILL_UNARY_GRAD(Abs, ops::Mul(s, g[0], ops::Sign(s, x)));
RILL_UNARY_GRAD(Sign, ops::ZerosLike(s, x));
// -g * conj(y)^2
RILL_UNARY_GRAD(Reciprocal, ops::Mul(s, ops::Neg(s, g[0]), grad::MaybeConj(s, ops::Square(s, y))));
RILL_UNARY_GRAD(Sin, ops::Mul(s, g[0], ops::Cos(s, grad::MaybeConj(s, x))));
RILL_UNARY_GRAD(Cos, ops::Mul(s, ops::Neg(s, g[0]), ops::Sin(s, grad::MaybeConj(s, x))));
RILL_UNARY_GRAD(Sinh, ops::Mul(s, g[0], ops::Cosh(s, grad::MaybeConj(s, x))));
RILL_UNARY_GRAD(Cosh, ops::Mul(s, g[0], ops::Sinh(s, grad::MaybeConj(s, x))));
RILL_UNARY_GRAD(Log1p, ops::Mul(s, g[0],
                                ops::Reciprocal(s, ops::AddV2(s, grad::ScalarLike(s, 1.0, x),
                                                              grad::MaybeConj(s, x)))));
RILL_UNARY_GRAD(Expm1, ops::Mul(s, g[0], ops::Exp(s, grad::MaybeConj(s, x))));
// 2/sqrt(pi) * exp(-x^2), negated for Erfc.
RILL_UNARY_GRAD(Erf, ops::Mul(s, ops::Mul(s, g[0], grad::ScalarLike(s, 1.1283791670955126, g[0])),
                              ops::Exp(s, ops::Neg(s, ops::Square(s, grad::MaybeConj(s, x))))));
RILL_UNARY_GRAD(Erfc, ops::Mul(s, ops::Mul(s, g[0], grad::ScalarLike(s, -1.1283791670955126, g[0])),
                               ops::Exp(s, ops::Neg(s, ops::Square(s, grad::MaybeConj(s, x))))));
RILL_UNARY_GRAD(Asinh, ops::RealDiv(s, g[0], ops::Cosh(s, grad::MaybeConj(s, y))));
RILL_UNARY_GRAD(Acosh, ops::RealDiv(s, g[0], ops::Sinh(s, grad::MaybeConj(s, y))));
RILL_UNARY_GRAD(Atanh,
                ops::Mul(s, g[0],
                         ops::Reciprocal(s, ops::Sub(s, grad::ScalarLike(s, 1.0, g[0]),
                                                     ops::Square(s, grad::MaybeConj(s, x))))));
RILL_UNARY_GRAD(Lgamma, ops::Mul(s, g[0], ops::Digamma(s, grad::MaybeConj(s, x))));
// polygamma(1, x); like TensorFlow's, only for float and double (Polygamma's types).
RILL_UNARY_GRAD(Digamma,
                ops::Mul(s, g[0],
                         ops::Polygamma(s, grad::ScalarLike(s, 1.0, x), grad::MaybeConj(s, x))));
// sqrt(pi)/2 * exp(y^2)
RILL_UNARY_GRAD(Erfinv,
                ops::Mul(s, ops::Mul(s, g[0], grad::ScalarLike(s, 0.88622692545275801, g[0])),
                         ops::Exp(s, ops::Square(s, y))));
// sqrt(2 pi) * exp(y^2 / 2)
RILL_UNARY_GRAD(Ndtri, ops::Mul(s, ops::Mul(s, g[0], grad::ScalarLike(s, 2.5066282746310002, g[0])),
                                ops::Exp(s, ops::RealDiv(s, ops::Square(s, y),
                                                         grad::ScalarLike(s, 2.0, y)))));
// i0e'(x) = i1e(x) - sign(x) * i0e(x)
RILL_UNARY_GRAD(BesselI0e,
                ops::Mul(s, g[0],
                         ops::Sub(s, ops::BesselI1e(s, x), ops::Mul(s, ops::Sign(s, x), y))));
// i1e'(x) = i0e(x) - i1e(x) * (sign(x) + 1/x), 1/2 at 0.
RILL_UNARY_GRAD(BesselI1e,
                ops::Mul(s, g[0],
                         ops::SelectV2(s, ops::Equal(s, x, Zero(s, x)), grad::ScalarLike(s, 0.5, x),
                                       ops::Sub(s, ops::BesselI0e(s, x),
                                                ops::Mul(s, y,
                                                         ops::AddV2(s, ops::Sign(s, x),
                                                                    ops::Reciprocal(s, x)))))));
// 1 / sqrt(1 - conj(x)^2), the magnitude of Asin's and Acos's derivatives.
Output InvSqrtOneMinusSquare(const Scope& s, const Output& x) {
  return ops::Reciprocal(s, ops::Sqrt(s, ops::Sub(s, grad::ScalarLike(s, 1.0, x),
                                                  ops::Square(s, grad::MaybeConj(s, x)))));
}
RILL_UNARY_GRAD(Asin, ops::Mul(s, g[0], InvSqrtOneMinusSquare(s, x)));
RILL_UNARY_GRAD(Acos, ops::Mul(s, ops::Neg(s, g[0]), InvSqrtOneMinusSquare(s, x)));
RILL_UNARY_GRAD(Atan,
                ops::Mul(s, g[0],
                         ops::Reciprocal(s, ops::AddV2(s, grad::ScalarLike(s, 1.0, x),
                                                       ops::Square(s, grad::MaybeConj(s, x))))));
// sec(x)^2
RILL_UNARY_GRAD(Tan,
                ops::Mul(s, g[0],
                         ops::Square(s, ops::Reciprocal(s, ops::Cos(s, grad::MaybeConj(s, x))))));
// Cross(u, v): cross(v, g) for u, cross(g, u) for v.
absl::Status CrossGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Cross(s, op.inputs[1], g[0]), ops::Cross(s, g[0], op.inputs[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Cross", CrossGrad);
// Inv is Reciprocal under its deprecated name.
RILL_REGISTER_GRADIENT("Inv", ReciprocalGrad);

#undef RILL_UNARY_GRAD

// --- Second-order helpers: gradients of the *Grad ops --------------------------------------

// SigmoidGrad(a, b) = b * a * (1 - a): d/da = b - 2ab, d/db = a(1 - a).
absl::Status SigmoidGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output a = grad::MaybeConj(s, op.inputs[0]);
  const Output b = grad::MaybeConj(s, op.inputs[1]);
  Output gb = ops::Mul(s, g[0], b);
  *out = {ops::Sub(s, gb, ops::Mul(s, ops::Mul(s, grad::ScalarLike(s, 2.0, gb), gb), a)),
          ops::SigmoidGrad(s, a, g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SigmoidGrad", SigmoidGradGrad);

// TanhGrad(a, b) = b * (1 - a^2): d/da = -2ab, d/db = 1 - a^2.
absl::Status TanhGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output a = grad::MaybeConj(s, op.inputs[0]);
  const Output b = grad::MaybeConj(s, op.inputs[1]);
  *out = {ops::Mul(s, ops::Mul(s, ops::Mul(s, g[0], grad::ScalarLike(s, -2.0, g[0])), b), a),
          ops::TanhGrad(s, a, g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TanhGrad", TanhGradGrad);

// RsqrtGrad(a, b) = -b * a^3 / 2: d/da = -1.5 b a^2.
absl::Status RsqrtGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output ca = grad::MaybeConj(s, op.inputs[0]);
  const Output cg = grad::MaybeConj(s, g[0]);
  Output grad_a =
      ops::Mul(s, ops::Mul(s, ops::Mul(s, grad::ScalarLike(s, -1.5, cg), cg), op.inputs[1]),
               ops::Square(s, ca));
  *out = {grad_a, ops::RsqrtGrad(s, ca, g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("RsqrtGrad", RsqrtGradGrad);

// SqrtGrad(a, b) = 0.5 b / conj(a) = y: d/da = -conj(g/a) y, d/db = 0.5 g/a.
absl::Status SqrtGradGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output ga = ops::RealDiv(s, g[0], op.inputs[0]);
  *out = {ops::Mul(s, ops::Neg(s, grad::MaybeConj(s, ga)), op.outputs[0]),
          ops::Mul(s, grad::ScalarLike(s, 0.5, ga), ga)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SqrtGrad", SqrtGradGrad);

// --- More reductions and scans -------------------------------------------------------------

// The reduction's kept-dims shape: the output's shape when keep_dims, else ReducedShape.
absl::StatusOr<Output> KeptDimsShape(const Scope& s, const GradOp& op) {
  RILL_ASSIGN_OR_RETURN(bool keep, op.GetBool("keep_dims"));
  if (keep) return ops::Shape(s, op.outputs[0]);
  return grad::ReducedShape(s, ops::Shape(s, op.inputs[0]), op.inputs[1]);
}

// Max/Min: the gradient is shared equally by the elements equal to the extremum.
absl::Status MinOrMaxGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(Output kept, KeptDimsShape(s, op));
  Output y = ops::Reshape(s, op.outputs[0], kept);
  Output grad = ops::Reshape(s, g[0], kept);
  Output indicators = ops::Cast(s, ops::Equal(s, y, op.inputs[0]), BaseType(grad.dtype()));
  Output num_selected = ops::Reshape(s, ops::Sum(s, indicators, op.inputs[1]), kept);
  *out = {ops::Mul(s, ops::RealDiv(s, indicators, num_selected), grad), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Max", MinOrMaxGrad);
RILL_REGISTER_GRADIENT("Min", MinOrMaxGrad);

absl::Status EuclideanNormGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(Output kept, KeptDimsShape(s, op));
  Output norm = ops::Reshape(s, op.outputs[0], kept);
  Output grad = ops::Reshape(s, g[0], kept);
  *out = {ops::RealDiv(s, op.inputs[0], ops::RealDiv(s, norm, grad)), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("EuclideanNorm", EuclideanNormGrad);

// Prod: the product of all other reduced elements, as exclusive cumulative products from both
// ends over the reduced dimensions moved to the front (no division, so zeros are exact).
absl::Status ProdGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  Output input_shape = ops::Shape(s, x);
  RILL_ASSIGN_OR_RETURN(Output kept, KeptDimsShape(s, op));
  Output grad = ops::BroadcastTo(s, ops::Reshape(s, g[0], kept), input_shape);
  Output rank = ops::Rank(s, x);
  Output axes = ops::Cast(s, ops::Reshape(s, op.inputs[1], ops::Const(s, {-1})), DT_INT32);
  Output reduced = ops::FloorMod(s, ops::AddV2(s, axes, rank), rank);
  Output idx = ops::Range(s, ops::Const(s, 0), rank, ops::Const(s, 1));
  // The dimensions not reduced, in order: positions where a stitched 0/1 mask is 1.
  Output mask =
      ops::DynamicStitch(s, {idx, reduced},
                         {ops::Fill(s, ops::Reshape(s, rank, ops::Const(s, {1})), ops::Const(s, 1)),
                          ops::Fill(s, ops::Shape(s, reduced), ops::Const(s, 0))});
  Output other =
      ops::Cast(s, ops::Reshape(s, ops::Where(s, ops::Cast(s, mask, DT_BOOL)), ops::Const(s, {-1})),
                DT_INT32);
  Output perm = ops::ConcatV2(s, {reduced, other}, ops::Const(s, 0));
  Output reduced_num =
      ops::Prod(s, ops::GatherV2(s, input_shape, reduced, ops::Const(s, 0)), ops::Const(s, 0));
  Output other_num =
      ops::Prod(s, ops::GatherV2(s, input_shape, other, ops::Const(s, 0)), ops::Const(s, 0));
  Output permuted = ops::Transpose(s, x, perm);
  Output permuted_shape = ops::Shape(s, permuted);
  Output reshaped = ops::Reshape(s, permuted, ops::Pack(s, {reduced_num, other_num}));
  Output left = ops::Cumprod(s, reshaped, ops::Const(s, 0), /*exclusive=*/true);
  Output right = ops::Cumprod(s, reshaped, ops::Const(s, 0), /*exclusive=*/true, /*reverse=*/true);
  Output y = ops::Reshape(s, ops::Mul(s, grad::MaybeConj(s, left), grad::MaybeConj(s, right)),
                          permuted_shape);
  Output prod = ops::Mul(s, grad, ops::Transpose(s, y, ops::InvertPermutation(s, perm)));
  *out = {ops::Reshape(s, prod, input_shape), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Prod", ProdGrad);

absl::Status CumsumGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool exclusive, op.GetBool("exclusive"));
  RILL_ASSIGN_OR_RETURN(bool reverse, op.GetBool("reverse"));
  *out = {ops::Cumsum(s, g[0], op.inputs[1], exclusive, !reverse), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Cumsum", CumsumGrad);

absl::Status CumprodGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool exclusive, op.GetBool("exclusive"));
  RILL_ASSIGN_OR_RETURN(bool reverse, op.GetBool("reverse"));
  const Output& x = op.inputs[0];
  const Output& axis = op.inputs[1];
  Output prod = ops::Cumprod(s, x, axis, exclusive, reverse);
  Output sum = ops::Cumsum(s, ops::Mul(s, prod, g[0]), axis, exclusive, !reverse);
  *out = {ops::DivNoNan(s, sum, x), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Cumprod", CumprodGrad);

// The lowest finite value of a floating dtype (as a double that casts to it exactly).
double LowestOf(DataType t) {
  switch (t) {
    case DT_DOUBLE:
      return std::numeric_limits<double>::lowest();
    case DT_HALF:
      return -65504.0;
    case DT_BFLOAT16:
      return -3.3895313892515355e38;  // -(2 - 2^-7) * 2^127
    default:
      return static_cast<double>(std::numeric_limits<float>::lowest());
  }
}

// The gradient split by sign, each part accumulated in log space: exp(clse(log|g+| - out) + x)
// minus the same for the negative part; log 0 is replaced by the dtype's lowest value.
absl::Status CumulativeLogsumexpGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool exclusive, op.GetBool("exclusive"));
  RILL_ASSIGN_OR_RETURN(bool reverse, op.GetBool("reverse"));
  const Output& x = op.inputs[0];
  const Output& axis = op.inputs[1];
  const Output& result = op.outputs[0];
  Output low = grad::ScalarLike(s, LowestOf(BaseType(g[0].dtype())), g[0]);
  Output zero = Zero(s, g[0]);
  Output log_pos = ops::SelectV2(s, ops::Greater(s, g[0], zero), ops::Log(s, g[0]), low);
  Output log_neg = ops::SelectV2(s, ops::Less(s, g[0], zero), ops::Log(s, ops::Neg(s, g[0])), low);
  auto part = [&](const Output& log_g) {
    return ops::Exp(s, ops::AddV2(s,
                                  ops::CumulativeLogsumexp(s, ops::Sub(s, log_g, result), axis,
                                                           exclusive, !reverse),
                                  x));
  };
  *out = {ops::Sub(s, part(log_pos), part(log_neg)), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("CumulativeLogsumexp", CumulativeLogsumexpGrad);

// --- Not differentiable (TensorFlow's NotDifferentiable) -------------------------------------

RILL_REGISTER_NO_GRADIENT("Less");
RILL_REGISTER_NO_GRADIENT("LessEqual");
RILL_REGISTER_NO_GRADIENT("Greater");
RILL_REGISTER_NO_GRADIENT("GreaterEqual");
RILL_REGISTER_NO_GRADIENT("Equal");
RILL_REGISTER_NO_GRADIENT("NotEqual");
RILL_REGISTER_NO_GRADIENT("LogicalAnd");
RILL_REGISTER_NO_GRADIENT("LogicalOr");
RILL_REGISTER_NO_GRADIENT("LogicalNot");
RILL_REGISTER_NO_GRADIENT("BitwiseAnd");
RILL_REGISTER_NO_GRADIENT("BitwiseOr");
RILL_REGISTER_NO_GRADIENT("BitwiseXor");
RILL_REGISTER_NO_GRADIENT("Invert");
RILL_REGISTER_NO_GRADIENT("LeftShift");
RILL_REGISTER_NO_GRADIENT("RightShift");

}  // namespace
}  // namespace rill
