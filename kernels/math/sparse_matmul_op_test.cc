#include <cmath>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> RunSparseMatMul(const Tensor& a, const Tensor& b, bool ta,
                                                    bool tb, bool a_sparse, bool b_sparse) {
  OpTester t("SparseMatMul", "smm");
  t.Attr("Ta", a.dtype())
      .Attr("Tb", b.dtype())
      .Attr("transpose_a", ta)
      .Attr("transpose_b", tb)
      .Attr("a_is_sparse", a_sparse)
      .Attr("b_is_sparse", b_sparse)
      .Input(a)
      .Input(b);
  return t.Run();
}

// [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]] = [[58,64],[139,154]] in float for every input
// type pair and sparse flag.
TEST(SparseMatMulOpTest, EveryTypePairAndFlag) {
  for (DataType ta : {DT_FLOAT, DT_BFLOAT16}) {
    for (DataType tb : {DT_FLOAT, DT_BFLOAT16}) {
      for (int flags = 0; flags < 4; ++flags) {
        const Tensor a = MakeTensor(ta, TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
        const Tensor b = MakeTensor(tb, TensorShape({3, 2}), {7, 8, 9, 10, 11, 12});
        RILL_ASSERT_OK_AND_ASSIGN(
            std::vector<Tensor> out,
            RunSparseMatMul(a, b, false, false, (flags & 1) != 0, (flags & 2) != 0));
        ExpectTensorEqual(out[0], MakeTensor(DT_FLOAT, TensorShape({2, 2}), {58, 64, 139, 154}));
      }
    }
  }
}

TEST(SparseMatMulOpTest, TransposedInputs) {
  // a = [[1,2,3],[4,5,6]] stored transposed, b = [[7,8],[9,10],[11,12]] stored transposed.
  const Tensor a = MakeTensor(DT_FLOAT, TensorShape({3, 2}), {1, 4, 2, 5, 3, 6});
  const Tensor b = MakeTensor(DT_FLOAT, TensorShape({2, 3}), {7, 9, 11, 8, 10, 12});
  for (int flags = 0; flags < 4; ++flags) {
    RILL_ASSERT_OK_AND_ASSIGN(
        std::vector<Tensor> out,
        RunSparseMatMul(a, b, true, true, (flags & 1) != 0, (flags & 2) != 0));
    ExpectTensorEqual(out[0], MakeTensor(DT_FLOAT, TensorShape({2, 2}), {58, 64, 139, 154}));
  }
}

// The sparse operand's zeros are skipped, so 0 * inf adds nothing there (TensorFlow's kernel).
TEST(SparseMatMulOpTest, SparseOperandZerosSkipInfinities) {
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor a = MakeTensor(DT_FLOAT, TensorShape({1, 2}), {0, 1});
  const Tensor b = MakeTensor(DT_FLOAT, TensorShape({2, 1}), {inf, 2});
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> dense,
                            RunSparseMatMul(a, b, false, false, false, false));
  EXPECT_TRUE(std::isnan(dense[0].flat<float>()[0]));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> sparse,
                            RunSparseMatMul(a, b, false, false, true, false));
  EXPECT_EQ(sparse[0].flat<float>()[0], 2.0f);
  // b_is_sparse skips b's zeros, not a's.
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> bs,
                            RunSparseMatMul(a, b, false, false, false, true));
  EXPECT_TRUE(std::isnan(bs[0].flat<float>()[0]));
}

TEST(SparseMatMulOpTest, TensorFlowErrors) {
  const Tensor m = MakeTensor(DT_FLOAT, TensorShape({2, 3}), {1, 2, 3, 4, 5, 6});
  const Tensor v = MakeTensor(DT_FLOAT, TensorShape({3}), {1, 2, 3});
  EXPECT_THAT(RunSparseMatMul(v, m, false, false, false, false).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::Eq("a is not a matrix")));
  EXPECT_THAT(RunSparseMatMul(m, v, false, false, true, false).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::Eq("b is not a matrix")));
  EXPECT_THAT(RunSparseMatMul(m, m, false, false, true, false).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::Eq("Matrix size incompatible: a: [2,3], b: [2,3]")));
}

TEST(SparseMatMulOpTest, EmptyShapes) {
  RILL_ASSERT_OK_AND_ASSIGN(
      std::vector<Tensor> zero_inner,
      RunSparseMatMul(Tensor(DT_FLOAT, TensorShape({2, 0})), Tensor(DT_FLOAT, TensorShape({0, 3})),
                      false, false, true, false));
  ExpectTensorEqual(zero_inner[0], MakeTensor(DT_FLOAT, TensorShape({2, 3}), {0, 0, 0, 0, 0, 0}));
  RILL_ASSERT_OK_AND_ASSIGN(
      std::vector<Tensor> no_rows,
      RunSparseMatMul(Tensor(DT_FLOAT, TensorShape({0, 2})), Tensor(DT_FLOAT, TensorShape({2, 3})),
                      false, false, false, false));
  EXPECT_EQ(no_rows[0].shape(), TensorShape({0, 3}));
}

}  // namespace
}  // namespace rill
