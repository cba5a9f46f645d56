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

}  // namespace
}  // namespace rill
