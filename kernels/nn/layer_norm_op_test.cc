#include <cmath>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> LayerNorm(const Tensor& x, const Tensor& scale,
                                              const Tensor& offset, float epsilon = 1e-3f,
                                              int threads = 1) {
  OpTester t("_MklLayerNorm");
  t.Attr("T", DT_FLOAT).Attr("epsilon", epsilon).Input(x).Input(scale).Input(offset);
  t.SetIntraOpThreads(threads);
  return t.Run();
}

// One row of fewer than 16 elements as the unfused kernels compute it (the Mean kernel's lanes
// hold nothing for such a row, so its sum is the left-to-right one).
std::vector<float> Reference(const std::vector<float>& x, const std::vector<float>& scale,
                             const std::vector<float>& offset, float epsilon) {
  const float n = static_cast<float>(x.size());
  float sum = 0;
  for (float v : x) sum += v;
  const float mean = sum / n;
  float sq = 0;
  for (float v : x) {
    const float d = v - mean;
    const float d2 = d * d;
    sq += d2;
  }
  const float r = 1.f / std::sqrt(sq / n + epsilon);
  std::vector<float> y(x.size());
  for (size_t c = 0; c < x.size(); ++c) {
    const float inv = r * scale[c];
    const float a = x[c] * inv;
    const float m = -mean * inv;
    const float b = m + offset[c];
    y[c] = a + b;
  }
  return y;
}

TEST(LayerNormOpTest, NormalizesEachRowOverTheLastDimension) {
  const Tensor x = Tensor::FromVector<float>({1, 2, 3, 4, -5, 0.5f, 7, 100}, TensorShape({2, 4}));
  const Tensor scale = Tensor::FromVector<float>({1, 2, -1, 0.5f}, TensorShape({4}));
  const Tensor offset = Tensor::FromVector<float>({0, 1, -2, 3}, TensorShape({4}));
  for (int threads : {1, 2}) {
    RILL_ASSERT_OK_AND_ASSIGN(auto out, LayerNorm(x, scale, offset, 1e-3f, threads));
    ASSERT_EQ(out[0].shape().DebugString(), "[2,4]");
    for (int row = 0; row < 2; ++row) {
      std::vector<float> xs(4);
      for (int c = 0; c < 4; ++c) xs[c] = x.flat<float>()[row * 4 + c];
      const std::vector<float> want = Reference(xs, {1, 2, -1, 0.5f}, {0, 1, -2, 3}, 1e-3f);
      for (int c = 0; c < 4; ++c) EXPECT_EQ(out[0].flat<float>()[row * 4 + c], want[c]);
    }
  }
  // Row 0: mean 2.5, variance 1.25; y[0] = -1.5 / sqrt(1.251).
  RILL_ASSERT_OK_AND_ASSIGN(auto out, LayerNorm(x, scale, offset));
  EXPECT_NEAR(out[0].flat<float>()[0], -1.5 / std::sqrt(1.251), 1e-6);
}

TEST(LayerNormOpTest, NonFiniteRowsGiveWhatTheUnfusedGraphGives) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // An inf makes its row's mean inf and its variance NaN; a NaN row is NaN; values whose squares
  // overflow give an inf variance, so inv is 0 and the row is its offset.
  const Tensor x =
      Tensor::FromVector<float>({1, inf, 3, nan, 0, 0, 3e38f, -3e38f, 1e19f}, TensorShape({3, 3}));
  const Tensor scale = Tensor::FromVector<float>({1, 1, 1}, TensorShape({3}));
  const Tensor offset = Tensor::FromVector<float>({5, 6, 7}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, LayerNorm(x, scale, offset));
  auto y = out[0].flat<float>();
  for (int i = 0; i < 6; ++i) EXPECT_TRUE(std::isnan(y[i])) << i;
  EXPECT_EQ(y[6], 5);
  EXPECT_EQ(y[7], 6);
  EXPECT_EQ(y[8], 7);
}

TEST(LayerNormOpTest, ParametersBroadcastAsTheUnfusedMulAndAdd) {
  // [1, 1, C] parameters raise the output's rank; a last dimension of 1 meets C channels.
  const Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({4}));
  const Tensor scale3 = Tensor::FromVector<float>({1, 2, -1, 0.5f}, TensorShape({1, 1, 4}));
  const Tensor zero = Tensor::Scalar<float>(0);
  RILL_ASSERT_OK_AND_ASSIGN(auto out, LayerNorm(x, scale3, zero));
  EXPECT_EQ(out[0].shape().DebugString(), "[1,1,4]");
  const std::vector<float> want = Reference({1, 2, 3, 4}, {1, 2, -1, 0.5f}, {0, 0, 0, 0}, 1e-3f);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(out[0].flat<float>()[c], want[c]);

  const Tensor column = Tensor::FromVector<float>({2, -3}, TensorShape({2, 1}));
  const Tensor scale = Tensor::FromVector<float>({1, 10, 100}, TensorShape({3}));
  const Tensor offset = Tensor::FromVector<float>({0.5f, 0, -1}, TensorShape({3}));
  RILL_ASSERT_OK_AND_ASSIGN(out, LayerNorm(column, scale, offset, 0.25f));
  ASSERT_EQ(out[0].shape().DebugString(), "[2,3]");
  // Each row's mean is its element, its variance 0: y = x * inv + (-x * inv + offset).
  const float r = 1.f / std::sqrt(0.25f);
  for (int row = 0; row < 2; ++row) {
    const float v = column.flat<float>()[row];
    for (int c = 0; c < 3; ++c) {
      const float inv = r * scale.flat<float>()[c];
      const float a = v * inv;
      const float m = -v * inv;
      const float b = m + offset.flat<float>()[c];
      EXPECT_EQ(out[0].flat<float>()[row * 3 + c], a + b);
    }
  }
}

TEST(LayerNormOpTest, BadShapesAreInvalidArguments) {
  const Tensor s = Tensor::FromVector<float>({1, 1}, TensorShape({2}));
  EXPECT_THAT(LayerNorm(Tensor::Scalar<float>(1), s, s).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Invalid reduction dimension (-1 for input with 0 dimension(s)")));
  const Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({2, 2}));
  EXPECT_THAT(
      LayerNorm(x, Tensor::FromVector<float>({1, 1, 1, 1}, TensorShape({2, 2})), s).status(),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("scale must be a scalar or have only its last dimension above 1, "
                         "got [2,2]")));
  EXPECT_THAT(LayerNorm(x, s, Tensor::FromVector<float>({1, 1, 1}, TensorShape({3}))).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Incompatible shapes: [2,2] vs. [3]")));
}

}  // namespace
}  // namespace rill
