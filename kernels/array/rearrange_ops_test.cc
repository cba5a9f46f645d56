// What the recorded cases cannot show: DepthToSpace's NCHW refusal (TensorFlow has no CPU kernel
// for it), a block_size below the op def's minimum, and shifts at the int64 limits.
#include <cstdint>
#include <limits>
#include <string>
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

TEST(RollTest, ShiftsAtTheInt64Limits) {
  const Tensor x = Tensor::FromVector<int32_t>({0, 1, 2, 3, 4}, TensorShape({5}));
  for (int64_t shift : {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    OpTester t("Roll");
    t.Attr("T", DT_INT32)
        .Attr("Tshift", DT_INT64)
        .Attr("Taxis", DT_INT32)
        .Input(x)
        .Input(Tensor::FromVector<int64_t>({shift, shift}, TensorShape({2})))
        .Input(Tensor::FromVector<int32_t>({0, -1}, TensorShape({2})));
    RILL_ASSERT_OK_AND_ASSIGN(auto out, t.Run());
    // 2 * shift mod 5: min -> 2 * 2 = 4 (min = -9223372036854775808 = 2 mod 5), max -> 2 * 2.
    const int64_t s = ((shift % 5 + 5) % 5) * 2 % 5;
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
