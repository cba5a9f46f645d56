#include "core/tensor_eigen.h"

#include "gtest/gtest.h"

namespace rill {
namespace {

TEST(TensorEigenTest, MatrixViewAliasesTheBufferRowMajor) {
  Tensor t = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  auto m = TensorMatrix<float>(t);
  EXPECT_EQ(m.rows(), 2);
  EXPECT_EQ(m.cols(), 3);
  EXPECT_EQ(m(1, 0), 4);
  EXPECT_EQ(m.row(0).sum(), 6);
  m(0, 2) = 30;
  EXPECT_EQ(t.flat<float>()[2], 30);
  EXPECT_EQ(TensorFlat<float>(t).sum(), 1 + 2 + 30 + 4 + 5 + 6);
}

}  // namespace
}  // namespace rill
