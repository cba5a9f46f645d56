#include <cmath>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

void ExpectNear(const Tensor& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.NumElements(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(actual.flat<float>()[i], expected[i], 1e-6) << "element " << i;
  }
}

absl::StatusOr<std::vector<Tensor>> LRNGrad(const Tensor& g, const Tensor& x, const Tensor& y,
                                            int64_t radius, float bias, float alpha, float beta) {
  OpTester t("LRNGrad");
  t.Attr("T", x.dtype())
      .Attr("depth_radius", radius)
      .Attr("bias", bias)
      .Attr("alpha", alpha)
      .Attr("beta", beta)
      .Input(g)
      .Input(x)
      .Input(y);
  return t.Run();
}

TEST(LRNGradOpTest, DifferentiatesTheNormalization) {
  // depth_radius 0, bias 1, alpha 1, beta 1: y = x / (1 + x^2), dy/dx = (1 - x^2) / (1 + x^2)^2,
  // which TensorFlow's form gives as -2 * x * y / norm + 1 / norm.
  const TensorShape shape({1, 1, 1, 2});
  const Tensor x = F({1, 2}, shape);
  const Tensor y = F({0.5f, 0.4f}, shape);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, LRNGrad(F({1, 1}, shape), x, y, 0, 1, 1, 1));
  ExpectNear(out[0], {-2.f * 1 * 0.5f / 2 + 0.5f, -2.f * 2 * 0.4f / 5 + 0.2f});
}

TEST(LRNGradOpTest, WindowsSpreadOverNeighbours) {
  // depth_radius 1: input 0 gets terms from depths 0 and 1.
  const TensorShape shape({1, 1, 1, 2});
  const Tensor x = F({1, 1}, shape);
  const Tensor y = F({1, 1}, shape);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, LRNGrad(F({1, 0}, shape), x, y, 1, 0, 1, 1));
  // norm = 2 for both depths; grads only at depth 0: d/dx0 = -2*1*1/2 + 1/2, d/dx1 = -2*1*1/2.
  ExpectNear(out[0], {-0.5f, -1.f});
}

TEST(LRNGradOpTest, ErrorsAreTensorFlows) {
  const Tensor v = F({1, 2}, TensorShape({1, 1, 1, 2}));
  EXPECT_THAT(LRNGrad(F({1, 2}, TensorShape({1, 2})), v, v, 1, 1, 1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, "inputs must be 4-dimensional"));
  EXPECT_THAT(LRNGrad(v, F({1, 2}, TensorShape({1, 1, 2, 1})), v, 1, 1, 1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "input_grads, input_image, and out_image should have the same shape"));
  EXPECT_THAT(LRNGrad(v, v, v, -1, 1, 1, 1), StatusIs(absl::StatusCode::kInvalidArgument,
                                                      "depth_radius = -1 larger than int max"));
}

}  // namespace
}  // namespace rill
