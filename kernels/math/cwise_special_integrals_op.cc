// The integrals of tf.math.special, elementwise on the CPU (float and double, as TensorFlow
// registers them), each computed in double and rounded once:
//   Dawsn(x)      Dawson's integral exp(-x^2) * integral_0^x exp(t^2) dt (odd);
//   Expint(x)     the exponential integral Ei(x) = -PV integral_{-x}^inf exp(-t) / t dt, for x > 0;
//   FresnelCos(x), FresnelSin(x)  integral_0^x cos(pi t^2 / 2) dt, sin(...) (odd);
//   Spence(x)     Spence's integral integral_1^x log(t) / (1 - t) dt = Li2(1 - x), for x >= 0.
// Values at the domain's edges are TensorFlow's: Expint(x < 0) = NaN, Expint(0) = -inf,
// Expint(+inf) = NaN; Spence(x < 0) = NaN, Spence(+inf) = NaN; Dawsn(+-inf) = 0;
// FresnelCos/Sin(+-inf) = +-0.5; NaN in, NaN out. The methods (series where their terms do not
// cancel, asymptotic series, a continued fraction) keep every value within a few ulps of double.
// No errors beyond a missing dtype.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <cmath>
#include <complex>
#include <limits>

#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

constexpr int64_t kIntegralCost = 200;
constexpr double kPi = 3.14159265358979323846;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kEulerGamma = 0.57721566490153286061;

double Dawson(double x) {
  if (std::isnan(x)) return x;
  const double ax = std::fabs(x);
  double f;
  if (ax < 8.0) {
    // exp(-x^2) * sum x^(2n+1) / (n! (2n+1)): positive terms, no cancellation.
    const double x2 = ax * ax;
    double term = ax;  // x^(2n+1) / n!
    double sum = ax;
    for (int n = 1; n < 400; ++n) {
      term *= x2 / n;
      const double add = term / (2 * n + 1);
      sum += add;
      if (add < sum * kEps * 0.25) break;
    }
    f = std::exp(-x2) * sum;
  } else {
    // 1/(2x) * sum (2n-1)!! / (2x^2)^n, summed until its terms stop shrinking.
    const double inv = 1.0 / (2.0 * ax * ax);
    double term = 1.0;
    double sum = 1.0;
    for (int n = 1; n < 400; ++n) {
      const double next = term * (2 * n - 1) * inv;
      if (next >= term) break;
      term = next;
      sum += term;
      if (term < sum * kEps * 0.25) break;
    }
    f = std::isinf(ax) ? 0.0 : sum / (2.0 * ax);
  }
  return x < 0 ? -f : f;
}

double ExponentialIntegral(double x) {
  if (std::isnan(x) || x < 0 || std::isinf(x)) return kNaN;
  if (x == 0) return -kInf;
  if (x <= 40.0) {
    // gamma + log(x) + sum x^k / (k k!).
    double term = 1.0;  // x^k / k!
    double sum = 0.0;
    for (int k = 1; k < 500; ++k) {
      term *= x / k;
      const double add = term / k;
      sum += add;
      if (add < sum * kEps * 0.25) break;
    }
    return kEulerGamma + std::log(x) + sum;
  }
  // exp(x) / x * sum k! / x^k, summed until its terms stop shrinking.
  double term = 1.0;
  double sum = 1.0;
  for (int k = 1; k < 500; ++k) {
    const double next = term * k / x;
    if (next >= term) break;
    term = next;
    sum += term;
    if (term < sum * kEps * 0.25) break;
  }
  return std::exp(x) / x * sum;
}

