#include "core/tensor_shape.h"

#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(TensorShapeTest, ScalarHasRankZeroAndOneElement) {
  TensorShape s;
  EXPECT_EQ(s.rank(), 0);
  EXPECT_EQ(s.num_elements(), 1);
  EXPECT_EQ(s.DebugString(), "[]");
}

TEST(TensorShapeTest, FromDimsCountsElements) {
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape s, TensorShape::FromDims({2, 3, 0}));
  EXPECT_EQ(s.rank(), 3);
  EXPECT_EQ(s.num_elements(), 0);
  EXPECT_EQ(s.DebugString(), "[2,3,0]");
  EXPECT_EQ(TensorShape({4, 5}).num_elements(), 20);
}

TEST(TensorShapeTest, RejectsNegativeDims) {
  EXPECT_THAT(
      TensorShape::FromDims({2, -1}),
      StatusIs(absl::StatusCode::kInvalidArgument, "Dimension -1 must be >= 0 in shape [2,-1]"));
}

TEST(TensorShapeTest, RejectsOverflow) {
  const int64_t big = int64_t{1} << 40;
  EXPECT_THAT(TensorShape::FromDims({big, big}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("overflows int64")));
  // As in TensorFlow, the running product is checked dim by dim, so a later 0 does not help.
  EXPECT_THAT(TensorShape::FromDims({big, big, 0}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("overflows int64")));
  RILL_EXPECT_OK(TensorShape::FromDims({0, big, big}).status());
}

// Rank 254 is TensorFlow's limit: Fill, Reshape and the rest made rank-300 tensors where
// TensorFlow's kernels say "Too many dimensions".
TEST(TensorShapeTest, RanksAbove254AreRefused) {
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape s, TensorShape::FromDims(std::vector<int64_t>(254, 1)));
  EXPECT_EQ(s.rank(), 254);
  EXPECT_THAT(
      TensorShape::FromDims(std::vector<int64_t>(255, 1)),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "Too many dimensions: a shape of rank 255 is past TensorFlow's limit of 254"));
  TensorShapeProto proto;
  for (int i = 0; i < 300; ++i) proto.add_dim()->set_size(1);
  EXPECT_THAT(TensorShape::FromProto(proto),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rank 300")));
}

TEST(TensorShapeTest, ProtoRoundTripAndUnknownRejected) {
  TensorShapeProto p;
  p.add_dim()->set_size(7);
  p.add_dim()->set_size(1);
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape s, TensorShape::FromProto(p));
  TensorShapeProto back;
  s.AsProto(&back);
  EXPECT_EQ(back.SerializeAsString(), p.SerializeAsString());
  p.add_dim()->set_size(-1);
  EXPECT_THAT(TensorShape::FromProto(p),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Dimension -1")));
  TensorShapeProto unknown;
  unknown.set_unknown_rank(true);
  EXPECT_THAT(TensorShape::FromProto(unknown),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("unknown rank")));
}

}  // namespace
}  // namespace rill

namespace rill {
namespace {

// Ranks above the inline capacity live on the heap, shared by copies; both kinds compare, copy
// and print the same way.
TEST(TensorShapeTest, HighRankShapesCopyCompareAndPrintLikeSmallOnes) {
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape big, TensorShape::FromDims({2, 1, 3, 1, 2, 1, 2}));
  EXPECT_EQ(big.rank(), 7);
  EXPECT_EQ(big.num_elements(), 24);
  EXPECT_EQ(big.dim(6), 2);
  TensorShape copy = big;
  EXPECT_EQ(copy, big);
  EXPECT_EQ(copy.DebugString(), "[2,1,3,1,2,1,2]");
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape other, TensorShape::FromDims({2, 1, 3, 1, 2, 1, 1}));
  EXPECT_NE(other, big);
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape five, TensorShape::FromDims({2, 1, 3, 1, 2}));
  EXPECT_NE(five, big);
  copy = five;  // heap -> inline
  EXPECT_EQ(copy, five);
  EXPECT_EQ(copy.dims().size(), 5u);
  TensorShapeProto proto;
  big.AsProto(&proto);
  RILL_ASSERT_OK_AND_ASSIGN(TensorShape back, TensorShape::FromProto(proto));
  EXPECT_EQ(back, big);
}

}  // namespace
}  // namespace rill
