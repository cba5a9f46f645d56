#include <cmath>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

const Tensor kX =
    Tensor::FromVector<float>({-7.0f, -0.03f, 0.0f, 0.49f, 3.0f, 6.1f}, TensorShape({6}));

// Expected values printed by TensorFlow 2.21 (tf.quantization.fake_quant_*).
TEST(FakeQuantOpsTest, ArgsNudgesTheRangeSoZeroIsExact) {
  OpTester t("FakeQuantWithMinMaxArgs");
  t.Attr("min", -0.1f).Attr("max", 6.3f).Input(kX);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({-0.100392155f, -0.025098039f, 0.0f,
                                                       0.50196075f, 3.0117648f, 6.0988235f},
                                                      TensorShape({6})));
}

// TensorFlow 2.21: NaN stays NaN, the infinities clamp to the nudged bounds.
TEST(FakeQuantOpsTest, NaNStaysNaNAndInfinitiesClamp) {
  OpTester t("FakeQuantWithMinMaxArgs");
  const float inf = std::numeric_limits<float>::infinity();
  t.Input(Tensor::FromVector<float>({std::numeric_limits<float>::quiet_NaN(), inf, -inf, -0.0f},
                                    TensorShape({4})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  const auto v = out[0].flat<float>();
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 5.9764705f);
  EXPECT_EQ(v[2], -6.0235295f);
  EXPECT_EQ(v[3], 0.0f);
}

TEST(FakeQuantOpsTest, VarsNarrowRangeFourBits) {
  OpTester t("FakeQuantWithMinMaxVars");
  t.Attr("num_bits", int64_t{4})
      .Attr("narrow_range", true)
      .Input(kX)
      .Input(Tensor::Scalar<float>(0.0f))
      .Input(Tensor::Scalar<float>(6.0f));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({0.0f, 0.0f, 0.0f, 0.42857143f, 3.0f, 6.0f},
                                                      TensorShape({6})));
}

TEST(FakeQuantOpsTest, VarsPerChannelUsesTheLastDimension) {
  OpTester t("FakeQuantWithMinMaxVarsPerChannel");
  t.Input(Tensor::FromVector<float>({-7.0f, -0.03f, 0.0f, 0.49f, 3.0f, 6.1f}, TensorShape({3, 2})))
      .Input(Tensor::FromVector<float>({0.0f, -1.0f}, TensorShape({2})))
      .Input(Tensor::FromVector<float>({6.0f, 1.0f}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>(
                                {0.0f, -0.03137255f, 0.0f, 0.48627454f, 3.0117648f, 1.0039216f},
                                TensorShape({3, 2})));
}

TEST(FakeQuantOpsTest, ErrorsAreTensorFlows) {
  {
    OpTester t("FakeQuantWithMinMaxArgs");
    t.Attr("min", 1.0f).Attr("max", 1.0f).Input(kX);
    EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           "min has to be smaller than max, was: 1 >= 1"));
  }
  {
    OpTester t("FakeQuantWithMinMaxArgs");
    t.Attr("num_bits", int64_t{17}).Input(kX);
    EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           "num_bits must be between 2 and 16, inclusive"));
  }
  {
    OpTester t("FakeQuantWithMinMaxVars");
    t.Input(kX)
        .Input(Tensor::FromVector<float>({-1.0f}, TensorShape({1})))
        .Input(Tensor::Scalar<float>(1.0f));
    EXPECT_THAT(t.Run().status(),
                StatusIs(absl::StatusCode::kInvalidArgument, "`min` must be rank 0 but is rank 1"));
  }
  {
    OpTester t("FakeQuantWithMinMaxVarsPerChannel");
    t.Input(kX)
        .Input(Tensor::FromVector<float>({0.0f, 1.0f}, TensorShape({2})))
        .Input(Tensor::FromVector<float>({1.0f, 2.0f}, TensorShape({2})));
    EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           "min has incorrect size, expected 6 was 2"));
  }
}

const Tensor kDy =
    Tensor::FromVector<float>({1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}, TensorShape({6}));

// Expected values printed by TensorFlow 2.21 (tf.raw_ops.FakeQuantWithMinMax*Gradient): the
// default range [-6, 6] is nudged to [-6.0235295, 5.9764705], so -7 and 6.1 fall outside.
TEST(FakeQuantOpsTest, ArgsGradientPassesTheNudgedRange) {
  OpTester t("FakeQuantWithMinMaxArgsGradient");
  t.Input(kDy).Input(kX);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(
      out[0], Tensor::FromVector<float>({0.0f, 2.0f, 3.0f, 4.0f, 5.0f, 0.0f}, TensorShape({6})));
}

