// Incomplete gamma and Hurwitz zeta functions, elementwise on the CPU with numpy broadcasting:
// Igamma(a, x) = P(a, x), the regularized lower incomplete gamma function; Igammac(a, x) =
// Q(a, x) = 1 - P(a, x), the upper one; IgammaGradA(a, x) = dP(a, x)/da; RandomGammaGrad(alpha,
// sample), the derivative of a gamma sample in alpha at fixed P (tf.random.gamma's gradient);
// Zeta(x, q) = sum_k (q + k)^-x, the Hurwitz zeta function. Each type is computed in its own
// precision by Eigen's SpecialFunctions module (series and continued fractions after Cephes), the
// functions TensorFlow's CPU kernels call, so results, NaNs outside the domain (a <= 0, x < 0 for
// the incomplete gamma; x < 1 for Zeta) and infinities at poles are TensorFlow's. No errors beyond
// a missing dtype and shapes that do not broadcast.
#include <eigen3/unsupported/Eigen/SpecialFunctions>
#include <limits>

#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

// Series or continued fractions of up to a few hundred terms per element.
constexpr int64_t kIncompleteGammaCost = 400;

struct IgammaFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kIncompleteGammaCost;
  template <typename T>
  T operator()(T a, T x) const {
    return Eigen::numext::igamma(a, x);
  }
};
struct IgammacFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kIncompleteGammaCost;
  template <typename T>
  T operator()(T a, T x) const {
    return Eigen::numext::igammac(a, x);
  }
};
struct GammaSampleDerAlphaFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 2 * kIncompleteGammaCost;
  template <typename T>
  T operator()(T alpha, T sample) const {
    return Eigen::numext::gamma_sample_der_alpha(alpha, sample);
  }
};
struct IgammaGradAFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 2 * kIncompleteGammaCost;
  template <typename T>
  T operator()(T a, T x) const {
    return Eigen::numext::igamma_der_a(a, x);
  }
};
struct ZetaFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 100;
  template <typename T>
  T operator()(T x, T q) const {
    // Every term (q + k)^-x vanishes; Eigen 3.4's series gives NaN there, TensorFlow's Eigen 0.
    if (q == std::numeric_limits<T>::infinity() && x > T(1)) return T(0);
    return Eigen::numext::zeta(x, q);
  }
};

// TensorFlow registers CPU kernels for float and double only (the ops also list half and
// bfloat16).
REGISTER_CWISE_CPU("Igamma", BinaryOp, IgammaFunctor, float, double);
REGISTER_CWISE_CPU("Igammac", BinaryOp, IgammacFunctor, float, double);
REGISTER_CWISE_CPU("IgammaGradA", BinaryOp, IgammaGradAFunctor, float, double);
REGISTER_CWISE_CPU("Zeta", BinaryOp, ZetaFunctor, float, double);
REGISTER_CWISE_CPU("RandomGammaGrad", BinaryOp, GammaSampleDerAlphaFunctor, float, double);

}  // namespace
}  // namespace rill
