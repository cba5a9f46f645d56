#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> Run1(const std::string& op, const Tensor& x) {
  OpTester t(op);
  t.Attr("T", x.dtype()).Input(x);
  return t.Run();
}

TEST(SoftmaxOpTest, HalfRoundsEachStepAsTensorFlow) {
  // TensorFlow 2.21 (TF_ENABLE_ONEDNN_OPTS=0) tf.nn.softmax of these float16 logits; computing
  // in float and rounding once gives 9034, 10689 and 12242 for elements 1, 7 and 8.
  const std::vector<float> logits = {0.5f, -1.25f, 2.0f, 0.125f, -0.75f, 1.5f, 0.3f, -0.1f, 0.9f};
  std::vector<half> h;
  for (float f : logits) h.push_back(half(f));
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            Run1("Softmax", Tensor::FromVector<half>(h, TensorShape({1, 9}))));
  const std::vector<uint16_t> want = {11582, 9035, 13792, 11061, 9730, 13088, 11339, 10690, 12243};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(out[0].flat<half>()[i].bits, want[i]) << i;
}

TEST(SoftmaxOpTest, HalfLogSoftmaxRoundsEachStepAsTensorFlow) {
  // TensorFlow 2.21's tf.nn.log_softmax of these float16 logits; computing in float and
  // rounding once gives -0.02525329 and -10.984375 for elements 0 and 3.
  const std::vector<float> logits = {5.3671875f, 1.3095703125f, 0.28955078125f, -5.58984375f,
                                     -0.83203125f};
  std::vector<half> h;
  for (float f : logits) h.push_back(half(f));
  RILL_ASSERT_OK_AND_ASSIGN(auto out,
                            Run1("LogSoftmax", Tensor::FromVector<half>(h, TensorShape({1, 5}))));
  const std::vector<float> want = {-0.0250701904296875f, -4.08203125f, -5.1015625f, -10.9765625f,
                                   -6.22265625f};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(static_cast<float>(out[0].flat<half>()[i]), want[i]) << i;
}

TEST(SoftmaxOpTest, RowsSumToOneAndLargeLogitsDoNotOverflow) {
  const Tensor x = Tensor::FromVector<double>({0, std::log(3.0), 1000, 1000}, TensorShape({2, 2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Run1("Softmax", x));
  auto v = out[0].flat<double>();
  EXPECT_DOUBLE_EQ(v[0], 0.25);
  EXPECT_DOUBLE_EQ(v[1], 0.75);
  EXPECT_DOUBLE_EQ(v[2], 0.5);
  EXPECT_DOUBLE_EQ(v[3], 0.5);
  RILL_ASSERT_OK_AND_ASSIGN(out, Run1("LogSoftmax", x));
  v = out[0].flat<double>();
  EXPECT_DOUBLE_EQ(v[0], std::log(0.25));
  EXPECT_DOUBLE_EQ(v[3], std::log(0.5));
}

// Float rows shorter than 64 run a block of rows at a time (softmax_op.cc's SoftmaxShortRows):
// every length around the vector and block edges, with many rows, against a double computation,
// and NaN, +inf and -inf staying in their own rows.
TEST(SoftmaxOpTest, ShortFloatRowsInBlocks) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t n : {1, 2, 3, 7, 15, 16, 17, 21, 33, 47, 63, 64, 65}) {
    const int64_t rows = 2100 / n + 3;  // more than one block of 1024 elements
    std::vector<float> x(rows * n);
    for (int64_t i = 0; i < rows * n; ++i) x[i] = static_cast<float>((i * 37 % 101) - 50) / 7.f;
    // Row 1: a NaN; row 2: +inf; row 3: -inf masks; row 4: all -inf (NaN, as inf - inf).
    x[n + n / 2] = std::nanf("");
    x[2 * n] = inf;
    for (int64_t j = 0; j < n; j += 2) x[3 * n + j] = -inf;
    for (int64_t j = 0; j < n; ++j) x[4 * n + j] = -inf;
    const Tensor in = Tensor::FromVector<float>(x, TensorShape({rows, n}));
    for (bool log : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "n " << n << (log ? " LogSoftmax" : " Softmax"));
      RILL_ASSERT_OK_AND_ASSIGN(auto out, Run1(log ? "LogSoftmax" : "Softmax", in));
      auto z = out[0].flat<float>();
      for (int64_t r = 0; r < rows; ++r) {
        const float* xr = &x[r * n];
        const bool nan_row = r == 1 || r == 2 || r == 4 || (r == 3 && n == 1);
        double max = -inf;
        for (int64_t j = 0; j < n; ++j) max = std::max<double>(max, xr[j]);
        double sum = 0;
        for (int64_t j = 0; j < n; ++j) sum += std::exp(double{xr[j]} - max);
        for (int64_t j = 0; j < n; ++j) {
          const float got = z[r * n + j];
          if (nan_row) {
            ASSERT_TRUE(std::isnan(got)) << r << "," << j << " = " << got;
            continue;
          }
          const double want =
              log ? double{xr[j]} - max - std::log(sum) : std::exp(double{xr[j]} - max) / sum;
          if (std::isinf(want)) {
            ASSERT_EQ(got, want) << r << "," << j;
          } else {
            ASSERT_NEAR(got, want, 1e-6 * (1 + std::fabs(want))) << r << "," << j;
          }
        }
      }
    }
  }
}

TEST(SoftmaxOpTest, ScalarIsAnError) {
  EXPECT_THAT(Run1("Softmax", Tensor::Scalar<float>(1)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("logits must have >= 1 dimension, got []")));
}

}  // namespace
}  // namespace rill
