// ImageProjectiveTransformV3 with an interpolation or fill_mode TensorFlow does not know (its
// kernel logs them and goes on): Rill refuses the node. Values and TensorFlow's error texts are
// covered by the recorded cases (tests/conformance/data/ImageProjectiveTransformV3.pbtxt.gz).
#include <cstdint>
#include <string>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::Status Construct(const std::string& interpolation, const std::string& fill_mode) {
  OpTester t("ImageProjectiveTransformV3");
  t.Attr("dtype", DT_FLOAT).Attr("interpolation", interpolation).Attr("fill_mode", fill_mode);
  t.Input(Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({1, 2, 2, 1})));
  t.Input(Tensor::FromVector<float>({1, 0, 0, 0, 1, 0, 0, 0}, TensorShape({1, 8})));
  t.Input(Tensor::FromVector<int32_t>({2, 2}, TensorShape({2})));
  t.Input(Tensor::Scalar<float>(0));
  return t.Init();
}

TEST(ImageProjectiveTransformV3Test, UnknownInterpolationIsAnError) {
  absl::Status s = Construct("BICUBIC", "CONSTANT");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Invalid interpolation BICUBIC"));
}

TEST(ImageProjectiveTransformV3Test, UnknownFillModeIsAnError) {
  absl::Status s = Construct("NEAREST", "MIRROR");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("Invalid mode MIRROR"));
}

TEST(ImageProjectiveTransformV3Test, OutputTooLargeIsAnErrorNotACrash) {
  OpTester t("ImageProjectiveTransformV3");
  t.Attr("dtype", DT_FLOAT).Attr("interpolation", "NEAREST").Attr("fill_mode", "CONSTANT");
  t.Input(Tensor(DT_FLOAT, TensorShape({64, 1, 1, 64})));  // 64 * 2^30 * 2^30 * 64 outputs
  t.Input(Tensor::FromVector<float>({1, 0, 0, 0, 1, 0, 0, 0}, TensorShape({1, 8})));
  t.Input(Tensor::FromVector<int32_t>({1 << 30, 1 << 30}, TensorShape({2})));
  t.Input(Tensor::Scalar<float>(0));
  EXPECT_FALSE(t.Run().ok());
}

TEST(ImageProjectiveTransformV3Test, KnownAttrsConstruct) {
  absl::Status s = Construct("BILINEAR", "REFLECT");
  EXPECT_TRUE(s.ok()) << s;
}

}  // namespace
}  // namespace rill
