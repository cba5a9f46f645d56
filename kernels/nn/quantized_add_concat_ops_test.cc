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

template <typename Q>
Tensor Codes(DataType dt, const TensorShape& shape, const std::vector<int>& v) {
  Tensor t(dt, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    t.flat<Q>()[i] = Q(static_cast<typename Q::Storage>(v[i]));
  }
  return t;
}

std::vector<int> Values(const Tensor& t) {
  std::vector<int> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.flat<qint32>()[i].value);
  return v;
}

// Expected values recorded from TensorFlow 2.21: the sum's range is 131072 times the largest
// range end (2), and the code of 0.0 there is added once more.
TEST(QuantizedBiasAddOpTest, SumsInTheWiderRange) {
  OpTester u("QuantizedBiasAdd");
  u.Attr("T1", DT_QUINT8).Attr("T2", DT_QUINT8).Attr("out_type", DT_QINT32);
  u.Input(Codes<quint8>(DT_QUINT8, TensorShape({2, 2}), {1, 2, 3, 4}));
  u.Input(Codes<quint8>(DT_QUINT8, TensorShape({2}), {5, 6}));
  u.Input(Tensor::Scalar<float>(-1)).Input(Tensor::Scalar<float>(1));
  u.Input(Tensor::Scalar<float>(-2)).Input(Tensor::Scalar<float>(2));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> a, u.Run());
  EXPECT_THAT(Values(a[0]), Eq(std::vector<int>{-23773, -23580, -23644, -23452}));
  EXPECT_EQ(a[1].flat<float>()[0], -262144.0f);
  EXPECT_EQ(a[2].flat<float>()[0], 262144.0f);

  OpTester s("QuantizedBiasAdd");
  s.Attr("T1", DT_QINT8).Attr("T2", DT_QINT8).Attr("out_type", DT_QINT32);
  s.Input(Codes<qint8>(DT_QINT8, TensorShape({2, 2}), {1, 2, 3, -4}));
  s.Input(Codes<qint8>(DT_QINT8, TensorShape({2}), {5, -6}));
  s.Input(Tensor::Scalar<float>(-1)).Input(Tensor::Scalar<float>(1));
  s.Input(Tensor::Scalar<float>(-2)).Input(Tensor::Scalar<float>(2));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> b, s.Run());
  EXPECT_THAT(Values(b[0]), Eq(std::vector<int>{900, -450, 1028, -836}));
}

// Recorded from TensorFlow 2.21: qint32's range is made symmetric, quint8's is not; the first
// input is requantized, the second (already in [-3, 2] for quint8) is copied.
TEST(QuantizedConcatOpTest, RequantizesIntoTheCommonRange) {
  OpTester q("QuantizedConcat");
  q.Attr("N", 2).Attr("T", DT_QINT32).Input(Tensor::Scalar<int32_t>(0));
  q.Input(Codes<qint32>(DT_QINT32, TensorShape({2}), {1, 2}));
  q.Input(Codes<qint32>(DT_QINT32, TensorShape({1}), {3}));
  q.Input(Tensor::Scalar<float>(-1)).Input(Tensor::Scalar<float>(-3));
  q.Input(Tensor::Scalar<float>(1)).Input(Tensor::Scalar<float>(2));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> a, q.Run());
  EXPECT_THAT(Values(a[0]), Eq(std::vector<int>{0, 1, -357913952}));
  EXPECT_EQ(a[1].flat<float>()[0], -3.0f);
  EXPECT_EQ(a[2].flat<float>()[0], 3.0f);

  OpTester u("QuantizedConcat");
  u.Attr("N", 2).Attr("T", DT_QUINT8).Input(Tensor::Scalar<int32_t>(0));
  u.Input(Codes<quint8>(DT_QUINT8, TensorShape({2}), {1, 200}));
  u.Input(Codes<quint8>(DT_QUINT8, TensorShape({1}), {3}));
  u.Input(Tensor::Scalar<float>(-1)).Input(Tensor::Scalar<float>(-3));
  u.Input(Tensor::Scalar<float>(1)).Input(Tensor::Scalar<float>(2));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> b, u.Run());
  EXPECT_EQ(b[0].flat<quint8>()[0].value, 103);
  EXPECT_EQ(b[0].flat<quint8>()[1].value, 182);
  EXPECT_EQ(b[0].flat<quint8>()[2].value, 3);
  EXPECT_EQ(b[1].flat<float>()[0], -3.0f);
  EXPECT_EQ(b[2].flat<float>()[0], 2.0f);
}

TEST(QuantizedConcatOpTest, EmptyRangeIsRefused) {
  OpTester q("QuantizedConcat");
  q.Attr("N", 2).Attr("T", DT_QUINT8).Input(Tensor::Scalar<int32_t>(0));
  q.Input(Codes<quint8>(DT_QUINT8, TensorShape({2}), {1, 2}));
  q.Input(Codes<quint8>(DT_QUINT8, TensorShape({1}), {3}));
  q.Input(Tensor::Scalar<float>(-1)).Input(Tensor(DT_FLOAT, TensorShape({0})));
  q.Input(Tensor::Scalar<float>(1)).Input(Tensor::Scalar<float>(2));
  EXPECT_THAT(q.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         Eq("input_mins[1] must hold one value")));
}

}  // namespace
}  // namespace rill
