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

TEST(UniqueOpTest, FirstAppearanceOrderAndIndices) {
  OpTester t("Unique");
  t.Attr("T", DT_FLOAT).Input(F({3, 1, 3, -0.0f, 0, 1}, TensorShape({6})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({3, 1, -0.0f}, TensorShape({3})));
  ExpectTensorEqual(out[1], I32({0, 1, 0, 2, 2, 1}, TensorShape({6})));
}

TEST(UniqueOpTest, WithCountsCountsEachValue) {
  OpTester t("UniqueWithCounts");
  t.Attr("T", DT_FLOAT).Attr("out_idx", DT_INT64).Input(F({3, 1, 3, 3, 2}, TensorShape({5})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({3, 1, 2}, TensorShape({3})));
  ExpectTensorEqual(out[1], I64({0, 1, 0, 0, 2}, TensorShape({5})));
  ExpectTensorEqual(out[2], I64({3, 1, 1}, TensorShape({3})));
}

TEST(UniqueOpTest, MatrixIsTensorFlowsError) {
  OpTester t("Unique");
  t.Attr("T", DT_FLOAT).Input(F({1, 2}, TensorShape({1, 2})));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("unique expects a 1D vector.")));
}

}  // namespace
}  // namespace rill
