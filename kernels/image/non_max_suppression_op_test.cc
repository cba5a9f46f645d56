// Paths the TensorFlow-recorded conformance cases cannot express (TensorFlow crashes on them):
// a negative max_output_size with padding, a negative max_output_size_per_class; and the selection
// of each version.
#include <limits>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor Boxes() {
  return Tensor::FromVector<float>({0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 5, 1, 6}, TensorShape({3, 4}));
}
Tensor Scores() { return Tensor::FromVector<float>({0.9f, 0.8f, 0.7f}, TensorShape({3})); }

TEST(NonMaxSuppressionOpTest, NegativeMaxOutputSizeWithPaddingSelectsNothing) {
  OpTester t("NonMaxSuppressionV4");
  t.Attr("T", DT_FLOAT).Attr("T_threshold", DT_FLOAT).Attr("pad_to_max_output_size", true);
  t.Input(Boxes()).Input(Scores()).Input(Tensor::Scalar<int32_t>(-5));
  t.Input(Tensor::Scalar<float>(0.5f)).Input(Tensor::Scalar<float>(0.0f));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  EXPECT_EQ(out[0].NumElements(), 0);
  ExpectTensorEqual(out[1], Tensor::Scalar<int32_t>(0));
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
