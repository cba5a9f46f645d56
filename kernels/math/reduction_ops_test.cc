#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Reduce(const std::string& op, const Tensor& x,
                                           std::vector<int32_t> axes, bool keep_dims = false) {
  OpTester t(op);
  if (x.dtype() != DT_BOOL) t.Attr("T", x.dtype());
  t.Attr("keep_dims", keep_dims);
  const int64_t n = static_cast<int64_t>(axes.size());
  t.Input(x).Input(Tensor::FromVector<int32_t>(axes, TensorShape({n})));
  return t.Run();
}

const Tensor kX = Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({2, 3}));

TEST(ReductionOpsTest, HalfMeanOverColumnsIsTensorFlows) {
  // TensorFlow 2.21 (TF_ENABLE_ONEDNN_OPTS=0): tf.reduce_mean over axis 1 of these [1, 20, 9]
  // float16 values adds in half in Eigen's order; adding in float gives other bits.
  std::vector<half> v;
  for (int i = 0; i < 20 * 9; ++i) v.push_back(half(static_cast<float>(std::cos(i * 0.37) * 0.9)));
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, Reduce("Mean", Tensor::FromVector<half>(v, TensorShape({1, 20, 9})), {1}));
  const std::vector<uint16_t> want = {10593, 10387, 9808, 8486, 40371, 42304, 43058, 43313, 43393};
  ASSERT_EQ(out[0].NumElements(), 9);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out[0].flat<half>()[i].bits, want[i]) << i;
}

std::vector<uint16_t> Bits(const Tensor& t) {
  std::vector<uint16_t> out;
  for (bfloat16 v : t.flat<bfloat16>()) out.push_back(v.bits);
  return out;
}

Tensor Bfloat16s(int n, double (*f)(int), std::initializer_list<int64_t> dims) {
  std::vector<bfloat16> v;
  for (int i = 0; i < n; ++i) v.push_back(bfloat16(static_cast<float>(f(i))));
  return Tensor::FromVector<bfloat16>(v, TensorShape(dims));
}

// Expected bits recorded from TensorFlow 2.21 (TF_ENABLE_ONEDNN_OPTS=0): bfloat16 Prod multiplies
// in bfloat16 in Eigen's order (multiplying in float and rounding once gives the noted bits);
// bfloat16 Sum adds in float.
TEST(ReductionOpsTest, Bfloat16ProdIsTensorFlows) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Reduce("Prod", Bfloat16s(37, [](int i) { return 1 + std::sin(i) * 0.3; }, {37}), {0}));
  EXPECT_EQ(Bits(out[0]), std::vector<uint16_t>{16118});  // float: 16122
  RILL_ASSERT_OK_AND_ASSIGN(
      out,
      Reduce("Prod", Bfloat16s(180, [](int i) { return 1 + std::cos(i * 0.37) * 0.3; }, {1, 20, 9}),
             {1}));
  // float: 16201, 16199, 16193, 16183, 16165, 16144, 16126, 16103, 16094
  EXPECT_EQ(Bits(out[0]),
            (std::vector<uint16_t>{16201, 16202, 16194, 16183, 16165, 16143, 16127, 16104, 16092}));
  RILL_ASSERT_OK_AND_ASSIGN(
      out,
      Reduce("Prod", Bfloat16s(24, [](int i) { return 1 + std::sin(i * 0.7) * 0.3; }, {2, 3, 4}),
             {0, 2}));
  EXPECT_EQ(Bits(out[0]), (std::vector<uint16_t>{16351, 16056, 16383}));  // float: 16353 first
}

TEST(ReductionOpsTest, Bfloat16SumAddsInFloat) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, Reduce("Sum", Bfloat16s(37, [](int i) { return std::sin(i) * 0.7; }, {37}), {0}));
  EXPECT_EQ(Bits(out[0]), std::vector<uint16_t>{16066});  // adding in bfloat16: 16060
}

TEST(ReductionOpsTest, SumOverEachAxisAndAll) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Reduce("Sum", kX, {0}));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({5, 7, 9}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Sum", kX, {-1}, /*keep_dims=*/true));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({6, 15}, TensorShape({2, 1})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Sum", kX, {0, 1}));
  ExpectTensorEqual(out[0], Tensor::Scalar<float>(21));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Sum", kX, {}));
  ExpectTensorEqual(out[0], kX);
}

// Rows and columns of 1.2M floats (enough to split over two intra-op threads): every thread
// count gives the sums computed here (small integers: exact in any order).
TEST(ReductionOpsTest, LargeRowAndColumnSumsOverThreads) {
  const int64_t rows = 1200, cols = 1000;
  std::vector<float> v(rows * cols);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 13);
  std::vector<float> row_sums(rows, 0), col_sums(cols, 0);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      row_sums[r] += v[r * cols + c];
      col_sums[c] += v[r * cols + c];
    }
  }
  const Tensor x = Tensor::FromVector<float>(v, TensorShape({rows, cols}));
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    for (int32_t axis : {0, 1}) {
      OpTester t("Sum");
      t.Attr("T", DT_FLOAT).Attr("keep_dims", false);
      t.Input(x).Input(Tensor::FromVector<int32_t>({axis}, TensorShape({1})));
      t.SetIntraOpThreads(threads);
      RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
      ExpectTensorEqual(out[0], axis == 1
                                    ? Tensor::FromVector<float>(row_sums, TensorShape({rows}))
                                    : Tensor::FromVector<float>(col_sums, TensorShape({cols})));
    }
  }
}

