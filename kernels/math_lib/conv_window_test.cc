#include "kernels/math_lib/conv_window.h"

#include <limits>

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

TEST(ConvWindowTest, AFoldedAtrousConvolutionRefusesWhatSpaceToBatchNDRefused) {
  Conv2DAttrs a = Attrs(Padding::kExplicit, 1, 2);
  a.explicit_paddings = {0, 0, 2, 2, 2, 1, 0, 0};
  a.space_to_batch_block = {2, 3};
  a.space_to_batch_paddings = {2, 3, 2, 2};
  a.batch_to_space_crops = {0, 1, 0, 1};
  // 7 + 2 + 3 = 12 rows (divisible by 2), 8 + 2 + 2 = 12 columns (divisible by 3).
  absl::StatusOr<ConvGeometry> g =
      NhwcConvGeometry(a, TensorShape({1, 7, 8, 4}), TensorShape({3, 3, 4, 6}), false);
  ASSERT_THAT(g.status(), IsOk());
  EXPECT_EQ(g->out_h, 7);
  EXPECT_THAT(
      NhwcConvGeometry(a, TensorShape({1, 8, 8, 4}), TensorShape({3, 3, 4, 6}), false).status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("padded_shape[0]=13 is not divisible by block_shape[0]=2")));
  EXPECT_THAT(
      NhwcDepthwiseGeometry(a, TensorShape({1, 7, 7, 4}), TensorShape({3, 3, 4, 1})).status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("padded_shape[1]=11 is not divisible by block_shape[1]=3")));
  a.space_to_batch_paddings = {0, 0, std::numeric_limits<int64_t>::max(), 1};
  EXPECT_THAT(
      NhwcDepthwiseGeometry(a, TensorShape({1, 6, 1, 4}), TensorShape({3, 3, 4, 1})).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("padded_shape[1] overflows")));
}

TEST(ConvWindowTest, AFoldedAtrousConvolutionGivesTheUnfoldedWindowAndCropErrors) {
  // SpaceToBatchND(block 2x2, paddings [[2, 3], [2, 3]]) -> 3x3 VALID -> BatchToSpaceND(crops
  // [[2, 1], [0, 0]]) as one convolution dilated by 2 with padding [0, 2, 2, 3].
  Conv2DAttrs a = Attrs(Padding::kExplicit, 1, 2);
  a.explicit_paddings = {0, 0, 0, 2, 2, 3, 0, 0};
  a.space_to_batch_block = {2, 2};
  a.space_to_batch_paddings = {2, 3, 2, 3};
  a.batch_to_space_crops = {2, 1, 0, 0};
  const TensorShape filter({3, 3, 3, 4}), depthwise({3, 3, 3, 1});
  // A 1x1 map: 6x6 padded, 3x3 maps, 1x1 convolved, 2 rows interleaved, cropped by 3.
  for (const absl::Status& s :
       {NhwcConvGeometry(a, TensorShape({1, 1, 1, 3}), filter, false).status(),
        NhwcDepthwiseGeometry(a, TensorShape({1, 1, 1, 3}), depthwise).status()}) {
    EXPECT_THAT(s, StatusIs(absl::StatusCode::kInvalidArgument,
                            "cropped_shape[0]=-1 must be non-negative"));
  }
  // Without padding or crops, a 2x2 map: 1x1 maps under the 3x3 filter, the unfolded
  // convolution's numbers (not the folded one's input 2 and filter 5).
  a.explicit_paddings = {0, 0, 0, 0, 0, 0, 0, 0};
  a.space_to_batch_paddings = {0, 0, 0, 0};
  a.batch_to_space_crops = {0, 0, 0, 0};
  EXPECT_THAT(NhwcConvGeometry(a, TensorShape({1, 2, 2, 3}), filter, false).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Computed output size would be negative: -1 [input_size: 1, "
                       "effective_filter_size: 3, stride: 1]"));
  // Listed nodes are named: SpaceToBatchND's, the convolution's and BatchToSpaceND's errors.
  a.atrous_nodes = ErrorNodes({"s2b", "conv", "b2s"});
  EXPECT_THAT(NhwcDepthwiseGeometry(a, TensorShape({1, 2, 2, 3}), depthwise).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Computed output size would be negative: -1 [input_size: 1, "
                       "effective_filter_size: 3, stride: 1]\n\t [[{{node conv}}]]"));
  EXPECT_THAT(
      NhwcConvGeometry(a, TensorShape({1, 3, 2, 3}), filter, false).status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "padded_shape[0]=3 is not divisible by block_shape[0]=2\n\t [[{{node s2b}}]]"));
  a.space_to_batch_paddings = {2, 3, 2, 3};
  a.batch_to_space_crops = {2, 1, 1, 0};
  a.explicit_paddings = {0, 0, 0, 2, 1, 3, 0, 0};
  // 5x5 maps of a 5x5 input give 3x3 convolved, 6 interleaved: the crops fit.
  EXPECT_THAT(NhwcConvGeometry(a, TensorShape({1, 5, 5, 3}), filter, false).status(), IsOk());
  a.batch_to_space_crops = {2, 1, 4, 3};
  a.explicit_paddings = {0, 0, 0, 2, 0, 0, 0, 0};
  EXPECT_THAT(NhwcConvGeometry(a, TensorShape({1, 5, 5, 3}), filter, false).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "cropped_shape[1]=-1 must be non-negative\n\t [[{{node b2s}}]]"));
}

}  // namespace
}  // namespace rill
