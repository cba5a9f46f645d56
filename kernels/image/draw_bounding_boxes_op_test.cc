#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::Eq;

Tensor Boxes(const std::vector<float>& v) {
  Tensor b(DT_FLOAT, TensorShape({1, static_cast<int64_t>(v.size() / 4), 4}));
  for (size_t i = 0; i < v.size(); ++i) b.flat<float>()[i] = v[i];
  return b;
}

// Recorded from TensorFlow 2.21: rows 0.25 * 3 -> 0 and 0.75 * 3 -> 2, columns 1 and 4 (x_max
// 1.0 * 4); a grey image's default colour is 1.
TEST(DrawBoundingBoxesOpTest, OutlineInTheDefaultColour) {
  Tensor image(DT_FLOAT, TensorShape({1, 4, 5, 1}));
  for (int i = 0; i < 20; ++i) image.flat<float>()[i] = 0.0f;
  OpTester t("DrawBoundingBoxes");
  t.Attr("T", DT_FLOAT).Input(image);
  t.Input(Boxes({0.25f, 0.25f, 0.75f, 1.0f}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  const std::vector<float> want = {0, 1, 1, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0};
  std::vector<float> got(out[0].flat<float>().data(), out[0].flat<float>().data() + 20);
  EXPECT_THAT(got, Eq(want));
}

TEST(DrawBoundingBoxesOpTest, TensorFlowsErrors) {
  OpTester depth("DrawBoundingBoxes");
  depth.Attr("T", DT_FLOAT).Input(Tensor(DT_FLOAT, TensorShape({1, 4, 5, 2})));
  depth.Input(Boxes({0, 0, 1, 1}));
  EXPECT_THAT(depth.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")));
  OpTester colors("DrawBoundingBoxesV2");
  colors.Attr("T", DT_FLOAT).Input(Tensor(DT_FLOAT, TensorShape({1, 4, 5, 3})));
  colors.Input(Boxes({0, 0, 1, 1})).Input(Tensor(DT_FLOAT, TensorShape({2, 2})));
  EXPECT_THAT(colors.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("colors must have equal or more channels than the image provided: "
                          "[2,2]")));
}

}  // namespace
}  // namespace rill
