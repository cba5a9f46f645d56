#include <complex>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::Eq;

// A real matrix's eigenvalues in the order of its real Schur form (TensorFlow 2.21's), complex64.
TEST(EigOpTest, DiagonalMatrix) {
  Tensor x(DT_FLOAT, TensorShape({2, 2}));
  const float v[] = {2, 0, 0, 3};
  for (int i = 0; i < 4; ++i) x.flat<float>()[i] = v[i];
  OpTester t("Eig");
  t.Attr("T", DT_FLOAT).Attr("Tout", DT_COMPLEX64).Attr("compute_v", true).Input(x);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_EQ(out[0].flat<complex64>()[0], complex64(2, 0));
  EXPECT_EQ(out[0].flat<complex64>()[1], complex64(3, 0));
  EXPECT_EQ(out[1].shape(), TensorShape({2, 2}));
}

TEST(EigOpTest, NonSquareIsRefused) {
  OpTester t("Eig");
  t.Attr("T", DT_DOUBLE).Attr("Tout", DT_COMPLEX128).Attr("compute_v", false);
  t.Input(Tensor(DT_DOUBLE, TensorShape({2, 3})));
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, Eq("Input matrix must be square.")));
}

}  // namespace
}  // namespace rill
