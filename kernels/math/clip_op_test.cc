#include <cmath>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> Clip(const Tensor& t, const Tensor& lo, const Tensor& hi) {
  OpTester c("ClipByValue");
  c.Attr("T", t.dtype()).Input(t).Input(lo).Input(hi);
  return c.Run();
}

TEST(ClipOpTest, ScalarAndTensorBounds) {
  const Tensor x = F({-3, -1, 0, 2, 5, 9}, TensorShape({2, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Clip(x, Tensor::Scalar<float>(-1), Tensor::Scalar<float>(4)));
  ExpectTensorEqual(out[0], F({-1, -1, 0, 2, 4, 4}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Clip(x, F({0, 0, 0, 3, 3, 3}, TensorShape({2, 3})), Tensor::Scalar<float>(8)));
  ExpectTensorEqual(out[0], F({0, 0, 0, 3, 5, 8}, TensorShape({2, 3})));
  const Tensor ints = Tensor::FromVector<int32_t>({-5, 5}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(out,
                            Clip(ints, Tensor::Scalar<int32_t>(-2), Tensor::Scalar<int32_t>(2)));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({-2, 2}, TensorShape({2})));
}

TEST(ClipOpTest, NanPassesAndMinAboveMaxGivesMin) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Clip(F({NAN, 1, 7}, TensorShape({3})),
                                           Tensor::Scalar<float>(5), Tensor::Scalar<float>(2)));
  EXPECT_TRUE(std::isnan(out[0].flat<float>()[0]));
  EXPECT_EQ(out[0].flat<float>()[1], 5);
  EXPECT_EQ(out[0].flat<float>()[2], 5);
}

TEST(ClipOpTest, BoundShapeErrorIsTensorFlows) {
  EXPECT_THAT(Clip(F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3})), F({0, 0, 0}, TensorShape({3})),
                   Tensor::Scalar<float>(1)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("clip_value_min and clip_value_max must be either of the same "
                                 "shape as input, or a scalar. input shape: [2,3]clip_value_min "
                                 "shape: [3]clip_value_max shape: []")));
}

}  // namespace
}  // namespace rill
