#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor V(std::vector<int32_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<int32_t>(v, TensorShape({n}));
}

absl::StatusOr<std::vector<Tensor>> Args(std::vector<int32_t> s0, std::vector<int32_t> s1) {
  OpTester t("BroadcastGradientArgs");
  t.Attr("T", DT_INT32).Input(V(s0)).Input(V(s1));
  return t.Run();
}

TEST(BroadcastGradientArgsOpTest, ReducesWhereAnOperandWasOne) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Args({2, 3}, {3}));
  ExpectTensorEqual(out[0], V({}));
  ExpectTensorEqual(out[1], V({0}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Args({4, 1, 3}, {2, 1}));
  ExpectTensorEqual(out[0], V({1}));
  ExpectTensorEqual(out[1], V({0, 2}));
  // Dims that are 1 in both are reduced for both, unless the shapes are equal.
  RILL_ASSERT_OK_AND_ASSIGN(out, Args({1, 2}, {1, 1}));
  ExpectTensorEqual(out[0], V({0}));
  ExpectTensorEqual(out[1], V({0, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Args({1, 3}, {1, 3}));
  ExpectTensorEqual(out[0], V({}));
  EXPECT_THAT(Args({2, 3}, {4}), StatusIs(absl::StatusCode::kInvalidArgument,
                                          HasSubstr("Incompatible shapes: [2,3] vs. [4]")));
}

TEST(InvertPermutationOpTest, InverseAndErrors) {
  OpTester t("InvertPermutation");
  t.Attr("T", DT_INT32).Input(V({2, 0, 3, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], V({1, 3, 0, 2}));
  OpTester dup("InvertPermutation");
  dup.Attr("T", DT_INT32).Input(V({1, 1, 0}));
  EXPECT_THAT(dup.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("1 is duplicated in the input.")));
}

}  // namespace
}  // namespace rill
