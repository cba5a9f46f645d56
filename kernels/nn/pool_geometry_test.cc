#include "kernels/nn/pool_geometry.h"

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

PoolSpec Spec(std::vector<int64_t> ksize, std::vector<int64_t> strides, Padding padding) {
  PoolSpec s;
  s.ksize = std::move(ksize);
  s.strides = std::move(strides);
  s.padding = padding;
  return s;
}

TEST(PoolGeometryTest, SamePaddingPadsBeforeTheFirstWindowAsTensorFlow) {
  // 7 rows, window 3, stride 2, SAME: 4 outputs, 2 padded rows split 1 before and 1 after.
  absl::StatusOr<PoolGeometry> g =
      NhwcPoolGeometry(Spec({1, 3, 2, 1}, {1, 2, 2, 1}, Padding::kSame), TensorShape({2, 7, 6, 5}));
  ASSERT_THAT(g.status(), IsOk());
  EXPECT_EQ(g->out_h, 4);
  EXPECT_EQ(g->out_w, 3);
  EXPECT_EQ(g->pad_h, 1);
  EXPECT_EQ(g->pad_w, 0);
  EXPECT_EQ(g->out_d, 5);
}

TEST(PoolGeometryTest, DepthPoolingDividesTheDepth) {
  absl::StatusOr<PoolGeometry> g = NhwcPoolGeometry(
      Spec({1, 1, 1, 3}, {1, 1, 1, 3}, Padding::kValid), TensorShape({1, 2, 2, 6}));
  ASSERT_THAT(g.status(), IsOk());
  EXPECT_EQ(g->out_d, 2);
  EXPECT_THAT(
      NhwcPoolGeometry(Spec({1, 1, 1, 4}, {1, 1, 1, 4}, Padding::kValid), TensorShape({1, 2, 2, 6}))
          .status(),
      StatusIs(absl::StatusCode::kUnimplemented,
               HasSubstr("depth window to evenly divide the input depth")));
}

TEST(PoolGeometryTest, BadSpecsAreTensorFlowsErrors) {
  EXPECT_THAT(CheckKsizeAndStrides(Spec({1, 0, 2, 1}, {1, 1, 1, 1}, Padding::kValid)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Sliding window ksize for dimension 1 was zero.")));
  EXPECT_THAT(CheckKsizeAndStrides(Spec({2, 1, 1, 1}, {1, 1, 1, 1}, Padding::kValid)),
              StatusIs(absl::StatusCode::kUnimplemented,
                       HasSubstr("Pooling is not yet supported on the batch dimension.")));
  // TensorFlow reads ksize and strides as int32.
  EXPECT_THAT(
      CheckKsizeAndStrides(Spec({1, int64_t{1} << 40, 1, 1}, {1, 1, 1, 1}, Padding::kValid)),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "Attr ksize has value 1099511627776 out of range for an int32"));
  EXPECT_THAT(
      CheckKsizeAndStrides(Spec({1, 1, 1, 1}, {1, 1, -(int64_t{1} << 40), 1}, Padding::kValid)),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "Attr strides has value -1099511627776 out of range for an int32"));
  EXPECT_THAT(
      NhwcPoolGeometry(Spec({1, 2, 2, 1}, {1, 1, 1, 1}, Padding::kValid), TensorShape({2, 2, 2}))
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("tensor_in must be 4-dimensional")));
}

// TensorFlow refuses an explicit padding as large as the window (that window would hold only
// padding), checking top, bottom, left and right in that order.
TEST(PoolGeometryTest, ExplicitPaddingMustBeSmallerThanTheWindow) {
  PoolSpec s = Spec({1, 2, 2, 1}, {1, 1, 1, 1}, Padding::kExplicit);
  s.explicit_paddings = {0, 0, 1, 1, 1, 1, 0, 0};
  absl::StatusOr<PoolGeometry> g = NhwcPoolGeometry(s, TensorShape({1, 3, 3, 1}));
  ASSERT_THAT(g.status(), IsOk());
  EXPECT_EQ(g->out_h, 4);
  EXPECT_EQ(g->pad_h, 1);
  s.explicit_paddings = {0, 0, 2, 0, 0, 3, 0, 0};
  EXPECT_THAT(NhwcPoolGeometry(s, TensorShape({1, 3, 3, 1})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Top padding 2 needs to be smaller than the window size 2"));
  s.explicit_paddings = {0, 0, 0, 2, 3, 0, 0, 0};
  EXPECT_THAT(NhwcPoolGeometry(s, TensorShape({1, 3, 3, 1})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Bottom padding 2 needs to be smaller than the window size 2"));
  s.explicit_paddings = {0, 0, 0, 0, 2, 0, 0, 0};
  EXPECT_THAT(NhwcPoolGeometry(s, TensorShape({1, 3, 3, 1})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Left padding 2 needs to be smaller than the window size 2"));
  s.explicit_paddings = {0, 0, 0, 0, 0, 2, 0, 0};
  EXPECT_THAT(NhwcPoolGeometry(s, TensorShape({1, 3, 3, 1})).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Right padding 2 needs to be smaller than the window size 2"));
}

}  // namespace
}  // namespace rill