TEST(FakeQuantOpsTest, ArgsGradientOfANaNOutsideIsNaN) {
  OpTester t("FakeQuantWithMinMaxArgsGradient");
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  t.Input(Tensor::FromVector<float>({inf, nan, 1.0f}, TensorShape({3})))
      .Input(Tensor::FromVector<float>({100.0f, 100.0f, nan}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  const auto v = out[0].flat<float>();
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_TRUE(std::isnan(v[1]));
  EXPECT_EQ(v[2], 0.0f);
}

TEST(FakeQuantOpsTest, VarsGradientSumsWhatFallsOutside) {
  OpTester t("FakeQuantWithMinMaxVarsGradient");
  t.Input(kDy).Input(kX).Input(Tensor::Scalar<float>(0.0f)).Input(Tensor::Scalar<float>(6.0f));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(
      out[0], Tensor::FromVector<float>({0.0f, 0.0f, 3.0f, 4.0f, 5.0f, 0.0f}, TensorShape({6})));
  ExpectTensorEqual(out[1], Tensor::Scalar<float>(3.0f));
  ExpectTensorEqual(out[2], Tensor::Scalar<float>(6.0f));
}

TEST(FakeQuantOpsTest, VarsGradientOfAZeroRangePassesEverything) {
  OpTester t("FakeQuantWithMinMaxVarsGradient");
  t.Input(kDy).Input(kX).Input(Tensor::Scalar<float>(0.0f)).Input(Tensor::Scalar<float>(0.0f));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], kDy);
  ExpectTensorEqual(out[1], Tensor::Scalar<float>(0.0f));
  ExpectTensorEqual(out[2], Tensor::Scalar<float>(0.0f));
}

TEST(FakeQuantOpsTest, VarsPerChannelGradientSumsPerChannel) {
  OpTester t("FakeQuantWithMinMaxVarsPerChannelGradient");
  t.Input(Tensor::FromVector<float>({1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}, TensorShape({3, 2})))
      .Input(
          Tensor::FromVector<float>({-7.0f, -0.03f, 0.0f, 0.49f, 3.0f, 6.1f}, TensorShape({3, 2})))
      .Input(Tensor::FromVector<float>({0.0f, -1.0f}, TensorShape({2})))
      .Input(Tensor::FromVector<float>({6.0f, 1.0f}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(
      out[0], Tensor::FromVector<float>({0.0f, 2.0f, 3.0f, 4.0f, 5.0f, 0.0f}, TensorShape({3, 2})));
  ExpectTensorEqual(out[1], Tensor::FromVector<float>({1.0f, 0.0f}, TensorShape({2})));
  ExpectTensorEqual(out[2], Tensor::FromVector<float>({0.0f, 6.0f}, TensorShape({2})));
}

TEST(FakeQuantOpsTest, GradientErrorsAreTensorFlows) {
  const Tensor three = Tensor::FromVector<float>({1.0f, 2.0f, 3.0f}, TensorShape({3}));
  {
    OpTester t("FakeQuantWithMinMaxArgsGradient");
    t.Input(kDy).Input(three);
    EXPECT_THAT(t.Run().status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "Inputs to operation FakeQuantWithMinMaxArgsGradient of type "
                         "FakeQuantWithMinMaxArgsGradient must have the "
                         "same size and shape.  Input 0: [6] != input 1: [3]"));
  }
  {
    OpTester t("FakeQuantWithMinMaxArgsGradient");
    t.Attr("min", 2.0f).Attr("max", 1.0f).Input(kDy).Input(kX);
    EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           "min has to be smaller than max, was: 2 >= 1"));
  }
  {
    OpTester t("FakeQuantWithMinMaxVarsGradient");
    t.Input(kDy).Input(three).Input(Tensor::Scalar<float>(0.0f)).Input(Tensor::Scalar<float>(1.0f));
    EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           "gradient and input must be the same size"));
  }
  {
    OpTester t("FakeQuantWithMinMaxVarsGradient");
    t.Input(kDy).Input(kX).Input(Tensor::Scalar<float>(0.0f)).Input(three);
    EXPECT_THAT(t.Run().status(),
                StatusIs(absl::StatusCode::kInvalidArgument, "`max` must be rank 0 but is rank 1"));
  }
  {
    // TensorFlow 2.21 aborts on a scalar input (its kernel reads the last dimension unchecked).
    OpTester t("FakeQuantWithMinMaxVarsPerChannelGradient");
    t.Input(Tensor::Scalar<float>(1.0f))
        .Input(Tensor::Scalar<float>(1.0f))
        .Input(Tensor::FromVector<float>({0.0f}, TensorShape({1})))
        .Input(Tensor::FromVector<float>({1.0f}, TensorShape({1})));
    EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           "inputs must be at least rank 1 but is rank 0"));
  }
  {
    OpTester t("FakeQuantWithMinMaxVarsPerChannelGradient");
    t.Input(kDy).Input(kX).Input(three).Input(
        Tensor::FromVector<float>({1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}, TensorShape({6, 1})));
    EXPECT_THAT(t.Run().status(),
                StatusIs(absl::StatusCode::kInvalidArgument, "`max` must be rank 1 but is rank 2"));
  }
  {
    OpTester t("FakeQuantWithMinMaxVarsPerChannelGradient");
    t.Input(kDy).Input(kX).Input(kDy).Input(three);
    EXPECT_THAT(t.Run().status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                           "max has incorrect size, expected 6 was 3"));
  }
}

}  // namespace
}  // namespace rill
