#include "kernels/math_lib/erfc_float.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

using vector_math::ErfcF;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

float FromBits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t Bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// ErfcF over `x` inside RunSimd at `level`, so the clone of that vector width is what runs.
std::vector<float> Apply(SimdLevel level, const std::vector<float>& x) {
  ScopedSimdLevelForTesting cap(level);
  std::vector<float> y(x.size());
  const float* in = x.data();
  float* out = y.data();
  const int64_t n = static_cast<int64_t>(x.size());
  RunSimd([&] {
    for (int64_t i = 0; i < n; ++i) out[i] = ErfcF(in[i]);
  });
  return y;
}

// glibc's double erfc (under an ulp of a double off) rounded once to float: the correctly
// rounded float but where the exact value lies within about 1e-16 of a float midpoint.
float Want(float x) { return static_cast<float>(std::erfc(static_cast<double>(x))); }

const SimdLevel kLevels[] = {SimdLevel::kBaseline, SimdLevel::kAvx2, SimdLevel::kAvx512};

// Every 61st float pattern (70 million inputs: every binade, both signs, subnormals, the
// subnormal and zero results above x = 9.2, the results that round to 2 below x = -3.9), plus a
// dense run through [-4, 11] and the edges, bit for bit at every vector width.
TEST(ErfcFloatTest, EqualsTheDoubleErfcRoundedToFloatAtEveryLevel) {
  std::vector<float> x;
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 61) {
    const float v = FromBits(static_cast<uint32_t>(bits));
    if (!std::isnan(v)) x.push_back(v);
  }
  for (float v = -4.0f; v <= 11.0f; v += 1.0f / 4096) x.push_back(v);
  for (float v : {0.0f, -0.0f, 10.0f, 10.05f, 10.0593f, 10.06f, 10.75f, 10.7501f, 1e-45f, -1e-45f,
                  3.4028235e38f, -3.4028235e38f}) {
    x.push_back(v);
  }
  for (SimdLevel level : kLevels) {
    const std::vector<float> y = Apply(level, x);
    int64_t mismatches = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      if (Bits(y[i]) != Bits(Want(x[i])) && ++mismatches <= 5) {
        ADD_FAILURE() << SimdLevelName(level) << ": erfc(" << x[i] << ") = " << y[i] << ", want "
                      << Want(x[i]);
      }
    }
    EXPECT_EQ(mismatches, 0) << SimdLevelName(level);
  }
}

// The one float whose ErfcF is not the double erfc's rounding (an exhaustive check at each width
// found no other): its exact erfc lies 2.9e-16 below the midpoint of 0x1.010afap+0 and
// 0x1.010afcp+0; ErfcF gives the upper one at every width.
TEST(ErfcFloatTest, TheOneInputOffByAnUlpIsTheSameAtEveryLevel) {
  const float x = -0x1.d9366ep-9f;
  EXPECT_EQ(Want(x), 0x1.010afap+0f);
  for (SimdLevel level : kLevels) {
    EXPECT_EQ(Apply(level, {x})[0], 0x1.010afcp+0f) << SimdLevelName(level);
  }
}

TEST(ErfcFloatTest, InfinitiesNaNsZerosAndTails) {
  const std::vector<float> x = {kInf, -kInf, kNaN, -kNaN, 0.0f, -0.0f, 11.0f, -11.0f, 1e30f, -5.0f};
  for (SimdLevel level : kLevels) {
    const std::vector<float> y = Apply(level, x);
    EXPECT_EQ(Bits(y[0]), Bits(0.0f)) << SimdLevelName(level);
    EXPECT_EQ(y[1], 2.0f) << SimdLevelName(level);
    EXPECT_EQ(Bits(y[2]), Bits(kNaN)) << SimdLevelName(level);   // the NaN itself
    EXPECT_EQ(Bits(y[3]), Bits(-kNaN)) << SimdLevelName(level);  // sign kept
    EXPECT_EQ(y[4], 1.0f) << SimdLevelName(level);
    EXPECT_EQ(y[5], 1.0f) << SimdLevelName(level);
    EXPECT_EQ(Bits(y[6]), Bits(0.0f)) << SimdLevelName(level);
    EXPECT_EQ(y[7], 2.0f) << SimdLevelName(level);
    EXPECT_EQ(Bits(y[8]), Bits(0.0f)) << SimdLevelName(level);
    EXPECT_EQ(y[9], 2.0f) << SimdLevelName(level);  // 2 - 1.5e-12 rounds to 2
  }
  // The smallest subnormal result and the last nonzero one.
  EXPECT_EQ(ErfcF(10.0f), Want(10.0f));
  EXPECT_GT(ErfcF(10.0f), 0.0f);
  EXPECT_LT(ErfcF(10.0f), std::numeric_limits<float>::min());
}

}  // namespace
}  // namespace rill
