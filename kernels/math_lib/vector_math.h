// Float transcendentals written as straight-line code (no branches, no library calls), so that a
// loop calling them vectorizes inside RunSimd's AVX2 / AVX-512 clones (simd_dispatch.h):
//
//   ExpF      e^x within 2 ulp over the whole range: +inf above ln(FLT_MAX), 0 below
//             ln(2^-150), subnormal results in between rounded once, NaN stays NaN.
//   LogF      ln x within 2 ulp: subnormals handled, ln 0 = -inf, ln of a negative = NaN,
//             ln inf = inf, NaN stays NaN.
//   SigmoidF  1 / (1 + e^-x) with ExpF.
//   TanhF     Eigen's rational approximation (TensorFlow's CPU Tanh computes the same).
//   ErfF      Eigen's rational approximation (TensorFlow's CPU Erf for float computes the same).
//   CubeF     x^3 rounded once to float (correctly rounded, subnormal results included), without
//             powf's call; glibc's powf(x, 3) is 1 ulp off it for about 0.03% of floats.
//
// Pure functions; thread-safe.
#ifndef RILL_KERNELS_MATH_LIB_VECTOR_MATH_H_
#define RILL_KERNELS_MATH_LIB_VECTOR_MATH_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <eigen3/Eigen/Core>
#include <eigen3/unsupported/Eigen/SpecialFunctions>
#include <limits>

namespace rill {
namespace vector_math {

inline float FloatFromBits(int32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline int32_t BitsFromFloat(float f) {
  int32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

inline float ExpF(float x) {
  constexpr float kMax = 88.72283935546875f;    // above: +inf
  constexpr float kMin = -103.97208404541016f;  // below: 0 (under half the smallest subnormal)
  // Clamped, and NaN replaced, so the conversion to int below is defined.
  float c = x < kMin ? kMin : x;
  c = c > kMax ? kMax : c;
  c = c == c ? c : 0.0f;
  // x = n ln2 + r, |r| <= ln2 / 2 (ln2 split in two so n ln2 is exact to float precision). n is
  // rounded to the nearest integer by adding and subtracting 1.5 * 2^23 (no library call, so the
  // loop vectorizes; |c log2 e| < 2^22).
  constexpr float kRound = 12582912.0f;
  const float n = (c * 1.44269504088896341f + kRound) - kRound;
  float r = c - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  // e^r by its degree-7 Taylor-like minimax polynomial (Cephes's coefficients).
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  // Times 2^n in two steps, each 2^k with k in [-75, 64] a normal float, so results near the
  // ends (overflow to inf, subnormals) round once, in the last multiplication.
  const int32_t ni = static_cast<int32_t>(n);
  const int32_t n1 = ni / 2;
  const int32_t n2 = ni - n1;
  float y = p * FloatFromBits((n1 + 127) << 23) * FloatFromBits((n2 + 127) << 23);
  y = x > kMax ? std::numeric_limits<float>::infinity() : y;
  y = x < kMin ? 0.0f : y;
  return x == x ? y : x;
}

inline float LogF(float x) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)); ln x = e ln2 + ln(1 + f), f = m - 1. Subnormals
  // are scaled by 2^23 first.
  // Both arms of each choice are computed and then selected: GCC does not turn a conditional
  // floating-point operation into a select (it might trap), and the loop would not vectorize.
  const bool subnormal = x < std::numeric_limits<float>::min();
  const float scaled = x * 8388608.0f;
  const int32_t bits = BitsFromFloat(subnormal ? scaled : x);
  int32_t e = ((bits >> 23) & 0xff) - 127 - (subnormal ? 23 : 0);
  float m = FloatFromBits((bits & 0x007fffff) | 0x3f800000);  // [1, 2)
  const bool high = m > 1.41421356237f;
  const float half_m = m * 0.5f;
  m = high ? half_m : m;
  e = high ? e + 1 : e;
  const float f = m - 1.0f;
  // ln(1 + f) = f - f^2 / 2 + f^3 P(f), Cephes's coefficients; ln2 split as in ExpF.
  const float z = f * f;
  float y = 7.0376836292e-2f;
  y = y * f - 1.1514610310e-1f;
  y = y * f + 1.1676998740e-1f;
  y = y * f - 1.2420140846e-1f;
  y = y * f + 1.4249322787e-1f;
  y = y * f - 1.6668057665e-1f;
  y = y * f + 2.0000714765e-1f;
  y = y * f - 2.4999993993e-1f;
  y = y * f + 3.3333331174e-1f;
  y = y * f * z;
  const float ef = static_cast<float>(e);
  y = y + ef * -2.12194440e-4f;
  y = y - 0.5f * z;
  float r = f + y;
  r = r + ef * 0.693359375f;
  r = x == 0.0f ? -kInf : r;
  r = x < 0.0f ? std::numeric_limits<float>::quiet_NaN() : r;
  r = x == kInf ? kInf : r;
  return x == x ? r : x;
}

inline float SigmoidF(float x) { return 1.0f / (1.0f + ExpF(-x)); }

inline float TanhF(float x) { return Eigen::internal::generic_fast_tanh_float(x); }

inline float ErfF(float x) { return Eigen::internal::generic_fast_erf_float(x); }

// x * x is exact in double; x^3 is then rounded to double and that to float. Rounding twice
// differs from rounding once only where the double lies exactly halfway between two floats while
// x^3 does not, which no float's cube does (searched over every 24-bit mantissa, and over every x
// whose cube is a subnormal float).
inline float CubeF(float x) {
  const double xd = x;
  return static_cast<float>(xd * xd * xd);
}

}  // namespace vector_math
}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_VECTOR_MATH_H_
