// SparseToDense on outputs of several fill blocks over two threads (zero, negative zero, nonzero
// and bool defaults), rank 3 and int32 indices, and the first bad row named as TensorFlow names it;
// the recorded TensorFlow cases (tests/conformance/data/SparseToDense.pbtxt) cover the small shapes
// and every error text.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/status_macros.h"
#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<Tensor> SparseToDense(const Tensor& indices, const Tensor& shape,
                                     const Tensor& values, const Tensor& def,
                                     bool validate = true) {
  OpTester t("SparseToDense");
  t.Attr("T", values.dtype()).Attr("Tindices", indices.dtype()).Attr("validate_indices", validate);
  t.Input(indices).Input(shape).Input(values).Input(def);
  t.SetIntraOpThreads(2);
  RILL_ASSIGN_OR_RETURN(std::vector<Tensor> out, t.Run());
  return out[0];
}

TEST(SparseToDenseTest, LargeOutputWithZeroAndNonzeroDefaults) {
  const int64_t rows = 300, cols = 500;  // 150,000 elements: several fill blocks
  std::vector<int64_t> idx;
  std::vector<float> vals;
  for (int64_t r = 0; r < rows; r += 7) {
    idx.push_back(r);
    idx.push_back((r * 13) % cols);
    vals.push_back(static_cast<float>(r) + 0.5f);
  }
  const int64_t nnz = static_cast<int64_t>(vals.size());
  for (float def : {0.0f, -0.0f, 2.5f}) {
    std::vector<float> want(rows * cols, def);
    for (int64_t n = 0; n < nnz; ++n) want[idx[2 * n] * cols + idx[2 * n + 1]] = vals[n];
    RILL_ASSERT_OK_AND_ASSIGN(
        Tensor out,
        SparseToDense(Tensor::FromVector<int64_t>(idx, TensorShape({nnz, 2})),
                      Tensor::FromVector<int64_t>({rows, cols}, TensorShape({2})),
                      Tensor::FromVector<float>(vals, TensorShape({nnz})), Tensor::Scalar(def)));
    ExpectTensorEqual(out, Tensor::FromVector<float>(want, TensorShape({rows, cols})));
    EXPECT_EQ(std::signbit(out.flat<float>()[1]), std::signbit(def)) << def;
  }
}

TEST(SparseToDenseTest, Rank3Int32IndicesAndScalarValue) {
  RILL_ASSERT_OK_AND_ASSIGN(
      Tensor out,
      SparseToDense(Tensor::FromVector<int32_t>({0, 1, 2, 1, 0, 0}, TensorShape({2, 3})),
                    Tensor::FromVector<int32_t>({2, 2, 3}, TensorShape({3})),
                    Tensor::Scalar<int32_t>(7), Tensor::Scalar<int32_t>(-1)));
  ExpectTensorEqual(out, Tensor::FromVector<int32_t>({-1, -1, -1, -1, -1, 7, 7, -1, -1, -1, -1, -1},
                                                     TensorShape({2, 2, 3})));
}

TEST(SparseToDenseTest, BoolOverSeveralBlocks) {
  const int64_t n = 40000;
  RILL_ASSERT_OK_AND_ASSIGN(Tensor out,
                            SparseToDense(Tensor::FromVector<int64_t>({3, n - 1}, TensorShape({2})),
                                          Tensor::FromVector<int64_t>({n}, TensorShape({1})),
                                          Tensor::Scalar<bool>(false), Tensor::Scalar<bool>(true)));
  std::vector<bool> want(n, true);
  want[3] = false;
  want[n - 1] = false;
  ASSERT_EQ(out.NumElements(), n);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out.flat<bool>()[i], want[i]) << i;
}

