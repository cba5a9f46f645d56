#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> BicubicGrad(const Tensor& grads, const Tensor& image,
                                                bool align_corners = false,
                                                bool half_pixel_centers = false) {
  OpTester t("ResizeBicubicGrad");
  t.Attr("T", image.dtype())
      .Attr("align_corners", align_corners)
      .Attr("half_pixel_centers", half_pixel_centers)
      .Input(grads)
      .Input(image);
  return t.Run();
}

TEST(ResizeBicubicGradTest, SameSizeIsTheIdentity) {
  // Scale 1: every pixel samples at offset 0, whose weights are (0, 1, 0, 0).
  const TensorShape shape({1, 1, 3, 1});
  RILL_ASSERT_OK_AND_ASSIGN(auto out, BicubicGrad(F({1, 2, 3}, shape), F({0, 0, 0}, shape)));
  ExpectTensorEqual(out[0], F({1, 2, 3}, shape));
}

TEST(ResizeBicubicGradTest, HalfPixelCentersKeepTheGradientSum) {
  // Renormalized weights sum to 1, so every share of a pixel lands in the image.
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      BicubicGrad(F({1, 1, 1, 1}, TensorShape({1, 1, 4, 1})),
                  Tensor::FromVector<double>({0, 0}, TensorShape({1, 1, 2, 1})), false, true));
  const double sum = out[0].flat<double>()[0] + out[0].flat<double>()[1];
  EXPECT_NEAR(sum, 4.0, 1e-6);
}

TEST(ResizeBicubicGradTest, ErrorsAreTensorFlows) {
  const Tensor image = F({0, 0}, TensorShape({1, 1, 2, 1}));
  EXPECT_THAT(BicubicGrad(F({1}, TensorShape({1})), image),
              StatusIs(absl::StatusCode::kInvalidArgument, "input_grad must be 4-dimensional[1]"));
  EXPECT_THAT(
      BicubicGrad(F({1}, TensorShape({1, 1, 1, 1})), F({1}, TensorShape({1}))),
      StatusIs(absl::StatusCode::kInvalidArgument, "original_image must be 4-dimensional[1]"));
  EXPECT_THAT(BicubicGrad(F({1}, TensorShape({1, 1, 1, 1})), F({}, TensorShape({1, 3, 0, 1}))),
              StatusIs(absl::StatusCode::kInvalidArgument, "original dimensions must be positive"));
  EXPECT_THAT(BicubicGrad(F({}, TensorShape({1, 1, 0, 1})), image),
              StatusIs(absl::StatusCode::kInvalidArgument, "resized dimensions must be positive"));
  EXPECT_THAT(BicubicGrad(F({1}, TensorShape({1, 1, 1, 1})), image, true, true),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "If half_pixel_centers is True, align_corners must be False."));
}

}  // namespace
}  // namespace rill
