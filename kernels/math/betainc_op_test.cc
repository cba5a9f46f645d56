#include <cmath>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Doubles(const std::vector<double>& v, const TensorShape& shape) {
  return Tensor::FromVector<double>(v, shape);
}

// Reference values from mpmath.betainc(a, b, 0, x, regularized=True) at 30 digits.
TEST(BetaincTest, MatchesReferenceValues) {
  OpTester t("Betainc", "z");
  t.Attr("T", DT_DOUBLE)
      .Input(Doubles({2, 0.5, 1}, TensorShape({3})))
      .Input(Doubles({3, 5, 1}, TensorShape({3})))
      .Input(Doubles({0.4, 0.9, 0.25}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  auto z = out[0].flat<double>();
  EXPECT_NEAR(z[0], 0.52480000000000003837, 1e-15);
  EXPECT_NEAR(z[1], 0.99999742941030077063, 1e-15);
  EXPECT_NEAR(z[2], 0.25, 1e-15);  // I_x(1, 1) = x
}

TEST(BetaincTest, ScalarOperandsServeEveryElement) {
  OpTester t("Betainc", "z");
  t.Attr("T", DT_FLOAT)
      .Input(Tensor::FromVector<float>({1}, TensorShape({})))
      .Input(Tensor::FromVector<float>({1, 2, 1, 2}, TensorShape({2, 2})))
      .Input(Tensor::FromVector<float>({0.5}, TensorShape({})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ASSERT_EQ(out[0].shape(), TensorShape({2, 2}));
  auto z = out[0].flat<float>();
  EXPECT_NEAR(z[0], 0.5f, 1e-7);   // I_x(1, 1) = x
  EXPECT_NEAR(z[1], 0.75f, 1e-7);  // I_x(1, 2) = 1 - (1 - x)^2
  EXPECT_NEAR(z[3], 0.75f, 1e-7);
}

TEST(BetaincTest, OutsideTheDomainIsNaN) {
  OpTester t("Betainc", "z");
  t.Attr("T", DT_DOUBLE)
      .Input(Doubles({-1, 2, 2}, TensorShape({3})))
      .Input(Doubles({2, 0, 2}, TensorShape({3})))
      .Input(Doubles({0.5, 0.5, 1.5}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  for (double v : out[0].flat<double>()) EXPECT_TRUE(std::isnan(v)) << v;
}

TEST(BetaincTest, NonScalarOperandsOfDifferentShapesAreRefused) {
  OpTester t("Betainc", "z");
  t.Attr("T", DT_DOUBLE)
      .Input(Doubles({1, 2}, TensorShape({2})))
      .Input(Doubles({1}, TensorShape({})))
      .Input(Doubles({0.1, 0.2, 0.3}, TensorShape({3})));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Shapes of a and x are inconsistent: [2] vs. [3]")));
}

}  // namespace
}  // namespace rill
