#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I32(std::vector<int32_t> v, TensorShape s) { return Tensor::FromVector<int32_t>(v, s); }
Tensor I64(std::vector<int64_t> v, TensorShape s) { return Tensor::FromVector<int64_t>(v, s); }

absl::StatusOr<std::vector<Tensor>> OneHot(const Tensor& indices, int32_t depth, int64_t axis) {
  OpTester t("OneHot");
  t.Attr("T", DT_FLOAT).Attr("TI", indices.dtype()).Attr("axis", axis);
  t.Input(indices).Input(Tensor::Scalar<int32_t>(depth));
  t.Input(Tensor::Scalar<float>(5)).Input(Tensor::Scalar<float>(0));
  return t.Run();
}

TEST(OneHotOpTest, LastAxisFirstAxisAndOutOfRangeRows) {
  const Tensor idx = I64({0, 2, -1}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, OneHot(idx, 3, -1));
  ExpectTensorEqual(out[0], F({5, 0, 0, 0, 0, 5, 0, 0, 0}, TensorShape({3, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, OneHot(idx, 2, 0));
  ExpectTensorEqual(out[0], F({5, 0, 0, 0, 0, 0}, TensorShape({2, 3})));
}

TEST(OneHotOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(OneHot(I64({0}, TensorShape({1})), -1, -1),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("depth must be non-negative, got: -1")));
  EXPECT_THAT(OneHot(I64({0}, TensorShape({1})), 2, 3),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected axis to be -1 or between [0, 2).  But received: 3")));
}

}  // namespace
}  // namespace rill
