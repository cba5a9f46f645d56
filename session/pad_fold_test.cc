#include "session/pad_fold.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::Optional;

Tensor Paddings(const std::vector<int32_t>& v) {
  return Tensor::FromVector<int32_t>(v, TensorShape({4, 2}));
}

TEST(PadFoldTest, HeightAndWidthPadsBecomeExplicitPaddings) {
  EXPECT_THAT(FoldedExplicitPaddings(Paddings({0, 0, 0, 1, 0, 1, 0, 0}), "VALID", {}),
              Optional(ElementsAre(0, 0, 0, 1, 0, 1, 0, 0)));
  // Asymmetric amounts keep their sides.
  EXPECT_THAT(FoldedExplicitPaddings(Paddings({0, 0, 3, 0, 1, 2, 0, 0}), "VALID", {}),
              Optional(ElementsAre(0, 0, 3, 0, 1, 2, 0, 0)));
  // int64 amounts too.
  EXPECT_THAT(
      FoldedExplicitPaddings(
          Tensor::FromVector<int64_t>({0, 0, 2, 2, 2, 2, 0, 0}, TensorShape({4, 2})), "VALID", {}),
      Optional(ElementsAre(0, 0, 2, 2, 2, 2, 0, 0)));
}

TEST(PadFoldTest, AddsToTheConvolutionsOwnExplicitPadding) {
  EXPECT_THAT(FoldedExplicitPaddings(Paddings({0, 0, 1, 0, 0, 1, 0, 0}), "EXPLICIT",
                                     {0, 0, 1, 1, 2, 0, 0, 0}),
              Optional(ElementsAre(0, 0, 2, 1, 2, 1, 0, 0)));
}

TEST(PadFoldTest, BatchChannelNegativeAndSamePadsDoNotFold) {
  EXPECT_EQ(FoldedExplicitPaddings(Paddings({1, 0, 1, 1, 1, 1, 0, 0}), "VALID", {}), std::nullopt);
  EXPECT_EQ(FoldedExplicitPaddings(Paddings({0, 0, 1, 1, 1, 1, 0, 2}), "VALID", {}), std::nullopt);
  EXPECT_EQ(FoldedExplicitPaddings(Paddings({0, 0, -1, 1, 1, 1, 0, 0}), "VALID", {}), std::nullopt);
  EXPECT_EQ(FoldedExplicitPaddings(Paddings({0, 0, 1, 1, 1, -2, 0, 0}), "VALID", {}), std::nullopt);
  EXPECT_EQ(FoldedExplicitPaddings(Paddings({0, 0, 1, 1, 1, 1, 0, 0}), "SAME", {}), std::nullopt);
}

TEST(PadFoldTest, MalformedPaddingsOrConvolutionAttrsDoNotFold) {
  // Not [4, 2].
  EXPECT_EQ(FoldedExplicitPaddings(
                Tensor::FromVector<int32_t>({0, 0, 1, 1, 1, 1}, TensorShape({3, 2})), "VALID", {}),
            std::nullopt);
  // Not an integer.
  EXPECT_EQ(
      FoldedExplicitPaddings(
          Tensor::FromVector<float>({0, 0, 1, 1, 1, 1, 0, 0}, TensorShape({4, 2})), "VALID", {}),
      std::nullopt);
  // Explicit paddings the convolution refuses: not 8 values, negative, on batch or channels,
  // or given with VALID.
  const Tensor p = Paddings({0, 0, 1, 1, 1, 1, 0, 0});
  EXPECT_EQ(FoldedExplicitPaddings(p, "EXPLICIT", {0, 0, 1, 1}), std::nullopt);
  EXPECT_EQ(FoldedExplicitPaddings(p, "EXPLICIT", {0, 0, -1, 1, 0, 0, 0, 0}), std::nullopt);
  EXPECT_EQ(FoldedExplicitPaddings(p, "EXPLICIT", {0, 1, 0, 0, 0, 0, 0, 0}), std::nullopt);
  EXPECT_EQ(FoldedExplicitPaddings(p, "VALID", {0, 0, 1, 1, 0, 0, 0, 0}), std::nullopt);
}

TEST(PadFoldTest, AmountsPastInt32DoNotFold) {
  const int64_t big = std::numeric_limits<int32_t>::max();
  const Tensor p = Tensor::FromVector<int64_t>({0, 0, big, 0, 0, 0, 0, 0}, TensorShape({4, 2}));
  EXPECT_THAT(FoldedExplicitPaddings(p, "VALID", {}),
              Optional(ElementsAre(0, 0, big, 0, 0, 0, 0, 0)));
  EXPECT_EQ(FoldedExplicitPaddings(p, "EXPLICIT", {0, 0, 1, 0, 0, 0, 0, 0}), std::nullopt);
  const Tensor huge =
      Tensor::FromVector<int64_t>({0, 0, big + 1, 0, 0, 0, 0, 0}, TensorShape({4, 2}));
  EXPECT_EQ(FoldedExplicitPaddings(huge, "VALID", {}), std::nullopt);
}

TEST(PadFoldTest, OnlyZeroPadsFold) {
  EXPECT_TRUE(PadsWithZeros("Pad", std::nullopt));
  EXPECT_TRUE(PadsWithZeros("PadV2", Tensor::FromVector<float>({0.f}, TensorShape({}))));
  EXPECT_TRUE(PadsWithZeros("PadV2", Tensor::FromVector<float>({-0.f}, TensorShape({}))));
  EXPECT_FALSE(PadsWithZeros("PadV2", Tensor::FromVector<float>({1.f}, TensorShape({}))));
  EXPECT_FALSE(PadsWithZeros(
      "PadV2",
      Tensor::FromVector<float>({std::numeric_limits<float>::quiet_NaN()}, TensorShape({}))));
  EXPECT_FALSE(PadsWithZeros("PadV2", std::nullopt));  // not a Const
  EXPECT_FALSE(PadsWithZeros("PadV2", Tensor::FromVector<float>({0.f}, TensorShape({1}))));
  EXPECT_FALSE(PadsWithZeros("MirrorPad", std::nullopt));
}

}  // namespace
}  // namespace rill
