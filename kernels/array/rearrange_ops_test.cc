// What the recorded cases cannot show: DepthToSpace's NCHW refusal (TensorFlow has no CPU kernel
// for it), a block_size below the op def's minimum, and shifts at the int64 limits.
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

TEST(DepthToSpaceTest, OnlyNhwc) {
  OpTester t("DepthToSpace");
  t.Attr("T", DT_FLOAT)
      .Attr("block_size", int64_t{2})
      .Attr("data_format", std::string("NCHW"))
      .Input(Tensor(DT_FLOAT, TensorShape({1, 4, 2, 2})));
  EXPECT_THAT(t.Run(), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("NHWC")));
}

// TensorFlow's kernel takes an int64 shift as an int32 (its low 32 bits): the minimum and 2^40
// roll by 0, the maximum by -1 (TensorFlow 2.21's results).
TEST(RollTest, ShiftsAtTheInt64LimitsAreTakenAsInt32) {
  const Tensor x = Tensor::FromVector<int32_t>({0, 1, 2, 3, 4}, TensorShape({5}));
  for (const auto& [shift, s] : std::vector<std::pair<int64_t, int>>{
           {std::numeric_limits<int64_t>::min(), 0},
           {std::numeric_limits<int64_t>::max(), 3},  // -1 twice: 3 mod 5
           {int64_t{1} << 40, 0},
           {(int64_t{1} << 32) + 1, 2}}) {
    OpTester t("Roll");
    t.Attr("T", DT_INT32)
        .Attr("Tshift", DT_INT64)
        .Attr("Taxis", DT_INT32)
        .Input(x)
        .Input(Tensor::FromVector<int64_t>({shift, shift}, TensorShape({2})))
        .Input(Tensor::FromVector<int32_t>({0, -1}, TensorShape({2})));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    std::vector<int32_t> want(5);
    for (int i = 0; i < 5; ++i) want[(i + s) % 5] = i;
    ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>(want, TensorShape({5})));
  }
}

TEST(MatrixDiagV3Test, HugeDiagonalIndexIsAnErrorNotACrash) {
  OpTester t("MatrixDiagV3");
  t.Attr("T", DT_FLOAT)
      .Input(Tensor::FromVector<float>({1, 2, 3}, TensorShape({3})))
      .Input(Tensor::Scalar<int32_t>(std::numeric_limits<int32_t>::min()))
      .Input(Tensor::Scalar<int32_t>(-1))
      .Input(Tensor::Scalar<int32_t>(-1))
      .Input(Tensor::Scalar<float>(0));
  EXPECT_FALSE(t.Run().ok());
}

}  // namespace
}  // namespace rill
