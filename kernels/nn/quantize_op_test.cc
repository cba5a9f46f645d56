#include <cstdint>
#include <vector>

#include "core/quantized_types.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::ElementsAre;
using ::testing::FloatEq;
using ::testing::HasSubstr;

template <typename Q>
std::vector<int64_t> Ints(const Tensor& t) {
  std::vector<int64_t> out;
  for (Q q : t.flat<Q>()) out.push_back(q.value);
  return out;
}

std::vector<float> Floats(const Tensor& t) {
  auto f = t.flat<float>();
  return std::vector<float>(f.begin(), f.end());
}

Tensor Matrix(std::vector<float> v) { return Tensor::FromVector<float>(v, TensorShape({2, 2})); }
Tensor Vector(std::vector<float> v) {
  return Tensor::FromVector<float>(v, TensorShape({static_cast<int64_t>(v.size())}));
}

// Values and ranges TensorFlow 2.21 returned for the same inputs.
TEST(QuantizeV2OpTest, PerAxisMinCombinedAndScaled) {
  OpTester t("QuantizeV2");
  t.Attr("T", DT_QUINT8).Attr("axis", int64_t{1});
  t.Input(Matrix({-1, 0.5, 2, 3})).Input(Vector({0, 1})).Input(Vector({1, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_EQ(out[0].dtype(), DT_QUINT8);
  EXPECT_THAT(Ints<quint8>(out[0]), ElementsAre(0, 64, 255, 255));
  EXPECT_THAT(Floats(out[1]), ElementsAre(0, 0));
  EXPECT_THAT(Floats(out[2]), ElementsAre(1, 2));

  OpTester s("QuantizeV2");
  s.Attr("T", DT_QINT8).Attr("axis", int64_t{1}).Attr("mode", std::string("SCALED"));
  s.Input(Matrix({-1, 0.5, 2, 3})).Input(Vector({0, -1})).Input(Vector({1, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(out, s.Run());
  EXPECT_THAT(Ints<qint8>(out[0]), ElementsAre(-127, 32, 127, 127));
  EXPECT_THAT(Floats(out[1]), ElementsAre(FloatEq(-1.007874f), FloatEq(-2.015748f)));
  EXPECT_THAT(Floats(out[2]), ElementsAre(1, 2));
}

TEST(QuantizeV2OpTest, ErrorsAreTensorFlows) {
  OpTester t("QuantizeV2");
  t.Attr("T", DT_QUINT8);
  t.Input(Matrix({-1, 0.5, 2, 3})).Input(Tensor::Scalar<float>(2)).Input(Tensor::Scalar<float>(1));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("input_max_range must be larger than input_min_range.")));
  OpTester h("QuantizeV2");
  h.Attr("T", DT_QUINT8).Attr("round_mode", std::string("HALF_TO_EVEN"));
  h.Input(Matrix({-1, 0.5, 2, 3})).Input(Tensor::Scalar<float>(0)).Input(Tensor::Scalar<float>(1));
  EXPECT_THAT(h.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("Round mode 'HALF_TO_EVEN' only supported for mode "
                                          "'SCALED', but mode is 'MIN_COMBINED'.")));
}

Tensor QuantizedMatrix() {
  Tensor q(DT_QUINT8, TensorShape({2, 2}));
  for (int i = 0; i < 4; ++i) q.flat<quint8>()[i] = quint8(static_cast<uint8_t>(i + 1));
  return q;
}

TEST(DequantizeOpTest, PerTensorAndPerAxis) {
  OpTester t("Dequantize");
  t.Attr("T", DT_QUINT8);
  t.Input(QuantizedMatrix()).Input(Tensor::Scalar<float>(2)).Input(Tensor::Scalar<float>(1));
  RILL_ASSERT_OK_AND_ASSIGN(std::vector<Tensor> out, t.Run());
  EXPECT_THAT(Floats(out[0]), ElementsAre(FloatEq(1.9960784f), FloatEq(1.9921569f),
                                          FloatEq(1.9882352f), FloatEq(1.9843137f)));

  OpTester a("Dequantize");
  a.Attr("T", DT_QUINT8).Attr("axis", int64_t{1});
  a.Input(QuantizedMatrix()).Input(Vector({0, 1})).Input(Vector({1, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(out, a.Run());
  // TensorFlow's values as numpy prints them (8 digits): equal within 4 ulps.
  EXPECT_THAT(Floats(out[0]), ElementsAre(FloatEq(0.00392157f), FloatEq(1.0078431f),
                                          FloatEq(0.01176471f), FloatEq(1.0156863f)));

  OpTester e("Dequantize");
  e.Attr("T", DT_QUINT8).Attr("dtype", DT_BFLOAT16).Attr("mode", std::string("SCALED"));
  e.Input(QuantizedMatrix()).Input(Tensor::Scalar<float>(0)).Input(Tensor::Scalar<float>(1));
  EXPECT_THAT(e.Run(), StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("When output type is bfloat16, Mode string must be "
                                          "'MIN_COMBINED', is 'SCALED'")));
}

}  // namespace
}  // namespace rill
