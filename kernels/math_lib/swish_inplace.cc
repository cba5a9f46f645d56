#include "kernels/math_lib/swish_inplace.h"

#include <algorithm>

#include "core/openmp_parallel_for.h"
#include "kernels/math_lib/simd_dispatch.h"
#include "kernels/math_lib/vector_math.h"

#if RILL_SIMD_CLONES
#include "kernels/math_lib/swish_avx512.h"
#endif

namespace rill {
namespace {

void SwishScalar(float* data, int64_t n) {
  for (int64_t i = 0; i < n; ++i) data[i] = data[i] / (1.0f + vector_math::ExpF(-data[i]));
}

#if RILL_SIMD_CLONES
RILL_AVX512_TARGET void SwishAvx512(float* data, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm512_storeu_ps(data + i, swish_avx512::Swish16(_mm512_loadu_ps(data + i)));
  if (i < n) {
    const __mmask16 rest = static_cast<__mmask16>((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(data + i, rest,
                          swish_avx512::Swish16(_mm512_maskz_loadu_ps(rest, data + i)));
  }
}
#endif

void SwishBlock(float* data, int64_t n) {
#if RILL_SIMD_CLONES
  if (ActiveSimdLevel() == SimdLevel::kAvx512) {
    SwishAvx512(data, n);
    return;
  }
#endif
  SwishScalar(data, n);
}

}  // namespace

bool SwishInPlaceVectorized() {
#if RILL_SIMD_CLONES
  return ActiveSimdLevel() == SimdLevel::kAvx512;
#else
  return false;
#endif
}

void SwishInPlace(int threads, float* data, int64_t n) {
  // Units of 16 elements (one vector, a few cycles) at a nominal cost of 1, so a team is used
  // only from about 160k elements: below that the pass takes under about 20 us on one thread,
  // which waking a sleeping worker would eat.
  constexpr int64_t kBlock = 16;
  OpenMpParallelFor(std::max(1, threads), (n + kBlock - 1) / kBlock, /*cost_per_unit=*/1,
                    [&](int64_t begin, int64_t end) {
                      const int64_t lo = begin * kBlock, hi = std::min(n, end * kBlock);
                      SwishBlock(data + lo, hi - lo);
                    });
}

}  // namespace rill
