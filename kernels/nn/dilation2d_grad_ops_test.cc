#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> Backprop(const char* op, const Tensor& x, const Tensor& f,
                                             const Tensor& g,
                                             std::vector<int64_t> strides = {1, 1, 1, 1}) {
  OpTester t(op);
  t.Attr("T", DT_FLOAT)
      .Attr("strides", strides)
      .Attr("rates", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "VALID")
      .Input(x)
      .Input(f)
      .Input(g);
  return t.Run();
}

TEST(Dilation2DBackpropTest, RoutesToTheWindowMaximum) {
  // 1x3 image, 1x2 filter (0, 5): windows (1+0, 4+5) -> tap 1 at x=1; (4+0, 2+5) -> tap 1 at x=2.
  const Tensor x = F({1, 4, 2}, TensorShape({1, 1, 3, 1}));
  const Tensor f = F({0, 5}, TensorShape({1, 2, 1}));
  const Tensor g = F({10, 100}, TensorShape({1, 1, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Backprop("Dilation2DBackpropInput", x, f, g));
  ExpectTensorEqual(out[0], F({0, 10, 100}, TensorShape({1, 1, 3, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Backprop("Dilation2DBackpropFilter", x, f, g));
  ExpectTensorEqual(out[0], F({0, 110}, TensorShape({1, 2, 1})));
}

TEST(Dilation2DBackpropTest, ErrorsAreTensorFlows) {
  const Tensor x = F({1, 4, 2}, TensorShape({1, 1, 3, 1}));
  const Tensor f = F({0, 5}, TensorShape({1, 2, 1}));
  EXPECT_THAT(Backprop("Dilation2DBackpropInput", x, f, F({1}, TensorShape({1, 1, 1, 1}))),
              StatusIs(absl::StatusCode::kInvalidArgument, "out_backprop has incompatible size."));
  EXPECT_THAT(Backprop("Dilation2DBackpropFilter", x, F({0, 5}, TensorShape({2, 1})), x),
              StatusIs(absl::StatusCode::kInvalidArgument, "filter must be 3-dimensional: [2,1]"));
  EXPECT_THAT(Backprop("Dilation2DBackpropFilter", x, F({}, TensorShape({0, 2, 1})), x),
              StatusIs(absl::StatusCode::kInvalidArgument, "filter must not be empty: [0,2,1]"));
  EXPECT_THAT(Backprop("Dilation2DBackpropInput", x, f, x, {2, 1, 1, 1}),
              StatusIs(absl::StatusCode::kUnimplemented,
                       "Stride is only supported across spatial dimensions."));
}

}  // namespace
}  // namespace rill
