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

TEST(WhereOpTest, CoordinatesOfNonzeroElementsInRowMajorOrder) {
  OpTester t("Where");
  t.Attr("T", DT_FLOAT).Input(F({0, 1, -0.0f, NAN, 0, 2}, TensorShape({2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], I64({0, 1, 1, 0, 1, 2}, TensorShape({3, 2})));
}

TEST(WhereOpTest, ScalarAndHalfAreTensorFlowsErrors) {
  OpTester scalar("Where");
  scalar.Attr("T", DT_BOOL).Input(Tensor::Scalar<bool>(true));
  EXPECT_THAT(scalar.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                     HasSubstr("WhereOp : Unhandled input dimensions: 0")));
  OpTester h("Where");
  h.Attr("T", DT_HALF).Input(MakeTensor(DT_HALF, TensorShape({1}), {1}));
  EXPECT_THAT(h.Run(), StatusIs(absl::StatusCode::kUnimplemented,
                                HasSubstr("No WhereOp available for float16/half type on CPU")));
}

}  // namespace
}  // namespace rill
