// The bulk conversions against half's scalar ones (core/half.h): every half value, floats around
// every rounding boundary, NaNs, tails shorter than a vector, and HalfMulAddRound's rounding.
#include "kernels/math_lib/half_convert.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

// The CPU's path (F16C where it has it) and the scalar one RILL_SIMD=baseline gives.
const SimdLevel kLevels[] = {SimdLevel::kAvx512, SimdLevel::kBaseline};

TEST(HalfConvertTest, EveryHalfToFloatIsExactNaNsIncluded) {
  std::vector<half> h(65536 + 3);  // + 3: a scalar tail
  for (size_t i = 0; i < h.size(); ++i) h[i] = half::FromBits(static_cast<uint16_t>(i));
  for (SimdLevel level : kLevels) {
    ScopedSimdLevelForTesting scope(level);
    SCOPED_TRACE(SimdLevelName(level));
    std::vector<float> f(h.size());
    HalfToFloat(h.data(), static_cast<int64_t>(h.size()), f.data());
    for (size_t i = 0; i < h.size(); ++i) {
      EXPECT_EQ(Bits(f[i]), Bits(static_cast<float>(h[i]))) << i;  // NaNs keep their bits
    }
  }
}

TEST(HalfConvertTest, FloatToHalfRoundsAsHalfDoes) {
  std::vector<float> f;
  // Each half value, the floats one ulp either side of it, and the midpoints to its neighbour
  // and one ulp either side of them (ties to even, subnormals, overflow to inf).
  for (uint32_t b = 0; b < 0x7c00; ++b) {
    const float lo = static_cast<float>(half::FromBits(static_cast<uint16_t>(b)));
    const float hi = static_cast<float>(half::FromBits(static_cast<uint16_t>(b + 1)));
    const float mid = lo + (hi - lo) / 2;
    for (float v : {lo, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f),
                    std::nextafter(lo, 1e9f)}) {
      f.push_back(v);
      f.push_back(-v);
    }
  }
  f.push_back(65520.0f);
  f.push_back(1e30f);
  f.push_back(std::numeric_limits<float>::infinity());
  f.push_back(-std::numeric_limits<float>::infinity());
  f.push_back(std::numeric_limits<float>::quiet_NaN());
  f.push_back(FromBits(0xffc12345u));  // a negative NaN with a payload
  f.push_back(FromBits(0x7f812345u));  // a signaling NaN
  f.push_back(1.5e-8f);                // below half's smallest subnormal
  for (SimdLevel level : kLevels) {
    ScopedSimdLevelForTesting scope(level);
    SCOPED_TRACE(SimdLevelName(level));
    std::vector<half> h(f.size());
    FloatToHalf(f.data(), static_cast<int64_t>(f.size()), h.data());
    for (size_t i = 0; i < f.size(); ++i) {
      EXPECT_EQ(h[i].bits, half(f[i]).bits) << "float bits " << Bits(f[i]);
    }
  }
}

TEST(HalfConvertTest, MulAddRoundIsTheScalarFormula) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<half> x, f;
  std::vector<float> acc;
  for (int i = 0; i < 1003; ++i) {
    x.push_back(half(static_cast<float>((i * 37) % 101) / 7.0f - 6.0f));
    f.push_back(half(static_cast<float>((i * 53) % 97) / 13.0f - 3.0f));
    acc.push_back(static_cast<float>(half(static_cast<float>((i * 11) % 89) / 3.0f - 14.0f)));
  }
  f[5] = half(inf);     // a vector lane: x * inf
  f[1001] = half(inf);  // the scalar tail
  acc[9] = 65504.0f;    // the sum overflows half
  x[9] = half(100.0f);
  f[9] = half(1.0f);
  for (const half* xp : {static_cast<const half*>(x.data()), static_cast<const half*>(nullptr)}) {
    std::vector<float> got = acc;
    HalfMulAddRound(xp, f.data(), static_cast<int64_t>(got.size()), got.data());
    for (size_t i = 0; i < acc.size(); ++i) {
      const float xi = xp == nullptr ? 0.0f : static_cast<float>(x[i]);
      const float want = static_cast<float>(half(acc[i] + xi * static_cast<float>(f[i])));
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got[i])) << i;
      } else {
        EXPECT_EQ(Bits(got[i]), Bits(want)) << i << (xp == nullptr ? " zeros" : "");
      }
    }
  }
  // Zeros times inf: NaN (a padding tap over an inf filter tap); 100 + 65504 overflows to inf.
  std::vector<float> got = acc;
  HalfMulAddRound(nullptr, f.data(), static_cast<int64_t>(got.size()), got.data());
  EXPECT_TRUE(std::isnan(got[5]));
  EXPECT_TRUE(std::isnan(got[1001]));
  got = acc;
  HalfMulAddRound(x.data(), f.data(), static_cast<int64_t>(got.size()), got.data());
  EXPECT_EQ(got[9], inf);
}

}  // namespace
}  // namespace rill
