#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

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
  EXPECT_THAT(
      Qdq(std::nanf(""), 1.0f, true, 8).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, "Invalid range: input_min nan > input_max 1"));
  EXPECT_THAT(Qdq(-1.0f, 1.0f, true, 0).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "num_bits is out of range: 0 with signed_input_ 1"));
}

TEST(QuantizeAndDequantizeOpTest, AxisPastInt32IsTensorFlowsAttrError) {
  // UBSan in the every-op sweep under --config=asan: axis 2^63 - 1 overflowed axis + 1 in the
  // rank check; TensorFlow reads axis as an int32.
  for (const char* op : {"QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4"}) {
    OpTester t(op);
    t.Attr("T", DT_FLOAT)
        .Attr("axis", std::numeric_limits<int64_t>::max())
        .Input(kX)
        .Input(Tensor::Scalar<float>(-1))
        .Input(Tensor::Scalar<float>(1));
    EXPECT_THAT(t.Run().status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         HasSubstr("Attr axis has value 9223372036854775807 out of range for an "
                                   "int32")))
        << op;
  }
}

// Per slice along a middle axis (the slices interleave in memory): each slice quantized with
// the range of its own data equals the slice quantized alone.
TEST(QuantizeAndDequantizeOpTest, PerAxisSlicesMatchEachSliceAlone) {
  // [2, 3, 2]: slice c of axis 1 is the elements 2 c, 2 c + 1, 6 + 2 c, 7 + 2 c.
  const std::vector<float> x = {-3.0f, 0.5f,  0.1f,  -0.2f, 7.0f,  1.5f,
                                0.75f, -2.5f, -0.6f, 0.35f, -1.0f, 4.0f};
  auto run = [](const Tensor& in, int64_t axis, const Tensor& lo) {
    OpTester t("QuantizeAndDequantizeV2");
    t.Attr("T", DT_FLOAT)
        .Attr("range_given", false)
        .Attr("num_bits", int64_t{4})
        .Attr("axis", axis)
        .Input(in)
        .Input(lo)
        .Input(lo);
    return t.Run();
  };
  const Tensor zeros3 = Tensor::FromVector<float>({0.0f, 0.0f, 0.0f}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            run(Tensor::FromVector<float>(x, TensorShape({2, 3, 2})), 1, zeros3));
  for (int64_t c = 0; c < 3; ++c) {
    const int64_t idx[] = {2 * c, 2 * c + 1, 6 + 2 * c, 7 + 2 * c};
    std::vector<float> slice;
    for (int64_t i : idx) slice.push_back(x[i]);
    RILL_ASSERT_OK_AND_ASSIGN(auto alone, run(Tensor::FromVector<float>(slice, TensorShape({4})),
                                              -1, Tensor::Scalar<float>(0.0f)));
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(out[0].flat<float>()[idx[k]], alone[0].flat<float>()[k]) << c << " " << k;
    }
  }
}

absl::StatusOr<std::vector<Tensor>> V4Grad(const Tensor& dy, const Tensor& x, const Tensor& lo,
                                           const Tensor& hi, int64_t axis) {
  OpTester t("QuantizeAndDequantizeV4Grad");
  t.Attr("T", DT_FLOAT).Attr("axis", axis).Input(dy).Input(x).Input(lo).Input(hi);
  return t.Run();
}

const Tensor kDy =
    Tensor::FromVector<float>({1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}, TensorShape({6}));
const Tensor kGradX =
    Tensor::FromVector<float>({-7.0f, -0.03f, 0.0f, 0.49f, 3.0f, 6.1f}, TensorShape({6}));

// Expected values printed by TensorFlow 2.21 (tf.raw_ops.QuantizeAndDequantizeV4Grad): the range
// is inclusive at both ends and not nudged.
TEST(QuantizeAndDequantizeOpTest, V4GradPassesTheGivenRange) {
  RILL_ASSERT_OK_AND_ASSIGN(auto out, V4Grad(kDy, kGradX, Tensor::Scalar<float>(-0.03f),
                                             Tensor::Scalar<float>(3.0f), -1));
  ExpectTensorEqual(
      out[0], Tensor::FromVector<float>({0.0f, 2.0f, 3.0f, 4.0f, 5.0f, 0.0f}, TensorShape({6})));
  ExpectTensorEqual(out[1], Tensor::Scalar<float>(0.0f));
  ExpectTensorEqual(out[2], Tensor::Scalar<float>(0.0f));
}

TEST(QuantizeAndDequantizeOpTest, V4GradPerAxis) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, V4Grad(Tensor::FromVector<float>({1, 2, 3, 4, 5, 6}, TensorShape({3, 2})),
                       Tensor::FromVector<float>({-7.0f, -0.03f, 0.0f, 0.49f, 3.0f, 6.1f},
                                                 TensorShape({3, 2})),
                       Tensor::FromVector<float>({-1.0f, 0.0f}, TensorShape({2})),
                       Tensor::FromVector<float>({1.0f, 7.0f}, TensorShape({2})), 1));
  ExpectTensorEqual(
      out[0], Tensor::FromVector<float>({0.0f, 0.0f, 3.0f, 4.0f, 0.0f, 6.0f}, TensorShape({3, 2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<float>({0.0f, 0.0f}, TensorShape({2})));
}

TEST(QuantizeAndDequantizeOpTest, V4GradErrorsAreTensorFlows) {
  const Tensor zero = Tensor::Scalar<float>(0.0f);
  const Tensor one = Tensor::FromVector<float>({1.0f}, TensorShape({1}));
  EXPECT_THAT(V4Grad(kDy, kGradX, zero, zero, 1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Axis should be -1 or 0 or a positive value less than 1but given axis "
                       "value was 1"));
  EXPECT_THAT(
      V4Grad(kDy, one, zero, zero, -1).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, "gradient and input must be the same size"));
  EXPECT_THAT(V4Grad(kDy, kGradX, zero, one, -1).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "input_max must be a scalar if axis is unspecified"));
  EXPECT_THAT(
      V4Grad(kDy, kGradX, one, one, 0).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, "min has incorrect size, expected 6 was 1"));
  EXPECT_THAT(V4Grad(kDy, kGradX, zero, one, 0).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "Shape must be rank 1 for input_min_tensor when the axis is specified"));
}

}  // namespace
}  // namespace rill
