#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

Tensor F(std::vector<float> v, TensorShape s) { return Tensor::FromVector<float>(v, s); }
Tensor I32(std::vector<int32_t> v, TensorShape s) { return Tensor::FromVector<int32_t>(v, s); }
Tensor I64(std::vector<int64_t> v, TensorShape s) { return Tensor::FromVector<int64_t>(v, s); }

absl::StatusOr<std::vector<Tensor>> Check(const Tensor& x) {
  OpTester t("CheckNumerics");
  t.Attr("T", x.dtype()).Attr("message", "check x").Input(x);
  return t.Run();
}

TEST(CheckNumericsOpTest, FiniteInputPassesThrough) {
  const Tensor x = F({1, -2}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Check(x));
  EXPECT_TRUE(out[0].SharesBufferWith(x));
}

TEST(CheckNumericsOpTest, BFloat16IsChecked) {
  const auto bf = [](std::vector<float> v) {
    std::vector<bfloat16> b;
    for (float f : v) b.push_back(bfloat16(f));
    return Tensor::FromVector<bfloat16>(b, TensorShape({static_cast<int64_t>(v.size())}));
  };
  const Tensor x = bf({1.5f, -3e38f});
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Check(x));
  EXPECT_TRUE(out[0].SharesBufferWith(x));
  EXPECT_THAT(Check(bf({1, -INFINITY})), StatusIs(absl::StatusCode::kInvalidArgument,
                                                  HasSubstr("check x : Tensor had Inf values")));
}

TEST(CheckNumericsOpTest, NamesWhatItFound) {
  EXPECT_THAT(
      Check(F({1, NAN}, TensorShape({2}))),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("check x : Tensor had NaN values")));
  EXPECT_THAT(Check(F({INFINITY, NAN}, TensorShape({2}))),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("check x : Tensor had Inf and NaN values")));
}

}  // namespace
}  // namespace rill