// Fresnel integrals C(x), S(x) for x >= 0: power series up to 1.5, above it the continued
// fraction of the complementary error function of (1 - i) sqrt(pi) x / 2 (Lentz's method), and
// 0.5 past 36974 as TensorFlow's Cephes kernel gives (its asymptotic terms, below 1e-5, dropped).
void Fresnel(double x, double* c, double* s) {
  if (x > 36974.0) {
    *c = *s = 0.5;
    return;
  }
  if (x < 1.5) {
    // C = sum (-1)^n (pi/2)^(2n) x^(4n+1) / ((2n)! (4n+1)),
    // S = sum (-1)^n (pi/2)^(2n+1) x^(4n+3) / ((2n+1)! (4n+3)).
    const double t = kPi / 2 * x * x;
    double term = x;  // (pi/2)^k x^(2k+1) / k!
    double sum_c = x, sum_s = 0.0;
    for (int k = 1; k < 200; ++k) {
      term *= t / k;
      const double add = term / (2 * k + 1);
      const double sign = (k / 2) % 2 == 0 ? 1.0 : -1.0;
      if (k % 2 == 0) {
        sum_c += sign * add;
      } else {
        sum_s += sign * add;
      }
      if (add < kEps * 0.25 * std::fabs(k % 2 == 0 ? sum_c : sum_s) && k > 2) break;
    }
    *c = sum_c;
    *s = sum_s;
    return;
  }
  const double pix2 = kPi * x * x;
  std::complex<double> b(1.0, -pix2);
  std::complex<double> cc = 1.0 / std::numeric_limits<double>::min();
  std::complex<double> d = 1.0 / b;
  std::complex<double> h = d;
  int n = -1;
  for (int k = 2; k < 1000; ++k) {
    n += 2;
    const double a = -static_cast<double>(n) * (n + 1);
    b += 4.0;
    d = 1.0 / (a * d + b);
    cc = b + a / cc;
    const std::complex<double> del = cc * d;
    h *= del;
    if (std::fabs(del.real() - 1.0) + std::fabs(del.imag()) < kEps) break;
  }
  h *= std::complex<double>(x, -x);
  // pi x^2 / 2 reduced exactly: x^2 = hi + lo, and hi modulo 4 (the period in x^2).
  const double hi = x * x;
  const double t = std::fmod(hi, 4.0) + std::fma(x, x, -hi);
  const std::complex<double> cs =
      std::complex<double>(0.5, 0.5) *
      (1.0 - std::complex<double>(std::cos(0.5 * kPi * t), std::sin(0.5 * kPi * t)) * h);
  *c = cs.real();
  *s = cs.imag();
}

double FresnelCos(double x) {
  if (std::isnan(x)) return x;
  double c, s;
  Fresnel(std::fabs(x), &c, &s);
  return x < 0 ? -c : c;
}

double FresnelSin(double x) {
  if (std::isnan(x)) return x;
  double c, s;
  Fresnel(std::fabs(x), &c, &s);
  return x < 0 ? -s : s;
}

// The dilogarithm Li2(z) = sum z^k / k^2 for z <= 1, brought into [0, 1/2] by its reflection
// and Landen identities.
double Dilog(double z) {
  constexpr double kPi2Over6 = kPi * kPi / 6;
  if (z == 1.0) return kPi2Over6;
  if (z < -1.0) {
    const double l = std::log(-z);
    return -kPi2Over6 - 0.5 * l * l - Dilog(1.0 / z);
  }
  if (z < 0.0) {
    const double l = std::log1p(-z);
    return -Dilog(z / (z - 1.0)) - 0.5 * l * l;
  }
  if (z > 0.5) return kPi2Over6 - std::log(z) * std::log1p(-z) - Dilog(1.0 - z);
  double power = z;
  double sum = z;
  for (int k = 2; k < 200; ++k) {
    power *= z;
    const double add = power / (static_cast<double>(k) * k);
    sum += add;
    if (add < sum * kEps * 0.25) break;
  }
  return sum;
}

double Spence(double x) {
  if (std::isnan(x) || x < 0 || std::isinf(x)) return kNaN;
  return Dilog(1.0 - x);
}

#define RILL_INTEGRAL_FUNCTOR(Name, fn)                  \
  struct Name : CwiseFunctorBase {                       \
    static constexpr int64_t kCost = kIntegralCost;      \
    template <typename T>                                \
    T operator()(T x) const {                            \
      return static_cast<T>(fn(static_cast<double>(x))); \
    }                                                    \
  }

RILL_INTEGRAL_FUNCTOR(DawsnFunctor, Dawson);
RILL_INTEGRAL_FUNCTOR(ExpintFunctor, ExponentialIntegral);
RILL_INTEGRAL_FUNCTOR(FresnelCosFunctor, FresnelCos);
RILL_INTEGRAL_FUNCTOR(FresnelSinFunctor, FresnelSin);
RILL_INTEGRAL_FUNCTOR(SpenceFunctor, Spence);
#undef RILL_INTEGRAL_FUNCTOR

REGISTER_CWISE_CPU("Dawsn", UnaryOp, DawsnFunctor, float, double);
REGISTER_CWISE_CPU("Expint", UnaryOp, ExpintFunctor, float, double);
REGISTER_CWISE_CPU("FresnelCos", UnaryOp, FresnelCosFunctor, float, double);
REGISTER_CWISE_CPU("FresnelSin", UnaryOp, FresnelSinFunctor, float, double);
REGISTER_CWISE_CPU("Spence", UnaryOp, SpenceFunctor, float, double);

}  // namespace
}  // namespace rill
