// Gradients of tf.math.special's Bessel functions and integrals (ops/cwise_unary_ops.cc), with
// TensorFlow's formulas (math_grad.py): the derivative of each in terms of its neighbours, the
// first-order ones at 0 imputed as TensorFlow imputes them (j1'(0) = i1'(0) = 1/2, Spence'(1) =
// -1). Also StatelessParameterizedTruncatedNormal's (random_grad.py), built on the normal CDF.
#include <cmath>
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

// The standard normal CDF as TensorFlow's random_grad.py writes it (_Ndtr): with w = x / sqrt(2),
// (1 + erf(w)) / 2 where |w| < 1 / sqrt(2), else (2 - erfc(|w|)) / 2 for w > 0 and erfc(|w|) / 2.
Output Ndtr(const Scope& s, const Output& x) {
  Output half_sqrt_2 = grad::ScalarLike(s, 0.5 * std::sqrt(2.0), x);
  Output w = ops::Mul(s, x, half_sqrt_2);
  Output z = ops::Abs(s, w);
  Output y = ops::SelectV2(
      s, ops::Less(s, z, half_sqrt_2), ops::AddV2(s, grad::ScalarLike(s, 1.0, x), ops::Erf(s, w)),
      ops::SelectV2(s, ops::Greater(s, w, grad::ScalarLike(s, 0.0, x)),
                    ops::Sub(s, grad::ScalarLike(s, 2.0, x), ops::Erfc(s, z)), ops::Erfc(s, z)));
  return ops::Mul(s, grad::ScalarLike(s, 0.5, x), y);
}

// StatelessParameterizedTruncatedNormal (TensorFlow's random_grad.py, implicit differentiation):
// with standardized sample t = (sample - mean) / stddev, bounds a, b and u = (Ndtr(t) -
// Ndtr(a)) / (Ndtr(b) - Ndtr(a)) clipped to [tiny, 1 - eps] of the dtype, d sample / d mean = 1,
// d / d stddev = t, d / d maxval = exp((t^2 - b^2) / 2 + log(u)), d / d minval = exp((t^2 -
// a^2) / 2 + log1p(-u)); each is summed over the sample dims `shape` adds in front of the
// parameters' broadcast shape, then over the dims that parameter was broadcast along. No
// gradient for shape and seed.
absl::Status StatelessParameterizedTruncatedNormalGrad(const Scope& s, const GradOp& op, GradSpan g,
                                                       Grads* out) {
  const Output& shape = op.inputs[0];
  const Output& mean = op.inputs[2];
  const Output& stddev = op.inputs[3];
  const Output& minval = op.inputs[4];
  const Output& maxval = op.inputs[5];
  const Output& sample = op.outputs[0];
  double tiny = 0, eps = 0;
  switch (BaseType(mean.dtype())) {
    case DT_HALF:
      tiny = 6.103515625e-05;
      eps = 0.0009765625;
      break;
    case DT_FLOAT:
      tiny = std::numeric_limits<float>::min();
      eps = std::numeric_limits<float>::epsilon();
      break;
    default:
      tiny = std::numeric_limits<double>::min();
      eps = std::numeric_limits<double>::epsilon();
      break;
  }
  auto standard = [&](const Output& v) { return ops::RealDiv(s, ops::Sub(s, v, mean), stddev); };
  Output min_std = standard(minval);
  Output max_std = standard(maxval);
  Output sample_std = standard(sample);
  Output cdf = ops::RealDiv(s, ops::Sub(s, Ndtr(s, sample_std), Ndtr(s, min_std)),
                            ops::Sub(s, Ndtr(s, max_std), Ndtr(s, min_std)));
  cdf = ops::ClipByValue(s, cdf, grad::ScalarLike(s, tiny, mean),
                         grad::ScalarLike(s, 1.0 - eps, mean));
  Output two = grad::ScalarLike(s, 2.0, mean);
  Output half = grad::ScalarLike(s, 0.5, mean);
  Output sample_sq = ops::Pow(s, sample_std, two);
  Output dmax = ops::Exp(
      s, ops::AddV2(s, ops::Mul(s, half, ops::Sub(s, sample_sq, ops::Pow(s, max_std, two))),
                    ops::Log(s, cdf)));
  Output dmin = ops::Exp(
      s, ops::AddV2(s, ops::Mul(s, half, ops::Sub(s, sample_sq, ops::Pow(s, min_std, two))),
                    ops::Log1p(s, ops::Neg(s, cdf))));
  Output dmean = ops::OnesLike(s, sample_std);
  Output shapes[4] = {ops::Shape(s, mean), ops::Shape(s, stddev), ops::Shape(s, minval),
                      ops::Shape(s, maxval)};
  Output broadcast = ops::BroadcastArgs(s, shapes[0], shapes[1]);
  broadcast = ops::BroadcastArgs(s, shapes[2], broadcast);
  broadcast = ops::BroadcastArgs(s, shapes[3], broadcast);
  Output extra_dims =
      ops::Range(s, ops::Const(s, 0), ops::Sub(s, ops::Size(s, shape), ops::Size(s, broadcast)),
                 ops::Const(s, 1));
  Output partials[4] = {dmean, sample_std, dmin, dmax};
  *out = {Output(), Output()};
  for (int i = 0; i < 4; ++i) {
    Output summed = ops::Sum(s, ops::Mul(s, g[0], partials[i]), extra_dims);
    Output r = ops::BroadcastGradientArgs(s, broadcast, shapes[i]).r1;
    out->push_back(ops::Reshape(s, ops::Sum(s, summed, r, /*keep_dims=*/true), shapes[i]));
  }
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("StatelessParameterizedTruncatedNormal",
                       StatelessParameterizedTruncatedNormalGrad);

}  // namespace
}  // namespace rill
