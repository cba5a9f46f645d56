#include <algorithm>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAreArray;

TEST(RandomShuffleOpTest, PermutesRowsAndContinuesTheStream) {
  OpTester t("RandomShuffle");
  t.Attr("T", DT_INT32).Attr("seed", int64_t{1}).Attr("seed2", int64_t{2});
  std::vector<int32_t> v(20);
  for (int i = 0; i < 20; ++i) v[i] = i;
  t.Input(Tensor::FromVector<int32_t>(v, TensorShape({20})));
  RILL_ASSERT_OK_AND_ASSIGN(auto first, t.Run());
  RILL_ASSERT_OK_AND_ASSIGN(auto second, t.Run());
  auto a = first[0].flat<int32_t>(), b = second[0].flat<int32_t>();
  EXPECT_THAT(std::vector<int32_t>(a.begin(), a.end()), UnorderedElementsAreArray(v));
  EXPECT_NE(std::vector<int32_t>(a.begin(), a.end()), std::vector<int32_t>(b.begin(), b.end()));
}

TEST(MultinomialOpTest, SamplesOnlyPossibleClassesAndChecksShapes) {
  OpTester t("Multinomial");
  t.Attr("T", DT_FLOAT).Attr("seed", int64_t{3}).Attr("seed2", int64_t{4});
  t.Input(Tensor::FromVector<float>({0, -INFINITY, 0, -INFINITY}, TensorShape({1, 4})));
  t.Input(Tensor::Scalar<int32_t>(50));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  for (int64_t k : out[0].flat<int64_t>()) EXPECT_TRUE(k == 0 || k == 2) << k;
  OpTester bad("Multinomial");
  bad.Attr("T", DT_FLOAT).Input(Tensor::FromVector<float>({1, 2}, TensorShape({2})));
  bad.Input(Tensor::Scalar<int32_t>(1));
  EXPECT_THAT(bad.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                  HasSubstr("logits should be a matrix, got shape [2]")));
}

}  // namespace
}  // namespace rill
