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

TEST(TopKOpTest, LargestFirstTiesByLowerIndex) {
  OpTester t("TopKV2");
  t.Attr("T", DT_FLOAT).Input(F({1, 3, 3, 2, 9, 8, 7, 9}, TensorShape({2, 4})));
  t.Input(Tensor::Scalar<int32_t>(2));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F({3, 3, 9, 9}, TensorShape({2, 2})));
  ExpectTensorEqual(out[1], I32({1, 2, 0, 3}, TensorShape({2, 2})));
}

TEST(TopKOpTest, KTooLargeIsTensorFlowsError) {
  OpTester t("TopKV2");
  t.Attr("T", DT_FLOAT).Input(F({1, 2, 3}, TensorShape({3}))).Input(Tensor::Scalar<int32_t>(4));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("input must have at least k columns. Had 3, needed 4")));
}

}  // namespace
}  // namespace rill
