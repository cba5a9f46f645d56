#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> Grad(const std::string& op, const Tensor& a, const Tensor& b) {
  OpTester t(op, "g");
  t.Attr("T", DT_FLOAT).Input(a).Input(b);
  return t.Run();
}

TEST(CwiseGradOpsTest, ActivationGradientsMaskOrScale) {
  const Tensor g = F({1, 2, 3, 4}, TensorShape({4}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Grad("ReluGrad", g, F({-1, 0, 0.5, 7}, TensorShape({4}))));
  ExpectTensorEqual(out[0], F({0, 0, 3, 4}, TensorShape({4})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Grad("Relu6Grad", g, F({-1, 0, 0.5, 7}, TensorShape({4}))));
  ExpectTensorEqual(out[0], F({0, 0, 3, 0}, TensorShape({4})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Grad("EluGrad", g, F({-0.5, 0, 1, -1}, TensorShape({4}))));
  ExpectTensorEqual(out[0], F({0.5, 2, 3, 0}, TensorShape({4})));
}

TEST(CwiseGradOpsTest, OutputGradientsUseTheForwardOutput) {
  const Tensor y = F({0.5, 0.25}, TensorShape({2}));
  const Tensor dy = F({2, 4}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Grad("SigmoidGrad", y, dy));
  ExpectTensorEqual(out[0], F({0.5, 0.75}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Grad("TanhGrad", y, dy));
  ExpectTensorEqual(out[0], F({1.5, 3.75}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Grad("SqrtGrad", y, dy));
  ExpectTensorEqual(out[0], F({2, 8}, TensorShape({2})));
  // Only element counts must agree; the output has y's shape.
  RILL_ASSERT_OK_AND_ASSIGN(out, Grad("SigmoidGrad", F({0.5, 0.5}, TensorShape({1, 2})), dy));
  EXPECT_EQ(out[0].shape(), TensorShape({1, 2}));
}

// The float loop is vectorized: over a length with a vector body and a tail, every element is
// x > 0 ? g : g * alpha bit for bit.
TEST(CwiseGradOpsTest, LeakyReluGradFloatLoopMatchesTheScalarFormula) {
  const float alpha = 0.3f;
  std::vector<float> g(1029), x(1029);
  for (size_t i = 0; i < g.size(); ++i) {
    g[i] = std::cos(0.11f * i) * (1 + i % 5);
    x[i] = std::sin(0.37f * i);
  }
  x[2] = -0.0f;
  x[3] = std::numeric_limits<float>::quiet_NaN();
  g[4] = std::numeric_limits<float>::infinity();
  const TensorShape shape({static_cast<int64_t>(g.size())});
  OpTester t("LeakyReluGrad", "g");
  t.Attr("T", DT_FLOAT).Attr("alpha", alpha).Input(F(g, shape)).Input(F(x, shape));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  const auto got = out[0].flat<float>();
  for (size_t i = 0; i < g.size(); ++i) {
    const float want = x[i] > 0.0f ? g[i] : g[i] * alpha;
    EXPECT_EQ(std::memcmp(&got[i], &want, sizeof(float)), 0)
        << "element " << i << ": " << got[i] << " vs " << want;
  }
}

// TensorFlow's products: g * (x > 0), so a NaN or infinite g is NaN where the mask is 0, and a NaN
// x masks g to 0.
TEST(CwiseGradOpsTest, ReluGradientsAreProductsWithTheMask) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Grad("ReluGrad", F({nan, inf, 1, nan}, TensorShape({4})),
                                           F({-1, -1, nan, 1}, TensorShape({4}))));
  const auto relu = out[0].flat<float>();
  EXPECT_TRUE(std::isnan(relu[0]));
  EXPECT_TRUE(std::isnan(relu[1]));
  EXPECT_EQ(relu[2], 0.0f);
  EXPECT_TRUE(std::isnan(relu[3]));
  RILL_ASSERT_OK_AND_ASSIGN(out, Grad("Relu6Grad", F({nan, inf, 1}, TensorShape({3})),
                                      F({-1, 7, nan}, TensorShape({3}))));
  const auto relu6 = out[0].flat<float>();
  EXPECT_TRUE(std::isnan(relu6[0]));
  EXPECT_TRUE(std::isnan(relu6[1]));
  EXPECT_EQ(relu6[2], 0.0f);
}

// TensorFlow's: a zero dy gives 0 whatever y is (no 0/0 or 0*inf NaN).
TEST(CwiseGradOpsTest, SqrtAndRsqrtGradientsOfZeroDyAreZero) {
  const float inf = std::numeric_limits<float>::infinity();
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, Grad("SqrtGrad", F({0, 0, 2}, TensorShape({3})), F({0, 1, 0}, TensorShape({3}))));
  ExpectTensorEqual(out[0], F({0, inf, 0}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Grad("RsqrtGrad", F({0, inf, 2}, TensorShape({3})), F({0, 0, 1}, TensorShape({3}))));
  ExpectTensorEqual(out[0], F({0, 0, -4}, TensorShape({3})));
}

TEST(CwiseGradOpsTest, MismatchesAreTensorFlowsErrors) {
  EXPECT_THAT(Grad("ReluGrad", F({1, 2}, TensorShape({2})), F({1, 2, 3}, TensorShape({3}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Inputs to operation g of type ReluGrad must have the same size "
                                 "and shape.  Input 0: [2] != input 1: [3]")));
  EXPECT_THAT(Grad("TanhGrad", F({1, 2}, TensorShape({2})), F({1, 2, 3}, TensorShape({3}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("The two arguments to a cwise op must have same number of "
                                 "elements, got 2 and 3")));
}

}  // namespace
}  // namespace rill
