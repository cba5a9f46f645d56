#include <cmath>

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
