#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> FilterGrad(const Tensor& x, std::vector<int32_t> sizes,
                                               const Tensor& g, std::vector<int64_t> strides,
                                               const char* padding = "VALID") {
  OpTester t("Conv3DBackpropFilterV2");
  t.Attr("T", x.dtype())
      .Attr("strides", strides)
      .Attr("padding", padding)
      .Input(x)
      .Input(Tensor::FromVector<int32_t>(sizes, TensorShape({5})))
      .Input(g);
  return t.Run();
}

TEST(Conv3DBackpropFilterTest, CorrelatesInputWithOutBackprop) {
  // Input 1x1x1x3 (values 1, 2, 3), filter 1x1x2: out[0] = x0 f0 + x1 f1, out[1] = x1 f0 + x2 f1.
  // With out_backprop (10, 100): df0 = 10*1 + 100*2, df1 = 10*2 + 100*3.
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, FilterGrad(F({1, 2, 3}, TensorShape({1, 1, 1, 3, 1})), {1, 1, 2, 1, 1},
                           F({10, 100}, TensorShape({1, 1, 1, 2, 1})), {1, 1, 1, 1, 1}));
  ExpectTensorEqual(out[0], F({210, 320}, TensorShape({1, 1, 2, 1, 1})));
}

TEST(Conv3DBackpropFilterTest, ErrorsAreTensorFlows) {
  const Tensor x = F({1, 2, 3}, TensorShape({1, 1, 1, 3, 1}));
  const Tensor g = F({10, 100}, TensorShape({1, 1, 1, 2, 1}));
  EXPECT_THAT(FilterGrad(F({1}, TensorShape({1})), {1, 1, 2, 1, 1}, g, {1, 1, 1, 1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument, "input tensor must have 5 dimensions"));
  EXPECT_THAT(FilterGrad(x, {1, 1, 2, 2, 1}, g, {1, 1, 1, 1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "input and filter_sizes must have the same number of channels. Got 1 for "
                       "input and 2 for filter_sizes"));
  EXPECT_THAT(FilterGrad(x, {1, 1, 1, 1, 1}, g, {1, 1, 1, 1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected out_backprop shape to be [1,1,1,3,1], but got [1,1,1,2,1]"));
  EXPECT_THAT(FilterGrad(x, {1, 1, 2, 1, 1}, g, {2, 1, 1, 1, 1}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Current implementation does not yet support strides in the batch and "
                       "depth dimensions."));
}

}  // namespace
}  // namespace rill
