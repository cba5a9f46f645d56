#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// op(a, x) elementwise on double vectors of one length.
std::vector<double> RunOp(const std::string& op, const std::vector<double>& a,
                          const std::vector<double>& x) {
  OpTester t(op, "z");
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

// Reference values from mpmath at 30 digits (gammainc regularized, its numerical derivative in
// a, zeta).
TEST(IncompleteGammaTest, MatchesReferenceValues) {
  const std::vector<double> p = RunOp("Igamma", {2, 0.5, 10}, {1.5, 100, 3});
  ASSERT_EQ(p.size(), 3u);
  EXPECT_NEAR(p[0], 0.44217459962892542767, 1e-15);
  EXPECT_EQ(p[1], 1.0);
  EXPECT_NEAR(p[2], 1 - 0.99889751186988452026, 1e-15);
  const std::vector<double> q = RunOp("Igammac", {2, 10}, {1.5, 3});
  ASSERT_EQ(q.size(), 2u);
  EXPECT_NEAR(q[0], 0.55782540037107457233, 1e-15);
  EXPECT_NEAR(q[1], 0.99889751186988452026, 1e-15);
  const std::vector<double> da = RunOp("IgammaGradA", {2, 0.5, 3}, {1.5, 0.3, 20});
  ASSERT_EQ(da.size(), 3u);
  EXPECT_NEAR(da[0], -0.31348863782507932431, 1e-14);
  EXPECT_NEAR(da[1], -0.77057035137535191706, 1e-14);
  EXPECT_NEAR(da[2], -9.6806039960773565453e-7, 1e-19);
  const std::vector<double> z = RunOp("Zeta", {2, 3}, {1, 2.5});
  ASSERT_EQ(z.size(), 2u);
  EXPECT_NEAR(z[0], M_PI * M_PI / 6, 1e-15);
  EXPECT_NEAR(z[1], 0.1181020258208637015, 1e-15);
}

TEST(IncompleteGammaTest, OutsideTheDomainIsNaNAsInTensorFlow) {
  const std::vector<double> p = RunOp("Igamma", {-1, 0, 2}, {1, 1, -1});
  ASSERT_EQ(p.size(), 3u);
  for (double v : p) EXPECT_TRUE(std::isnan(v)) << v;
  const std::vector<double> z = RunOp("Zeta", {0.5, 1, 2}, {1, 2, kInf});
  ASSERT_EQ(z.size(), 3u);
  EXPECT_TRUE(std::isnan(z[0]));
  EXPECT_EQ(z[1], kInf);  // the pole at x = 1
  EXPECT_EQ(z[2], 0.0);   // every term vanishes
  const std::vector<double> edge = RunOp("Igammac", {3}, {kInf});
  EXPECT_EQ(edge, std::vector<double>({0.0}));
}

TEST(IncompleteGammaTest, FloatBroadcastsAScalarA) {
  OpTester t("Igamma", "z");
  t.Attr("T", DT_FLOAT)
      .Input(Tensor::FromVector<float>({1}, TensorShape({})))
      .Input(Tensor::FromVector<float>({0, 1, 2}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ASSERT_EQ(out[0].shape(), TensorShape({3}));
  auto v = out[0].flat<float>();
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_NEAR(v[1], 1 - std::exp(-1.0), 1e-7);  // P(1, x) = 1 - exp(-x)
  EXPECT_NEAR(v[2], 1 - std::exp(-2.0), 1e-7);
}

TEST(IncompleteGammaTest, ShapesThatDoNotBroadcastAreRefused) {
  OpTester t("Zeta", "z");
  t.Attr("T", DT_DOUBLE)
      .Input(Tensor::FromVector<double>({2, 3}, TensorShape({2})))
      .Input(Tensor::FromVector<double>({1, 2, 3}, TensorShape({3})));
  EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         testing::HasSubstr("Incompatible shapes: [2] vs. [3]")));
}

}  // namespace
}  // namespace rill
