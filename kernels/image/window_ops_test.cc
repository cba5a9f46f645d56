// Paths the TensorFlow-recorded conformance cases cannot express: window attrs so large that the
// window arithmetic would overflow are refused.
#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Image() {
  return Tensor::FromVector<float>(std::vector<float>(16, 1.0f), TensorShape({1, 4, 4, 1}));
}

TEST(WindowOpsTest, HugeRatesAreRefused) {
  OpTester t("ExtractImagePatches");
  t.Attr("T", DT_FLOAT)
      .Attr("ksizes", std::vector<int64_t>{1, 2, 2, 1})
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("rates", std::vector<int64_t>{1, int64_t{1} << 62, 1, 1})
      .Attr("padding", "VALID");
  t.Input(Image());
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Attr rates has value 4611686018427387904 out of range for an "
                                 "int32")));
}

TEST(WindowOpsTest, HugeDilationStridesAreRefused) {
  OpTester t("Dilation2D");
  t.Attr("T", DT_FLOAT)
      .Attr("strides", std::vector<int64_t>{1, int64_t{1} << 40, 1, 1})
      .Attr("rates", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "SAME");
  t.Input(Image()).Input(Tensor::FromVector<float>({0, 0, 0, 0}, TensorShape({2, 2, 1})));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Attr strides has value 1099511627776 out of range for an "
                                 "int32")));
}

// 2^31 itself is past int32, as TensorFlow's shape function says (it was let through).
TEST(WindowOpsTest, WindowAttrsOfTwoToThe31AreTensorFlowsError) {
  OpTester t("Dilation2D");
  t.Attr("T", DT_FLOAT)
      .Attr("strides", std::vector<int64_t>{1, int64_t{1} << 31, 1, 1})
      .Attr("rates", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "SAME");
  t.Input(Image()).Input(Tensor::FromVector<float>({0, 0, 0, 0}, TensorShape({2, 2, 1})));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Attr strides has value 2147483648 out of range for an int32")));
  OpTester u("ExtractImagePatches");
  u.Attr("T", DT_FLOAT)
      .Attr("ksizes", std::vector<int64_t>{1, int64_t{1} << 31, 1, 1})
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("rates", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "SAME");
  u.Input(Image());
  EXPECT_THAT(u.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Attr ksizes has value 2147483648 out of range for an int32")));
}

TEST(WindowOpsTest, MaxPoolWithArgmaxPicksTheFirstMaximum) {
  OpTester t("MaxPoolWithArgmax");
  t.Attr("T", DT_FLOAT)
      .Attr("Targmax", DT_INT64)
      .Attr("ksize", std::vector<int64_t>{1, 4, 4, 1})
      .Attr("strides", std::vector<int64_t>{1, 1, 1, 1})
      .Attr("padding", "VALID")
      .Attr("include_batch_in_index", false);
  t.Input(Image());
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[1], Tensor::FromVector<int64_t>({0}, TensorShape({1, 1, 1, 1})));
}

}  // namespace
}  // namespace rill
