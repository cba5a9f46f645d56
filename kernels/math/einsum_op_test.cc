#include <cstdint>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> Einsum(const std::string& eq, std::vector<Tensor> in) {
  OpTester t("Einsum");
  t.Attr("T", DT_FLOAT).Attr("N", static_cast<int64_t>(in.size())).Attr("equation", eq);
  for (const Tensor& x : in) t.Input(x);
  return t.Run();
}

const Tensor kA = F({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));
const Tensor kB = F({1, 0, 0, 1, 1, 1}, TensorShape({3, 2}));

TEST(EinsumOpTest, MatrixProductTransposeAndSums) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Einsum("ij,jk->ik", {kA, kB}));
  ExpectTensorEqual(out[0], F({4, 5, 10, 11}, TensorShape({2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Einsum("ij,jk->ki", {kA, kB}));
  ExpectTensorEqual(out[0], F({4, 10, 5, 11}, TensorShape({2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Einsum("ij->ji", {kA}));
  ExpectTensorEqual(out[0], F({1, 4, 2, 5, 3, 6}, TensorShape({3, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Einsum("ij->i", {kA}));
  ExpectTensorEqual(out[0], F({6, 15}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Einsum("ij,ij->", {kA, kA}));
  ExpectTensorEqual(out[0], Tensor::Scalar<float>(91));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Einsum("i,j->ij", {F({1, 2}, TensorShape({2})), F({3, 4, 5}, TensorShape({3}))}));
  ExpectTensorEqual(out[0], F({3, 4, 5, 6, 8, 10}, TensorShape({2, 3})));
}

TEST(EinsumOpTest, BatchedAttentionScoresAndEllipsisBroadcast) {
  // bhqd,bhkd->bhqk with b=1, h=2, q=1, k=2, d=2.
  const Tensor q = F({1, 2, 3, 4}, TensorShape({1, 2, 1, 2}));
  const Tensor k = F({1, 0, 0, 1, 1, 1, 2, 0}, TensorShape({1, 2, 2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Einsum("bhqd,bhkd->bhqk", {q, k}));
  ExpectTensorEqual(out[0], F({1, 2, 7, 6}, TensorShape({1, 2, 1, 2})));
  // ...ij,...jk->...ik: batch [2] against [1] broadcasts.
  const Tensor x = F({1, 2, 3, 4}, TensorShape({2, 1, 2}));
  const Tensor y = F({1, 10}, TensorShape({1, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Einsum("...ij,...jk->...ik", {x, y}));
  ExpectTensorEqual(out[0], F({21, 43}, TensorShape({2, 1, 1})));
}

TEST(EinsumOpTest, ErrorsNameTheProblem) {
  EXPECT_THAT(Einsum("ij,jk", {kA, kB}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expecting exactly one '->' in einsum equation: ij,jk")));
  EXPECT_THAT(Einsum("ij,jk->ik", {kA, kA}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected dimension 3 at axis 0 of the input shaped [2,3] but "
                                 "got dimension 2")));
  EXPECT_THAT(Einsum("ijk->i", {kA}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected input 0 to have rank 3 but got: 2")));
  EXPECT_THAT(Einsum("ii->i", {F({1, 2, 3, 4}, TensorShape({2, 2}))}),
              StatusIs(absl::StatusCode::kUnimplemented, HasSubstr("diagonal")));
}

}  // namespace
}  // namespace rill
