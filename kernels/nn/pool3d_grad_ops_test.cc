#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

const std::vector<int64_t> kWindow = {1, 1, 1, 2, 1};  // pairs along the width

absl::StatusOr<std::vector<Tensor>> RunPool(const char* op, const Tensor& a, const Tensor& b,
                                            const Tensor* c, const char* format = "NDHWC") {
  OpTester t(op);
  t.Attr("T", DT_FLOAT)
      .Attr("ksize", kWindow)
      .Attr("strides", kWindow)
      .Attr("padding", "VALID")
      .Attr("data_format", format);
  if (std::string(op) == "MaxPool3DGrad") t.Attr("TInput", DT_FLOAT);
  t.Input(a).Input(b);
  if (c != nullptr) t.Input(*c);
  return t.Run();
}

TEST(Pool3dGradTest, AvgSpreadsMaxRoutesAndGradGradPicks) {
  const TensorShape in({1, 1, 1, 4, 1}), pooled({1, 1, 1, 2, 1});
  const Tensor shape = Tensor::FromVector<int32_t>({1, 1, 1, 4, 1}, TensorShape({5}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, RunPool("AvgPool3DGrad", shape, F({2, 4}, pooled), nullptr));
  ExpectTensorEqual(out[0], F({1, 1, 2, 2}, in));
  const Tensor x = F({1, 5, 7, 3}, in);
  const Tensor y = F({5, 7}, pooled);
  const Tensor g = F({10, 20}, pooled);
  RILL_ASSERT_OK_AND_ASSIGN(out, RunPool("MaxPool3DGrad", x, y, &g));
  ExpectTensorEqual(out[0], F({0, 10, 20, 0}, in));
  const Tensor gg = F({1, 2, 3, 4}, in);
  RILL_ASSERT_OK_AND_ASSIGN(out, RunPool("MaxPool3DGradGrad", x, y, &gg));
  ExpectTensorEqual(out[0], F({2, 3}, pooled));
}

TEST(Pool3dGradTest, ErrorsAreTensorFlows) {
  const Tensor y = F({5, 7}, TensorShape({1, 1, 1, 2, 1}));
  EXPECT_THAT(RunPool("MaxPool3DGrad", F({1}, TensorShape({1})), y, &y),
              StatusIs(absl::StatusCode::kInvalidArgument, "tensor_in must be 5-dimensional"));
  EXPECT_THAT(
      RunPool("AvgPool3DGrad", Tensor::FromVector<int32_t>({1, 4}, TensorShape({2})), y, nullptr),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "orig_input_shape must be 1-dimensional and 5 elements"));
  EXPECT_THAT(RunPool("AvgPool3DGrad",
                      Tensor::FromVector<int32_t>({1, 1, 1, 6, 1}, TensorShape({5})), y, nullptr),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected grad shape to be [1,1,1,3,1], but got [1,1,1,2,1]"));
  EXPECT_THAT(RunPool("MaxPool3DGradGrad", F({1, 5, 7, 3}, TensorShape({1, 1, 1, 4, 1})), y, &y),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "grad should have the same shape as orig_input"));
  const Tensor x = F({1, 5, 7, 3}, TensorShape({1, 1, 1, 4, 1}));
  const Tensor wide = F({5, 7, 0}, TensorShape({1, 1, 1, 3, 1}));
  EXPECT_THAT(RunPool("MaxPool3DGrad", x, wide, &y),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Expected orig_output shape to be [1,1,1,2,1], but got [1,1,1,3,1]"));
  EXPECT_THAT(RunPool("MaxPool3DGrad", y, y, &y, "NCDHW"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Default Pooling3DOp only supports NDHWC on device type CPU"));
}

}  // namespace
}  // namespace rill
