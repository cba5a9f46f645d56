#include "kernels/math_lib/conv_window.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Conv2DAttrs Attrs(Padding padding, int64_t stride, int64_t dilation) {
  Conv2DAttrs a;
  a.strides = {1, stride, stride, 1};
  a.dilations = {1, dilation, dilation, 1};
  a.padding = padding;
  return a;
}

TEST(ConvWindowTest, GeometryOfAStridedSameConvolution) {
  absl::StatusOr<ConvGeometry> g = NhwcConvGeometry(
      Attrs(Padding::kSame, 2, 1), TensorShape({3, 8, 7, 4}), TensorShape({3, 3, 4, 6}), false);
  ASSERT_THAT(g.status(), IsOk());
  EXPECT_EQ(g->out_h, 4);
  EXPECT_EQ(g->out_w, 4);
  EXPECT_EQ(g->pad_h, 0);  // 8 rows: 1 padded row, after the last
  EXPECT_EQ(g->pad_w, 1);  // 7 columns: 2 padded columns, one before
  EXPECT_EQ(g->groups, 1);
  EXPECT_EQ(g->patch(), 36);
  EXPECT_EQ(g->pixels(), 48);
}

TEST(ConvWindowTest, GroupedFiltersSplitTheInputDepth) {
  absl::StatusOr<ConvGeometry> g = NhwcConvGeometry(
      Attrs(Padding::kValid, 1, 2), TensorShape({1, 9, 9, 8}), TensorShape({3, 3, 2, 12}), true);
  ASSERT_THAT(g.status(), IsOk());
  EXPECT_EQ(g->groups, 4);
  EXPECT_EQ(g->out_h, 5);  // dilated window of 5
  EXPECT_THAT(NhwcConvGeometry(Attrs(Padding::kValid, 1, 1), TensorShape({1, 9, 9, 8}),
                               TensorShape({3, 3, 2, 12}), false)
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Gradients for grouped convolutions are not supported on CPU")));
  EXPECT_THAT(NhwcConvGeometry(Attrs(Padding::kValid, 1, 1), TensorShape({1, 9, 9, 6}),
                               TensorShape({3, 3, 2, 5}), true)
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("output depth must be evenly divisible by number of groups: 5 "
                                 "vs 3")));
  EXPECT_THAT(NhwcConvGeometry(Attrs(Padding::kValid, 1, 1), TensorShape({1, 9, 9, 7}),
                               TensorShape({3, 3, 2, 4}), true)
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("input depth must be evenly divisible by filter depth: 7 vs 2")));
}

TEST(ConvWindowTest, ShapeChecksUseConv2DsWords) {
  Tensor t = *Tensor::Allocate(CpuAllocator::Default(), DT_FLOAT, TensorShape({4, 4, 3}));
  EXPECT_THAT(CheckConvolutionFourDims(t, "input"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("convolution input must be 4-dimensional: [4,4,3]")));
  Tensor empty = *Tensor::Allocate(CpuAllocator::Default(), DT_FLOAT, TensorShape({3, 0, 1, 1}));
  EXPECT_THAT(CheckFilterHasElements(empty),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("filter must not have zero elements")));
}

}  // namespace
}  // namespace rill
