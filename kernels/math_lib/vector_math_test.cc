#include "kernels/math_lib/vector_math.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

using vector_math::ErfF;
using vector_math::ExpF;
using vector_math::LogF;
using vector_math::SigmoidF;
using vector_math::TanhF;

constexpr float kInf = std::numeric_limits<float>::infinity();

// Distance in units in the last place between two finite floats of one sign (or zero).
int64_t UlpDistance(float a, float b) {
  int32_t ia, ib;
  std::memcpy(&ia, &a, 4);
  std::memcpy(&ib, &b, 4);
  if (ia < 0) ia = std::numeric_limits<int32_t>::min() - ia;
  if (ib < 0) ib = std::numeric_limits<int32_t>::min() - ib;
  return std::abs(static_cast<int64_t>(ia) - static_cast<int64_t>(ib));
}

// The inputs every test sweeps: a dense grid over [-110, 100] plus the edges.
std::vector<float> Inputs() {
  std::vector<float> x;
  for (float v = -110.0f; v <= 100.0f; v += 0.0137f) x.push_back(v);
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-30f, 88.7228f, 88.72283f, -87.33654f, -103.9f,
                  -103.97207f, 1e-7f, -1e-7f}) {
    x.push_back(v);
  }
  return x;
}

// Runs f over the inputs inside RunSimd at `level` (so the vectorized clone is what is checked).
template <typename F>
std::vector<float> Apply(SimdLevel level, const std::vector<float>& x, F f) {
  ScopedSimdLevelForTesting cap(level);
  std::vector<float> y(x.size());
  const float* in = x.data();
  float* out = y.data();
  const int64_t n = static_cast<int64_t>(x.size());
  RunSimd([&] {
    for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]);
  });
  return y;
}

const SimdLevel kLevels[] = {SimdLevel::kBaseline, SimdLevel::kAvx2, SimdLevel::kAvx512};

TEST(VectorMathTest, ExpWithinTwoUlpEverywhereAtEveryLevel) {
  const std::vector<float> x = Inputs();
  for (SimdLevel level : kLevels) {
    const std::vector<float> y = Apply(level, x, [](float v) { return ExpF(v); });
    for (size_t i = 0; i < x.size(); ++i) {
      const float want = static_cast<float>(std::exp(static_cast<double>(x[i])));
      if (std::isinf(want)) {
        ASSERT_EQ(y[i], want) << "x=" << x[i] << " " << SimdLevelName(level);
        continue;
      }
      if (want < std::numeric_limits<float>::min()) {
        // Subnormal or zero results: within one subnormal step.
        ASSERT_NEAR(y[i], want, 2e-45f) << "x=" << x[i] << " " << SimdLevelName(level);
        continue;
      }
      ASSERT_LE(UlpDistance(y[i], want), 2)
          << "x=" << x[i] << " got " << y[i] << " want " << want << " " << SimdLevelName(level);
    }
  }
}

TEST(VectorMathTest, LogWithinTwoUlpEverywhereAtEveryLevel) {
  std::vector<float> x;
  for (float v = 1e-38f; v < 3e38f; v *= 1.0137f) x.push_back(v);
  for (int k = 1; k < 1 << 23; k = k * 3 + 1) {
    x.push_back(static_cast<float>(k) * std::numeric_limits<float>::denorm_min());
  }
  for (float v = 0.5f; v < 2.0f; v += 1e-4f) x.push_back(v);
  x.push_back(std::numeric_limits<float>::denorm_min());
  x.push_back(std::numeric_limits<float>::max());
  x.push_back(1.0f);
  for (SimdLevel level : kLevels) {
    const std::vector<float> y = Apply(level, x, [](float v) { return LogF(v); });
    for (size_t i = 0; i < x.size(); ++i) {
      const float want = static_cast<float>(std::log(static_cast<double>(x[i])));
      ASSERT_LE(UlpDistance(y[i], want), 2)
          << "x=" << x[i] << " got " << y[i] << " want " << want << " " << SimdLevelName(level);
    }
  }
  EXPECT_EQ(LogF(1.0f), 0.0f);
  EXPECT_EQ(LogF(0.0f), -kInf);
  EXPECT_EQ(LogF(-0.0f), -kInf);
  EXPECT_EQ(LogF(kInf), kInf);
  EXPECT_TRUE(std::isnan(LogF(-1.0f)));
  EXPECT_TRUE(std::isnan(LogF(-kInf)));
  EXPECT_TRUE(std::isnan(LogF(std::nanf(""))));
}

TEST(VectorMathTest, ExpEdges) {
  EXPECT_EQ(ExpF(0.0f), 1.0f);
  EXPECT_EQ(ExpF(kInf), kInf);
  EXPECT_EQ(ExpF(-kInf), 0.0f);
  EXPECT_EQ(ExpF(89.0f), kInf);
  EXPECT_EQ(ExpF(-104.0f), 0.0f);
  EXPECT_TRUE(std::isnan(ExpF(std::nanf(""))));
  // The smallest subnormal's neighbourhood: e^-103.28 is about 1.4e-45 = 2^-149.
  EXPECT_EQ(ExpF(-103.28f), std::numeric_limits<float>::denorm_min());
}

