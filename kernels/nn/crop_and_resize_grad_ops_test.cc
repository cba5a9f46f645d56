#include <cmath>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I(std::vector<int32_t> v) {
  return Tensor::FromVector<int32_t>(v, TensorShape({static_cast<int64_t>(v.size())}));
}

absl::StatusOr<std::vector<Tensor>> GradImage(const Tensor& grads, const Tensor& boxes,
                                              const Tensor& box_ind, const Tensor& size,
                                              const char* method = "bilinear") {
  OpTester t("CropAndResizeGradImage");
  t.Attr("T", DT_FLOAT).Attr("method", method).Input(grads).Input(boxes).Input(box_ind).Input(size);
  return t.Run();
}

absl::StatusOr<std::vector<Tensor>> GradBoxes(const Tensor& grads, const Tensor& image,
                                              const Tensor& boxes, const Tensor& box_ind) {
  OpTester t("CropAndResizeGradBoxes");
  t.Attr("T", DT_FLOAT).Input(grads).Input(image).Input(boxes).Input(box_ind);
  return t.Run();
}

// One 1x3 image [0, 10, 20]; the box x from 0 to 1 (whole width), y 0 to 0, crop 1x2: samples
// x = 0 and 2, y 0.
const Tensor kBox = F({0, 0, 0, 1}, TensorShape({1, 4}));

TEST(CropAndResizeGradTest, ImageGradGoesToTheSampledPixels) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, GradImage(F({1, 2}, TensorShape({1, 1, 2, 1})), kBox, I({0}), I({1, 1, 3, 1})));
  ExpectTensorEqual(out[0], F({1, 0, 2}, TensorShape({1, 1, 3, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, GradImage(F({1, 2}, TensorShape({1, 1, 2, 1})), kBox, I({0}),
                                           I({1, 1, 3, 1}), "nearest"));
  ExpectTensorEqual(out[0], F({1, 0, 2}, TensorShape({1, 1, 3, 1})));
}

TEST(CropAndResizeGradTest, BoxGradIsTheImageSlopeTimesTheCoordinateDerivative) {
  // Box x from 0.25 to 0.75: samples x = 0.5 and 1.5, both on a slope of 10 per pixel;
  // d in_x / d x1 = 2 - 2x and d in_x / d x2 = 2x for sample x: dx1 = 10 * 2, dx2 = 10 * 2.
  const Tensor box = F({0, 0.25f, 0, 0.75f}, TensorShape({1, 4}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            GradBoxes(F({1, 1}, TensorShape({1, 1, 2, 1})),
                                      F({0, 10, 20}, TensorShape({1, 1, 3, 1})), box, I({0})));
  ExpectTensorEqual(out[0], F({0, 20, 0, 20}, TensorShape({1, 4})));
  // The image gradient of that box: halves of each sample to its two neighbours.
  RILL_ASSERT_OK_AND_ASSIGN(
      out, GradImage(F({1, 2}, TensorShape({1, 1, 2, 1})), box, I({0}), I({1, 1, 3, 1})));
  ExpectTensorEqual(out[0], F({0.5f, 1.5f, 1}, TensorShape({1, 1, 3, 1})));
}

TEST(CropAndResizeGradTest, NanBoxesGetNoGradient) {
  const Tensor box = F({0, NAN, 0, 1}, TensorShape({1, 4}));
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, GradImage(F({1, 2}, TensorShape({1, 1, 2, 1})), box, I({0}), I({1, 1, 3, 1})));
  ExpectTensorEqual(out[0], F({0, 0, 0}, TensorShape({1, 1, 3, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, GradBoxes(F({1, 1}, TensorShape({1, 1, 2, 1})),
                                           F({0, 10, 20}, TensorShape({1, 1, 3, 1})), box, I({0})));
  ExpectTensorEqual(out[0], F({0, 0, 0, 0}, TensorShape({1, 4})));
}

TEST(CropAndResizeGradTest, ErrorsAreTensorFlows) {
  const Tensor g = F({1, 2}, TensorShape({1, 1, 2, 1}));
  EXPECT_THAT(
      GradImage(g, kBox, I({1}), I({1, 1, 3, 1})),
      StatusIs(absl::StatusCode::kOutOfRange, "box_index has values outside [0, batch_size)"));
  EXPECT_THAT(GradImage(g, F({0, 0, 1}, TensorShape({1, 3})), I({0}), I({1, 1, 3, 1})),
              StatusIs(absl::StatusCode::kInvalidArgument, "boxes must have 4 columns"));
  EXPECT_THAT(GradImage(g, kBox, I({0}), I({1, 1, 3})),
              StatusIs(absl::StatusCode::kInvalidArgument, "image_size must have 4 elements[3]"));
  EXPECT_THAT(GradBoxes(g, F({0, 10, 20}, TensorShape({1, 1, 3})), kBox, I({0})),
              StatusIs(absl::StatusCode::kInvalidArgument, "input image must be 4-D[1,1,3]"));
  EXPECT_THAT(GradBoxes(g, F({0, 10, 20, 0, 0, 0}, TensorShape({1, 1, 3, 2})), kBox, I({0})),
              StatusIs(absl::StatusCode::kInvalidArgument, "image, grads depth differ"));
}

}  // namespace
}  // namespace rill
