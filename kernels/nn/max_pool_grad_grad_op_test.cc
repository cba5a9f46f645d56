#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> GradGrad(const Tensor& x, const Tensor& y, const Tensor& g,
                                             std::vector<int64_t> ksize,
                                             std::vector<int64_t> strides,
                                             const char* padding = "VALID",
                                             const char* format = "NHWC") {
  OpTester t("MaxPoolGradGrad");
  t.Attr("T", x.dtype())
      .Attr("ksize", ksize)
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Attr("data_format", format)
      .Input(x)
      .Input(y)
      .Input(g);
  return t.Run();
}

TEST(MaxPoolGradGradTest, PicksTheGradOfEachWindowsMaximum) {
  // 2x2 windows over a 2x4 image: maxima 5 (at 1) and 7 (at 6).
  const TensorShape in({1, 2, 4, 1});
  const Tensor x = F({1, 5, 2, 3, 0, 4, 7, 6}, in);
  const Tensor g = F({10, 20, 30, 40, 50, 60, 70, 80}, in);
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, GradGrad(x, F({5, 7}, TensorShape({1, 1, 2, 1})), g, {1, 2, 2, 1}, {1, 2, 2, 1}));
  ExpectTensorEqual(out[0], F({20, 70}, TensorShape({1, 1, 2, 1})));
  // The first element equal to the pooled value wins; none equal gives 0.
  RILL_ASSERT_OK_AND_ASSIGN(
      out, GradGrad(F({3, 3, 3, 3, 1, 1, 1, 1}, in), F({3, 9}, TensorShape({1, 1, 2, 1})), g,
                    {1, 2, 2, 1}, {1, 2, 2, 1}));
  ExpectTensorEqual(out[0], F({10, 0}, TensorShape({1, 1, 2, 1})));
}

TEST(MaxPoolGradGradTest, ErrorsAreTensorFlows) {
  const Tensor x = F({1, 2, 3, 4}, TensorShape({1, 2, 2, 1}));
  const Tensor y = F({4}, TensorShape({1, 1, 1, 1}));
  EXPECT_THAT(GradGrad(F({1, 2}, TensorShape({1, 2})), y, x, {1, 2, 2, 1}, {1, 1, 1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument, "tensor_in must be 4-dimensional"));
  EXPECT_THAT(GradGrad(x, y, F({1}, TensorShape({1, 1, 1, 1})), {1, 2, 2, 1}, {1, 1, 1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "grad should have the same shape as orig_input"));
  EXPECT_THAT(GradGrad(x, F({4, 4}, TensorShape({1, 1, 2, 1})), x, {1, 2, 2, 1}, {1, 1, 1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected orig_output shape to be [1,1,1,1], but got [1,1,2,1]"));
  EXPECT_THAT(GradGrad(x, y, x, {2, 2, 2, 1}, {1, 1, 1, 1}),
              StatusIs(absl::StatusCode::kUnimplemented,
                       "Pooling is not yet supported on the batch dimension."));
  EXPECT_THAT(GradGrad(x, y, x, {1, 2, 2, 1}, {1, 1, 1, 1}, "VALID", "NCHW"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Default MaxPoolingGradGradOp only supports NHWC on device type CPU"));
}

}  // namespace
}  // namespace rill
