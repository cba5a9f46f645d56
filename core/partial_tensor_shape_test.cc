#include "core/partial_tensor_shape.h"

#include <string>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(PartialTensorShapeTest, UnknownRankIsCompatibleWithEverything) {
  PartialTensorShape p;
  EXPECT_TRUE(p.unknown_rank());
  EXPECT_EQ(p.DebugString(), "<unknown>");
  EXPECT_TRUE(p.IsCompatibleWith(TensorShape({1, 2, 3})));
  EXPECT_TRUE(p.IsCompatibleWith(TensorShape()));
}

TEST(PartialTensorShapeTest, UnknownDimsMatchAnySize) {
  PartialTensorShape p({-1, 3});
  EXPECT_EQ(p.DebugString(), "[?,3]");
  EXPECT_FALSE(p.IsFullyDefined());
  EXPECT_TRUE(p.IsCompatibleWith(TensorShape({8, 3})));
  EXPECT_FALSE(p.IsCompatibleWith(TensorShape({8, 4})));
  EXPECT_FALSE(p.IsCompatibleWith(TensorShape({3})));
}

TEST(PartialTensorShapeTest, FromProtoValidates) {
  TensorShapeProto proto;
  proto.add_dim()->set_size(-1);
  proto.add_dim()->set_size(2);
  RILL_ASSERT_OK_AND_ASSIGN(PartialTensorShape p, PartialTensorShape::FromProto(proto));
  EXPECT_EQ(p.dims(), (std::vector<int64_t>{-1, 2}));
  TensorShapeProto back;
  p.AsProto(&back);
  EXPECT_EQ(back.SerializeAsString(), proto.SerializeAsString());
  proto.add_dim()->set_size(-5);
  EXPECT_THAT(PartialTensorShape::FromProto(proto),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shape has dimension -5; dims must be >= 0, or -1 for unknown"));
  TensorShapeProto bad;
  bad.set_unknown_rank(true);
  bad.add_dim()->set_size(1);
  EXPECT_THAT(
      PartialTensorShape::FromProto(bad),
      StatusIs(absl::StatusCode::kInvalidArgument, "Shape with unknown_rank must not list dims"));
}

// TensorFlow's rank limit holds for partial shapes too (a Placeholder's shape attr, a
// TensorArray's element_shape): a tensor of that shape could never be made.
TEST(PartialTensorShapeTest, FromProtoRefusesRanksAbove254) {
  TensorShapeProto proto;
  for (int i = 0; i < 254; ++i) proto.add_dim()->set_size(i == 0 ? -1 : 1);
  RILL_ASSERT_OK_AND_ASSIGN(PartialTensorShape p, PartialTensorShape::FromProto(proto));
  EXPECT_EQ(p.rank(), 254);
  proto.add_dim()->set_size(1);
  std::string dims = "?";
  for (int i = 1; i < 255; ++i) dims += ",1";
  EXPECT_THAT(PartialTensorShape::FromProto(proto),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shape [" + dims + "] has too many dimensions (at most 254)"));
}

TEST(PartialTensorShapeTest, EmptyBraceListIsAScalarNotUnknownRank) {
  PartialTensorShape scalar({});
  EXPECT_FALSE(scalar.unknown_rank());
  EXPECT_EQ(scalar.rank(), 0);
  EXPECT_TRUE(scalar.IsCompatibleWith(TensorShape({})));
  EXPECT_FALSE(scalar.IsCompatibleWith(TensorShape({1})));
  PartialTensorShape matrix({-1, 3});
  EXPECT_EQ(matrix.DebugString(), "[?,3]");
  EXPECT_TRUE(PartialTensorShape().unknown_rank());
}

}  // namespace
}  // namespace rill