TEST(VectorMathTest, SigmoidTanhErfMatchTheLibraryAtEveryLevel) {
  const std::vector<float> x = Inputs();
  for (SimdLevel level : kLevels) {
    const std::vector<float> s = Apply(level, x, [](float v) { return SigmoidF(v); });
    const std::vector<float> t = Apply(level, x, [](float v) { return TanhF(v); });
    const std::vector<float> e = Apply(level, x, [](float v) { return ErfF(v); });
    for (size_t i = 0; i < x.size(); ++i) {
      const double v = x[i];
      const double sig = 1.0 / (1.0 + std::exp(-v));
      ASSERT_NEAR(s[i], sig, 1e-6 * sig + 1e-30) << "sigmoid x=" << v << SimdLevelName(level);
      ASSERT_NEAR(t[i], std::tanh(v), 2e-6) << "tanh x=" << v << SimdLevelName(level);
      ASSERT_NEAR(e[i], std::erf(v), 2e-6) << "erf x=" << v << SimdLevelName(level);
    }
  }
  EXPECT_EQ(SigmoidF(-kInf), 0.0f);
  EXPECT_EQ(SigmoidF(kInf), 1.0f);
  EXPECT_TRUE(std::isnan(SigmoidF(std::nanf(""))));
  EXPECT_EQ(TanhF(kInf), 1.0f);
  EXPECT_EQ(ErfF(-kInf), -1.0f);
  EXPECT_TRUE(std::isnan(TanhF(std::nanf(""))));
  EXPECT_TRUE(std::isnan(ErfF(std::nanf(""))));
}

// x^3 rounded to nearest even from the exact product of the 24-bit significand cubed (72 bits),
// for finite x whose cube is a normal float; 0 for others.
float ExactCube(float x) {
  if (x == 0.0f) return 0.0f;
  int e;
  const double m = std::frexp(static_cast<double>(x), &e);  // |x| = m * 2^e, m in [0.5, 1)
  const uint64_t sig = static_cast<uint64_t>(std::fabs(m) * 0x1p24);            // 24 bits
  const unsigned __int128 c = static_cast<unsigned __int128>(sig) * sig * sig;  // 70-72 bits
  int bits = 0;
  while ((c >> bits) != 0) ++bits;
  const int drop = bits - 24;
  unsigned __int128 q = c >> drop;
  const unsigned __int128 rem = c - (q << drop), half = static_cast<unsigned __int128>(1)
                                                        << (drop - 1);
  if (rem > half || (rem == half && (q & 1) != 0)) ++q;
  const double r = std::ldexp(static_cast<double>(static_cast<uint64_t>(q)), drop + 3 * e - 72);
  if (!(std::fabs(r) >= 0x1p-126 && std::fabs(r) <= 3.4028234663852886e38)) return 0.0f;
  return static_cast<float>(x < 0 ? -r : r);
}

// CubeF is x^3 rounded once: every 4099th float bit pattern (all signs and exponents) whose cube
// is a normal float against the exact product's rounding, at every vector width; a cube exactly
// halfway between two floats (257^3 = 2^24 + 197,377: to the even one); overflow to inf,
// subnormal cubes, -0, +-inf and NaN.
TEST(VectorMathTest, CubeIsTheCorrectlyRoundedCube) {
  std::vector<float> x, want;
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 4099) {
    const uint32_t bits = static_cast<uint32_t>(b);
    float v;
    std::memcpy(&v, &bits, 4);
    const float w = std::isfinite(v) ? ExactCube(v) : 0.0f;
    if (w == 0.0f) continue;
    x.push_back(v);
    want.push_back(w);
  }
  ASSERT_GT(x.size(), 300000u);
  for (SimdLevel level : kLevels) {
    const std::vector<float> c = Apply(level, x, [](float v) { return vector_math::CubeF(v); });
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(c[i], want[i]) << "x=" << x[i] << " " << SimdLevelName(level);
    }
  }
  EXPECT_EQ(vector_math::CubeF(257.0f), 16974592.0f);  // 16974593 is halfway: to even
  EXPECT_EQ(vector_math::CubeF(-257.0f), -16974592.0f);
  EXPECT_EQ(vector_math::CubeF(1e13f), kInf);
  EXPECT_EQ(vector_math::CubeF(-1e13f), -kInf);
  EXPECT_EQ(vector_math::CubeF(0x1p-48f), 0x1p-144f);  // a subnormal float, exact
  EXPECT_EQ(vector_math::CubeF(0x1.8p-48f), 0x1.bp-143f);
  EXPECT_EQ(vector_math::CubeF(0x1p-60f), 0.0f);  // under half the smallest subnormal
  EXPECT_TRUE(std::signbit(vector_math::CubeF(-0.0f)));
  EXPECT_EQ(vector_math::CubeF(kInf), kInf);
  EXPECT_EQ(vector_math::CubeF(-kInf), -kInf);
  EXPECT_TRUE(std::isnan(vector_math::CubeF(std::nanf(""))));
}

}  // namespace
}  // namespace rill
