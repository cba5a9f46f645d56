#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/half.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor V(std::vector<float> v) {
  return Tensor::FromVector<float>(v, TensorShape({static_cast<int64_t>(v.size())}));
}

// A float or half tensor's values as floats.
std::vector<float> Floats(const Tensor& t) {
  std::vector<float> out(t.NumElements());
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    out[i] = t.dtype() == DT_HALF ? static_cast<float>(t.flat<half>()[i]) : t.flat<float>()[i];
  }
  return out;
}

absl::StatusOr<std::vector<Tensor>> BatchNorm(const std::string& op, const Tensor& x,
                                              const Tensor& scale, const Tensor& offset,
                                              const Tensor& mean, const Tensor& var,
                                              bool is_training, float epsilon = 0.0f,
                                              const std::string& format = "NHWC",
                                              float avg_factor = 1.0f) {
  OpTester t(op);
  t.Attr("T", x.dtype())
      .Attr("epsilon", epsilon)
      .Attr("is_training", is_training)
      .Attr("data_format", format)
      .Attr("exponential_avg_factor", avg_factor);
  if (op != "FusedBatchNorm") t.Attr("U", DT_FLOAT);
  t.Input(x).Input(scale).Input(offset).Input(mean).Input(var);
  return t.Run();
}

TEST(FusedBatchNormOpTest, InferenceUsesTheGivenMoments) {
  // Channel 0: mean 1, variance 4 (std 2), scale 2, offset 1; channel 1: mean 0, variance 1.
  const Tensor x = F({3, 2, -1, -3}, TensorShape({1, 1, 2, 2}));
  for (const char* op : {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"}) {
    SCOPED_TRACE(op);
    RILL_ASSERT_OK_AND_ASSIGN(auto out,
                              BatchNorm(op, x, V({2, 1}), V({1, 0}), V({1, 0}), V({4, 1}), false));
    ExpectTensorEqual(out[0], F({3, 2, -1, -3}, TensorShape({1, 1, 2, 2})));
    ExpectTensorEqual(out[1], V({1, 0}));
    ExpectTensorEqual(out[2], V({4, 1}));
    if (std::string(op) == "FusedBatchNormV3") {
      ASSERT_EQ(out.size(), 6u);
      ExpectTensorEqual(out[5], Tensor::FromVector<float>({0}, TensorShape({})));
    }
  }
}

TEST(FusedBatchNormOpTest, ChannelsFirst) {
  const Tensor x = F({3, -1, 2, -3}, TensorShape({1, 2, 1, 2}));  // NCHW
  RILL_ASSERT_OK_AND_ASSIGN(auto out, BatchNorm("FusedBatchNormV3", x, V({2, 1}), V({1, 0}),
                                                V({1, 0}), V({4, 1}), false, 0.0f, "NCHW"));
  ExpectTensorEqual(out[0], F({3, -1, 2, -3}, TensorShape({1, 2, 1, 2})));
}

TEST(FusedBatchNormOpTest, TrainingComputesBatchMoments) {
  // One channel: values 1, 3, 5, 7: mean 4, biased variance 5, unbiased 20/3.
  const Tensor x = F({1, 3, 5, 7}, TensorShape({1, 2, 2, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, BatchNorm("FusedBatchNormV3", x, V({1}), V({0}), V({}), V({}), true, 0.0f));
  const float s = 1.0f / std::sqrt(5.0f);
  ExpectTensorEqual(out[0], F({-3 * s, -1 * s, 1 * s, 3 * s}, TensorShape({1, 2, 2, 1})));
  ExpectTensorEqual(out[1], V({4}));
  ExpectTensorEqual(out[2], V({5.0f * (4.0f / 3.0f)}));
  ExpectTensorEqual(out[3], V({4}));
  ExpectTensorEqual(out[4], V({5}));
  // exponential_avg_factor 0.5 blends with the running moments.
  RILL_ASSERT_OK_AND_ASSIGN(out, BatchNorm("FusedBatchNormV3", x, V({1}), V({0}), V({0}), V({1}),
                                           true, 0.0f, "NHWC", 0.5f));
  ExpectTensorEqual(out[1], V({2}));
  ExpectTensorEqual(out[2], V({0.5f + (0.5f * (4.0f / 3.0f)) * 5.0f}));
}

TEST(FusedBatchNormOpTest, HalfInput) {
  OpTester t("FusedBatchNormV3");
  t.Attr("T", DT_HALF).Attr("U", DT_FLOAT).Attr("epsilon", 0.0f).Attr("is_training", false);
  t.Input(MakeTensor(DT_HALF, TensorShape({1, 1, 1, 2}), {3, 2}))
      .Input(V({2, 1}))
      .Input(V({1, 0}))
      .Input(V({1, 0}))
      .Input(V({4, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], MakeTensor(DT_HALF, TensorShape({1, 1, 1, 2}), {3, 2}));
}

// Channels last runs its own loop (the channel innermost); every element and moment must be what
// the channels-first loop gives for the same values, bit for bit: 37 channels (vectors and a
// tail), 2 x 3 x 5 pixels, values with no exact products, inf and NaN, inference and training,
// float and half.
TEST(FusedBatchNormOpTest, ChannelsLastMatchesChannelsFirstExactly) {
  const int64_t n = 2, h = 3, w = 5, c = 37;
  std::vector<float> nhwc(n * h * w * c), nchw(n * h * w * c);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t p = 0; p < h * w; ++p) {
      for (int64_t k = 0; k < c; ++k) {
        const int64_t at = (i * h * w + p) * c + k;
        float v = std::sin(0.37f * static_cast<float>(at)) * (1.0f + 0.1f * static_cast<float>(k));
        if (at == 40) v = INFINITY;
        if (at == 77) v = NAN;
        nhwc[at] = v;
        nchw[(i * c + k) * h * w + p] = v;
      }
    }
  }
  std::vector<float> scale(c), offset(c), mean(c), var(c);
  for (int64_t k = 0; k < c; ++k) {
    scale[k] = 0.7f + 0.013f * static_cast<float>(k);
    offset[k] = -0.3f + 0.029f * static_cast<float>(k);
    mean[k] = 0.011f * static_cast<float>(k) - 0.2f;
    var[k] = 0.5f + 0.031f * static_cast<float>(k);
  }
  for (const DataType dtype : {DT_FLOAT, DT_HALF}) {
    for (const bool training : {false, true}) {
      SCOPED_TRACE(absl::StrCat(DataTypeString(dtype), training ? " training" : " inference"));
      auto run = [&](const std::vector<float>& x, TensorShape shape, const char* format) {
        OpTester t("FusedBatchNormV3");
        t.SetIntraOpThreads(2);  // the rows split over a team as in a 2-thread session
        t.Attr("T", dtype)
            .Attr("U", DT_FLOAT)
            .Attr("epsilon", 0.001f)
            .Attr("is_training", training)
            .Attr("data_format", format);
        t.Input(MakeTensor(dtype, shape, std::vector<double>(x.begin(), x.end())))
            .Input(V(scale))
            .Input(V(offset))
            .Input(V(mean))
            .Input(V(var));
        return t.Run();
      };
      RILL_ASSERT_OK_AND_ASSIGN(auto last, run(nhwc, TensorShape({n, h, w, c}), "NHWC"));
      RILL_ASSERT_OK_AND_ASSIGN(auto first, run(nchw, TensorShape({n, c, h, w}), "NCHW"));
      const std::vector<float> y_last = Floats(last[0]), y_first = Floats(first[0]);
      int64_t differ = 0;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t p = 0; p < h * w; ++p) {
          for (int64_t k = 0; k < c; ++k) {
            const float a = y_last[(i * h * w + p) * c + k];
            const float b = y_first[(i * c + k) * h * w + p];
            if (!(a == b || (std::isnan(a) && std::isnan(b)))) ++differ;
          }
        }
      }
      EXPECT_EQ(differ, 0);
      for (int i = 1; i <= 4; ++i) {
        for (int64_t k = 0; k < c; ++k) {
          const float a = last[i].flat<float>()[k], b = first[i].flat<float>()[k];
          EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << "output " << i << " " << k;
        }
      }
    }
  }
}

