// Bulk conversions between half and float for the half kernels that compute in float (Gemm's half
// products, the half depthwise convolution). On CPUs with F16C (checked once, at run time) eight
// elements convert per instruction; elsewhere, and for the tails, half's scalar conversions.
// Results equal half's scalar conversions (core/half.h) bit for bit, NaNs included: half -> float
// is exact (a NaN keeps its bits), float -> half rounds to nearest even, overflow gives inf, a NaN
// becomes half's quiet NaN of its sign.
// Thread-safe (no state beyond the one-time CPU check).
#ifndef RILL_KERNELS_MATH_LIB_HALF_CONVERT_H_
#define RILL_KERNELS_MATH_LIB_HALF_CONVERT_H_

#include <cstdint>

#include "core/half.h"

namespace rill {

// dst[i] = float(src[i]) for i < n.
void HalfToFloat(const half* src, int64_t n, float* dst);

// dst[i] = half(src[i]) for i < n; NaNs become half's canonical quiet NaN, as half(float) gives.
void FloatToHalf(const float* src, int64_t n, half* dst);

// acc[i] = float(half(acc[i] + float(x[i]) * float(f[i]))) for i < n: one tap of a convolution
// whose accumulator is held in half (TensorFlow's half depthwise kernel), the product and the sum
// each rounded to float, then the sum to half. x == nullptr stands for zeros (padding taps:
// 0 * inf is NaN).
void HalfMulAddRound(const half* x, const half* f, int64_t n, float* acc);

}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_HALF_CONVERT_H_
