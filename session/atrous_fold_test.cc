#include "session/atrous_fold.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;

Tensor Block(const std::vector<int32_t>& v) {
  return Tensor::FromVector<int32_t>(v, TensorShape({static_cast<int64_t>(v.size())}));
}

Tensor Pairs(const std::vector<int32_t>& v) {
  return Tensor::FromVector<int32_t>(v, TensorShape({2, 2}));
}

TEST(AtrousFoldTest, BlockBecomesDilationAndPaddingsLessCropsExplicitPadding) {
  // tf.nn.atrous_conv2d(rate 2, SAME, 3x3) on a 7x6 map: paddings [[2, 3], [2, 2]], crops
  // [[0, 1], [0, 0]].
  std::optional<AtrousFold> f =
      FoldAtrous(Block({2, 2}), Pairs({2, 3, 2, 2}), Block({2, 2}), Pairs({0, 1, 0, 0}));
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(f->dilations, ElementsAre(1, 2, 2, 1));
  EXPECT_THAT(f->explicit_paddings, ElementsAre(0, 0, 2, 2, 2, 2, 0, 0));
  EXPECT_THAT(f->block, ElementsAre(2, 2));
  EXPECT_THAT(f->paddings, ElementsAre(2, 3, 2, 2));
  EXPECT_THAT(f->crops, ElementsAre(0, 1, 0, 0));
  // Different blocks per dim, int64 tensors, crops equal to the paddings.
  f = FoldAtrous(Tensor::FromVector<int64_t>({3, 1}, TensorShape({2})),
                 Tensor::FromVector<int64_t>({1, 2, 0, 5}, TensorShape({2, 2})),
                 Tensor::FromVector<int64_t>({3, 1}, TensorShape({2})),
                 Tensor::FromVector<int64_t>({1, 2, 0, 5}, TensorShape({2, 2})));
  ASSERT_TRUE(f.has_value());
  EXPECT_THAT(f->dilations, ElementsAre(1, 3, 1, 1));
  EXPECT_THAT(f->explicit_paddings, ElementsAre(0, 0, 0, 0, 0, 0, 0, 0));
}

TEST(AtrousFoldTest, CropsPastThePaddingDoNotFold) {
  // The folded convolution would need a negative padding on that side.
  EXPECT_EQ(FoldAtrous(Block({2, 2}), Pairs({0, 1, 0, 0}), Block({2, 2}), Pairs({1, 0, 0, 0})),
            std::nullopt);
  EXPECT_EQ(FoldAtrous(Block({2, 2}), Pairs({0, 1, 0, 0}), Block({2, 2}), Pairs({0, 2, 0, 0})),
            std::nullopt);
  EXPECT_EQ(FoldAtrous(Block({2, 2}), Pairs({0, 0, 1, 1}), Block({2, 2}), Pairs({0, 0, 0, 2})),
            std::nullopt);
}

TEST(AtrousFoldTest, DifferentBlocksOrBadValuesDoNotFold) {
  EXPECT_EQ(FoldAtrous(Block({2, 2}), Pairs({0, 0, 0, 0}), Block({2, 4}), Pairs({0, 0, 0, 0})),
            std::nullopt);
  EXPECT_EQ(FoldAtrous(Block({0, 2}), Pairs({0, 0, 0, 0}), Block({0, 2}), Pairs({0, 0, 0, 0})),
            std::nullopt);
  EXPECT_EQ(FoldAtrous(Block({-2, 2}), Pairs({0, 0, 0, 0}), Block({-2, 2}), Pairs({0, 0, 0, 0})),
            std::nullopt);
  EXPECT_EQ(FoldAtrous(Block({2, 2}), Pairs({-1, 1, 0, 0}), Block({2, 2}), Pairs({0, 0, 0, 0})),
            std::nullopt);
  EXPECT_EQ(FoldAtrous(Block({2, 2}), Pairs({1, 1, 0, 0}), Block({2, 2}), Pairs({0, -1, 0, 0})),
            std::nullopt);
  const int64_t big = int64_t{std::numeric_limits<int32_t>::max()} + 1;
  EXPECT_EQ(
      FoldAtrous(Tensor::FromVector<int64_t>({big, 2}, TensorShape({2})), Pairs({0, 0, 0, 0}),
                 Tensor::FromVector<int64_t>({big, 2}, TensorShape({2})), Pairs({0, 0, 0, 0})),
      std::nullopt);
  EXPECT_EQ(
      FoldAtrous(Block({2, 2}), Tensor::FromVector<int64_t>({big, 0, 0, 0}, TensorShape({2, 2})),
                 Block({2, 2}), Pairs({0, 0, 0, 0})),
      std::nullopt);
}

TEST(AtrousFoldTest, OtherShapesOrDtypesDoNotFold) {
  // One spatial dim, three spatial dims.
  EXPECT_EQ(FoldAtrous(Block({2}), Tensor::FromVector<int32_t>({0, 0}, TensorShape({1, 2})),
                       Block({2}), Tensor::FromVector<int32_t>({0, 0}, TensorShape({1, 2}))),
            std::nullopt);
  EXPECT_EQ(FoldAtrous(Block({2, 2, 2}),
                       Tensor::FromVector<int32_t>({0, 0, 0, 0, 0, 0}, TensorShape({3, 2})),
                       Block({2, 2, 2}),
                       Tensor::FromVector<int32_t>({0, 0, 0, 0, 0, 0}, TensorShape({3, 2}))),
            std::nullopt);
  // Paddings of the wrong shape; a float block.
  EXPECT_EQ(FoldAtrous(Block({2, 2}), Block({0, 0, 0, 0}), Block({2, 2}), Pairs({0, 0, 0, 0})),
            std::nullopt);
  EXPECT_EQ(FoldAtrous(Tensor::FromVector<float>({2.f, 2.f}, TensorShape({2})), Pairs({0, 0, 0, 0}),
                       Block({2, 2}), Pairs({0, 0, 0, 0})),
            std::nullopt);
}

}  // namespace
}  // namespace rill
