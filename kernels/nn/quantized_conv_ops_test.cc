#include <cstdint>
#include <vector>

#include "core/quantized_types.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::Eq;

Tensor Quint8(const TensorShape& shape, const std::vector<int>& v) {
  Tensor q(DT_QUINT8, shape);
  for (int64_t i = 0; i < q.NumElements(); ++i) {
    q.flat<quint8>()[i] = quint8(static_cast<uint8_t>(v[i % v.size()]));
  }
  return q;
}

std::vector<int32_t> Codes(const Tensor& t) {
  std::vector<int32_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.flat<qint32>()[i].value);
  return v;
}

// Sets up `t`, a QuantizedConv2D tester, with the filter's range [-1, 1].
void Conv(OpTester& t, const Tensor& x, const Tensor& w, float min_x, float max_x, int stride,
          const char* padding) {
  t.Attr("Tinput", DT_QUINT8).Attr("Tfilter", DT_QUINT8).Attr("out_type", DT_QINT32);
  t.Attr("strides", std::vector<int64_t>{1, stride, stride, 1}).Attr("padding", padding);
  t.Input(x).Input(w);
  t.Input(Tensor::Scalar<float>(min_x)).Input(Tensor::Scalar<float>(max_x));
  t.Input(Tensor::Scalar<float>(-1)).Input(Tensor::Scalar<float>(1));
}

std::vector<int> Ramp(int n, int step) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(i * step);
  return v;
}

// Expected values recorded from TensorFlow 2.21: a VALID window of stride 5 over 10 columns
// starts one column late (origin ((2 - 1) * 5 + 2 - 10 + 1) / 2 = -1).
TEST(QuantizedConv2DOpTest, WindowStartsWhereTensorFlowsDoes) {
  OpTester t("QuantizedConv2D");
  Conv(t, Quint8(TensorShape({1, 10, 10, 1}), Ramp(100, 2)),
       Quint8(TensorShape({2, 2, 1, 1}), {130}), -1, 1, 5, "VALID");
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_THAT(Codes(out[0]), Eq(std::vector<int32_t>{-760, -680, 40, 120}));
  EXPECT_EQ(out[1].flat<float>()[0], -132102.046875f);
  EXPECT_EQ(out[2].flat<float>()[0], 132102.046875f);
}

// A range wholly below 0 puts 0.0 at code 383: padding reads 383's low byte (127), as
// TensorFlow's im2col buffer of quint8 holds it. Above 0 the code of 0.0 is negative and padding
// reads 0.0 (TensorFlow's reference path).
TEST(QuantizedConv2DOpTest, PaddingValueFollowsTensorFlowsTwoPaths) {
  const Tensor x = Quint8(TensorShape({1, 4, 4, 1}),
                          {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160});
  const Tensor w = Quint8(TensorShape({3, 3, 1, 1}), {200});
  OpTester neg("QuantizedConv2D");
  Conv(neg, x, w, -3, -1, 1, "SAME");
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> n, neg.Run());
  EXPECT_THAT(Codes(n[0]),
              Eq(std::vector<int32_t>{-192384, -203472, -199152, -186624, -196992, -209304, -202824,
                                      -188352, -179712, -183384, -176904, -171072, -169344, -168912,
                                      -164592, -163584}));
  OpTester pos("QuantizedConv2D");
  Conv(pos, x, w, 1, 3, 1, "SAME");
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> p, pos.Run());
  EXPECT_THAT(Codes(p[0]), Eq(std::vector<int32_t>{46944, 72576, 76896, 52704, 79056, 121824,
                                                   128304, 87696, 96336, 147744, 154224, 104976,
                                                   69984, 107136, 111456, 75744}));
}

// TensorFlow 2.21 aborts the process (a failed CHECK) for a filter with no output channels and for
// a VALID window larger than the input; Rill returns the empty result.
TEST(QuantizedConv2DOpTest, NoOutputIsEmptyWhereTensorFlowAborts) {
  OpTester none("QuantizedConv2D");
  Conv(none, Quint8(TensorShape({1, 3, 3, 2}), {1}), Quint8(TensorShape({2, 2, 2, 0}), {1}), -1, 1,
       1, "SAME");
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> a, none.Run());
  EXPECT_EQ(a[0].shape(), TensorShape({1, 3, 3, 0}));
  OpTester big("QuantizedConv2D");
  Conv(big, Quint8(TensorShape({1, 1, 1, 2}), {1}), Quint8(TensorShape({2, 2, 2, 3}), {1}), -1, 1,
       1, "VALID");
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> b, big.Run());
  EXPECT_EQ(b[0].shape(), TensorShape({1, 0, 0, 3}));
}

TEST(QuantizedConv2DOpTest, TensorFlowsErrors) {
  OpTester depth("QuantizedConv2D");
  Conv(depth, Quint8(TensorShape({1, 3, 3, 2}), {1}), Quint8(TensorShape({2, 2, 3, 1}), {1}), -1, 1,
       1, "SAME");
  EXPECT_THAT(depth.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("input and filter must have the same depth: 2 vs 3")));
  OpTester empty("QuantizedConv2D");
  Conv(empty, Quint8(TensorShape({0, 3, 3, 2}), {1}), Quint8(TensorShape({2, 2, 2, 1}), {1}), -1, 1,
       1, "SAME");
  EXPECT_THAT(empty.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                             Eq("Invalid input: Shapes dimension cannot be 0.")));
}

// Sets up `t`, a QuantizedMatMul tester, with b's range [-2, 2].
void MatMul(OpTester& t, const Tensor& a, const Tensor& b, float min_a, float max_a) {
  t.Attr("T1", DT_QUINT8).Attr("T2", DT_QUINT8).Attr("Toutput", DT_QINT32);
  t.Attr("transpose_a", false).Attr("transpose_b", false);
  t.Input(a).Input(b);
  t.Input(Tensor::Scalar<float>(min_a)).Input(Tensor::Scalar<float>(max_a));
  t.Input(Tensor::Scalar<float>(-2)).Input(Tensor::Scalar<float>(2));
}

// Recorded from TensorFlow 2.21: both operands' 0.0 is code 128.
TEST(QuantizedMatMulOpTest, ProductOfOffsetCodes) {
  OpTester t("QuantizedMatMul");
  MatMul(t, Quint8(TensorShape({2, 2}), {1, 2, 3, 4}), Quint8(TensorShape({2, 2}), {5, 6, 7, 8}),
         -1, 1);
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_THAT(Codes(out[0]), Eq(std::vector<int32_t>{30867, 30614, 30379, 30130}));
  EXPECT_EQ(out[1].flat<float>()[0], -264204.09375f);
  EXPECT_EQ(out[2].flat<float>()[0], 264204.09375f);
  OpTester bad("QuantizedMatMul");
  MatMul(bad, Quint8(TensorShape({2, 2}), {1}), Quint8(TensorShape({2, 2}), {1}), 1, 1);
  EXPECT_THAT(bad.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument, Eq("max_a must be larger than min_a.")));
}

}  // namespace
}  // namespace rill
