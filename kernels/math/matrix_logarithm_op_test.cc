#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::Eq;

TEST(MatrixLogarithmOpTest, DiagonalMatrix) {
  Tensor x(DT_COMPLEX128, TensorShape({2, 2}));
  for (int i = 0; i < 4; ++i) x.flat<complex128>()[i] = complex128(0, 0);
  x.flat<complex128>()[0] = complex128(std::exp(1.0), 0);
  x.flat<complex128>()[3] = complex128(1, 0);
  OpTester t("MatrixLogarithm");
  t.Attr("T", DT_COMPLEX128).Input(x);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_NEAR(out[0].flat<complex128>()[0].real(), 1.0, 1e-12);
  EXPECT_NEAR(std::abs(out[0].flat<complex128>()[1]), 0.0, 1e-12);
  EXPECT_NEAR(std::abs(out[0].flat<complex128>()[3]), 0.0, 1e-12);
}

// TensorFlow 2.21 gives NaN in every entry of a matrix with a NaN or infinite entry; the other
// matrices of the batch keep their logarithms.
TEST(MatrixLogarithmOpTest, NonFiniteMatrixIsAllNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x(DT_COMPLEX64, TensorShape({2, 2, 2}));
  const complex64 values[] = {{nan, 0}, {inf, 0}, {-inf, 0}, {-0.0f, 0},
                              {1, 0},   {0, 0},   {0, 0},    {1, 0}};
  for (int i = 0; i < 8; ++i) x.flat<complex64>()[i] = values[i];
  OpTester t("MatrixLogarithm");
  t.Attr("T", DT_COMPLEX64).Input(x);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(std::isnan(out[0].flat<complex64>()[i].real())) << i;
    EXPECT_TRUE(std::isnan(out[0].flat<complex64>()[i].imag())) << i;
  }
  for (int i = 4; i < 8; ++i) EXPECT_EQ(out[0].flat<complex64>()[i], complex64(0, 0)) << i;
}

TEST(MatrixLogarithmOpTest, VectorIsRefused) {
  OpTester t("MatrixLogarithm");
  t.Attr("T", DT_COMPLEX64).Input(Tensor(DT_COMPLEX64, TensorShape({3})));
  EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         Eq("Input tensor 0 must have rank >= 2, got 1")));
}

}  // namespace
}  // namespace rill
