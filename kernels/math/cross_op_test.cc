#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

template <typename T>
absl::StatusOr<std::vector<Tensor>> Cross(const Tensor& a, const Tensor& b) {
  OpTester t("Cross");
  t.Attr("T", a.dtype()).Input(a).Input(b);
  return t.Run();
}

TEST(CrossOpTest, RightHandedBasis) {
  const Tensor a = Tensor::FromVector<float>({1, 0, 0, 0, 1, 0}, TensorShape({2, 3}));
  const Tensor b = Tensor::FromVector<float>({0, 1, 0, 0, 0, 1}, TensorShape({2, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Cross<float>(a, b));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({0, 0, 1, 1, 0, 0}, TensorShape({2, 3})));
  const Tensor c = Tensor::FromVector<int32_t>({2, 3, 4}, TensorShape({3}));
  const Tensor d = Tensor::FromVector<int32_t>({5, 6, 7}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Cross<int32_t>(c, d));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({-3, 6, -3}, TensorShape({3})));
}

TEST(CrossOpTest, ErrorsAreTensorFlows) {
  const Tensor v3 = Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}));
  const Tensor v2 = Tensor::FromVector<float>({1, 2}, TensorShape({2}));
  EXPECT_THAT(Cross<float>(v3, v2),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Both inputs must be of same shape: [3] vs. [2]")));
  EXPECT_THAT(Cross<float>(v2, v2),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("Cross-products are only defined for 3-element vectors.")));
}

}  // namespace
}  // namespace rill
