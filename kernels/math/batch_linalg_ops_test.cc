#include <string>
#include <utility>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor Matrices() {
  return Tensor::FromVector<double>({4, 1, 1, 3, 2, 0, 0, 5}, TensorShape({2, 2, 2}));
}

absl::StatusOr<std::vector<Tensor>> RunOp(const std::string& op, const std::vector<Tensor>& in) {
  OpTester t(op);
  t.Attr("T", DT_DOUBLE);
  for (const Tensor& x : in) t.Input(x);
  return t.Run();
}

// Each Batch* name gives exactly what its modern op gives.
TEST(BatchLinalgOpsTest, SameAsTheModernOps) {
  const Tensor rhs = Tensor::FromVector<double>({1, 2, 3, 4}, TensorShape({2, 2, 1}));
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"BatchMatrixDeterminant", "MatrixDeterminant"},
      {"BatchMatrixInverse", "MatrixInverse"},
      {"BatchCholesky", "Cholesky"}};
  for (const auto& [old_name, modern] : pairs) {
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> got, RunOp(old_name, {Matrices()}));
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> want, RunOp(modern, {Matrices()}));
    ExpectTensorEqual(got[0], want[0]);
  }
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> got, RunOp("BatchMatrixSolve", {Matrices(), rhs}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> want, RunOp("MatrixSolve", {Matrices(), rhs}));
  ExpectTensorEqual(got[0], want[0]);
}

TEST(BatchLinalgOpsTest, ErrorsAreTheModernOps) {
  const Tensor singular = Tensor::FromVector<double>({1, 1, 1, 1}, TensorShape({2, 2}));
  EXPECT_THAT(RunOp("BatchMatrixInverse", {singular}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Input is not invertible.")));
}

}  // namespace
}  // namespace rill
