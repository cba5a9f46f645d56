// Paths the TensorFlow-recorded conformance cases do not reach (TensorFlow's shape function
// refuses these graphs before its kernel runs): paddings that are not [4, 2], a filter of the
// wrong rank, strides of the wrong length, a VALID window larger than the padded input; and the
// result of a 1x1 filter after SYMMETRIC padding, by hand.
#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

// FusedPadConv2D of a [1, 2, 2, 1] image 1..4 with paddings p and filter f.
absl::StatusOr<std::vector<Tensor>> RunPadConv(const Tensor& p, const Tensor& f,
                                               std::vector<int64_t> strides = {1, 1, 1, 1},
                                               const char* padding = "VALID") {
  OpTester t("FusedPadConv2D");
  t.Attr("T", DT_FLOAT).Attr("mode", std::string("SYMMETRIC")).Attr("strides", strides);
  t.Attr("padding", std::string(padding));
  t.Input(Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({1, 2, 2, 1}))).Input(p).Input(f);
  return t.Run();
}

Tensor Pads(std::vector<int32_t> v, TensorShape shape) {
  return Tensor::FromVector<int32_t>(v, shape);
}

TEST(FusedPadConvOpTest, SymmetricPaddingThenAOneByOneFilter) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            RunPadConv(Pads({0, 0, 1, 0, 0, 1, 0, 0}, TensorShape({4, 2})),
                                       Tensor::FromVector<float>({2}, TensorShape({1, 1, 1, 1}))));
  // Rows [1 2; 1 2; 3 4] padded on the right by symmetry: [1 2 2; 1 2 2; 3 4 4], times 2.
  ExpectTensorEqual(
      out[0], Tensor::FromVector<float>({2, 4, 4, 2, 4, 4, 6, 8, 8}, TensorShape({1, 3, 3, 1})));
}

TEST(FusedPadConvOpTest, RefusesWhatTensorFlowsShapeFunctionRefuses) {
  const Tensor f = Tensor::FromVector<float>({1}, TensorShape({1, 1, 1, 1}));
  EXPECT_THAT(RunPadConv(Pads({0, 0, 0, 0, 0, 0}, TensorShape({3, 2})), f).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("paddings must be a matrix with 2 columns: [3,2]")));
  const Tensor zeros = Pads({0, 0, 0, 0, 0, 0, 0, 0}, TensorShape({4, 2}));
  EXPECT_THAT(RunPadConv(zeros, Tensor::FromVector<float>({1}, TensorShape({1, 1, 1}))).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("filter must be 4-dimensional: [1,1,1]")));
  EXPECT_THAT(
      RunPadConv(zeros, f, {1, 1, 1}).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("strides must have 4 values")));
  const Tensor big(DT_FLOAT, TensorShape({4, 1, 1, 1}));
  EXPECT_THAT(RunPadConv(zeros, big).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Computed output size would be negative")));
}

}  // namespace
}  // namespace rill
