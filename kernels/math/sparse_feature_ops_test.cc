#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor I64(std::vector<int64_t> v, TensorShape shape) {
  return Tensor::FromVector<int64_t>(v, std::move(shape));
}
Tensor F32(std::vector<float> v, TensorShape shape) {
  return Tensor::FromVector<float>(v, std::move(shape));
}

TEST(SparseSliceOpTest, KeepsEntriesInsideShiftedAndClipsTheShape) {
  OpTester t("SparseSlice");
  t.Attr("T", DT_FLOAT);
  t.Input(I64({0, 0, 1, 1, 2, 3, 3, 2}, TensorShape({4, 2})))
      .Input(F32({1, 2, 3, 4}, TensorShape({4})))
      .Input(I64({4, 4}, TensorShape({2})))
      .Input(I64({1, 1}, TensorShape({2})))
      .Input(I64({5, 2}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], I64({0, 0, 2, 1}, TensorShape({2, 2})));
  ExpectTensorEqual(out[1], F32({2, 4}, TensorShape({2})));
  ExpectTensorEqual(out[2], I64({3, 2}, TensorShape({2})));
}

TEST(SparseSliceOpTest, NegativeSizeIsInvalidArgument) {
  OpTester t("SparseSlice");
  t.Attr("T", DT_FLOAT);
  t.Input(I64({0, 0}, TensorShape({1, 2})))
      .Input(F32({1}, TensorShape({1})))
      .Input(I64({4, 4}, TensorShape({2})))
      .Input(I64({0, 0}, TensorShape({2})))
      .Input(I64({-1, 2}, TensorShape({2})));
  EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         HasSubstr("Expected a non-negative size, got -1")));
}

TEST(SparseSoftmaxOpTest, SoftmaxPerRowInSortedOrder) {
  // Entries given out of order: the output follows the sorted indices [0,1], [0,2], [1,0].
  OpTester t("SparseSoftmax");
  t.Attr("T", DT_FLOAT);
  t.Input(I64({1, 0, 0, 2, 0, 1}, TensorShape({3, 2})))
      .Input(F32({7, 5, 5}, TensorShape({3})))
      .Input(I64({2, 3}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F32({0.5f, 0.5f, 1.0f}, TensorShape({3})));
}

TEST(SparseTensorDenseAddOpTest, RepeatedIndicesAddUp) {
  OpTester t("SparseTensorDenseAdd");
  t.Attr("T", DT_FLOAT).Attr("Tindices", DT_INT64);
  t.Input(I64({0, 1, 1, 0, 0, 1}, TensorShape({3, 2})))
      .Input(F32({1, 2, 4}, TensorShape({3})))
      .Input(I64({2, 2}, TensorShape({2})))
      .Input(F32({10, 20, 30, 40}, TensorShape({2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], F32({10, 25, 32, 40}, TensorShape({2, 2})));
}

}  // namespace
}  // namespace rill
