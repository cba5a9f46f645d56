#include "kernels/framework/array_shapes.h"

#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/strided_slice_spec.h"

namespace rill {
namespace {

using ::testing::ElementsAre;

Tensor Ints(const std::vector<int32_t>& v, const TensorShape& shape) {
  return Tensor::FromVector<int32_t>(v, shape);
}
Tensor Vec(const std::vector<int32_t>& v) {
  return Ints(v, TensorShape({static_cast<int64_t>(v.size())}));
}

TEST(ArrayShapesTest, TransposePlanPermutesAndRejectsBadPerms) {
  RILL_ASSERT_OK_AND_ASSIGN(TransposePlan plan,
                            TransposePlanOf(TensorShape({2, 3, 4}), Vec({2, 0, 1})));
  EXPECT_EQ(plan.out_shape, TensorShape({4, 2, 3}));
  EXPECT_THAT(plan.perm, ElementsAre(2, 0, 1));
  EXPECT_FALSE(plan.identity);
  EXPECT_THAT(TransposePlanOf(TensorShape({2, 3, 4}), Vec({0, 0, 1})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "2 is missing from {0,0,1}."));
  EXPECT_THAT(TransposePlanOf(TensorShape({2, 3, 4}), Vec({0, 3, 1})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "3 is out of range [0 .. 3)"));
}

// TensorFlow's Transpose counts a negative perm entry from the end and reports the entry (or the
// permutation) after that: [-1, -3, 1] is [2, 0, 1]; -4 of rank 3 is "-1 is out of range".
TEST(ArrayShapesTest, TransposePlanTakesNegativePermEntriesFromTheEnd) {
  RILL_ASSERT_OK_AND_ASSIGN(TransposePlan plan,
                            TransposePlanOf(TensorShape({2, 3, 4}), Vec({-1, -3, 1})));
  EXPECT_EQ(plan.out_shape, TensorShape({4, 2, 3}));
  EXPECT_THAT(plan.perm, ElementsAre(2, 0, 1));
  RILL_ASSERT_OK_AND_ASSIGN(TransposePlan same,
                            TransposePlanOf(TensorShape({2, 3}), Vec({-2, -1})));
  EXPECT_TRUE(same.identity);
  EXPECT_THAT(TransposePlanOf(TensorShape({3, 3}), Vec({-3, 0})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "-1 is out of range [0 .. 2)"));
  EXPECT_THAT(TransposePlanOf(TensorShape({3, 3}), Vec({-1, 1})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "0 is missing from {1,1}."));
}

TEST(ArrayShapesTest, SliceConcatPackSplitPadTileGatherPlans) {
  RILL_ASSERT_OK_AND_ASSIGN(SlicePlan slice,
                            SlicePlanOf(TensorShape({4, 5}), Vec({1, 2}), Vec({-1, 2})));
  EXPECT_EQ(slice.out_shape, TensorShape({3, 2}));
  EXPECT_THAT(
      SlicePlanOf(TensorShape({2, 5}), Vec({3, 0}), Vec({1, 1})).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, "Expected begin[0] in [0, 2], but got 3"));
  RILL_ASSERT_OK_AND_ASSIGN(ConcatPlan concat,
                            ConcatPlanOf({TensorShape({2, 3}), TensorShape({2, 5})},
                                         Tensor::Scalar<int32_t>(-1), "axis"));
  EXPECT_EQ(concat.axis, 1);
  EXPECT_EQ(concat.out_shape, TensorShape({2, 8}));
  EXPECT_THAT(
      ConcatPlanOf({TensorShape({2, 3}), TensorShape({3})}, Tensor::Scalar<int32_t>(0), "axis")
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "ConcatOp : Ranks of all input tensors should match: shape[0] = [2,3] vs. "
               "shape[1] = [3]"));
  RILL_ASSERT_OK_AND_ASSIGN(ConcatPlan pack,
                            PackPlanOf({TensorShape({2, 3}), TensorShape({2, 3})}, 1));
  EXPECT_EQ(pack.out_shape, TensorShape({2, 2, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(SplitPlan splitv, SplitVPlanOf(TensorShape({2, 7}), Vec({3, -1}),
                                                           Tensor::Scalar<int32_t>(1), 2));
  EXPECT_EQ(splitv.axis, 1);
  EXPECT_THAT(splitv.sizes, ElementsAre(3, 4));
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape piece,
                            SplitOutputShape(TensorShape({2, 7}), splitv, 1, false));
  EXPECT_EQ(piece, TensorShape({2, 4}));
  RILL_ASSERT_OK_AND_ASSIGN(
      PadPlan pad,
      PadPlanOf(TensorShape({2, 3}), Ints({1, 0, 2, 3}, TensorShape({2, 2})), nullptr));
  EXPECT_EQ(pad.out_shape, TensorShape({3, 8}));
  RILL_ASSERT_OK_AND_ASSIGN(TilePlan tile, TilePlanOf(TensorShape({2, 3}), Vec({3, 0})));
  EXPECT_EQ(tile.out_shape, TensorShape({6, 0}));
  RILL_ASSERT_OK_AND_ASSIGN(GatherPlan gather,
                            GatherPlanOf(TensorShape({4, 5, 6}), TensorShape({2, 3}), 1, 0));
  EXPECT_EQ(gather.out_shape, TensorShape({4, 2, 3, 6}));
  EXPECT_EQ(gather.outer, 4);
  EXPECT_EQ(gather.gather_dim, 5);
  EXPECT_EQ(gather.inner, 6);
  EXPECT_EQ(gather.n, 6);
  EXPECT_THAT(GatherIndexError(TensorShape({2, 3}), 4, 7, 5),
              StatusIs(absl::StatusCode::kInvalidArgument, "indices[1,1] = 7 is not in [0, 5)"));
}

TEST(ArrayShapesTest, StridedSlicePlanWithEveryMask) {
  // x[1:, ..., ::-2, tf.newaxis, 0] over [4,5,6,7]: begin_mask 0, ellipsis bit 1, new axis bit 3,
  // shrink bit 4.
  StridedSliceMasks masks;
  masks.ellipsis = 1 << 1;
  masks.new_axis = 1 << 3;
  masks.shrink_axis = 1 << 4;
  masks.end = 1 << 0 | 1 << 2;
  masks.begin = 1 << 2;
  RILL_ASSERT_OK_AND_ASSIGN(StridedSlicePlan plan,
                            StridedSlicePlanOf(TensorShape({4, 5, 6, 7}), Vec({1, 0, 0, 0, 0}),
                                               Vec({0, 0, 0, 0, 1}), Vec({1, 1, -2, 1, 1}), masks));
  EXPECT_EQ(plan.final_shape, TensorShape({3, 5, 3, 1}));
  EXPECT_THAT(plan.begin, ElementsAre(1, 0, 5, 0));
  EXPECT_THAT(plan.strides, ElementsAre(1, 1, -2, 1));
  EXPECT_THAT(plan.processing_dims, ElementsAre(3, 5, 3, 1));
  EXPECT_FALSE(plan.identity);
  EXPECT_THAT(StridedSlicePlanOf(TensorShape({4}), Vec({0}), Vec({2}), Vec({0}), {}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "strides[0] must be non-zero"));
  // TensorFlow reads the masks as int32.
  StridedSliceMasks huge;
  huge.shrink_axis = int64_t{1} << 40;
  EXPECT_THAT(StridedSlicePlanOf(TensorShape({4}), Vec({0}), Vec({2}), Vec({1}), huge).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Attr shrink_axis_mask has value 1099511627776 out of range for an int32"));
}

}  // namespace
}  // namespace rill
