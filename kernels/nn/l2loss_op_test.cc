#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> L2Loss(const Tensor& x) {
  OpTester t("L2Loss");
  t.Attr("T", x.dtype()).Input(x);
  return t.Run();
}

TEST(L2LossOpTest, HalfTheSumOfSquares) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            L2Loss(Tensor::FromVector<float>({1, -2, 3}, TensorShape({3}))));
  ExpectTensorEqual(out[0], Tensor::Scalar<float>(7));
  RILL_ASSERT_OK_AND_ASSIGN(out, L2Loss(Tensor(DT_FLOAT, TensorShape({0}))));
  ExpectTensorEqual(out[0], Tensor::Scalar<float>(0));
}

}  // namespace
}  // namespace rill
