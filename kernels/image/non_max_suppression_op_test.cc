// Paths the TensorFlow-recorded conformance cases do not cover: a negative
// max_output_size_per_class (TensorFlow crashes on it), negative max_output_size, NaN boxes, an
// infinite soft_nms_sigma; and the selection of each version.
#include <limits>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Boxes() {
  return Tensor::FromVector<float>({0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 5, 1, 6}, TensorShape({3, 4}));
}
Tensor Scores() { return Tensor::FromVector<float>({0.9f, 0.8f, 0.7f}, TensorShape({3})); }

TEST(NonMaxSuppressionOpTest, NegativeMaxOutputSizeIsRefused) {
  // TensorFlow 2.21's kernel text, for every version with or without padding.
  for (bool pad : {false, true}) {
    OpTester t("NonMaxSuppressionV4");
    t.Attr("T", DT_FLOAT).Attr("T_threshold", DT_FLOAT).Attr("pad_to_max_output_size", pad);
    t.Input(Boxes()).Input(Scores()).Input(Tensor::Scalar<int32_t>(-5));
    t.Input(Tensor::Scalar<float>(0.5f)).Input(Tensor::Scalar<float>(0.0f));
    EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           HasSubstr("output size must be non-negative")));
  }
  OpTester t("NonMaxSuppressionV2");
  t.Attr("T", DT_FLOAT).Attr("T_threshold", DT_FLOAT);
  t.Input(Boxes()).Input(Scores()).Input(Tensor::Scalar<int32_t>(-1));
  t.Input(Tensor::Scalar<float>(0.5f));
  EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("output size must be non-negative")));
}

// Boxes 0 and 1 overlap (IoU 0.909), box 2 has a NaN corner, box 3 lies inside box 0 (IoU 0.25),
// box 4 is apart.
Tensor NanBoxes() {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  return Tensor::FromVector<float>(
      {0, 0, 1, 1, 0, 0, 1, 1.1f, nan, 0, 1, 1, 0, 0, 0.5f, 0.5f, 2, 2, 3, 3}, TensorShape({5, 4}));
}
Tensor NanBoxScores() {
  return Tensor::FromVector<float>({0.9f, 0.8f, 0.85f, 0.7f, 0.6f}, TensorShape({5}));
}

// Runs V5 on NanBoxes with iou_threshold 0.5 and the given score threshold and sigma.
std::vector<Tensor> RunV5(const Tensor& boxes, const Tensor& scores, float score_threshold,
                          float sigma) {
  OpTester t("NonMaxSuppressionV5");
  t.Attr("T", DT_FLOAT).Attr("pad_to_max_output_size", false);
  t.Input(boxes).Input(scores).Input(Tensor::Scalar<int32_t>(5));
  t.Input(Tensor::Scalar<float>(0.5f)).Input(Tensor::Scalar<float>(score_threshold));
  t.Input(Tensor::Scalar<float>(sigma));
  auto out = t.Run();
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *out : std::vector<Tensor>{};
}

TEST(NonMaxSuppressionOpTest, NanIouZeroesTheScoreAsTensorFlowDoes) {
  // TensorFlow 2.21: the NaN box's IoU with box 0 is NaN, which is not <= the threshold, so its
  // score becomes 0 and it is queued again; it is selected last, with score 0 (and dropped when
  // score_threshold is 0).
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<Tensor> out = RunV5(NanBoxes(), NanBoxScores(), -inf, 0.0f);
  ASSERT_EQ(out.size(), 3u);
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 3, 4, 2}, TensorShape({4})));
  ExpectTensorEqual(out[1], Tensor::FromVector<float>({0.9f, 0.7f, 0.6f, 0.0f}, TensorShape({4})));
  out = RunV5(NanBoxes(), NanBoxScores(), 0.0f, 0.0f);
  ASSERT_EQ(out.size(), 3u);
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 3, 4}, TensorShape({3})));

  OpTester t("NonMaxSuppressionV2");
  t.Attr("T", DT_FLOAT).Attr("T_threshold", DT_FLOAT);
  t.Input(NanBoxes()).Input(NanBoxScores()).Input(Tensor::Scalar<int32_t>(5));
  t.Input(Tensor::Scalar<float>(0.5f));
  RILL_ASSERT_OK_AND_ASSIGN(auto v2, t.Run());
  ExpectTensorEqual(v2[0], Tensor::FromVector<int32_t>({0, 3, 4, 2}, TensorShape({4})));
}

