#include <cstdint>
#include <string>
#include <vector>

#include "core/quantized_types.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::Eq;

Tensor Qint32(const std::vector<int32_t>& v) {
  Tensor q(DT_QINT32, TensorShape({static_cast<int64_t>(v.size())}));
  for (size_t i = 0; i < v.size(); ++i) q.flat<qint32>()[i] = qint32(v[i]);
  return q;
}

const std::vector<int32_t> kValues = {0, 5, -7, 100000, INT32_MIN, INT32_MAX};

// Expected values recorded from TensorFlow 2.21.
TEST(RequantizationRangeOpTest, UsedRangeWithMinimumCappedAtZero) {
  OpTester t("RequantizationRange");
  t.Attr("Tinput", DT_QINT32).Input(Qint32(kValues));
  t.Input(Tensor::Scalar<float>(-10)).Input(Tensor::Scalar<float>(10));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_EQ(out[0].flat<float>()[0], -10.0f);
  EXPECT_EQ(out[1].flat<float>()[0], 10.0f);

  OpTester p("RequantizationRange");
  p.Attr("Tinput", DT_QINT32).Input(Qint32({3, 5}));
  p.Input(Tensor::Scalar<float>(-10)).Input(Tensor::Scalar<float>(10));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> pos, p.Run());
  EXPECT_EQ(pos[0].flat<float>()[0], 0.0f);
  EXPECT_FLOAT_EQ(pos[1].flat<float>()[0], 2.561137e-08f);
}

TEST(RequantizeOpTest, ToQint8AndTensorFlowErrors) {
  OpTester t("Requantize");
  t.Attr("Tinput", DT_QINT32).Attr("out_type", DT_QINT8).Input(Qint32(kValues));
  t.Input(Tensor::Scalar<float>(-10)).Input(Tensor::Scalar<float>(10));
  t.Input(Tensor::Scalar<float>(-1)).Input(Tensor::Scalar<float>(2));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  const std::vector<int8_t> want = {-43, -43, -43, -43, -128, 127};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[0].flat<qint8>()[i].value, want[i]) << i;
  EXPECT_EQ(out[1].flat<float>()[0], -1.0f);
  EXPECT_EQ(out[2].flat<float>()[0], 2.0f);

  OpTester e("Requantize");
  e.Attr("Tinput", DT_QINT32).Attr("out_type", DT_QUINT8).Input(Qint32(kValues));
  e.Input(Tensor::Scalar<float>(-10)).Input(Tensor::Scalar<float>(10));
  e.Input(Tensor::Scalar<float>(1)).Input(Tensor::Scalar<float>(2));
  EXPECT_THAT(e.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                         Eq("requested_output_min must be <= 0, but got 1")));
}

// quint8 in [-1, 7]: 0 is quantized to 32, 6 to 223 (TensorFlow 2.21's values).
TEST(QuantizedReluOpTest, ClampsAtQuantizedZeroAndSix) {
  Tensor q(DT_QUINT8, TensorShape({4}));
  const std::vector<uint8_t> in = {0, 31, 100, 255};
  for (int i = 0; i < 4; ++i) q.flat<quint8>()[i] = quint8(in[i]);
  for (const char* op : {"QuantizedRelu", "QuantizedRelu6"}) {
    OpTester t(op);
    t.Attr("Tinput", DT_QUINT8).Attr("out_type", DT_QUINT8).Input(q);
    t.Input(Tensor::Scalar<float>(-1)).Input(Tensor::Scalar<float>(7));
    RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
    const bool six = std::string(op) == "QuantizedRelu6";
    const std::vector<uint8_t> want = {32, 32, 100, static_cast<uint8_t>(six ? 223 : 255)};
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[0].flat<quint8>()[i].value, want[i]) << op << i;
    EXPECT_EQ(out[2].flat<float>()[0], 7.0f);
  }
}

}  // namespace
}  // namespace rill
