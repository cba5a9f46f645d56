// Gradients of tf.math.special's Bessel functions and integrals (ops/cwise_unary_ops.cc), with
// TensorFlow's formulas (math_grad.py): the derivative of each in terms of its neighbours, the
// first-order ones at 0 imputed as TensorFlow imputes them (j1'(0) = i1'(0) = 1/2, Spence'(1) =
// -1).
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

// The elementwise special function `op` of x.
Output Fn(const Scope& s, const char* op, const Output& x) {
  OpBuilder b(s, op);
  b.Input(x).Attr("T", BaseType(x.dtype()));
  return b.Finalize().output(0);
}

Output Scalar(const Scope& s, double v, const Output& like) { return grad::ScalarLike(s, v, like); }

// f(x) - y / x where x != 0, `at_zero` where x == 0 (the first-order functions' derivatives).
Output MinusYOverX(const Scope& s, const Output& f, const Output& x, const Output& y,
                   double at_zero) {
  Output is_zero = ops::Equal(s, x, Scalar(s, 0.0, x));
  Output safe_x = ops::SelectV2(s, is_zero, Scalar(s, 1.0, x), x);
  return ops::SelectV2(s, is_zero, Scalar(s, at_zero, x),
                       ops::Sub(s, f, ops::RealDiv(s, y, safe_x)));
}

#define RILL_SPECIAL_GRAD(name, body)                                                 \
  absl::Status name##Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) { \
    const Output& x = op.inputs[0];                                                   \
    const Output& y = op.outputs[0];                                                  \
    (void)y;                                                                          \
    *out = {ops::Mul(s, g[0], body)};                                                 \
    return s.status();                                                                \
  }                                                                                   \
  RILL_REGISTER_GRADIENT(#name, name##Grad)

// i0' = i1; i1' = i0 - i1 / x (1/2 at 0).
RILL_SPECIAL_GRAD(BesselI0, Fn(s, "BesselI1", x));
RILL_SPECIAL_GRAD(BesselI1, MinusYOverX(s, Fn(s, "BesselI0", x), x, y, 0.5));
// j0' = -j1; j1' = j0 - j1 / x (1/2 at 0).
RILL_SPECIAL_GRAD(BesselJ0, ops::Neg(s, Fn(s, "BesselJ1", x)));
RILL_SPECIAL_GRAD(BesselJ1, MinusYOverX(s, Fn(s, "BesselJ0", x), x, y, 0.5));
// y0' = -y1; y1' = y0 - y1 / x.
RILL_SPECIAL_GRAD(BesselY0, ops::Neg(s, Fn(s, "BesselY1", x)));
RILL_SPECIAL_GRAD(BesselY1, ops::Sub(s, Fn(s, "BesselY0", x), ops::RealDiv(s, y, x)));
// k0' = -k1; k1' = -k0 - k1 / x.
RILL_SPECIAL_GRAD(BesselK0, ops::Neg(s, Fn(s, "BesselK1", x)));
RILL_SPECIAL_GRAD(BesselK1, ops::Sub(s, ops::Neg(s, Fn(s, "BesselK0", x)), ops::RealDiv(s, y, x)));
// k0e' = k0e - k1e; k1e' = k1e (1 - 1/x) - k0e.
RILL_SPECIAL_GRAD(BesselK0e, ops::Sub(s, y, Fn(s, "BesselK1e", x)));
RILL_SPECIAL_GRAD(BesselK1e,
                  ops::Sub(s, ops::Mul(s, y, ops::Sub(s, Scalar(s, 1.0, x), ops::Reciprocal(s, x))),
                           Fn(s, "BesselK0e", x)));
// Dawsn' = 1 - 2 x Dawsn(x).
RILL_SPECIAL_GRAD(Dawsn, ops::Sub(s, Scalar(s, 1.0, x),
                                  ops::Mul(s, ops::Mul(s, Scalar(s, 2.0, x), x), y)));
// Ei' = exp(x) / x.
RILL_SPECIAL_GRAD(Expint, ops::RealDiv(s, ops::Exp(s, x), x));
// C' = cos(pi x^2 / 2), S' = sin(pi x^2 / 2).
RILL_SPECIAL_GRAD(FresnelCos,
                  ops::Cos(s, ops::Mul(s, Scalar(s, 1.5707963267948966, x), ops::Square(s, x))));
RILL_SPECIAL_GRAD(FresnelSin,
                  ops::Sin(s, ops::Mul(s, Scalar(s, 1.5707963267948966, x), ops::Square(s, x))));
// Spence' = log(x) / (1 - x), -1 at x = 1.
RILL_SPECIAL_GRAD(Spence, ops::SelectV2(s, ops::Equal(s, x, Scalar(s, 1.0, x)), Scalar(s, -1.0, x),
                                        ops::RealDiv(s, ops::Log(s, x),
                                                     ops::Sub(s, Scalar(s, 1.0, x), x))));
#undef RILL_SPECIAL_GRAD

}  // namespace
}  // namespace rill
