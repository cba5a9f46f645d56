#include <cmath>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> LRN(const Tensor& x, int64_t radius, float bias, float alpha,
                                        float beta) {
  OpTester t("LRN");
  t.Attr("T", x.dtype())
      .Attr("depth_radius", radius)
      .Attr("bias", bias)
      .Attr("alpha", alpha)
      .Attr("beta", beta)
      .Input(x);
  return t.Run();
}

TEST(LRNOpTest, NormalizesBySquaresInTheDepthWindow) {
  // depth_radius 1 over [1, 2, 3]: squared sums 5, 14, 13.
  const Tensor x = F({1, 2, 3}, TensorShape({1, 1, 1, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, LRN(x, 1, 1.0f, 1.0f, 1.0f));
  ExpectTensorEqual(
      out[0], F({1 * (1.0f / 6), 2 * (1.0f / 15), 3 * (1.0f / 14)}, TensorShape({1, 1, 1, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, LRN(x, 1, 1.0f, 1.0f, 0.5f));
  ExpectTensorEqual(out[0], F({1 * (1.0f / std::sqrt(6.0f)), 2 * (1.0f / std::sqrt(15.0f)),
                               3 * (1.0f / std::sqrt(14.0f))},
                              TensorShape({1, 1, 1, 3})));
  // Other betas: exp(log(bias + alpha * sum) * -beta); alpha scales the sum.
  RILL_ASSERT_OK_AND_ASSIGN(out, LRN(x, 0, 2.0f, 0.5f, 0.75f));
  ExpectTensorEqual(out[0],
                    F({1 * std::exp(std::log(2.5f) * -0.75f), 2 * std::exp(std::log(4.0f) * -0.75f),
                       3 * std::exp(std::log(6.5f) * -0.75f)},
                      TensorShape({1, 1, 1, 3})));
}

TEST(LRNOpTest, HalfIsComputedInFloat) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, LRN(MakeTensor(DT_HALF, TensorShape({1, 1, 1, 2}), {1, 1}), 1, 0.0f, 1.0f, 1.0f));
  ExpectTensorEqual(out[0], MakeTensor(DT_HALF, TensorShape({1, 1, 1, 2}), {0.5, 0.5}));
}

TEST(LRNOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(LRN(F({1, 2}, TensorShape({1, 2})), 1, 1, 1, 1),
              StatusIs(absl::StatusCode::kInvalidArgument, "in must be 4-dimensional"));
  EXPECT_THAT(
      LRN(F({1}, TensorShape({1, 1, 1, 1})), -1, 1, 1, 1),
      StatusIs(absl::StatusCode::kInvalidArgument, "depth_radius = -1 larger than int max"));
}

}  // namespace
}  // namespace rill
