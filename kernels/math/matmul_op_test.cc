#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::Eq;

// Row-major values of the transpose of an r x c matrix.
std::vector<double> Transposed(const std::vector<double>& v, int64_t r, int64_t c) {
  std::vector<double> out(v.size());
  for (int64_t i = 0; i < r; ++i) {
    for (int64_t j = 0; j < c; ++j) out[j * r + i] = v[i * c + j];
  }
  return out;
}

absl::StatusOr<std::vector<Tensor>> RunMatMul(DataType dt, const Tensor& a, const Tensor& b,
                                              bool ta, bool tb) {
  OpTester t("MatMul", "mm");
  t.Attr("T", dt).Attr("transpose_a", ta).Attr("transpose_b", tb).Input(a).Input(b);
  return t.Run();
}

// [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]] = [[58,64],[139,154]] for every dtype and every
// transpose combination (inputs stored transposed where the attr says so).
TEST(MatMulOpTest, EveryDtypeAndTransposeCombination) {
  const std::vector<double> a = {1, 2, 3, 4, 5, 6}, b = {7, 8, 9, 10, 11, 12};
  for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_HALF, DT_BFLOAT16, DT_COMPLEX64,
                      DT_COMPLEX128}) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        SCOPED_TRACE(DataTypeString(dt) + (ta ? " ta" : "") + (tb ? " tb" : ""));
        const Tensor ta_in = ta ? MakeTensor(dt, TensorShape({3, 2}), Transposed(a, 2, 3))
                                : MakeTensor(dt, TensorShape({2, 3}), a);
        const Tensor tb_in = tb ? MakeTensor(dt, TensorShape({2, 3}), Transposed(b, 3, 2))
                                : MakeTensor(dt, TensorShape({3, 2}), b);
        RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunMatMul(dt, ta_in, tb_in, ta, tb));
        ExpectTensorEqual(out[0], MakeTensor(dt, TensorShape({2, 2}), {58, 64, 139, 154}));
      }
    }
  }
}

TEST(MatMulOpTest, ComplexValuesUseComplexArithmetic) {
  // [1+2i] x [3-1i] = 3 - i + 6i - 2i^2 = 5 + 5i
  Tensor a(DT_COMPLEX64, TensorShape({1, 1})), b(DT_COMPLEX64, TensorShape({1, 1}));
  a.flat<complex64>()[0] = complex64(1, 2);
  b.flat<complex64>()[0] = complex64(3, -1);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunMatMul(DT_COMPLEX64, a, b, false, false));
  EXPECT_EQ(out[0].flat<complex64>()[0], complex64(5, 5));
}

// Larger shapes through OpenBLAS against a plain loop; small integer values keep float exact.
// m == 1 and n == 1 (a batch-1 dense layer) go through gemv instead of gemm.
TEST(MatMulOpTest, BlasMatchesAPlainLoopOnLargerShapes) {
  for (const auto& [m, k, n] : std::vector<std::tuple<int64_t, int64_t, int64_t>>{
           {37, 64, 29}, {1, 64, 29}, {37, 64, 1}, {1, 64, 1}}) {
    std::vector<double> a(m * k), b(k * n);
    for (int64_t i = 0; i < m * k; ++i) a[i] = static_cast<double>((i * 7) % 11) - 5;
    for (int64_t i = 0; i < k * n; ++i) b[i] = static_cast<double>((i * 5) % 13) - 6;
    std::vector<double> c(m * n, 0);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t p = 0; p < k; ++p) c[i * n + j] += a[i * k + p] * b[p * n + j];
      }
    }
    for (DataType dt : {DT_FLOAT, DT_DOUBLE, DT_INT32}) {
      for (bool ta : {false, true}) {
        for (bool tb : {false, true}) {
          SCOPED_TRACE(absl::StrCat(m, "x", k, "x", n, " ", DataTypeString(dt), ta ? " ta" : "",
                                    tb ? " tb" : ""));
          const Tensor ta_in = ta ? MakeTensor(dt, TensorShape({k, m}), Transposed(a, m, k))
                                  : MakeTensor(dt, TensorShape({m, k}), a);
          const Tensor tb_in = tb ? MakeTensor(dt, TensorShape({n, k}), Transposed(b, k, n))
                                  : MakeTensor(dt, TensorShape({k, n}), b);
          RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunMatMul(dt, ta_in, tb_in, ta, tb));
          ExpectTensorEqual(out[0], MakeTensor(dt, TensorShape({m, n}), c));
        }
      }
    }
  }
}

