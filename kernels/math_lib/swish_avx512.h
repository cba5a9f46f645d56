// Swish (x / (1 + e^-x)) of 16 floats in an AVX-512 register, for loops compiled with the target
// attribute below (swish_inplace.cc's pass over a convolution's output). Include only where
// RILL_SIMD_CLONES (simd_dispatch.h) is 1, and call only where the CPU has AVX-512F/DQ.
//
// e^-x as 2^t, t = -x log2 e = k + f with k = round(t), |f| <= 1/2: 2^f by a degree-5 polynomial
// (fitted for relative error on [-1/2, 1/2], under 2e-7), scaled by 2^k with vscalefps, which
// gives +inf past the float range and 0 (through subnormals) below it. f is computed with log2 e
// in two parts (two fused multiply-adds), so its error does not grow with |x|; the exponent's
// argument is x clamped to [-200, 200] (e^-200 is already 0 in float and e^200 +inf, and a NaN
// becomes 200, so t is never NaN). Within 1e-6 relative of the exact value for |x| <= 80; +inf
// gives +inf, x below about -88.7 gives -0, -inf gives NaN (as x * sigmoid(x) does), NaN stays
// NaN.
#ifndef RILL_KERNELS_MATH_LIB_SWISH_AVX512_H_
#define RILL_KERNELS_MATH_LIB_SWISH_AVX512_H_

#include <immintrin.h>

#define RILL_AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")))

namespace rill {
namespace swish_avx512 {

RILL_AVX512_TARGET __attribute__((always_inline)) inline __m512 ExpNeg16(__m512 x) {
  const __m512 kLog2eHi = _mm512_set1_ps(-1.44269502162933349609375f);
  const __m512 kLog2eLo = _mm512_set1_ps(-1.925963033500011e-8f);
  const __m512 c = _mm512_max_ps(_mm512_min_ps(x, _mm512_set1_ps(200.0f)), _mm512_set1_ps(-200.0f));
  const __m512 k = _mm512_roundscale_ps(_mm512_mul_ps(c, kLog2eHi),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 f = _mm512_fmsub_ps(c, kLog2eHi, k);
  f = _mm512_fmadd_ps(c, kLog2eLo, f);
  __m512 p = _mm512_set1_ps(1.3276470126584172e-3f);
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(9.675541892647743e-3f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(5.550713464617729e-2f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(2.4022120237350464e-1f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(6.931469440460205e-1f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.0000001192092896f));
  return _mm512_scalef_ps(p, k);
}

// x / (1 + e^-x).
RILL_AVX512_TARGET __attribute__((always_inline)) inline __m512 Swish16(__m512 x) {
  return _mm512_div_ps(x, _mm512_add_ps(ExpNeg16(x), _mm512_set1_ps(1.0f)));
}

}  // namespace swish_avx512
}  // namespace rill

#endif  // RILL_KERNELS_MATH_LIB_SWISH_AVX512_H_
