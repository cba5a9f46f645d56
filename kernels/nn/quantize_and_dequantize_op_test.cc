#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

const Tensor kX =
    Tensor::FromVector<float>({-3.0f, -0.3f, 0.004f, 0.25f, 0.7f, 2.5f}, TensorShape({6}));

absl::StatusOr<std::vector<Tensor>> Qdq(float lo, float hi, bool range_given, int64_t bits) {
  OpTester t("QuantizeAndDequantizeV2");
  t.Attr("T", DT_FLOAT)
      .Attr("range_given", range_given)
      .Attr("num_bits", bits)
      .Input(kX)
      .Input(Tensor::Scalar<float>(lo))
      .Input(Tensor::Scalar<float>(hi));
  return t.Run();
}

// Expected values printed by TensorFlow 2.21 (tf.raw_ops.QuantizeAndDequantizeV2).
TEST(QuantizeAndDequantizeOpTest, GivenRangeMovesMinToKeepZeroExact) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Qdq(-1.0f, 1.0f, true, 8));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({-1.007874f, -0.2992126f, 0.007874016f,
                                                       0.2519685f, 0.7007874f, 1.0f},
                                                      TensorShape({6})));
}

TEST(QuantizeAndDequantizeOpTest, RangeFromTheDataFourBits) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Qdq(0.0f, 0.0f, false, 4));
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({-3.0f, -0.375f, 0.0f, 0.375f, 0.75f, 2.625f},
                                                      TensorShape({6})));
}

TEST(QuantizeAndDequantizeOpTest, ErrorsAreTensorFlows) {
  EXPECT_THAT(
      Qdq(1.0f, -1.0f, true, 8).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, "Invalid range: input_min 1 > input_max -1"));
  EXPECT_THAT(Qdq(-1.0f, 1.0f, true, 0).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "num_bits is out of range: 0 with signed_input_ 1"));
}

}  // namespace
}  // namespace rill
