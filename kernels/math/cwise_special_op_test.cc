#include <cmath>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Polygamma(a, x) elementwise on double vectors of one length.
std::vector<double> Polygamma(const std::vector<double>& a, const std::vector<double>& x) {
  OpTester t("Polygamma", "p");
  const TensorShape shape({static_cast<int64_t>(a.size())});
  t.Attr("T", DT_DOUBLE)
      .Input(Tensor::FromVector<double>(a, shape))
      .Input(Tensor::FromVector<double>(x, shape));
  auto out = t.Run();
  EXPECT_TRUE(out.ok()) << out.status();
  if (!out.ok()) return {};
  auto flat = (*out)[0].flat<double>();
  return std::vector<double>(flat.begin(), flat.end());
}

TEST(PolygammaTest, MatchesReferenceValues) {
  // Reference values from mpmath.polygamma at 30 digits.
  struct Case {
    double n, x, want;
  };
  const std::vector<Case> cases = {
      {1, 1, 1.6449340668482264},          // pi^2 / 6
      {1, 0.5, 4.9348022005446793},        // pi^2 / 2
      {2, 1, -2.4041138063191886},         // -2 zeta(3)
      {3, 1, 6.4939394022668291},          // pi^4 / 15
      {1, -0.5, 8.9348022005446793},       // negative x: direct terms
      {1, 10, 0.10516633568168575},        // the asymptotic tail at once
      {1, -100.5, 9.8597034918700862},     // negative x: mirrored sums
      {2, -100.25, 124.02500820691771},    //
      {4, -7.25, 24481.573142242188},      //
      {5, 0.5, 7691.1135486024355},        //
      {1, 1e20, 1.0e-20},                  //
      {3, -999999.5, 194.81818206800487},  // a million negative terms, not summed one by one
      {1, -3.3, 14.817739525515929},       //
      {2, 0.001, -2000000002.3976322},     //
      {20, 1.5, -487772949462609.87},      // n! large, terms fall fast
      {2, 12.5, -0.0069324365857882408},   //
      {6, 35.0, -7.1060588038959287e-8},   //
      {1, 3e-8, 1111111111111113.0},       //
      {0, 2, 0.42278433509846714},         // order 0 is Digamma
  };
  std::vector<double> n, x;
  for (const Case& c : cases) {
    n.push_back(c.n);
    x.push_back(c.x);
  }
  const std::vector<double> got = Polygamma(n, x);
  ASSERT_EQ(got.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_NEAR(got[i], cases[i].want, std::fabs(cases[i].want) * 2e-14)
        << "Polygamma(" << cases[i].n << ", " << cases[i].x << ")";
  }
}

TEST(PolygammaTest, PolesDomainAndOverflowFollowTensorFlow) {
  const std::vector<double> got =
      Polygamma({1, 1, 2, 2, 3, 0.5, -1, kNaN, 1, kInf, 1, 2, 171, 1e6},
                {0, -3, 0, -4, -kInf, 1, 1, 1, kNaN, 1, kInf, kInf, 0.5, 50});
  ASSERT_EQ(got.size(), 14u);
  EXPECT_EQ(got[0], kInf);  // odd order at a pole
  EXPECT_EQ(got[1], kInf);
  EXPECT_TRUE(std::isnan(got[2]));  // even order at a pole
  EXPECT_TRUE(std::isnan(got[3]));
  EXPECT_EQ(got[4], kInf);          // -inf counts as a pole
  EXPECT_TRUE(std::isnan(got[5]));  // order not an integer
  EXPECT_TRUE(std::isnan(got[6]));  // negative order
  EXPECT_TRUE(std::isnan(got[7]));
  EXPECT_TRUE(std::isnan(got[8]));
  EXPECT_TRUE(std::isnan(got[9]));  // infinite order
  EXPECT_EQ(got[10], 0.0);          // x = +inf
  EXPECT_EQ(got[11], 0.0);
  EXPECT_TRUE(std::signbit(got[11]));
  EXPECT_EQ(got[12], kInf);   // 171! (2^172) overflows
  EXPECT_EQ(got[13], -kInf);  // even order: -(1e6)! zeta(1e6 + 1, 50) overflows, in finite time
}

TEST(PolygammaTest, HugeOrdersAndArgumentsOverflowOrUnderflowInFiniteTime) {
  // Arguments where w + 1 == w: the direct sum must not step for ever.
  const std::vector<double> got = Polygamma({2.7e16, 1e300, 5e15}, {1e16, 1e200, 3e16});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], 0.0);  // n! / x^(n+1) underflows; even orders are negative
  EXPECT_TRUE(std::signbit(got[0]));
  EXPECT_EQ(got[1], -kInf);
  EXPECT_EQ(got[2], 0.0);
}

TEST(PolygammaTest, FloatBroadcastsAScalarOrder) {
  OpTester t("Polygamma", "p");
  t.Attr("T", DT_FLOAT)
      .Input(Tensor::FromVector<float>({1}, TensorShape({})))
      .Input(Tensor::FromVector<float>({1, 0.5f}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({static_cast<float>(1.6449340668482264),
                                                       static_cast<float>(4.9348022005446793)},
                                                      TensorShape({2})));
}

}  // namespace
}  // namespace rill
