#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> Gamma(const std::vector<int32_t>& shape, const Tensor& alpha) {
  OpTester t("StatelessRandomGammaV2");
  t.Attr("dtype", alpha.dtype()).Attr("T", DT_INT32).Attr("Tseed", DT_INT64);
  t.Input(Tensor::FromVector<int32_t>(shape, TensorShape({static_cast<int64_t>(shape.size())})));
  t.Input(Tensor::FromVector<int64_t>({1, 2}, TensorShape({2})));
  t.Input(alpha);
  return t.Run();
}

// The same seed gives the same positive samples (their values are the conformance cases').
TEST(StatelessRandomGammaOpTest, SameSeedSameSamples) {
  RILL_ASSERT_OK_AND_ASSIGN(
      std::vector<Tensor> out,
      Gamma({2, 2}, Tensor::FromVector<double>({0.25, 40.0}, TensorShape({2}))));
  ASSERT_EQ(out[0].shape(), TensorShape({2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(
      std::vector<Tensor> again,
      Gamma({2, 2}, Tensor::FromVector<double>({0.25, 40.0}, TensorShape({2}))));
  ExpectTensorEqual(out[0], again[0]);  // stateless: the seed alone decides
  for (double v : out[0].flat<double>()) EXPECT_GT(v, 0);
}

TEST(StatelessRandomGammaOpTest, AlphaMustBeTheShapesSuffix) {
  EXPECT_THAT(Gamma({3, 2}, Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Shape passed in must end with broadcasted shape.")));
}

}  // namespace
}  // namespace rill
