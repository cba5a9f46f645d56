#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor I(std::vector<int32_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return Tensor::FromVector<int32_t>(v, TensorShape({n}));
}

TEST(DynamicStitchOpTest, MergesRowsByIndexLaterWins) {
  OpTester t("DynamicStitch");
  t.Attr("N", int64_t{2}).Attr("T", DT_FLOAT);
  t.Input(I({0, 2})).Input(I({1, 2}));
  t.Input(Tensor::FromVector<float>({1, 2}, TensorShape({2})));
  t.Input(Tensor::FromVector<float>({3, 4}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({1, 3, 4}, TensorShape({3})));
}

TEST(DynamicStitchOpTest, DataMustStartWithTheIndicesShape) {
  OpTester t("DynamicStitch");
  t.Attr("N", int64_t{1}).Attr("T", DT_FLOAT);
  t.Input(I({0, 1})).Input(Tensor::FromVector<float>({1, 2, 3}, TensorShape({3})));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("data[0].shape = [3] does not start with "
                                          "indices[0].shape = [2]")));
}

}  // namespace
}  // namespace rill