// As TensorFlow 2.21's CPU kernels (TF_ENABLE_ONEDNN_OPTS=0): batch_mean and batch_variance NaN,
// reserve_space_1/2 zero, in training and inference, and V3's reserve_space_3 a scalar 0.
TEST(FusedBatchNormOpTest, EmptyInputGivesNanMomentsAndZeroReserveSpaces) {
  for (bool training : {false, true}) {
    for (const char* op : {"FusedBatchNorm", "FusedBatchNormV3"}) {
      SCOPED_TRACE(absl::StrCat(op, training ? " training" : " inference"));
      RILL_ASSERT_OK_AND_ASSIGN(auto out, BatchNorm(op, F({}, TensorShape({0, 1, 1, 2})), V({1, 2}),
                                                    V({0.5, 1}), V({1, 2}), V({4, 5}), training));
      ASSERT_EQ(out.size(), std::string(op) == "FusedBatchNormV3" ? 6u : 5u);
      EXPECT_EQ(out[0].shape(), TensorShape({0, 1, 1, 2}));
      for (int i = 1; i <= 4; ++i) {
        ASSERT_EQ(out[i].shape(), TensorShape({2}));
        for (int c = 0; c < 2; ++c) {
          const float got = out[i].flat<float>()[c];
          if (i <= 2) {
            EXPECT_TRUE(std::isnan(got)) << "output " << i << " " << c;
          } else {
            EXPECT_EQ(got, 0.0f) << "output " << i << " " << c;
          }
        }
      }
      if (out.size() == 6) {
        EXPECT_EQ(out[5].shape(), TensorShape({}));
        EXPECT_EQ(out[5].flat<float>()[0], 0.0f);
      }
    }
  }
}

