// Colour-space kernels at hue offsets far outside one turn: the hue is wrapped in one step, so a
// huge delta ends (TensorFlow's add-or-subtract loop never does once the turn is below the hue's
// ulp) and lands where exact wrapping puts it; RGBToHSV of NaN and infinite channels.
#include <cmath>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> AdjustHue(const std::vector<float>& rgb, float delta) {
  OpTester t("AdjustHue");
  t.Attr("T", DT_FLOAT)
      .Input(Tensor::FromVector<float>(rgb, TensorShape({1, 1, 3})))
      .Input(Tensor::Scalar<float>(delta));
  return t.Run();
}

TEST(AdjustHueTest, HugeDeltasWrapInOneStep) {
  // (0.2, 0.5, 0.9) has hue 3.571... (of 6); + 6e30 rounds to 6.0000004e30 in float, whose
  // remainder modulo 6 is exactly 4 (and -6.0000004e30's is 2).
  RILL_ASSERT_OK_AND_ASSIGN(auto up, AdjustHue({0.2f, 0.5f, 0.9f}, 1e30f));
  ExpectTensorEqual(up[0], Tensor::FromVector<float>({0.2f, 0.2f, 0.9f}, TensorShape({1, 1, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto down, AdjustHue({0.2f, 0.5f, 0.9f}, -1e30f));
  ExpectTensorEqual(down[0], Tensor::FromVector<float>({0.2f, 0.9f, 0.2f}, TensorShape({1, 1, 3})));
  // 6e7 is past 2^24: a step of 6 no longer moves it exactly.
  RILL_ASSERT_OK_AND_ASSIGN(auto mid, AdjustHue({0.2f, 0.5f, 0.9f}, 1e7f));
  ExpectTensorEqual(mid[0], Tensor::FromVector<float>({0.2f, 0.2f, 0.9f}, TensorShape({1, 1, 3})));
}

TEST(AdjustHueTest, InfiniteDeltaEndsWithoutLooping) {
  // An infinite hue is category 5 (HvRangeToRgb's huge case): r = max, g = min and b = min +
  // (1 - inf) * range.
  RILL_ASSERT_OK_AND_ASSIGN(auto out, AdjustHue({0.2f, 0.5f, 0.9f}, INFINITY));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<float>({0.9f, 0.2f, -INFINITY}, TensorShape({1, 1, 3})));
}

TEST(RgbToHsvTest, NonFiniteChannelsAsTensorFlowReducesThem) {
  // TensorFlow 2.21's outputs: the max and min channel come from Eigen's reduction, in which a
  // NaN channel replaces the running value and the next channel replaces a NaN.
  const float nan = NAN, inf = INFINITY;
  const std::vector<std::vector<float>> in = {
      {nan, 0.5f, 0.2f}, {0.5f, nan, 0.2f}, {0.5f, 0.2f, nan},  {nan, nan, 0.3f},
      {nan, -1, -2},     {inf, 0.5f, 0.2f}, {-inf, 0.5f, 0.2f}, {nan, -inf, -inf},
      {inf, inf, inf},   {0.1f, 0.2f, 0.3f}};
  const std::vector<std::vector<float>> want = {{nan, 0.6f, 0.5f}, {0, 0, 0.2f},
                                                {0, 0, nan},       {0, 0, 0.3f},
                                                {nan, 0, -1},      {0, nan, inf},
                                                {nan, inf, 0.5f},  {0, 0, -inf},
                                                {0, nan, inf},     {0.58333337f, 0.6666667f, 0.3f}};
  std::vector<float> flat;
  for (const auto& px : in) flat.insert(flat.end(), px.begin(), px.end());
  const int64_t n = static_cast<int64_t>(in.size());
  OpTester t("RGBToHSV");
  t.Attr("T", DT_FLOAT).Input(Tensor::FromVector<float>(flat, TensorShape({n, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  for (int64_t p = 0; p < n; ++p) {
    for (int c = 0; c < 3; ++c) {
      const float got = out[0].flat<float>()[3 * p + c], expected = want[p][c];
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(got)) << "pixel " << p << " channel " << c << ": " << got;
      } else {
        EXPECT_FLOAT_EQ(got, expected) << "pixel " << p << " channel " << c;
      }
    }
  }
}

}  // namespace
}  // namespace rill
