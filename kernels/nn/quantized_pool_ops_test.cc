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

const std::vector<int> kImage = {1, -5, 7, 100, -128, 3, 2, 4, 127};

// Sets up `t` (a QuantizedMaxPool or QuantizedAvgPool tester) on a 3x3 image of kImage.
void Pool(OpTester& t, DataType dt, int k, int s, const Tensor& min_input) {
  Tensor x(dt, TensorShape({1, 3, 3, 1}));
  for (int i = 0; i < 9; ++i) {
    if (dt == DT_QINT8) {
      x.flat<qint8>()[i] = qint8(static_cast<int8_t>(kImage[i]));
    } else {
      x.flat<quint8>()[i] = quint8(static_cast<uint8_t>(kImage[i] + 128));
    }
  }
  t.Attr("T", dt).Attr("ksize", std::vector<int64_t>{1, k, k, 1});
  t.Attr("strides", std::vector<int64_t>{1, s, s, 1}).Attr("padding", "SAME");
  t.Input(x).Input(min_input).Input(Tensor::Scalar<float>(1));
}

template <typename Q>
std::vector<int> Codes(const Tensor& t) {
  std::vector<int> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.flat<Q>()[i].value);
  return v;
}

// Expected values recorded from TensorFlow 2.21: qint8 averages truncate toward zero.
TEST(QuantizedPoolOpTest, AveragesAndMaximaOfCodes) {
  OpTester avg("QuantizedAvgPool");
  Pool(avg, DT_QINT8, 2, 1, Tensor::Scalar<float>(-1));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> a, avg.Run());
  EXPECT_THAT(Codes<qint8>(a[0]), Eq(std::vector<int>{-8, -30, 5, -5, 1, 65, 3, 65, 127}));
  EXPECT_EQ(a[1].flat<float>()[0], -1.0f);
  OpTester max("QuantizedMaxPool");
  Pool(max, DT_QINT8, 2, 2, Tensor::Scalar<float>(-1));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> m, max.Run());
  EXPECT_THAT(Codes<qint8>(m[0]), Eq(std::vector<int>{100, 7, 4, 127}));
  OpTester u("QuantizedAvgPool");
  Pool(u, DT_QUINT8, 3, 2, Tensor::Scalar<float>(-1));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> ua, u.Run());
  EXPECT_THAT(Codes<quint8>(ua[0]), Eq(std::vector<int>{120, 97, 122, 129}));
}

TEST(QuantizedPoolOpTest, RangeMustBeAScalar) {
  Tensor v(DT_FLOAT, TensorShape({1}));
  v.flat<float>()[0] = -1;
  OpTester t("QuantizedMaxPool");
  Pool(t, DT_QUINT8, 2, 2, v);
  EXPECT_THAT(t.Run().status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       Eq("min_input shape must be rank 0 but is rank 1, received shape: [1]")));
}

}  // namespace
}  // namespace rill
