// Bessel functions of tf.math.special, elementwise on the CPU: BesselI0, BesselI1 (modified, first
// kind), BesselJ0, BesselJ1 (first kind), BesselY0, BesselY1 (second kind), BesselK0, BesselK1
// (modified, second kind) and the exponentially scaled BesselK0e, BesselK1e. Each is Eigen's
// SpecialFunctions implementation (Cephes' polynomial and rational approximations), the one
// TensorFlow's CPU kernels call, evaluated at the element's own precision (half as float, as
// TensorFlow does), so the values outside the domain are TensorFlow's too: Y0, Y1 are -inf for
// x <= 0, K0, K1, K0e, K1e +inf for x <= 0, I0, I1 NaN at +-inf. No errors beyond a missing dtype.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <eigen3/unsupported/Eigen/SpecialFunctions>

#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

constexpr int64_t kBesselCost = 120;

#define RILL_BESSEL_FUNCTOR(Name, fn)             \
  struct Name : CwiseFunctorBase {                \
    static constexpr int64_t kCost = kBesselCost; \
    template <typename T>                         \
    T operator()(T x) const {                     \
      return Eigen::numext::fn(x);                \
    }                                             \
  }

RILL_BESSEL_FUNCTOR(BesselI0Functor, bessel_i0);
RILL_BESSEL_FUNCTOR(BesselI1Functor, bessel_i1);
RILL_BESSEL_FUNCTOR(BesselJ0Functor, bessel_j0);
RILL_BESSEL_FUNCTOR(BesselJ1Functor, bessel_j1);
RILL_BESSEL_FUNCTOR(BesselY0Functor, bessel_y0);
RILL_BESSEL_FUNCTOR(BesselY1Functor, bessel_y1);
RILL_BESSEL_FUNCTOR(BesselK0Functor, bessel_k0);
RILL_BESSEL_FUNCTOR(BesselK1Functor, bessel_k1);
RILL_BESSEL_FUNCTOR(BesselK0eFunctor, bessel_k0e);
RILL_BESSEL_FUNCTOR(BesselK1eFunctor, bessel_k1e);
#undef RILL_BESSEL_FUNCTOR

REGISTER_CWISE_CPU("BesselI0", UnaryOp, BesselI0Functor, half, float, double);
REGISTER_CWISE_CPU("BesselI1", UnaryOp, BesselI1Functor, half, float, double);
REGISTER_CWISE_CPU("BesselJ0", UnaryOp, BesselJ0Functor, half, float, double);
REGISTER_CWISE_CPU("BesselJ1", UnaryOp, BesselJ1Functor, half, float, double);
REGISTER_CWISE_CPU("BesselY0", UnaryOp, BesselY0Functor, half, float, double);
REGISTER_CWISE_CPU("BesselY1", UnaryOp, BesselY1Functor, half, float, double);
REGISTER_CWISE_CPU("BesselK0", UnaryOp, BesselK0Functor, half, float, double);
REGISTER_CWISE_CPU("BesselK1", UnaryOp, BesselK1Functor, half, float, double);
REGISTER_CWISE_CPU("BesselK0e", UnaryOp, BesselK0eFunctor, half, float, double);
REGISTER_CWISE_CPU("BesselK1e", UnaryOp, BesselK1eFunctor, half, float, double);

}  // namespace
}  // namespace rill
