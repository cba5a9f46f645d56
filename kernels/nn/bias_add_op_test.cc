#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> BiasAdd(const Tensor& x, const Tensor& b,
                                            const std::string& format = "NHWC") {
  OpTester t("BiasAdd");
  t.Attr("T", x.dtype()).Attr("data_format", format).Input(x).Input(b);
  return t.Run();
}

TEST(BiasAddOpTest, AddsAlongTheChannelDimension) {
  const Tensor x = F({1, 2, 3, 4, 5, 6, 7, 8}, TensorShape({1, 2, 2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, BiasAdd(x, F({10, 20}, TensorShape({2}))));
  ExpectTensorEqual(out[0], F({11, 22, 13, 24, 15, 26, 17, 28}, TensorShape({1, 2, 2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, BiasAdd(x, F({10, 20}, TensorShape({2})), "NCHW"));
  ExpectTensorEqual(out[0], F({11, 12, 13, 14, 25, 26, 27, 28}, TensorShape({1, 2, 2, 2})));
  // A matrix's channels are its last dimension in both formats.
  RILL_ASSERT_OK_AND_ASSIGN(
      out, BiasAdd(F({1, 2, 3, 4}, TensorShape({2, 2})), F({10, 20}, TensorShape({2})), "NCHW"));
  ExpectTensorEqual(out[0], F({11, 22, 13, 24}, TensorShape({2, 2})));
}

TEST(BiasAddOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(BiasAdd(F({1, 2, 3}, TensorShape({3})), F({1, 2, 3}, TensorShape({3}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input tensor must be at least 2D: [3]")));
  EXPECT_THAT(BiasAdd(F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3})), F({1, 2}, TensorShape({2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Must provide as many biases as the last dimension of the input "
                                 "tensor: [2] vs. [2,3]")));
  EXPECT_THAT(BiasAdd(F({1, 2, 3, 4}, TensorShape({2, 2})), F({1, 2, 3, 4}, TensorShape({2, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Biases must be 1D: [2,2]")));
}

TEST(BiasAddGradOpTest, SumsAllButTheChannelDimension) {
  const Tensor g = F({1, 2, 3, 4, 5, 6, 7, 8}, TensorShape({1, 2, 2, 2}));
  OpTester nhwc("BiasAddGrad");
  nhwc.Attr("T", DT_FLOAT).Input(g);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, nhwc.Run());
  ExpectTensorEqual(out[0], F({16, 20}, TensorShape({2})));
  OpTester nchw("BiasAddGrad");
  nchw.Attr("T", DT_FLOAT).Attr("data_format", "NCHW").Input(g);
  RILL_ASSERT_OK_AND_ASSIGN(out, nchw.Run());
  ExpectTensorEqual(out[0], F({10, 26}, TensorShape({2})));
}

}  // namespace
}  // namespace rill
