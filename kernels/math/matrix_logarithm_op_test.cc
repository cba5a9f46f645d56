#include <cmath>
#include <complex>
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

TEST(MatrixLogarithmOpTest, VectorIsRefused) {
  OpTester t("MatrixLogarithm");
  t.Attr("T", DT_COMPLEX64).Input(Tensor(DT_COMPLEX64, TensorShape({3})));
  EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         Eq("Input tensor 0 must have rank >= 2, got 1")));
}

}  // namespace
}  // namespace rill