// A batch-1 product with constant weights (the optimizer's _rill_constant_weights) skips the
// weight rows under zeros of the input (kernels/math_lib/sparse_row_gemv.h): same values as the
// dense product with exact small integers, and with an Inf in the weights, 0 * Inf stays NaN.
absl::StatusOr<std::vector<Tensor>> RunConstantWeightsMatMul(const Tensor& a, const Tensor& b,
                                                             bool ta) {
  OpTester t("MatMul", "mm");
  t.Attr("T", DT_FLOAT).Attr("transpose_a", ta).Attr("transpose_b", false);
  t.Attr("_rill_constant_weights", true).Input(a).Input(b);
  return t.Run();
}

TEST(MatMulOpTest, ConstantWeightsSkipRowsUnderZerosExactly) {
  const int64_t k = 512, n = 256;  // 128K weights: large enough for the skipping path
  std::vector<double> a(k), b(k * n), c(n, 0);
  for (int64_t i = 0; i < k; ++i) a[i] = i % 3 == 0 ? 0 : static_cast<double>(i % 7) - 3;
  for (int64_t i = 0; i < k * n; ++i) b[i] = static_cast<double>((i * 5) % 13) - 6;
  for (int64_t p = 0; p < k; ++p) {
    for (int64_t j = 0; j < n; ++j) c[j] += a[p] * b[p * n + j];
  }
  for (bool ta : {false, true}) {
    SCOPED_TRACE(ta ? "transpose_a" : "plain");
    const Tensor a_in = MakeTensor(DT_FLOAT, ta ? TensorShape({k, 1}) : TensorShape({1, k}), a);
    RILL_ASSERT_OK_AND_ASSIGN(
        std::vector<Tensor> out,
        RunConstantWeightsMatMul(a_in, MakeTensor(DT_FLOAT, TensorShape({k, n}), b), ta));
    ExpectTensorEqual(out[0], MakeTensor(DT_FLOAT, TensorShape({1, n}), c));
  }
  b[0] = std::numeric_limits<double>::infinity();  // row 0 sits under a[0] == 0
  RILL_ASSERT_OK_AND_ASSIGN(
      std::vector<Tensor> out,
      RunConstantWeightsMatMul(MakeTensor(DT_FLOAT, TensorShape({1, k}), a),
                               MakeTensor(DT_FLOAT, TensorShape({k, n}), b), false));
  EXPECT_TRUE(std::isnan(out[0].flat<float>()[0]));
  EXPECT_EQ(out[0].flat<float>()[1], static_cast<float>(c[1]));
}

TEST(MatMulOpTest, IntegerOverflowWraps) {
  // 65536 * 65536 + 1 * 5 = 2^32 + 5, which wraps to 5 in int32.
  const Tensor a = Tensor::FromVector<int32_t>({65536, 1}, TensorShape({1, 2}));
  const Tensor b = Tensor::FromVector<int32_t>({65536, 5}, TensorShape({2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, RunMatMul(DT_INT32, a, b, false, false));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({5}, TensorShape({1, 1})));
}

TEST(MatMulOpTest, FusedSwishIsXTimesSigmoidOfTheBiasedProduct) {
  // The epilogue path (double): x * sigmoid(x) of each biased element, inf and NaN as the unfused
  // Sigmoid and Mul give them (inf -> inf, -inf -> -inf * 0 = NaN).
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor a = Tensor::FromVector<double>({1, 2, inf, 0}, TensorShape({2, 2}));
  const Tensor b = Tensor::FromVector<double>({1, -3, 0.5, 2}, TensorShape({2, 2}));
  const Tensor bias = Tensor::FromVector<double>({0.25, -1}, TensorShape({2}));
  OpTester t("_FusedMatMul", "fused");
  t.Attr("T", DT_DOUBLE)
      .Attr("transpose_a", false)
      .Attr("transpose_b", false)
      .Attr("num_args", int64_t{1})
      .Attr("fused_ops", std::vector<std::string>{"BiasAdd", "_MklSwish"})
      .Input(a)
      .Input(b)
      .Input(bias);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  const double x[2] = {1 * 1 + 2 * 0.5 + 0.25, 1 * -3 + 2 * 2 - 1};  // row 0: 2.25, 0
  for (int j = 0; j < 2; ++j) {
    EXPECT_EQ(out[0].flat<double>()[j], x[j] * (1 / (1 + std::exp(-x[j])))) << j;
  }
  EXPECT_EQ(out[0].flat<double>()[2], inf);           // inf * 1 + 0 * 0.5 + 0.25
  EXPECT_TRUE(std::isnan(out[0].flat<double>()[3]));  // inf * -3 + 0 * 2 - 1 = -inf
}

TEST(MatMulOpTest, ZeroSizeDimensions) {
  // Inner dimension 0: a [2,3] output of zeros.
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out,
                            RunMatMul(DT_FLOAT, Tensor(DT_FLOAT, TensorShape({2, 0})),
                                      Tensor(DT_FLOAT, TensorShape({0, 3})), false, false));
  ExpectTensorEqual(out[0], MakeTensor(DT_FLOAT, TensorShape({2, 3}), {0, 0, 0, 0, 0, 0}));
  // Outer dimension 0: an empty [0,2] output.
  RILL_ASSERT_OK_AND_ASSIGN(out, RunMatMul(DT_DOUBLE, Tensor(DT_DOUBLE, TensorShape({0, 3})),
                                           Tensor(DT_DOUBLE, TensorShape({3, 2})), false, false));
  ExpectTensorEqual(out[0], Tensor(DT_DOUBLE, TensorShape({0, 2})));
  // Both through the loop path with a transpose.
  RILL_ASSERT_OK_AND_ASSIGN(out, RunMatMul(DT_HALF, Tensor(DT_HALF, TensorShape({0, 2})),
                                           Tensor(DT_HALF, TensorShape({3, 0})), true, true));
  ExpectTensorEqual(out[0], MakeTensor(DT_HALF, TensorShape({2, 3}), {0, 0, 0, 0, 0, 0}));
}

