#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> BilinearGrad(const Tensor& grads, const Tensor& image,
                                                 bool align_corners = false,
                                                 bool half_pixel_centers = false) {
  OpTester t("ResizeBilinearGrad");
  t.Attr("T", image.dtype())
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Input(grads)
      .Input(image);
  return t.Run();
}

absl::StatusOr<std::vector<Tensor>> NearestGrad(const Tensor& grads, const Tensor& size,
                                                bool align_corners = false,
                                                bool half_pixel_centers = false) {
  OpTester t("ResizeNearestNeighborGrad");
  t.Attr("T", grads.dtype())
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Input(grads)
      .Input(size);
  return t.Run();
}

TEST(ResizeBilinearGradTest, SpreadsEachPixelOverItsNeighbours) {
  // 1x2 -> 1x4 (scale 0.5): resized x = 0, 0.5, 1, 1.5 reads (0), (0, 1 at 0.5), (1), (1, 1).
  const Tensor image = F({0, 0}, TensorShape({1, 1, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            BilinearGrad(F({1, 2, 4, 8}, TensorShape({1, 1, 4, 1})), image));
  ExpectTensorEqual(out[0], F({1 + 1, 1 + 4 + 4 + 4}, TensorShape({1, 1, 2, 1})));
  // align_corners: scale (2 - 1) / (4 - 1); the grads sum is kept.
  RILL_ASSERT_OK_AND_ASSIGN(out, BilinearGrad(F({3, 3, 3, 3}, TensorShape({1, 1, 4, 1})), image,
                                              /*align_corners=*/true));
  ExpectTensorEqual(out[0], F({6, 6}, TensorShape({1, 1, 2, 1})));
}

TEST(ResizeBilinearGradTest, DoubleImagesGetDoubleGradients) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, BilinearGrad(F({1, 2}, TensorShape({1, 1, 2, 1})),
                             Tensor::FromVector<double>({0, 0}, TensorShape({1, 1, 2, 1}))));
  ExpectTensorEqual(out[0], Tensor::FromVector<double>({1, 2}, TensorShape({1, 1, 2, 1})));
}

TEST(ResizeBilinearGradTest, ErrorsAreTensorFlows) {
  const Tensor image = F({0, 0}, TensorShape({1, 1, 2, 1}));
  EXPECT_THAT(
      BilinearGrad(F({1, 2}, TensorShape({1, 2})), image),
      StatusIs(absl::StatusCode::kInvalidArgument, "input_grad must be 4-dimensional[1,2]"));
  EXPECT_THAT(
      BilinearGrad(F({1, 2}, TensorShape({1, 1, 2, 1})), F({0, 0}, TensorShape({2}))),
      StatusIs(absl::StatusCode::kInvalidArgument, "original_image must be 4-dimensional[2]"));
  EXPECT_THAT(BilinearGrad(F({1, 2}, TensorShape({2, 1, 1, 1})), image),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "original_image and input_grad must have same batch size"));
  EXPECT_THAT(BilinearGrad(F({1, 2}, TensorShape({1, 1, 2, 1})), F({}, TensorShape({1, 0, 5, 1}))),
              StatusIs(absl::StatusCode::kInvalidArgument, "original dimensions must be positive"));
  EXPECT_THAT(BilinearGrad(F({}, TensorShape({1, 0, 2, 1})), image),
              StatusIs(absl::StatusCode::kInvalidArgument, "resized dimensions must be positive"));
  EXPECT_THAT(BilinearGrad(F({1, 2}, TensorShape({1, 1, 2, 1})), image, true, true),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "If half_pixel_centers is True, align_corners must be False."));
}

TEST(ResizeNearestNeighborGradTest, SumsTheGradsOfEachSourcePixel) {
  // 1x4 -> 1x2 original: resized x = 0, 1, 2, 3 read floor(x * 0.5) = 0, 0, 1, 1.
  const Tensor size = Tensor::FromVector<int32_t>({1, 2}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            NearestGrad(F({1, 2, 4, 8}, TensorShape({1, 1, 4, 1})), size));
  ExpectTensorEqual(out[0], F({3, 12}, TensorShape({1, 1, 2, 1})));
  // half_pixel_centers: floor((x + 0.5) * 0.5) = 0, 0, 1, 1 as well; int32 sums exactly.
  RILL_ASSERT_OK_AND_ASSIGN(
      out, NearestGrad(Tensor::FromVector<int32_t>({1, 2, 4, 8}, TensorShape({1, 1, 4, 1})), size,
                       false, true));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({3, 12}, TensorShape({1, 1, 2, 1})));
}

TEST(ResizeNearestNeighborGradTest, ErrorsAreTensorFlows) {
  const Tensor g = F({1}, TensorShape({1, 1, 1, 1}));
  EXPECT_THAT(
      NearestGrad(F({1}, TensorShape({1})), Tensor::FromVector<int32_t>({1, 1}, TensorShape({2}))),
      StatusIs(absl::StatusCode::kInvalidArgument, "input must be 4-dimensional[1]"));
  EXPECT_THAT(NearestGrad(g, Tensor::FromVector<int32_t>({1, 1}, TensorShape({1, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument, "shape_t must be 1-D[1,2]"));
  EXPECT_THAT(NearestGrad(g, Tensor::FromVector<int32_t>({1, 1, 1}, TensorShape({3}))),
              StatusIs(absl::StatusCode::kInvalidArgument, "shape_t must have two elements[3]"));
}

}  // namespace
}  // namespace rill
