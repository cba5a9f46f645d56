#include <cstdint>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor Size(int32_t h, int32_t w) { return Tensor::FromVector<int32_t>({h, w}, TensorShape({2})); }

absl::StatusOr<std::vector<Tensor>> Resize(const std::string& op, const Tensor& images,
                                           const Tensor& size, bool align_corners = false,
                                           bool half_pixel_centers = false) {
  OpTester t(op);
  t.Attr("T", images.dtype())
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Input(images)
      .Input(size);
  return t.Run();
}

const Tensor& Square() {
  static const Tensor* t = new Tensor(F({0, 1, 2, 3}, TensorShape({1, 2, 2, 1})));
  return *t;
}

TEST(ResizeBilinearOpTest, LegacyCoordinates) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Resize("ResizeBilinear", Square(), Size(4, 4)));
  ExpectTensorEqual(out[0], F({0, 0.5, 1, 1, 1, 1.5, 2, 2, 2, 2.5, 3, 3, 2, 2.5, 3, 3},
                              TensorShape({1, 4, 4, 1})));
}

TEST(ResizeBilinearOpTest, AlignCorners) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Resize("ResizeBilinear", Square(), Size(3, 3), true));
  ExpectTensorEqual(out[0], F({0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3}, TensorShape({1, 3, 3, 1})));
}

TEST(ResizeBilinearOpTest, HalfPixelCenters) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Resize("ResizeBilinear", Square(), Size(4, 4), false, true));
  ExpectTensorEqual(
      out[0], F({0, 0.25, 0.75, 1, 0.5, 0.75, 1.25, 1.5, 1.5, 1.75, 2.25, 2.5, 2, 2.25, 2.75, 3},
                TensorShape({1, 4, 4, 1})));
}

TEST(ResizeBilinearOpTest, IntegerInputGivesFloat) {
  const Tensor x = Tensor::FromVector<int32_t>({0, 2, 4, 6}, TensorShape({1, 2, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Resize("ResizeBilinear", x, Size(3, 3), true));
  ExpectTensorEqual(out[0], F({0, 1, 2, 2, 3, 4, 4, 5, 6}, TensorShape({1, 3, 3, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Resize("ResizeBilinear", x, Size(2, 2)));
  ExpectTensorEqual(out[0], F({0, 2, 4, 6}, TensorShape({1, 2, 2, 1})));
}

TEST(ResizeNearestNeighborOpTest, CoordinateRules) {
  const Tensor x = Tensor::FromVector<int32_t>({1, 2, 3, 4}, TensorShape({1, 2, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Resize("ResizeNearestNeighbor", x, Size(4, 4)));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<int32_t>({1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4},
                                                TensorShape({1, 4, 4, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Resize("ResizeNearestNeighbor", x, Size(3, 3), true));
  ExpectTensorEqual(
      out[0], Tensor::FromVector<int32_t>({1, 2, 2, 3, 4, 4, 3, 4, 4}, TensorShape({1, 3, 3, 1})));
  // Downsizing [1, 2, 3] to 2: legacy floor(i * 1.5) = 0, 1; half-pixel floor((i + .5) * 1.5) =
  // 0, 2; align_corners round(i * 2) = 0, 2.
  const Tensor row = F({1, 2, 3}, TensorShape({1, 1, 3, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Resize("ResizeNearestNeighbor", row, Size(1, 2)));
  ExpectTensorEqual(out[0], F({1, 2}, TensorShape({1, 1, 2, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Resize("ResizeNearestNeighbor", row, Size(1, 2), false, true));
  ExpectTensorEqual(out[0], F({1, 3}, TensorShape({1, 1, 2, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Resize("ResizeNearestNeighbor", row, Size(1, 2), true));
  ExpectTensorEqual(out[0], F({1, 3}, TensorShape({1, 1, 2, 1})));
}

TEST(ResizeOpsTest, ErrorsAreTensorFlows) {
  for (const char* op : {"ResizeBilinear", "ResizeNearestNeighbor"}) {
    SCOPED_TRACE(op);
    EXPECT_THAT(Resize(op, Square(), Size(2, 2), true, true),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "If half_pixel_centers is True, align_corners must be False."));
    EXPECT_THAT(Resize(op, Square(), Size(0, 2)),
                StatusIs(absl::StatusCode::kInvalidArgument, "output dimensions must be positive"));
    EXPECT_THAT(Resize(op, F({1, 2}, TensorShape({1, 2, 1})), Size(2, 2)),
                StatusIs(absl::StatusCode::kInvalidArgument, "input must be 4-dimensional[1,2,1]"));
    EXPECT_THAT(Resize(op, Square(), Tensor::FromVector<int32_t>({2}, TensorShape({1}))),
                StatusIs(absl::StatusCode::kInvalidArgument, "shape_t must have two elements[1]"));
  }
}

// Issue 26: batch * height * width * channels from the size input overflowed int64 and aborted in
// TensorShape; it is InvalidArgument now.
TEST(ResizeBilinearOpTest, OutputSizeOverflowIsInvalidArgument) {
  const Tensor images = F(std::vector<float>(12, 1.f), TensorShape({1, 2, 2, 3}));
  for (const char* op : {"ResizeBilinear", "ResizeNearestNeighbor"}) {
    EXPECT_THAT(Resize(op, images, Size(2147483647, 2147483647)),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         ::testing::HasSubstr("Shape [1,2147483647,2147483647,3] has too many "
                                              "elements (overflows int64)")))
        << op;
  }
}

}  // namespace
}  // namespace rill
