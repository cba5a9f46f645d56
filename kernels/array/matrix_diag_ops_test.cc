// MatrixDiag, MatrixDiagPart, MatrixSetDiag (the V1 forms), Diag and DiagPart on small float and
// complex matrices; the V3 forms are covered by tests/conformance and rearrange_ops_test.cc.
#include <complex>
#include <string>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> RunOp(const std::string& op, std::vector<Tensor> inputs) {
  OpTester t(op);
  t.Attr("T", inputs[0].dtype());
  for (const Tensor& in : inputs) t.Input(in);
  return t.Run();
}

TEST(MatrixDiagV1Test, MainDiagonalOnly) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, RunOp("MatrixDiag", {F({1, 2, 3, 4}, TensorShape({2, 2}))}));
  ExpectTensorEqual(out[0], F({1, 0, 0, 2, 3, 0, 0, 4}, TensorShape({2, 2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out,
                            RunOp("MatrixDiagPart", {F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}))}));
  ExpectTensorEqual(out[0], F({1, 5}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunOp("MatrixSetDiag", {F({1, 2, 3, 4, 5, 6}, TensorShape({3, 2})),
                                                         F({7, 8}, TensorShape({2}))}));
  ExpectTensorEqual(out[0], F({7, 2, 3, 8, 5, 6}, TensorShape({3, 2})));
}

// complex64 moves as 8-byte elements, complex128 as 16-byte ones (the only 16-byte dtype).
TEST(MatrixDiagV1Test, ComplexElementsMoveWhole) {
  const complex128 i(0, 1);
  auto c = [](std::vector<complex128> v, TensorShape s) {
    return Tensor::FromVector<complex128>(v, s);
  };
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            RunOp("MatrixDiag", {c({1.0 + i, -2.0 * i}, TensorShape({2}))}));
  ExpectTensorEqual(out[0], c({1.0 + i, 0, 0, -2.0 * i}, TensorShape({2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunOp("MatrixSetDiag", {c({1, 2, 3, 4}, TensorShape({2, 2})),
                                                         c({i, 3.0 - i}, TensorShape({2}))}));
  ExpectTensorEqual(out[0], c({i, 2, 3, 3.0 - i}, TensorShape({2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunOp("MatrixDiagPart", {out[0]}));
  ExpectTensorEqual(out[0], c({i, 3.0 - i}, TensorShape({2})));
  const Tensor f =
      Tensor::FromVector<complex64>({complex64(1, 2), complex64(3, -4)}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(out, RunOp("MatrixDiag", {f}));
  ExpectTensorEqual(out[0], Tensor::FromVector<complex64>({complex64(1, 2), 0, 0, complex64(3, -4)},
                                                          TensorShape({2, 2})));
}

TEST(MatrixDiagV1Test, ErrorsAreTensorFlows) {
  EXPECT_THAT(RunOp("MatrixDiagPart", {F({1, 2}, TensorShape({2}))}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("input must be at least 2-dim, received shape: [2]")));
  EXPECT_THAT(RunOp("MatrixDiag", {F({1}, TensorShape({}))}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("diagonal must be at least 1-dim, received shape: []")));
  EXPECT_THAT(
      RunOp("MatrixSetDiag", {F({1, 2, 3, 4}, TensorShape({2, 2})), F({1}, TensorShape({1}))}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Expected diagonal shape: [2]")));
}

TEST(DiagTest, RoundTripsARank2Diagonal) {
  const Tensor d = F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto full, RunOp("Diag", {d}));
  ASSERT_EQ(full[0].shape(), TensorShape({2, 3, 2, 3}));
  EXPECT_EQ(full[0].flat<float>()[0], 1);
  EXPECT_EQ(full[0].flat<float>()[7], 2);   // [0, 1, 0, 1]
  EXPECT_EQ(full[0].flat<float>()[1], 0);   // [0, 0, 0, 1]
  EXPECT_EQ(full[0].flat<float>()[35], 6);  // [1, 2, 1, 2]
  RILL_ASSERT_OK_AND_ASSIGN(auto part, RunOp("DiagPart", {full[0]}));
  ExpectTensorEqual(part[0], d);
}

TEST(DiagTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(RunOp("Diag", {F({1}, TensorShape({}))}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Input must be at least rank 1, got 0")));
  EXPECT_THAT(
      RunOp("DiagPart", {F({1, 2, 3}, TensorShape({3}))}),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("even and positive, got shape [3]")));
  EXPECT_THAT(RunOp("DiagPart", {F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}))}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Invalid shape [2,3]: dimensions 0 and 1 do not match.")));
}

}  // namespace
}  // namespace rill
