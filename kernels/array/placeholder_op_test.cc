#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::Eq;

TEST(PlaceholderOpTest, UnfedWithKnownShapeNamesDtypeAndShape) {
  OpTester t("Placeholder", "x");
  t.Attr("dtype", DT_FLOAT).ShapeAttr("shape", {-1, 3});
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                Eq("You must feed a value for placeholder tensor 'x' with dtype "
                                   "float and shape [?,3]")));
}

TEST(PlaceholderOpTest, UnfedWithUnknownRankOmitsTheShape) {
  OpTester t("Placeholder", "input/ids");
  t.Attr("dtype", DT_INT32);  // shape defaults to unknown rank
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                Eq("You must feed a value for placeholder tensor 'input/ids' "
                                   "with dtype int32")));
}

// PlaceholderV2 (TF1 graphs of GraphDef versions 21 and 22) is Placeholder.
TEST(PlaceholderOpTest, PlaceholderV2IsPlaceholder) {
  OpTester t("PlaceholderV2", "x");
  t.Attr("dtype", DT_FLOAT).ShapeAttr("shape", {-1, 3});
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                Eq("You must feed a value for placeholder tensor 'x' with dtype "
                                   "float and shape [?,3]")));
}

TEST(PlaceholderOpTest, ScalarShapeIsOmittedAsInTensorFlow) {
  OpTester t("Placeholder", "s");
  t.Attr("dtype", DT_STRING).ShapeAttr("shape", {});
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                Eq("You must feed a value for placeholder tensor 's' with dtype "
                                   "string")));
}

TEST(PlaceholderOpTest, FullyKnownShape) {
  OpTester t("Placeholder", "p");
  t.Attr("dtype", DT_HALF).ShapeAttr("shape", {2, 0, 4});
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                Eq("You must feed a value for placeholder tensor 'p' with dtype "
                                   "half and shape [2,0,4]")));
  EXPECT_FALSE(t.kernel().IsExpensive());
}

TEST(PlaceholderWithDefaultOpTest, ForwardsItsInput) {
  const Tensor d = Tensor::FromVector<int64_t>({4, 5}, TensorShape({2}));
  OpTester t("PlaceholderWithDefault", "p");
  t.Attr("dtype", DT_INT64).ShapeAttr("shape", {-1}).Input(d);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  ExpectTensorEqual(out[0], d);
  EXPECT_TRUE(out[0].SharesBufferWith(d));
}

TEST(PlaceholderWithDefaultOpTest, ADefaultTheShapeAttrDoesNotAdmitIsRefused) {
  OpTester t("PlaceholderWithDefault", "p");
  t.Attr("dtype", DT_INT64)
      .ShapeAttr("shape", {2})
      .Input(Tensor::FromVector<int64_t>({4, 5, 6}, TensorShape({3})));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                testing::HasSubstr("PlaceholderWithDefault's default value has "
                                                   "shape [3], which its shape attr [2] does not "
                                                   "admit")));
}

}  // namespace
}  // namespace rill
