#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor V2(float a, float b) { return Tensor::FromVector<float>({a, b}, TensorShape({2})); }

absl::StatusOr<std::vector<Tensor>> Grad(const Tensor& grads, const Tensor& image,
                                         const Tensor& scale, const Tensor& shift,
                                         const std::string& kernel = "triangle",
                                         bool antialias = false) {
  OpTester t("ScaleAndTranslateGrad");
  t.Attr("T", DT_FLOAT)
      .Attr("kernel_type", kernel)
      .Attr("antialias", antialias)
      .Input(grads)
      .Input(image)
      .Input(scale)
      .Input(shift);
  return t.Run();
}

TEST(ScaleAndTranslateGradTest, IdentityScaleIsTheIdentity) {
  // Scale 1, no shift: every output samples its own input centre with weight 1.
  const TensorShape shape({1, 2, 2, 1});
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, Grad(F({1, 2, 3, 4}, shape), F({0, 0, 0, 0}, shape), V2(1, 1), V2(0, 0)));
  ExpectTensorEqual(out[0], F({1, 2, 3, 4}, shape));
}

TEST(ScaleAndTranslateGradTest, UpsamplingSpreadsWithTheForwardWeights) {
  // 1x1 -> 1x2 (scale 2 along x): both outputs read the single input with weight 1.
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Grad(F({1, 2}, TensorShape({1, 1, 2, 1})),
                                           F({0}, TensorShape({1, 1, 1, 1})), V2(1, 2), V2(0, 0)));
  ExpectTensorEqual(out[0], F({3}, TensorShape({1, 1, 1, 1})));
}

TEST(ScaleAndTranslateGradTest, ErrorsAreTensorFlows) {
  const Tensor g = F({1}, TensorShape({1, 1, 1, 1}));
  EXPECT_THAT(Grad(g, g, V2(1, 1), V2(0, 0), "cubic"),
              StatusIs(absl::StatusCode::kInvalidArgument, "Unrecognized kernel type: cubic"));
  EXPECT_THAT(Grad(F({1}, TensorShape({1})), g, V2(1, 1), V2(0, 0)),
              StatusIs(absl::StatusCode::kInvalidArgument, "input_grad must be 4-dimensional[1]"));
  EXPECT_THAT(Grad(g, g, V2(0, 1), V2(0, 0)),
              StatusIs(absl::StatusCode::kInvalidArgument, "Scale must be greater than zero."));
  EXPECT_THAT(Grad(g, F({1, 1}, TensorShape({2, 1, 1, 1})), V2(1, 1), V2(0, 0)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "original_image and input_grad must have same batch size"));
}

}  // namespace
}  // namespace rill
