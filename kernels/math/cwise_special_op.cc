// Special functions, elementwise on the CPU: Lgamma (log |Gamma(x)|), Digamma, Erfinv, Ndtri
// (the inverse of the standard normal CDF), BesselI0e and BesselI1e (exponentially scaled modified
// Bessel functions of the first kind, orders 0 and 1), and the binary Polygamma(a, x) (the a-th
// derivative of Digamma, broadcasting). Every type is computed in double and rounded once. Outside
// a function's domain the result is NaN (Erfinv(|x| > 1), Ndtri(p < 0 or p > 1), Digamma at 0,
// negative integers and -inf, Polygamma of an order that is not a non-negative integer or of an
// even order >= 2 at 0, negative integers and -inf), at its poles +-inf (Lgamma at 0 and negative
// integers, Erfinv(+-1), Ndtri(0) and Ndtri(1), Polygamma of an odd order at 0, negative integers
// and -inf), as in TensorFlow. No errors beyond a missing dtype.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/cwise_op.h"

namespace rill {
namespace {

constexpr int64_t kSpecialCost = 60;
constexpr double kPi = 3.14159265358979323846;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

double LogGamma(double x) {
  int sign;
  return lgamma_r(x, &sign);  // lgamma_r: std::lgamma may write the global signgam
}

double Digamma(double x) {
  if (std::isnan(x) || x == kInf) return x;
  if (x <= 0 && x == std::floor(x)) return kNaN;  // the poles, and -inf
  double result = 0;
  if (x < 0) {
    // Reflection: psi(x) = psi(1 - x) - pi / tan(pi x); tan has period 1 in x, so its argument is
    // x less the nearest integer (exact), which keeps it accurate near the poles and for large |x|.
    const double r = x - std::nearbyint(x);
    result = -kPi / std::tan(kPi * r);
    x = 1 - x;
  }
  // Recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the asymptotic series
  // psi(x) = ln x - 1/(2x) - sum B_2k / (2k x^2k), whose truncation error at x = 10 is < 1e-16.
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  const double z = 1 / (x * x);
  const double series =
      z * (1.0 / 12 -
           z * (1.0 / 120 -
                z * (1.0 / 252 -
                     z * (1.0 / 240 - z * (1.0 / 132 - z * (691.0 / 32760 - z * (1.0 / 12)))))));
  return result + std::log(x) - 0.5 / x - series;
}

// B_2j / (2j)! for j = 1..12 (B_2j the Bernoulli numbers): the Euler-Maclaurin coefficients.
constexpr double kBernoulliOverFactorial[] = {
    0.083333333333333329,    -0.0013888888888888889,  3.3068783068783071e-05,
    -8.2671957671957675e-07, 2.08767569878681e-08,    -5.2841901386874932e-10,
    1.3382536530684679e-11,  -3.3896802963225827e-13, 8.5860620562778452e-15,
    -2.1748686985580619e-16, 5.5090028283602295e-18,  -1.3954464685812522e-19};

// exp(log_scale) * zeta(s, q), the Hurwitz zeta function sum_k (q + k)^-s scaled, for q > 0 and an
// integer s >= 2. The scale (log n! for Polygamma) enters every term's exponent, so a result that
// is finite in double never overflows or underflows on the way. Terms are summed directly up to
// w = q + k >= max(10, s); the rest is the Euler-Maclaurin tail
//   w^(1-s) / (s-1) + w^-s / 2 + sum_j B_2j/(2j)! s(s+1)...(s+2j-2) w^(-s-2j+1),
// whose terms shrink by about ((s + 2j) / (2 pi w))^2 each: below 1e-17 relative within 12 terms.
double ScaledHurwitzZeta(double s, double log_scale, double q) {
  const double stop = std::max(10.0, s);
  double sum = 0;
  double w = q;
  // The early return below ends the direct sum within about a hundred terms; the cap only
  // guards a w so large that w + 1 == w.
  for (int k = 0; w < stop && k < 10000; ++k, w += 1) {
    const double term = std::exp(log_scale - s * std::log(w));
    sum += term;
    // The terms decrease, so the ones after this sum to at most the integral of t^-s from w on,
    // term * w / (s - 1): below 1e-17 of the sum, they are dropped.
    if (term * w <= sum * (s - 1) * 1e-17) return sum;
  }
  if (w == kInf) return sum;
  const double head = std::exp(log_scale - (s - 1) * std::log(w));  // scale * w^(1-s)
  double tail = 1 / (s - 1) + 0.5 / w;
  double factor = s / (w * w);  // s(s+1)...(s+2j-2) / w^2j
  for (int j = 0; j < 12; ++j) {
    const double t = kBernoulliOverFactorial[j] * factor;
    tail += t;
    if (std::fabs(t) <= std::fabs(tail) * 1e-17) break;
    factor *= (s + 2 * j + 1) * (s + 2 * j + 2) / (w * w);
  }
  return sum + head * tail;
}

// Polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x) for a positive integer n, Digamma(x) for n = 0.
double Polygamma(double n, double x) {
  if (std::isnan(n) || std::isnan(x)) return kNaN;
  if (n < 0 || n != std::floor(n) || n == kInf) return kNaN;
  if (n == 0) return Digamma(x);
  const bool odd = std::fmod(n, 2.0) == 1;
  const double sign = odd ? 1.0 : -1.0;
  if (x <= 0 && x == std::floor(x)) return odd ? kInf : kNaN;  // the poles, and -inf
  if (x == kInf) return sign * 0.0;
  const double s = n + 1;
  const double log_scale = LogGamma(n + 1);
  if (x > 0) return sign * ScaledHurwitzZeta(s, log_scale, x);
  // x < 0, not an integer: the terms (x + k)^-s with x + k < 0, then zeta(s, f) from the fraction
  // f = x - floor(x) in (0, 1) on. A few negative terms are summed directly; many (|x| > 64) are
  // (-1)^s (zeta(s, c) - zeta(s, 1 - x)) with c = ceil(x) - x, the same terms mirrored, so no input
  // loops for long.
  const double f = x - std::floor(x);
  double negative;
  if (x > -64) {
    negative = 0;
    for (double a = x; a < 0; a += 1) {
      const double term = std::exp(log_scale - s * std::log(-a));
      negative += odd ? term : -term;  // (-1)^s = (-1)^(n+1)
    }
  } else {
    const double c = std::ceil(x) - x;
    const double mirrored =
        ScaledHurwitzZeta(s, log_scale, c) - ScaledHurwitzZeta(s, log_scale, 1 - x);
    negative = odd ? mirrored : -mirrored;
  }
  return sign * (negative + ScaledHurwitzZeta(s, log_scale, f));
}

double NormalPdf(double x) { return std::exp(-0.5 * x * x) / std::sqrt(2 * kPi); }

// Ndtri for 0 < q <= 0.5: Abramowitz and Stegun 26.2.23 (error < 4.5e-4) refined by Halley steps
// on the normal CDF (cubic convergence: three steps reach double precision). The CDF's error
// CDF(x) - q is taken from erfc in the tail and from erf near the centre, where q - 0.5 is exact.
double NdtriLower(double q) {
  const double t = std::sqrt(-2 * std::log(q));
  double x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                       (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
  for (int i = 0; i < 3; ++i) {
    const double pdf = NormalPdf(x);
    if (pdf == 0) break;
    const double residual = q < 0.25 ? 0.5 * std::erfc(-x / std::sqrt(2.0)) - q
                                     : 0.5 * std::erf(x / std::sqrt(2.0)) - (q - 0.5);
    const double u = residual / pdf;
    x -= u / (1 + 0.5 * x * u);
  }
  return x;
}

double Ndtri(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return kNaN;
  if (p == 0) return -kInf;
  if (p == 1) return kInf;
  if (p == 0.5) return 0;
  if (p > 0.5) return -NdtriLower(1 - p);  // 1 - p is exact for p > 0.5
  return NdtriLower(p);
}

double Erfinv(double x) {
  if (std::isnan(x) || std::fabs(x) > 1) return kNaN;
  if (x == 1) return kInf;
  if (x == -1) return -kInf;
  if (x == 0) return x;
  const double a = std::fabs(x);
  // Start from erfinv(a) = -ndtri((1 - a) / 2) / sqrt(2) (tiny a: the series' first term), then
  // Newton steps on erf (erfc for a >= 0.5, where 1 - a is exact and carries the precision).
  double y = a < 1e-3 ? a * std::sqrt(kPi) / 2 : -NdtriLower(0.5 * (1 - a)) / std::sqrt(2.0);
  const double two_over_sqrt_pi = 2 / std::sqrt(kPi);
  for (int i = 0; i < 4; ++i) {
    const double slope = two_over_sqrt_pi * std::exp(-y * y);
    if (slope == 0) break;
    const double residual = a < 0.5 ? std::erf(y) - a : (1 - a) - std::erfc(y);
    y -= residual / slope;
  }
  return x < 0 ? -y : y;
}

// exp(-|x|) I_nu(x) for nu = 0 or 1: the power series up to |x| = 20 (positive terms, about 50),
// the asymptotic expansion beyond (its smallest term, near k = 2|x|, is below 1e-17 there).
double BesselIe(int nu, double x) {
  if (std::isnan(x)) return x;
  const double ax = std::fabs(x);
  double value;
  if (ax == kInf) {
    value = 0;
  } else if (ax <= 20) {
    const double q = 0.25 * ax * ax;
    double term = nu == 0 ? 1.0 : 0.5 * ax;
    double sum = term;
    for (int k = 1; k < 500; ++k) {
      term *= q / (static_cast<double>(k) * (k + nu));
      sum += term;
      if (term <= sum * 1e-17) break;
    }
    value = sum * std::exp(-ax);
  } else {
    const double mu = 4.0 * nu * nu;
    double term = 1;
    double sum = 1;
    for (int k = 1; k < 200; ++k) {
      const double odd = 2.0 * k - 1;
      const double next = -term * (mu - odd * odd) / (8.0 * k * ax);
      if (std::fabs(next) >= std::fabs(term)) break;  // the series starts to diverge
      term = next;
      sum += term;
      if (std::fabs(term) <= std::fabs(sum) * 1e-17) break;
    }
    value = sum / std::sqrt(2 * kPi * ax);
  }
  return (nu == 1 && x < 0) ? -value : value;
}

struct LgammaFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kSpecialCost;
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(LogGamma(static_cast<double>(x)));
  }
};
struct DigammaFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = kSpecialCost;
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(Digamma(static_cast<double>(x)));
  }
};
struct ErfinvFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 4 * kSpecialCost;
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(Erfinv(static_cast<double>(x)));
  }
};
struct NdtriFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 4 * kSpecialCost;
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(Ndtri(static_cast<double>(x)));
  }
};
struct BesselI0eFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 2 * kSpecialCost;
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(BesselIe(0, static_cast<double>(x)));
  }
};
struct BesselI1eFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 2 * kSpecialCost;
  template <typename T>
  T operator()(T x) const {
    return static_cast<T>(BesselIe(1, static_cast<double>(x)));
  }
};

struct PolygammaFunctor : CwiseFunctorBase {
  static constexpr int64_t kCost = 4 * kSpecialCost;
  template <typename T>
  T operator()(T a, T x) const {
    return static_cast<T>(Polygamma(static_cast<double>(a), static_cast<double>(x)));
  }
};

REGISTER_CWISE_CPU("Lgamma", UnaryOp, LgammaFunctor, half, float, double);
REGISTER_CWISE_CPU("Digamma", UnaryOp, DigammaFunctor, half, float, double);
// TensorFlow has no half CPU kernel for these two.
REGISTER_CWISE_CPU("Erfinv", UnaryOp, ErfinvFunctor, float, double);
REGISTER_CWISE_CPU("Ndtri", UnaryOp, NdtriFunctor, float, double);
REGISTER_CWISE_CPU("BesselI0e", UnaryOp, BesselI0eFunctor, half, float, double);
REGISTER_CWISE_CPU("BesselI1e", UnaryOp, BesselI1eFunctor, half, float, double);
REGISTER_CWISE_CPU("Polygamma", BinaryOp, PolygammaFunctor, float, double);

}  // namespace
}  // namespace rill