TEST(NonMaxSuppressionOpTest, SoftNmsWeighsBoxesAboveTheThresholdToo) {
  // TensorFlow 2.21's values: in soft mode every IoU weighs the score by exp(-0.5 iou^2 / sigma),
  // above iou_threshold too; an infinite sigma weighs by exp(-0) = 1, selecting by score alone;
  // a NaN IoU makes the score NaN, which drops the box.
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<Tensor> out = RunV5(NanBoxes(), NanBoxScores(), -inf, 0.5f);
  ASSERT_EQ(out.size(), 3u);
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 3, 4, 1}, TensorShape({4})));
  const float want[] = {0.9f, 0.65758914f, 0.6f, 0.33245766f};
  ASSERT_EQ(out[1].NumElements(), 4);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(out[1].flat<float>()[i], want[i], 1e-6f) << i;
  out = RunV5(NanBoxes(), NanBoxScores(), -inf, inf);
  ASSERT_EQ(out.size(), 3u);
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 1, 3, 4}, TensorShape({4})));
  ExpectTensorEqual(out[1], Tensor::FromVector<float>({0.9f, 0.8f, 0.7f, 0.6f}, TensorShape({4})));
}

TEST(NonMaxSuppressionOpTest, SelectsGreedily) {
  OpTester t("NonMaxSuppressionV3");
  t.Attr("T", DT_FLOAT).Attr("T_threshold", DT_FLOAT);
  t.Input(Boxes()).Input(Scores()).Input(Tensor::Scalar<int32_t>(3));
  t.Input(Tensor::Scalar<float>(0.5f)).Input(Tensor::Scalar<float>(0.0f));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({0, 2}, TensorShape({2})));
}

TEST(NonMaxSuppressionOpTest, V2KeepsEveryScoreAboveTheLowest) {
  // No score threshold input: only scores at or below float's lowest (here -inf) are dropped.
  OpTester t("NonMaxSuppressionV2");
  t.Attr("T", DT_FLOAT).Attr("T_threshold", DT_FLOAT);
  t.Input(Boxes())
      .Input(Tensor::FromVector<float>({-1e30f, -std::numeric_limits<float>::infinity(), -5.0f},
                                       TensorShape({3})))
      .Input(Tensor::Scalar<int32_t>(3))
      .Input(Tensor::Scalar<float>(0.5f));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({2, 0}, TensorShape({2})));
}

TEST(CombinedNonMaxSuppressionOpTest, NegativePerClassLimitSelectsNothing) {
  OpTester t("CombinedNonMaxSuppression");
  t.Attr("pad_per_class", false).Attr("clip_boxes", true);
  Tensor boxes = Boxes();
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape bs, TensorShape::FromDims({1, 3, 1, 4}));
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape ss, TensorShape::FromDims({1, 3, 1}));
  t.Input(Tensor::FromVector<float>(
      std::vector<float>(boxes.flat<float>().begin(), boxes.flat<float>().end()), bs));
  t.Input(Tensor::FromVector<float>({0.9f, 0.8f, 0.7f}, ss));
  t.Input(Tensor::Scalar<int32_t>(-1)).Input(Tensor::Scalar<int32_t>(4));
  t.Input(Tensor::Scalar<float>(0.5f)).Input(Tensor::Scalar<float>(0.0f));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  EXPECT_EQ(out[0].shape().DebugString(), "[1,4,4]");
  ExpectTensorEqual(out[3], Tensor::FromVector<int32_t>({0}, TensorShape({1})));
}

}  // namespace
}  // namespace rill
