#include <cstdint>
#include <map>
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

// einsum by its definition: every assignment of the labels, summing what the output lacks.
// Letters only (no ellipsis); values are small integers, so any summation order is exact.
std::vector<float> Naive(const std::string& eq, const std::vector<Tensor>& in,
                         const std::vector<int64_t>& out_dims) {
  const size_t arrow = eq.find("->"), comma = eq.find(',');
  const std::vector<std::string> subs = {eq.substr(0, comma),
                                         eq.substr(comma + 1, arrow - comma - 1)};
  const std::string out = eq.substr(arrow + 2);
  std::string all;
  std::map<char, int64_t> size;
  for (int i = 0; i < 2; ++i) {
    for (size_t d = 0; d < subs[i].size(); ++d) {
      if (!size.count(subs[i][d])) all += subs[i][d];
      size[subs[i][d]] = in[i].shape().dim(static_cast<int>(d));
    }
  }
  int64_t n_out = 1;
  for (int64_t d : out_dims) n_out *= d;
  std::vector<float> result(n_out, 0);
  std::map<char, int64_t> at;
  for (char l : all) at[l] = 0;
  auto flat = [&](const std::string& sub, const std::vector<int64_t>& dims) {
    int64_t o = 0;
    for (size_t d = 0; d < sub.size(); ++d) o = o * dims[d] + at[sub[d]];
    return o;
  };
  while (true) {
    const float* a = in[0].flat<float>().data();
    const float* b = in[1].flat<float>().data();
    std::vector<int64_t> ad(in[0].shape().dims().begin(), in[0].shape().dims().end());
    std::vector<int64_t> bd(in[1].shape().dims().begin(), in[1].shape().dims().end());
    result[flat(out, out_dims)] += a[flat(subs[0], ad)] * b[flat(subs[1], bd)];
    int j = static_cast<int>(all.size()) - 1;
    for (; j >= 0; --j) {
      if (++at[all[j]] < size[all[j]]) break;
      at[all[j]] = 0;
    }
    if (j < 0) break;
  }
  return result;
}

Tensor Ints(TensorShape shape, int period) {
  std::vector<float> v(shape.num_elements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(static_cast<int>(i % period) - 3);
  return F(v, shape);
}

// Operands read in place as strided matrices (rows or columns innermost, batch dims anywhere,
// operands swapped to give the output's order), and the forms that still transpose first (a
// group split by another dim, a summed-out label), against the definition at 1 and 2 threads.
TEST(EinsumOpTest, StridedAndTransposedOperandsMatchTheDefinition) {
  struct Case {
    std::string eq;
    std::vector<int64_t> x, y, out;
  };
  const std::vector<Case> cases = {
      {"aecd,abcd->acbe", {2, 5, 3, 4}, {2, 6, 3, 4}, {2, 3, 6, 5}},  // Keras attention scores
      {"acbe,aecd->abcd", {2, 3, 6, 5}, {2, 5, 3, 4}, {2, 6, 3, 4}},  // and its weighted values
      {"bij,bjk->bik", {3, 4, 5}, {3, 5, 6}, {3, 4, 6}},
      {"bji,bjk->bik", {3, 5, 4}, {3, 5, 6}, {3, 4, 6}},  // x stored columns first
      {"bij,bkj->bik", {3, 4, 5}, {3, 6, 5}, {3, 4, 6}},  // y stored columns first
      {"ij,jk->ki", {4, 5}, {5, 6}, {6, 4}},              // swapped: the output is y's by x's
      {"ibj,jbk->bik", {4, 3, 5}, {5, 3, 6}, {3, 4, 6}},  // batch between the groups
      {"ijk,kl->ijl", {2, 3, 4}, {4, 5}, {2, 3, 5}},      // two free labels in one group
      {"ikj,kl->ijl", {2, 4, 3}, {4, 5}, {2, 3, 5}},      // a group split by another: transposed
      {"bij,bjk->bi", {3, 4, 5}, {3, 5, 6}, {3, 4}},      // k summed out first
      {"abij,bjk->abik", {2, 3, 4, 5}, {3, 5, 6}, {2, 3, 4, 6}},  // y's batch dims fewer
  };
  for (const Case& c : cases) {
    const Tensor x = Ints(*TensorShape::FromDims(c.x), 7);
    const Tensor y = Ints(*TensorShape::FromDims(c.y), 5);
    const std::vector<float> expected = Naive(c.eq, {x, y}, c.out);
    for (int threads : {1, 2}) {
      SCOPED_TRACE(c.eq + " at " + std::to_string(threads) + " threads");
      OpTester t("Einsum");
      t.Attr("T", DT_FLOAT).Attr("N", int64_t{2}).Attr("equation", c.eq).Input(x).Input(y);
      t.SetIntraOpThreads(threads);
      RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
      ExpectTensorEqual(out[0], F(expected, *TensorShape::FromDims(c.out)));
    }
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
}

TEST(EinsumOpTest, RepeatedLabelsTakeTheDiagonal) {
  RILL_ASSERT_OK_AND_ASSIGN(auto diag, Einsum("ii->i", {F({1, 2, 3, 4}, TensorShape({2, 2}))}));
  ExpectTensorEqual(diag[0], F({1, 4}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto trace, Einsum("ii->", {F({1, 2, 3, 4}, TensorShape({2, 2}))}));
  ExpectTensorEqual(trace[0], Tensor::Scalar<float>(5));
  // [i, j, j] x [j, k]: x[i, j, j] * y[j, k] summed over j.
  RILL_ASSERT_OK_AND_ASSIGN(
      auto product, Einsum("ijj,jk->ik", {F({1, 2, 3, 4, 5, 6, 7, 8}, TensorShape({2, 2, 2})),
                                          F({1, 0, 0, 1}, TensorShape({2, 2}))}));
  ExpectTensorEqual(product[0], F({1, 4, 5, 8}, TensorShape({2, 2})));
}

// TensorFlow 2.21 (crafted_round7's Einsum_output_repeated, Einsum_digits, Einsum_space):
// "ij,jk->ii" of [[1,2,3],[4,5,6]] and [[1,2],[3,4],[5,6]] sums over j and k ([50, 113]) and
// puts that on the diagonal: [[50, 0], [0, 113]]; digits are labels; a space is a label too, so
// "i j" wants rank 3.
TEST(EinsumOpTest, OutputRepeatsPlaceTheDiagonalAndAnyCharacterIsALabel) {
  const Tensor b = F({1, 2, 3, 4, 5, 6}, TensorShape({3, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto diag, Einsum("ij,jk->ii", {kA, b}));
  ExpectTensorEqual(diag[0], F({50, 0, 0, 113}, TensorShape({2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto batch, Einsum("bi->bii", {F({1, 2, 3, 4}, TensorShape({2, 2}))}));
  ExpectTensorEqual(batch[0], F({1, 0, 0, 2, 3, 0, 0, 4}, TensorShape({2, 2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto digits, Einsum("i1,1k->ik", {kA, b}));
  ExpectTensorEqual(digits[0], F({22, 28, 49, 64}, TensorShape({2, 2})));
  EXPECT_THAT(Einsum("i j,j k->i k", {kA, b}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Expected input 0 to have rank 3 but got: 2")));
  EXPECT_THAT(Einsum("i\x01,\x01k->ik", {kA, b}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Invalid character")));
}

}  // namespace
}  // namespace rill
