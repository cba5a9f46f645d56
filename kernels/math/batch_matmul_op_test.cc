#include <complex>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }

absl::StatusOr<std::vector<Tensor>> BatchMatMul(const std::string& op, const Tensor& x,
                                                const Tensor& y, bool adj_x = false,
                                                bool adj_y = false) {
  OpTester t(op);
  t.Attr("T", x.dtype()).Attr("adj_x", adj_x).Attr("adj_y", adj_y).Input(x).Input(y);
  return t.Run();
}

TEST(BatchMatMulOpTest, MultipliesEachBatch) {
  const Tensor x = F({1, 2, 3, 4, 5, 6, 7, 8}, TensorShape({2, 2, 2}));
  const Tensor y = F({1, 0, 0, 1, 2, 0, 0, 2}, TensorShape({2, 2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, BatchMatMul("BatchMatMul", x, y));
  ExpectTensorEqual(out[0], F({1, 2, 3, 4, 10, 12, 14, 16}, TensorShape({2, 2, 2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, BatchMatMul("BatchMatMulV2", x, y, /*adj_x=*/true));
  ExpectTensorEqual(out[0], F({1, 3, 2, 4, 10, 14, 12, 16}, TensorShape({2, 2, 2})));
}

TEST(BatchMatMulOpTest, V2BroadcastsBatchDims) {
  // x [2,1,2] times y [2,1] (no batch dims): both x batches use the same y.
  const Tensor x = F({1, 2, 3, 4}, TensorShape({2, 1, 2}));
  const Tensor y = F({10, 1}, TensorShape({2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, BatchMatMul("BatchMatMulV2", x, y));
  ExpectTensorEqual(out[0], F({12, 34}, TensorShape({2, 1, 1})));
  // [3,1,1,2] x [2,2,1]: batch dims [3,1] and [2] broadcast to [3,2].
  const Tensor a = F({1, 1, 2, 2, 3, 3}, TensorShape({3, 1, 1, 2}));
  const Tensor b = F({1, 1, 10, 10}, TensorShape({2, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(out, BatchMatMul("BatchMatMulV2", a, b));
  ExpectTensorEqual(out[0], F({2, 20, 4, 40, 6, 60}, TensorShape({3, 2, 1, 1})));
}

// Complex operands: adj_x / adj_y take the conjugate transpose, on both paths (y with batches,
// and y one matrix for every batch of x). Small integer parts make every product exact.
TEST(BatchMatMulOpTest, ComplexAdjointConjugates) {
  auto ramp = [](TensorShape s, int seed) {
    Tensor t(DT_COMPLEX64, s);
    for (int64_t i = 0; i < s.num_elements(); ++i) {
      t.flat<complex64>()[i] = complex64((i * 3 + seed) % 5 - 2, (i * 7 + seed) % 4 - 1);
    }
    return t;
  };
  for (bool y_batched : {true, false}) {
    for (bool adj_x : {false, true}) {
      for (bool adj_y : {false, true}) {
        SCOPED_TRACE(absl::StrCat("y batched ", y_batched, " adj_x ", adj_x, " adj_y ", adj_y));
        const Tensor x = ramp(TensorShape({2, 3, 3}), 1);
        const Tensor y = ramp(y_batched ? TensorShape({2, 3, 3}) : TensorShape({3, 3}), 2);
        const int64_t m = 3, k = 3;
        Tensor want(DT_COMPLEX64, TensorShape({2, m, 3}));
        for (int64_t b = 0; b < 2; ++b) {
          for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < 3; ++j) {
              complex64 sum = 0;
              for (int64_t p = 0; p < k; ++p) {
                const complex64 a = adj_x ? std::conj(x.flat<complex64>()[b * 9 + p * 3 + i])
                                          : x.flat<complex64>()[b * 9 + i * 3 + p];
                const int64_t yb = y_batched ? b * 9 : 0;
                const complex64 c = adj_y ? std::conj(y.flat<complex64>()[yb + j * 3 + p])
                                          : y.flat<complex64>()[yb + p * 3 + j];
                sum += a * c;
              }
              want.flat<complex64>()[(b * m + i) * 3 + j] = sum;
            }
          }
        }
        RILL_ASSERT_OK_AND_ASSIGN(auto out, BatchMatMul("BatchMatMulV2", x, y, adj_x, adj_y));
        ExpectTensorEqual(out[0], want);
      }
    }
  }
}

// x [b..., m, k] times a y with one batch: computed as one [b * m, k] product (on oneDNN with y
// packed when the optimizer marked y constant). Integer-valued floats make every sum exact.
Tensor Ramp(TensorShape s, int period, float offset) {
  std::vector<float> v(s.num_elements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % period) - offset;
  return F(v, s);
}

// out[i, j] of x [rows, k] times y (k x n, or n x k when adj_y), in double.
std::vector<float> Reference(const Tensor& x, const Tensor& y, int64_t k, int64_t n, bool adj_y) {
  const int64_t rows = x.NumElements() / k;
  const float* a = x.flat<float>().data();
  const float* b = y.flat<float>().data();
  std::vector<float> out(rows * n);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p)
        sum += double{a[i * k + p]} * (adj_y ? b[j * k + p] : b[p * n + j]);
      out[i * n + j] = static_cast<float>(sum);
    }
  }
  return out;
}

TEST(BatchMatMulOpTest, OneWeightMatrixForEveryBatch) {
  // [2, 3, 24, 64] x [64, 160]: 10k weights, as large as the packed path wants; also x's batch
  // dims under y's leading 1s ([1, 1, 64, 160]) and y adjointed.
  const Tensor x = Ramp(TensorShape({2, 3, 24, 64}), 7, 3);
  for (bool constant : {false, true}) {
    for (bool adj_y : {false, true}) {
      for (bool leading_ones : {false, true}) {
        SCOPED_TRACE(
            absl::StrCat("constant ", constant, " adj_y ", adj_y, " leading ones ", leading_ones));
        TensorShape ys = adj_y ? TensorShape({160, 64}) : TensorShape({64, 160});
        if (leading_ones) ys = adj_y ? TensorShape({1, 1, 160, 64}) : TensorShape({1, 1, 64, 160});
        const Tensor y = Ramp(ys, 5, 2);
        OpTester t("BatchMatMulV2");
        t.Attr("T", DT_FLOAT).Attr("adj_x", false).Attr("adj_y", adj_y);
        if (constant) t.Attr("_rill_constant_weights", true);
        t.Input(x).Input(y);
        RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
        ExpectTensorEqual(out[0], F(Reference(x, y, 64, 160, adj_y), TensorShape({2, 3, 24, 160})));
        // A second run reuses the packed weights.
        RILL_ASSERT_OK_AND_ASSIGN(out, t.Run());
        ExpectTensorEqual(out[0], F(Reference(x, y, 64, 160, adj_y), TensorShape({2, 3, 24, 160})));
      }
    }
  }
  // Integers take the same folded product.
  const Tensor xi = Tensor::FromVector<int32_t>({1, 2, 3, 4, 5, 6}, TensorShape({3, 1, 2}));
  const Tensor yi = Tensor::FromVector<int32_t>({1, 10, 100, 1000}, TensorShape({2, 2}));
  OpTester t("BatchMatMulV2");
  t.Attr("T", DT_INT32).Attr("adj_x", false).Attr("adj_y", false).Input(xi).Input(yi);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({201, 2010, 403, 4030, 605, 6050},
                                                        TensorShape({3, 1, 2})));
}

// Batches of small products run over the intra-op threads, each on one; every thread count gives
// the same (exact) result. x [1, 64, 64] is broadcast against y [7, 64, 48]: enough work to split.
TEST(BatchMatMulOpTest, SmallProductsSpreadOverThreads) {
  const Tensor x = Ramp(TensorShape({1, 64, 64}), 9, 4);
  const Tensor y = Ramp(TensorShape({7, 64, 48}), 11, 5);
  std::vector<float> expected;
  const float* b = y.flat<float>().data();
  for (int batch = 0; batch < 7; ++batch) {
    const Tensor yb = F(std::vector<float>(b + batch * 64 * 48, b + (batch + 1) * 64 * 48),
                        TensorShape({64, 48}));
    const std::vector<float> r = Reference(x, yb, 64, 48, /*adj_y=*/false);
    expected.insert(expected.end(), r.begin(), r.end());
  }
  for (int threads : {1, 2, 3}) {
    SCOPED_TRACE(threads);
    OpTester t("BatchMatMulV2");
    t.Attr("T", DT_FLOAT).Attr("adj_x", false).Attr("adj_y", false).Input(x).Input(y);
    t.SetIntraOpThreads(threads);
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    ExpectTensorEqual(out[0], F(expected, TensorShape({7, 64, 48})));
  }
}

TEST(BatchMatMulOpTest, ErrorsAreTensorFlows) {
  const Tensor x = F({1, 2, 3, 4, 5, 6}, TensorShape({1, 2, 3}));
  EXPECT_THAT(BatchMatMul("BatchMatMulV2", x, x),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Matrix size-incompatible: In[0]: [1,2,3], In[1]: [1,2,3]")));
  EXPECT_THAT(
      BatchMatMul("BatchMatMulV2", F({1, 2}, TensorShape({2})), x),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("In[0] ndims must be >= 2: 1")));
  EXPECT_THAT(BatchMatMul("BatchMatMulV2", F(std::vector<float>(12, 1), TensorShape({2, 2, 3})),
                          F(std::vector<float>(18, 1), TensorShape({3, 3, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("In[0] and In[1] must have compatible batch dimensions: "
                                 "[2,2,3] vs. [3,3,2]")));
  EXPECT_THAT(BatchMatMul("BatchMatMul", x, F({1, 2, 3, 4, 5, 6}, TensorShape({3, 2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("In[0] and In[1] has different ndims: [1,2,3] vs. [3,2]")));
}

TEST(BatchMatMulOpTest, V3TakesItsTypesAsAttrs) {
  const Tensor x = Tensor::FromVector<int32_t>({1, 2, 3, 4}, TensorShape({2, 1, 2}));
  const Tensor y = Tensor::FromVector<int32_t>({10, 1}, TensorShape({2, 1}));
  OpTester t("BatchMatMulV3");
  t.Attr("Ta", DT_INT32).Attr("Tb", DT_INT32).Attr("Tout", DT_INT32).Input(x).Input(y);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({12, 34}, TensorShape({2, 1, 1})));
  // Mixed types have no CPU kernel.
  OpTester mixed("BatchMatMulV3");
  mixed.Attr("Ta", DT_INT32).Attr("Tb", DT_INT32).Attr("Tout", DT_INT64).Input(x).Input(y);
  EXPECT_THAT(mixed.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                    HasSubstr("No OpKernel was registered to support Op "
                                              "'BatchMatMulV3'")));
}

}  // namespace
}  // namespace rill