TEST(FusedBatchNormOpTest, ErrorsAreTensorFlows) {
  const Tensor x = F({1, 2, 3, 4}, TensorShape({1, 1, 2, 2}));
  EXPECT_THAT(
      BatchNorm("FusedBatchNorm", F({1, 2}, TensorShape({1, 2})), V({1}), V({1}), V({1}), V({1}),
                false),
      StatusIs(absl::StatusCode::kInvalidArgument, "input must be 4 or 5-dimensional[1,2]"));
  EXPECT_THAT(BatchNorm("FusedBatchNorm", x, F({1, 2}, TensorShape({1, 2})), V({1, 2}), V({1, 2}),
                        V({1, 2}), false),
              StatusIs(absl::StatusCode::kInvalidArgument, "scale must be 1-dimensional[1,2]"));
  EXPECT_THAT(
      BatchNorm("FusedBatchNorm", x, V({1, 2, 3}), V({1, 2}), V({1, 2}), V({1, 2}), false),
      StatusIs(absl::StatusCode::kInvalidArgument,
               "scale must have the same number of elements as the channels of x, got 3 and 2"));
  EXPECT_THAT(BatchNorm("FusedBatchNorm", x, V({1, 2}), V({1, 2}), V({1}), V({1, 2}), false),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "When is_training=false, mean must have the same number of elements as "
                       "the channels of x, got 1 and 2"));
  // Training ignores the running moments (with the default exponential_avg_factor).
  RILL_EXPECT_OK(BatchNorm("FusedBatchNorm", x, V({1, 2}), V({1, 2}), V({}), V({}), true).status());
}

TEST(FusedBatchNormGradTest, InferenceScalesByTheInverseDeviation) {
  // One channel, mean 1, variance 3 (+ epsilon 1 = 4): x_backprop = dy * scale / 2.
  OpTester t("FusedBatchNormGradV3");
  t.Attr("T", DT_FLOAT).Attr("U", DT_FLOAT).Attr("epsilon", 1.0f).Attr("is_training", false);
  t.Input(Tensor::FromVector<float>({2, 4}, TensorShape({1, 1, 2, 1})));  // dy
  t.Input(Tensor::FromVector<float>({1, 3}, TensorShape({1, 1, 2, 1})));  // x
  t.Input(Tensor::FromVector<float>({3}, TensorShape({1})));              // scale
  t.Input(Tensor::FromVector<float>({1}, TensorShape({1})));              // mean
  t.Input(Tensor::FromVector<float>({3}, TensorShape({1})));              // variance
  t.Input(Tensor::FromVector<float>({}, TensorShape({0})));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
  ExpectTensorEqual(out[0], Tensor::FromVector<float>({3, 6}, TensorShape({1, 1, 2, 1})));
  ExpectTensorEqual(out[1], Tensor::FromVector<float>({4}, TensorShape({1})));  // (0*2 + 2*4)/2
  ExpectTensorEqual(out[2], Tensor::FromVector<float>({6}, TensorShape({1})));
}