TEST(ReductionOpsTest, MeanMaxMinProd) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Reduce("Mean", kX, {1}));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({2, 5}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Max", kX, {0}));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({4, 5, 6}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Min", kX, {1}));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({1, 4}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Prod", kX, {1}));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({6, 120}, TensorShape({2})));
  const Tensor ints = Tensor::FromVector<int32_t>({1, 2, 4, 7}, TensorShape({4}));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Mean", ints, {0}));
  ExpectTensorEqual(out[0], Tensor::Scalar<int32_t>(3));  // 14 / 4 truncates
}

TEST(ReductionOpsTest, EmptyReductionsGiveTheIdentity) {
  const Tensor empty(DT_FLOAT, TensorShape({0, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Reduce("Sum", empty, {0}));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({0, 0}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Max", empty, {0}));
  EXPECT_EQ(out[0].flat<float>()[0], -INFINITY);
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Mean", empty, {0}));
  EXPECT_TRUE(std::isnan(out[0].flat<float>()[0]));
}

TEST(ReductionOpsTest, AllAny) {
  const Tensor b = Tensor::FromVector<bool>({true, false, true, true}, TensorShape({2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Reduce("All", b, {1}));
  ExpectTensorEqual(out[0], Tensor::FromVector<bool>({false, true}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Any", b, {0}));
  ExpectTensorEqual(out[0], Tensor::FromVector<bool>({true, true}, TensorShape({2})));
}

TEST(ReductionOpsTest, AxisOutOfRangeIsTensorFlowsError) {
  EXPECT_THAT(Reduce("Sum", kX, {2}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Invalid reduction dimension (2 for input with 2 dimension(s)"));
}

TEST(ReductionOpsTest, AnAxisGivenTwiceIsTensorFlowsError) {
  for (const char* op : {"Sum", "Max", "Mean"}) {
    EXPECT_THAT(Reduce(op, kX, {1, -1}),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "Invalid reduction arguments: Axes contains duplicate dimension: 1"))
        << op;
  }
}

// The wider unsigned integers wrap, as TensorFlow 2.21's Sum and Prod do.
TEST(ReductionOpsTest, UnsignedSumAndProdWrap) {
  const Tensor x =
      Tensor::FromVector<uint32_t>({4294967295u, 4294967295u, 3u, 2u}, TensorShape({2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Reduce("Sum", x, {1}));
  ExpectTensorEqual(out[0], Tensor::FromVector<uint32_t>({4294967294u, 5u}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out,
      Reduce("Prod",
             Tensor::FromVector<uint64_t>({18446744073709551615ull, 3ull}, TensorShape({2})), {0}));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<uint64_t>({18446744073709551613ull}, TensorShape({})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Reduce("Sum", Tensor::FromVector<uint16_t>({65535, 2}, TensorShape({2})), {0}));
  ExpectTensorEqual(out[0], Tensor::FromVector<uint16_t>({1}, TensorShape({})));
}

// complex64 / complex128 Sum, Mean, Prod and EuclideanNorm (TensorFlow 2.21's values): Mean
// divides by (count, 0) with the plain formula, so a NaN real part makes both parts NaN, and the
// mean of nothing is 0; EuclideanNorm is sqrt(sum(x conj(x))), real.
TEST(ReductionOpsTest, ComplexSumMeanProdNorm) {
  const Tensor x =
      Tensor::FromVector<complex128>({{1, 2}, {3, -4}, {-0.5, 0.25}, {2, 0}}, TensorShape({2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Reduce("Sum", x, {1}));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<complex128>({{4, -2}, {1.5, 0.25}}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Mean", x, {0}));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<complex128>({{0.25, 1.125}, {2.5, -2}}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Prod", x, {1}));
  ExpectTensorEqual(out[0], Tensor::FromVector<complex128>({{11, 2}, {-1, 0.5}}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Reduce("EuclideanNorm", Tensor::FromVector<complex64>({{3, 4}}, TensorShape({1})), {0}));
  ExpectTensorEqual(out[0], Tensor::FromVector<complex64>({{5, 0}}, TensorShape({})));
  const double inf = std::numeric_limits<double>::infinity();
  RILL_ASSERT_OK_AND_ASSIGN(
      out,
      Reduce("Mean", Tensor::FromVector<complex128>({{std::nan(""), inf}}, TensorShape({1})), {0}));
  EXPECT_TRUE(std::isnan(out[0].flat<complex128>()[0].real()));
  EXPECT_TRUE(std::isnan(out[0].flat<complex128>()[0].imag()));  // C's division gives inf
  RILL_ASSERT_OK_AND_ASSIGN(out, Reduce("Mean", Tensor(DT_COMPLEX64, TensorShape({0})), {0}));
  ExpectTensorEqual(out[0], Tensor::FromVector<complex64>({{0, 0}}, TensorShape({})));
}

}  // namespace
}  // namespace rill
