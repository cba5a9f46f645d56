#include "kernels/math_lib/half_convert.h"

#include <immintrin.h>

#include <cmath>

#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

// F16C when the CPU has it, unless RILL_SIMD=baseline (or a test) rules vector paths out: the
// scalar conversions of core/half.h are the reference either way.
bool HasF16c() {
  static const bool cpu = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
  return cpu && ActiveSimdLevel() != SimdLevel::kBaseline;
}

// NaN lanes are left to the scalar fix-up: F16C sets a signaling NaN's quiet bit, half's
// conversion keeps the bits.
__attribute__((target("avx,f16c"))) int64_t HalfToFloatF16c(const half* src, int64_t n,
                                                            float* dst) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m256 v = _mm256_cvtph_ps(h);
    _mm256_storeu_ps(dst + i, v);
    if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)) != 0) {
      for (int64_t j = i; j < i + 8; ++j) dst[j] = static_cast<float>(src[j]);
    }
  }
  return i;
}

// NaN lanes are left to the scalar fix-up: F16C keeps part of a NaN's payload, half(float) does
// not.
__attribute__((target("avx,f16c"))) int64_t FloatToHalfF16c(const float* src, int64_t n,
                                                            half* dst) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(src + i);
    const __m128i h = _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), h);
    if (_mm256_movemask_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q)) != 0) {
      for (int64_t j = i; j < i + 8; ++j) dst[j] = half(src[j]);
    }
  }
  return i;
}

// The product and the sum are separate float operations (no fused multiply-add), as in the
// scalar loop; the round trip through half leaves a NaN a NaN, which is all a later store keeps.
__attribute__((target("avx,f16c"))) int64_t HalfMulAddRoundF16c(const half* x, const half* f,
                                                                int64_t n, float* acc) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 xv =
        x == nullptr ? _mm256_setzero_ps()
                     : _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i)));
    const __m256 fv = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(f + i)));
    const __m256 sum = _mm256_add_ps(_mm256_loadu_ps(acc + i), _mm256_mul_ps(xv, fv));
    const __m128i h = _mm256_cvtps_ph(sum, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm256_storeu_ps(acc + i, _mm256_cvtph_ps(h));
  }
  return i;
}

}  // namespace

void HalfToFloat(const half* src, int64_t n, float* dst) {
  int64_t i = HasF16c() ? HalfToFloatF16c(src, n, dst) : 0;
  for (; i < n; ++i) dst[i] = static_cast<float>(src[i]);
}

void FloatToHalf(const float* src, int64_t n, half* dst) {
  int64_t i = HasF16c() ? FloatToHalfF16c(src, n, dst) : 0;
  for (; i < n; ++i) dst[i] = half(src[i]);
}

void HalfMulAddRound(const half* x, const half* f, int64_t n, float* acc) {
  int64_t i = HasF16c() ? HalfMulAddRoundF16c(x, f, n, acc) : 0;
  for (; i < n; ++i) {
    const float xi = x == nullptr ? 0.0f : static_cast<float>(x[i]);
    acc[i] = static_cast<float>(half(acc[i] + xi * static_cast<float>(f[i])));
  }
}

}  // namespace rill
