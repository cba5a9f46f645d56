// SwishInPlace against x / (1 + e^-x) in double: every length's vector and tail lanes, one and two
// threads, the special values, and the baseline path.
#include "kernels/math_lib/swish_inplace.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

double Exact(double x) { return x / (1.0 + std::exp(-x)); }

std::vector<float> Ramp(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>((i * 7919) % 16001) / 100.0f - 80.0f;
  return v;
}

void ExpectClose(const std::vector<float>& in, const std::vector<float>& out) {
  ASSERT_EQ(in.size(), out.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const double want = Exact(in[i]);
    // 1e-6 relative, or 1e-30 absolute where the value is that small (x near -80: ~1e-33).
    EXPECT_NEAR(out[i], want, std::max(1e-6 * std::fabs(want), 1e-30))
        << "x = " << in[i] << " at " << i;
  }
}

TEST(SwishInPlaceTest, MatchesExactOverLengthsAndThreads) {
  for (int64_t n : {0, 1, 15, 16, 17, 31, 1000, 300007}) {
    for (int threads : {1, 2}) {
      const std::vector<float> in = Ramp(n);
      std::vector<float> out = in;
      SwishInPlace(threads, out.data(), n);
      ExpectClose(in, out);
    }
  }
}

TEST(SwishInPlaceTest, LeavesElementsPastTheEndAlone) {
  std::vector<float> v = Ramp(40);
  const float after = v[37];
  SwishInPlace(1, v.data(), 37);
  EXPECT_EQ(v[37], after);
  EXPECT_FLOAT_EQ(v[36], static_cast<float>(Exact(Ramp(40)[36])));
}

void CheckSpecials() {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {0.0f, -0.0f, inf, -inf, std::nanf(""), -100.0f, 1.0f, -1.0f, 20.0f};
  SwishInPlace(1, v.data(), static_cast<int64_t>(v.size()));
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_FALSE(std::signbit(v[0]));
  EXPECT_EQ(v[1], 0.0f);
  EXPECT_TRUE(std::signbit(v[1]));
  EXPECT_EQ(v[2], inf);
  EXPECT_TRUE(std::isnan(v[3]));
  EXPECT_TRUE(std::isnan(v[4]));
  EXPECT_EQ(v[5], 0.0f);
  EXPECT_NEAR(v[6], 0.7310585786300049, 1e-7);
  EXPECT_NEAR(v[7], -0.2689414213699951, 1e-7);
  EXPECT_NEAR(v[8], 19.999999958776927, 2e-6);
}

TEST(SwishInPlaceTest, SpecialValues) { CheckSpecials(); }

TEST(SwishInPlaceTest, BaselinePathAgrees) {
  ScopedSimdLevelForTesting baseline(SimdLevel::kBaseline);
  EXPECT_FALSE(SwishInPlaceVectorized());
  CheckSpecials();
  const std::vector<float> in = Ramp(1001);
  std::vector<float> out = in;
  SwishInPlace(1, out.data(), 1001);
  ExpectClose(in, out);
}

TEST(SwishInPlaceTest, VectorizedWhereTheCpuHasAvx512) {
  EXPECT_EQ(SwishInPlaceVectorized(), ActiveSimdLevel() == SimdLevel::kAvx512);
}

}  // namespace
}  // namespace rill
