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

// Keras's attention scores, aecd,abcd->acbe (key, query): 2 x 3 heads' products of [64, 64] x
// [64, 64], enough work to spread over the intra-op threads; every thread count gives the result
// computed here (integer-valued, so exact).
TEST(EinsumOpTest, BatchesOfSmallProductsOverThreads) {
  const int64_t A = 2, B = 64, C = 3, D = 64, E = 64;
  std::vector<float> kv(A * E * C * D), qv(A * B * C * D);
  for (size_t i = 0; i < kv.size(); ++i) kv[i] = static_cast<float>(i % 7) - 3;
  for (size_t i = 0; i < qv.size(); ++i) qv[i] = static_cast<float>(i % 5) - 2;
  std::vector<float> expected(A * C * B * E);
  for (int64_t a = 0; a < A; ++a) {
    for (int64_t c = 0; c < C; ++c) {
      for (int64_t b = 0; b < B; ++b) {
        for (int64_t e = 0; e < E; ++e) {
          float sum = 0;
          for (int64_t d = 0; d < D; ++d) {
            sum += kv[((a * E + e) * C + c) * D + d] * qv[((a * B + b) * C + c) * D + d];
          }
          expected[((a * C + c) * B + b) * E + e] = sum;
        }
      }
    }
  }
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    OpTester t("Einsum");
    t.Attr("T", DT_FLOAT).Attr("N", int64_t{2}).Attr("equation", "aecd,abcd->acbe");
    t.Input(F(kv, TensorShape({A, E, C, D}))).Input(F(qv, TensorShape({A, B, C, D})));
    t.SetIntraOpThreads(threads);
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    ExpectTensorEqual(out[0], F(expected, TensorShape({A, C, B, E})));
  }
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