TEST(MatMulOpTest, IncompatibleShapesUseTensorFlowsText) {
  EXPECT_THAT(RunMatMul(DT_FLOAT, Tensor(DT_FLOAT, TensorShape({2, 3})),
                        Tensor(DT_FLOAT, TensorShape({2, 2})), false, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Matrix size-incompatible: In[0]: [2,3], In[1]: [2,2]")));
  // With transpose_a, [3,2]^T is [2,3]: still incompatible with [2,2]; shapes print as stored.
  EXPECT_THAT(RunMatMul(DT_INT32, Tensor(DT_INT32, TensorShape({3, 2})),
                        Tensor(DT_INT32, TensorShape({2, 2})), true, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("Matrix size-incompatible: In[0]: [3,2], In[1]: [2,2]")));
}

TEST(MatMulOpTest, NonMatrixInputsUseTensorFlowsText) {
  EXPECT_THAT(RunMatMul(DT_FLOAT, Tensor(DT_FLOAT, TensorShape({2, 3, 4})),
                        Tensor(DT_FLOAT, TensorShape({4, 2})), false, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("In[0] is not a matrix. Instead it has shape [2,3,4]")));
  EXPECT_THAT(RunMatMul(DT_FLOAT, Tensor(DT_FLOAT, TensorShape({2, 3})),
                        Tensor(DT_FLOAT, TensorShape({3})), false, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("In[1] is not a matrix. Instead it has shape [3]")));
}

TEST(MatMulOpTest, DtypeOutsideTheOpDefHasNoKernel) {
  OpTester t("MatMul", "mm");
  t.Attr("T", DT_UINT8)
      .Input(Tensor(DT_UINT8, TensorShape({1, 1})))
      .Input(Tensor(DT_UINT8, TensorShape({1, 1})));
  EXPECT_THAT(t.Init(), StatusIs(absl::StatusCode::kInvalidArgument,
                                 ::testing::HasSubstr("not in the list of allowed values")));
}

// Issue 26: with k = 0 the inputs are empty, yet m * n can pass int64 (was a TensorShape abort)
// or memory: InvalidArgument and ResourceExhausted.
TEST(MatMulOpTest, EmptyInputsWithHugeOuterDimensions) {
  const int64_t big = int64_t{1} << 40;
  EXPECT_THAT(RunMatMul(DT_FLOAT, Tensor(DT_FLOAT, TensorShape({big, 0})),
                        Tensor(DT_FLOAT, TensorShape({0, big})), false, false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       ::testing::HasSubstr("Shape [1099511627776,1099511627776] has too many "
                                            "elements (overflows int64)")));
  EXPECT_THAT(
      RunMatMul(DT_FLOAT, Tensor(DT_FLOAT, TensorShape({big, 0})),
                Tensor(DT_FLOAT, TensorShape({0, int64_t{1} << 19})), false, false),
      StatusIs(absl::StatusCode::kResourceExhausted, ::testing::HasSubstr("OOM when allocating")));
}

}  // namespace
}  // namespace rill
