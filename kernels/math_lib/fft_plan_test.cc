#include "kernels/math_lib/fft_plan.h"

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

using Cld = std::complex<long double>;

// The DFT of x with sign -1 (forward) or +1, computed directly in long double.
std::vector<Cld> DirectDft(const std::vector<Cld>& x, int sign) {
  const int64_t n = static_cast<int64_t>(x.size());
  const long double pi = 3.14159265358979323846264338327950288L;
  std::vector<Cld> w(n);  // e^{sign 2 pi i t / n}
  for (int64_t t = 0; t < n; ++t) {
    const long double angle = sign * 2 * pi * static_cast<long double>(t) / n;
    w[t] = Cld(std::cos(angle), std::sin(angle));
  }
  std::vector<Cld> out(n);
  for (int64_t k = 0; k < n; ++k) {
    Cld sum = 0;
    for (int64_t j = 0; j < n; ++j) sum += x[j] * w[j * k % n];
    out[k] = sum;
  }
  return out;
}

// Runs the plan of length n on `lanes` random sequences in both directions and returns the
// largest error relative to the largest output magnitude.
template <typename T>
double MaxRelativeError(int64_t n, int64_t lanes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  const FftPlan<T> plan(n);
  double worst = 0;
  for (bool inverse : {false, true}) {
    std::vector<T> re(n * lanes), im(n * lanes);
    for (auto& v : re) v = static_cast<T>(dist(rng));
    for (auto& v : im) v = static_cast<T>(dist(rng));
    const std::vector<T> re0 = re, im0 = im;
    std::vector<T> work(plan.WorkSize(lanes));
    plan.Run(re.data(), im.data(), lanes, work.data(), inverse);
    for (int64_t l = 0; l < lanes; ++l) {
      std::vector<Cld> x(n);
      for (int64_t j = 0; j < n; ++j) x[j] = Cld(re0[j * lanes + l], im0[j * lanes + l]);
      const std::vector<Cld> want = DirectDft(x, inverse ? 1 : -1);
      long double scale = 0, err = 0;
      for (int64_t k = 0; k < n; ++k) {
        scale = std::max(scale, std::abs(want[k]));
        err = std::max(err, std::abs(want[k] - Cld(re[k * lanes + l], im[k * lanes + l])));
      }
      worst = std::max(worst, static_cast<double>(err / scale));
    }
  }
  return worst;
}

TEST(FftPlanTest, SmallExactCases) {
  // [1, 2, 3, 4] -> [10, -2 + 2i, -2, -2 - 2i]; the inverse of that is 4 times the input.
  const FftPlan<float> plan(4);
  std::vector<float> re = {1, 2, 3, 4}, im = {0, 0, 0, 0}, work(plan.WorkSize(1));
  plan.Run(re.data(), im.data(), 1, work.data(), false);
  EXPECT_EQ(re, (std::vector<float>{10, -2, -2, -2}));
  EXPECT_EQ(im, (std::vector<float>{0, 2, 0, -2}));
  plan.Run(re.data(), im.data(), 1, work.data(), true);
  EXPECT_EQ(re, (std::vector<float>{4, 8, 12, 16}));
  EXPECT_EQ(im, (std::vector<float>{0, 0, 0, 0}));
  // Two lanes of length 2: [1, 2] and [5, -1 + i].
  const FftPlan<double> two(2);
  std::vector<double> r2 = {1, 5, 2, -1}, i2 = {0, 0, 0, 1}, w2(two.WorkSize(2));
  two.Run(r2.data(), i2.data(), 2, w2.data(), false);
  EXPECT_EQ(r2, (std::vector<double>{3, 4, -1, 6}));
  EXPECT_EQ(i2, (std::vector<double>{0, 1, 0, -1}));
  // Length 1 is the identity.
  const FftPlan<float> one(1);
  float r1 = 3, i1 = -2;
  one.Run(&r1, &i1, 1, nullptr, true);
  EXPECT_EQ(r1, 3);
  EXPECT_EQ(i1, -2);
}

TEST(FftPlanTest, LengthsUpTo64MatchADirectDft) {
  for (int64_t n = 1; n <= 64; ++n) {
    for (int64_t lanes : {1, 3, 16}) {
      EXPECT_LT(MaxRelativeError<double>(n, lanes, 7 * n + lanes), 1e-14) << n << " " << lanes;
      EXPECT_LT(MaxRelativeError<float>(n, lanes, 11 * n + lanes), 1e-6) << n << " " << lanes;
    }
  }
}

TEST(FftPlanTest, LongAndPrimeLengthsMatchADirectDft) {
  // 37 * 2, 97, 127, 1009 and 4099 are Bluestein lengths (a prime factor above 31); 29 * 31 and
  // 1000, 1024, 4096 are direct.
  for (int64_t n : {74, 97, 127, 899, 1000, 1009, 1024, 4096, 4099}) {
    const bool bluestein = FftPlan<double>(n).bluestein();
    EXPECT_EQ(bluestein, n == 74 || n == 97 || n == 127 || n == 1009 || n == 4099) << n;
    EXPECT_LT(MaxRelativeError<double>(n, 2, n), 1e-13) << n;
    EXPECT_LT(MaxRelativeError<float>(n, 3, n), 2e-6) << n;
  }
}

TEST(FftPlanTest, EverySimdLevelGivesTheSameAnswerWithinRounding) {
  for (SimdLevel level : {SimdLevel::kBaseline, SimdLevel::kAvx2, SimdLevel::kAvx512}) {
    ScopedSimdLevelForTesting scoped(level);
    for (int64_t n : {12, 60, 97, 1024}) {
      EXPECT_LT(MaxRelativeError<float>(n, 16, n), 2e-6) << n << " " << SimdLevelName(level);
      EXPECT_LT(MaxRelativeError<double>(n, 8, n), 1e-13) << n << " " << SimdLevelName(level);
    }
  }
}

TEST(FftPlanTest, InverseUndoesForward) {
  for (int64_t n : {6, 128, 210, 1009}) {
    const FftPlan<double> plan(n);
    std::vector<double> re(n * 4), im(n * 4), work(plan.WorkSize(4));
    for (int64_t i = 0; i < n * 4; ++i) {
      re[i] = std::sin(0.3 * i);
      im[i] = std::cos(1.7 * i);
    }
    const std::vector<double> re0 = re, im0 = im;
    plan.Run(re.data(), im.data(), 4, work.data(), false);
    plan.Run(re.data(), im.data(), 4, work.data(), true);
    for (int64_t i = 0; i < n * 4; ++i) {
      EXPECT_NEAR(re[i] / n, re0[i], 1e-13) << n;
      EXPECT_NEAR(im[i] / n, im0[i], 1e-13) << n;
    }
  }
}

TEST(FftPlanTest, GetSharesOnePlanPerLength) {
  const auto a = FftPlan<float>::Get(96);
  const auto b = FftPlan<float>::Get(96);
  EXPECT_EQ(a.get(), b.get());
  EXPECT_EQ(a->size(), 96);
  EXPECT_NE(FftPlan<float>::Get(97).get(), a.get());
}

}  // namespace
}  // namespace rill
