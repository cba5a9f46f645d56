// ImageProjectiveTransformV3 with an interpolation or fill_mode TensorFlow does not know (its
// kernel logs them and goes on): Rill refuses the node. V2 is V3 with fill_value 0. Values and
// TensorFlow's error texts are covered by the recorded cases
// (tests/conformance/data/ImageProjectiveTransformV2.pbtxt.gz, ...V3.pbtxt.gz).
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

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

// A shift by (1.5, -0.5) of a 3x4 image into a 4x5 canvas, bilinear and nearest, every fill
// mode: V2 gives V3's pixels with fill_value 0, and the CONSTANT border blends with 0.
TEST(ImageProjectiveTransformV2Test, IsV3WithFillValueZero) {
  const Tensor image =
      Tensor::FromVector<float>({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, TensorShape({1, 3, 4, 1}));
  const Tensor transform =
      Tensor::FromVector<float>({1, 0, 1.5f, 0, 1, -0.5f, 0, 0}, TensorShape({1, 8}));
  const Tensor size = Tensor::FromVector<int32_t>({4, 5}, TensorShape({2}));
  for (const char* interpolation : {"BILINEAR", "NEAREST"}) {
    for (const char* mode : {"CONSTANT", "REFLECT", "WRAP", "NEAREST"}) {
      OpTester v2("ImageProjectiveTransformV2");
      v2.Attr("dtype", DT_FLOAT).Attr("interpolation", interpolation).Attr("fill_mode", mode);
      v2.Input(image).Input(transform).Input(size);
      RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> got, v2.Run());
      OpTester v3("ImageProjectiveTransformV3");
      v3.Attr("dtype", DT_FLOAT).Attr("interpolation", interpolation).Attr("fill_mode", mode);
      v3.Input(image).Input(transform).Input(size).Input(Tensor::Scalar<float>(0));
      RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> want, v3.Run());
      ASSERT_EQ(got[0].shape(), TensorShape({1, 4, 5, 1}));
      for (int64_t i = 0; i < 20; ++i) {
        EXPECT_EQ(got[0].flat<float>()[i], want[0].flat<float>()[i])
            << interpolation << " " << mode << " pixel " << i;
      }
    }
  }
  // CONSTANT, bilinear: pixel (0, 0) reads (x 1.5, y -0.5): half of the row above (fill 0) and
  // half of row 0 between 2 and 3.
  OpTester t("ImageProjectiveTransformV2");
  t.Attr("dtype", DT_FLOAT).Attr("interpolation", "BILINEAR");
  t.Input(image).Input(transform).Input(size);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_EQ(out[0].flat<float>()[0], 1.25f);
  // Pixel (1, 4) reads x = 5.5, past the right edge: nothing but fill.
  EXPECT_EQ(out[0].flat<float>()[1 * 5 + 4], 0.0f);
}

// A huge finite source coordinate (x = 1e30 * column, CONSTANT): TensorFlow's bilinear weights
// x0 + 1 - x and x - x0 are both 0 there, so the pixel is 0 * fill_value (0 with its sign; NaN
// for an infinite fill of a float image), where NEAREST gives fill_value; column 0 reads x = 0.
TEST(ImageProjectiveTransformV3Test, HugeFiniteCoordinatesWeighTheFillByZeroWhenBilinear) {
  const Tensor transform =
      Tensor::FromVector<float>({1e30f, 0, 0, 0, 1, 0, 0, 0}, TensorShape({1, 8}));
  const Tensor size = Tensor::FromVector<int32_t>({1, 3}, TensorShape({2}));
  auto run = [&](DataType dtype, const Tensor& image, const char* interpolation, float fill) {
    OpTester t("ImageProjectiveTransformV3");
    t.Attr("dtype", dtype).Attr("interpolation", interpolation).Attr("fill_mode", "CONSTANT");
    t.Input(image).Input(transform).Input(size).Input(Tensor::Scalar<float>(fill));
    return t.Run();
  };
  const Tensor f = Tensor::FromVector<float>({5, 6, 7}, TensorShape({1, 1, 3, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> neg, run(DT_FLOAT, f, "BILINEAR", -2.5f));
  EXPECT_EQ(neg[0].flat<float>()[0], 5.f);
  for (int i : {1, 2}) {
    EXPECT_EQ(neg[0].flat<float>()[i], 0.f);
    EXPECT_TRUE(std::signbit(neg[0].flat<float>()[i]));
  }
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> pos, run(DT_FLOAT, f, "BILINEAR", 2.5f));
  EXPECT_FALSE(std::signbit(pos[0].flat<float>()[1]));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> inf, run(DT_FLOAT, f, "BILINEAR", INFINITY));
  EXPECT_TRUE(std::isnan(inf[0].flat<float>()[1]));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> nearest, run(DT_FLOAT, f, "NEAREST", 2.5f));
  EXPECT_EQ(nearest[0].flat<float>()[1], 2.5f);
  const Tensor i64 = Tensor::FromVector<int64_t>({5, 6, 7}, TensorShape({1, 1, 3, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> ints, run(DT_INT64, i64, "BILINEAR", 2.f));
  EXPECT_EQ(ints[0].flat<int64_t>()[0], 5);
  EXPECT_EQ(ints[0].flat<int64_t>()[1], 0);
  EXPECT_EQ(ints[0].flat<int64_t>()[2], 0);
}

TEST(ImageProjectiveTransformV3Test, KnownAttrsConstruct) {
  absl::Status s = Construct("BILINEAR", "REFLECT");
  EXPECT_TRUE(s.ok()) << s;
}

}  // namespace
}  // namespace rill