// An empty batch: zero scale_backprop and offset_backprop even when reserve_space_1/2 are NaN (an
// empty forward's), empty reserve_space_4/5, as TensorFlow 2.21's CPU kernel.
TEST(FusedBatchNormGradTest, EmptyInputGivesZeroGradients) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (bool training : {false, true}) {
    SCOPED_TRACE(training ? "training" : "inference");
    OpTester t("FusedBatchNormGradV3");
    t.Attr("T", DT_FLOAT).Attr("U", DT_FLOAT).Attr("epsilon", 0.001f).Attr("is_training", training);
    t.Input(F({}, TensorShape({0, 2, 2, 3})));  // dy
    t.Input(F({}, TensorShape({0, 2, 2, 3})));  // x
    t.Input(V({1, 2, 3}));
    t.Input(V({nan, nan, nan}));
    t.Input(V({nan, nan, nan}));
    t.Input(Tensor::FromVector<float>({}, TensorShape({0})));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    ASSERT_EQ(out.size(), 5u);
    EXPECT_EQ(out[0].shape(), TensorShape({0, 2, 2, 3}));
    ExpectTensorEqual(out[1], V({0, 0, 0}));
    ExpectTensorEqual(out[2], V({0, 0, 0}));
    EXPECT_EQ(out[3].shape(), TensorShape({0}));
    EXPECT_EQ(out[4].shape(), TensorShape({0}));
  }
}

// The gradient's channels-last loop against its channels-first one on the transposed values, bit
// for bit: 37 channels, 2 x 3 x 5 pixels, inference and training, float and half.
TEST(FusedBatchNormGradTest, ChannelsLastMatchesChannelsFirstExactly) {
  const int64_t n = 2, h = 3, w = 5, c = 37;
  std::vector<float> x_last(n * h * w * c), x_first(x_last.size()), dy_last(x_last.size()),
      dy_first(x_last.size());
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t p = 0; p < h * w; ++p) {
      for (int64_t k = 0; k < c; ++k) {
        const int64_t at = (i * h * w + p) * c + k, t = (i * c + k) * h * w + p;
        x_last[at] = x_first[t] = std::sin(0.37f * static_cast<float>(at)) * 1.5f;
        dy_last[at] = dy_first[t] = std::cos(0.23f * static_cast<float>(at)) - 0.1f;
      }
    }
  }
  std::vector<float> scale(c), mean(c), var(c);
  for (int64_t k = 0; k < c; ++k) {
    scale[k] = 0.7f + 0.013f * static_cast<float>(k);
    mean[k] = 0.011f * static_cast<float>(k) - 0.2f;
    var[k] = 0.5f + 0.031f * static_cast<float>(k);
  }
  for (const DataType dtype : {DT_FLOAT, DT_HALF}) {
    for (const bool training : {false, true}) {
      SCOPED_TRACE(absl::StrCat(DataTypeString(dtype), training ? " training" : " inference"));
      auto run = [&](const std::vector<float>& dy, const std::vector<float>& x, TensorShape shape,
                     const char* format) {
        OpTester t("FusedBatchNormGradV3");
        t.Attr("T", dtype)
            .Attr("U", DT_FLOAT)
            .Attr("epsilon", 0.001f)
            .Attr("is_training", training)
            .Attr("data_format", format);
        t.Input(MakeTensor(dtype, shape, std::vector<double>(dy.begin(), dy.end())))
            .Input(MakeTensor(dtype, shape, std::vector<double>(x.begin(), x.end())))
            .Input(V(scale))
            .Input(V(mean))
            .Input(V(var))
            .Input(V({}));
        return t.Run();
      };
      RILL_ASSERT_OK_AND_ASSIGN(auto last, run(dy_last, x_last, TensorShape({n, h, w, c}), "NHWC"));
      RILL_ASSERT_OK_AND_ASSIGN(auto first,
                                run(dy_first, x_first, TensorShape({n, c, h, w}), "NCHW"));
      const std::vector<float> dx_last = Floats(last[0]), dx_first = Floats(first[0]);
      int64_t differ = 0;
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t p = 0; p < h * w; ++p) {
          for (int64_t k = 0; k < c; ++k) {
            differ += dx_last[(i * h * w + p) * c + k] != dx_first[(i * c + k) * h * w + p];
          }
        }
      }
      EXPECT_EQ(differ, 0);
      ExpectTensorEqual(last[1], first[1]);
      ExpectTensorEqual(last[2], first[2]);
    }
  }
}

}  // namespace
}  // namespace rill
