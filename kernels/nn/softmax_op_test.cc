#include <cmath>
#include <cstdint>
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

TEST(SoftmaxOpTest, ScalarIsAnError) {
  EXPECT_THAT(Run1("Softmax", Tensor::Scalar<float>(1)),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("logits must have >= 1 dimension, got []")));
}

}  // namespace
}  // namespace rill