TEST(SparseToDenseTest, FirstBadRowIsNamed) {
  const Tensor shape = Tensor::FromVector<int64_t>({4, 5}, TensorShape({2}));
  const Tensor vals = Tensor::FromVector<float>({1, 2, 3}, TensorShape({3}));
  const Tensor def = Tensor::Scalar(0.0f);
  auto indices = [](std::vector<int64_t> v) {
    return Tensor::FromVector<int64_t>(v, TensorShape({3, 2}));
  };
  // A negative column, then a row past the end: the first is reported.
  EXPECT_THAT(SparseToDense(indices({0, 1, 1, -1, 9, 0}), shape, vals, def).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "indices[1] = [1,-1] is out of bounds: need 0 <= index < [4,5]"));
  EXPECT_THAT(SparseToDense(indices({0, 1, 1, -1, 9, 0}), shape, vals, def, false).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Indices are not valid (out of bounds).  Shape: [4,5]"));
  EXPECT_THAT(SparseToDense(indices({0, 1, 2, 0, 1, 4}), shape, vals, def).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("indices[2] = [1,4] is out of order.")));
  EXPECT_THAT(SparseToDense(indices({0, 1, 2, 0, 2, 0}), shape, vals, def).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "indices[2] = [2,0] is repeated"));
  // Unvalidated, order does not matter (a repeated index keeps the last value).
  RILL_ASSERT_OK_AND_ASSIGN(Tensor out,
                            SparseToDense(indices({3, 4, 0, 0, 3, 4}), shape, vals, def, false));
  std::vector<float> want(20, 0.0f);
  want[0] = 2;
  want[19] = 3;
  ExpectTensorEqual(out, Tensor::FromVector<float>(want, TensorShape({4, 5})));
}

TEST(SparseReduceMaxOpTest, MaxOfEntriesAndZeroWhereNone) {
  OpTester t("SparseReduceMax");
  t.Attr("T", DT_FLOAT).Attr("keep_dims", false);
  t.Input(Tensor::FromVector<int64_t>({0, 0, 0, 2, 2, 1}, TensorShape({3, 2})))
      .Input(Tensor::FromVector<float>({-3, -1, -5}, TensorShape({3})))
      .Input(Tensor::FromVector<int64_t>({3, 3}, TensorShape({2})))
      .Input(Tensor::FromVector<int32_t>({1}, TensorShape({1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({-1, 0, -5}, TensorShape({3})));
}

TEST(SparseReshapeOpTest, IndexIntoAnEmptyShapeIsRefused) {
  // TensorFlow 2.21's kernel: indices cannot name a position of an empty shape; without indices,
  // or with the shape unchanged (indices passed through), it runs.
  auto reshape = [](const Tensor& indices, std::vector<int64_t> in, std::vector<int64_t> out) {
    OpTester t("SparseReshape");
    const int64_t in_rank = static_cast<int64_t>(in.size());
    const int64_t out_rank = static_cast<int64_t>(out.size());
    t.Input(indices)
        .Input(Tensor::FromVector<int64_t>(std::move(in), TensorShape({in_rank})))
        .Input(Tensor::FromVector<int64_t>(std::move(out), TensorShape({out_rank})));
    return t.Run();
  };
  const Tensor one = Tensor::FromVector<int64_t>({0, 0}, TensorShape({1, 2}));
  EXPECT_THAT(reshape(one, {0, 3}, {-1}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input tensor has 1 non zero elements but input shape ([0,3]) or "
                                 "output shape ([0]) is empty")));
  EXPECT_THAT(reshape(one, {0, std::numeric_limits<int64_t>::max()}, {3, 0}).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input tensor has 1 non zero elements but input shape "
                                 "([0,9223372036854775807]) or output shape ([3,0]) is empty")));
  RILL_ASSERT_OK_AND_ASSIGN(auto none,
                            reshape(Tensor(DT_INT64, TensorShape({0, 2})), {0, 3}, {-1}));
  EXPECT_EQ(none[0].shape(), TensorShape({0, 1}));
  ExpectTensorEqual(none[1], Tensor::FromVector<int64_t>({0}, TensorShape({1})));
  RILL_ASSERT_OK_AND_ASSIGN(auto same, reshape(one, {0, 3}, {0, 3}));
  ExpectTensorEqual(same[0], one);
}

TEST(SparseFillEmptyRowsOpTest, NegativeDimsOfTheDenseShapeAreRefused) {
  // Rows are counted from dim 0, but a negative later dim is no shape either (TensorFlow refuses
  // both when it infers the shape).
  for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{2, -3}, {-1, 3}}) {
    OpTester t("SparseFillEmptyRows");
    t.Attr("T", DT_FLOAT)
        .Input(Tensor::FromVector<int64_t>({0, 0, 1, 2}, TensorShape({2, 2})))
        .Input(Tensor::FromVector<float>({1, 2}, TensorShape({2})))
        .Input(Tensor::FromVector<int64_t>(shape, TensorShape({2})))
        .Input(Tensor::Scalar<float>(9));
    EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           "Expected shape dimensions to be non-negative, got " +
                                               std::to_string(shape[0] < 0 ? shape[0] : shape[1])));
  }
}

}  // namespace
}  // namespace rill
