// SparseDenseCwiseMul / Add / Div: broadcasting of the dense side, integer wrap and truncation,
// MIN / -1 (which kills TensorFlow's process) and the errors that stop at the first bad entry.
// TensorFlow's values and texts are in the recorded cases
// (tests/conformance/data/SparseDenseCwise{Mul,Add,Div}.pbtxt.gz).
#include <cstdint>
#include <limits>
#include <string>
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

template <typename T>
absl::StatusOr<std::vector<Tensor>> RunOp(const std::string& op, std::vector<int64_t> indices,
                                          int64_t rank, std::vector<T> values,
                                          std::vector<int64_t> shape, std::vector<T> dense,
                                          TensorShape dense_shape) {
  OpTester t(op);
  t.Attr("T", DataTypeToEnum<T>::value);
  const int64_t nnz = static_cast<int64_t>(values.size());
  t.Input(I64(indices, TensorShape({nnz, rank})))
      .Input(Tensor::FromVector<T>(values, TensorShape({nnz})))
      .Input(I64(shape, TensorShape({static_cast<int64_t>(shape.size())})))
      .Input(Tensor::FromVector<T>(dense, std::move(dense_shape)));
  return t.Run();
}

// A [3] dense row broadcast over a [2, 3] sparse shape, a [2, 1] column, and a scalar.
TEST(SparseDenseCwiseOpTest, DenseBroadcastsToTheSparseShape) {
  const std::vector<int64_t> idx = {0, 1, 1, 2, 1, 0};
  RILL_ASSERT_OK_AND_ASSIGN(
      auto row, RunOp<float>("SparseDenseCwiseMul", idx, 2, {2, 3, 4}, {2, 3}, {10, 20, 30}, {3}));
  ExpectTensorEqual(row[0], Tensor::FromVector<float>({40, 90, 40}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(
      auto col, RunOp<float>("SparseDenseCwiseAdd", idx, 2, {2, 3, 4}, {2, 3}, {5, 6}, {2, 1}));
  ExpectTensorEqual(col[0], Tensor::FromVector<float>({7, 9, 10}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(
      auto scalar, RunOp<float>("SparseDenseCwiseDiv", idx, 2, {2, 3, 4}, {2, 3}, {4}, {}));
  ExpectTensorEqual(scalar[0], Tensor::FromVector<float>({0.5f, 0.75f, 1}, TensorShape({3})));
}

TEST(SparseDenseCwiseOpTest, IntegersWrapAndTruncate) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
  const std::vector<int64_t> idx = {0, 1, 2};
  RILL_ASSERT_OK_AND_ASSIGN(
      auto sum, RunOp<int32_t>("SparseDenseCwiseAdd", idx, 1, {kMax, -7, 5}, {3}, {1, 2, 3}, {3}));
  ExpectTensorEqual(sum[0], Tensor::FromVector<int32_t>({kMin, -5, 8}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto quotient, RunOp<int32_t>("SparseDenseCwiseDiv", idx, 1,
                                                          {-7, kMin, 7}, {3}, {2, -1, -2}, {3}));
  ExpectTensorEqual(quotient[0], Tensor::FromVector<int32_t>({-3, kMin, -3}, TensorShape({3})));
}

TEST(SparseDenseCwiseOpTest, NoEntriesGiveAnEmptyOutput) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            RunOp<float>("SparseDenseCwiseDiv", {}, 2, {}, {0, 3}, {0, 1, 2}, {3}));
  EXPECT_EQ(out[0].shape(), TensorShape({0}));
}

TEST(SparseDenseCwiseOpTest, ErrorsStopAtTheFirstBadEntry) {
  // The second entry is out of bounds, the first divides by -0: the division is reported.
  EXPECT_THAT(RunOp<float>("SparseDenseCwiseDiv", {0, 2, 1, 7}, 2, {1, 2}, {2, 3},
                           {1, 0, -0.0f, 4, 5, 6}, {2, 3})
                  .status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("SparseDenseCwiseDiv cannot divide by zero,but input dense "
                                 "tensor contains zero ")));
  // A zero no entry reads is fine.
  EXPECT_TRUE(
      RunOp<float>("SparseDenseCwiseDiv", {0, 2}, 2, {1}, {2, 3}, {1, 0, 2, 4, 5, 6}, {2, 3}).ok());
  EXPECT_THAT(
      RunOp<float>("SparseDenseCwiseMul", {0, 2, -1, 0}, 2, {1, 2}, {2, 3}, {1}, {1}).status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Provided indices are out-of-bounds w.r.t. dense side with "
                         "broadcasted shape")));
  EXPECT_THAT(
      RunOp<float>("SparseDenseCwiseMul", {0, 1}, 2, {1}, {2, 3}, {1, 2, 3, 4}, {1, 4}).status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("SparseDenseBinaryOpShared broadcasts dense to sparse only; got "
                         "incompatible shapes: [2,3] vs. [1,4]")));
  EXPECT_THAT(
      RunOp<float>("SparseDenseCwiseMul", {0, 0, 0, 0, 0, 0}, 6, {1}, {1, 1, 1, 1, 1, 1}, {3}, {})
          .status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("Only tensors with ranks between 1 and 5 are currently supported.  "
                         "Tensor rank: 6")));
  EXPECT_THAT(RunOp<float>("SparseDenseCwiseAdd", {0, 1}, 2, {1}, {2, -3}, {1}, {}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected shape dimensions to be non-negative, got -3")));
}

}  // namespace
}  // namespace rill
