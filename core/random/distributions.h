// TensorFlow's conversions from Philox output to floating and integer samples, so seeded random
// ops give TensorFlow's values bit for bit (the math library's sinf/cosf/logf included, which both
// engines take from the C library):
//   Uint32ToFloat: [0, 1) from the low 23 bits as a mantissa; Uint64ToDouble: [0, 1) from 52 bits;
//   Uint16ToHalf: [0, 1) from 10 bits; BoxMuller{Float,Double}: two standard normals from two
//   uniforms (the first clamped below at 1e-7 so log stays finite).
// Pure functions; thread-safe.
#ifndef RILL_CORE_RANDOM_DISTRIBUTIONS_H_
#define RILL_CORE_RANDOM_DISTRIBUTIONS_H_

#include <cmath>
#include <cstdint>
#include <cstring>

#include "core/half.h"

namespace rill {
namespace random {

inline float Uint32ToFloat(uint32_t x) {
  const uint32_t bits = (127u << 23) | (x & 0x7fffffu);
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f - 1.0f;
}

inline double Uint64ToDouble(uint32_t x0, uint32_t x1) {
  const uint64_t bits = (uint64_t{1023} << 52) | (uint64_t{x0 & 0xfffffu} << 32) | x1;
  double d;
  std::memcpy(&d, &bits, sizeof(d));
  return d - 1.0;
}

inline half Uint16ToHalf(uint16_t x) {
  const uint16_t bits = static_cast<uint16_t>((15u << 10) | (x & 0x3ffu));
  return half(static_cast<float>(half::FromBits(bits)) - 1.0f);
}

inline void BoxMullerFloat(uint32_t x0, uint32_t x1, float* f0, float* f1) {
  constexpr float kEpsilon = 1.0e-7f;
  float u1 = Uint32ToFloat(x0);
  if (u1 < kEpsilon) u1 = kEpsilon;
  // 2 * pi * u in double, rounded once to float, as TensorFlow's expression evaluates.
  const float v1 = static_cast<float>(2.0f * M_PI * Uint32ToFloat(x1));
  const float u2 = std::sqrt(-2.0f * std::log(u1));
  sincosf(v1, f0, f1);  // what TensorFlow calls on Linux
  *f0 *= u2;
  *f1 *= u2;
}

inline void BoxMullerDouble(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3, double* d0,
                            double* d1) {
  constexpr double kEpsilon = 1.0e-7;
  double u1 = Uint64ToDouble(x0, x1);
  if (u1 < kEpsilon) u1 = kEpsilon;
  const double v1 = 2 * M_PI * Uint64ToDouble(x2, x3);
  const double u2 = std::sqrt(-2.0 * std::log(u1));
  sincos(v1, d0, d1);
  *d0 *= u2;
  *d1 *= u2;
}

}  // namespace random
}  // namespace rill

#endif  // RILL_CORE_RANDOM_DISTRIBUTIONS_H_
