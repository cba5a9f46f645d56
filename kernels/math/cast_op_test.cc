#include <limits>

#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Cast(const Tensor& x, DataType dst) {
  OpTester t("Cast");
  t.Attr("SrcT", x.dtype()).Attr("DstT", dst).Input(x);
  return t.Run();
}

TEST(CastOpTest, FloatToIntTruncatesAndOutOfRangeIsTheMinimum) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Cast(Tensor::FromVector<float>({-1.7f, 2.9f, 3e9f, nan}, TensorShape({4})), DT_INT32));
  ExpectTensorEqual(out[0], Tensor::FromVector<int32_t>({-1, 2, std::numeric_limits<int32_t>::min(),
                                                         std::numeric_limits<int32_t>::min()},
                                                        TensorShape({4})));
}

TEST(CastOpTest, NarrowIntegersWrapAndBoolIsNonZero) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, Cast(Tensor::FromVector<int32_t>({300, -1, 0}, TensorShape({3})), DT_UINT8));
  ExpectTensorEqual(out[0], Tensor::FromVector<uint8_t>({44, 255, 0}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Cast(Tensor::FromVector<float>({0.f, -0.5f, 2.f}, TensorShape({3})), DT_BOOL));
  ExpectTensorEqual(out[0], Tensor::FromVector<bool>({false, true, true}, TensorShape({3})));
}

// 8- and 16-bit integers take a float through int32 (outside int32: the minimum, whose low bits
// are 0); TensorFlow 2.21's results.
TEST(CastOpTest, FloatToNarrowIntegersGoThroughInt32) {
  const Tensor x =
      Tensor::FromVector<double>({3000000005.0, 70000.0, -70000.0, 1e10}, TensorShape({4}));
  RILL_ASSERT_OK_AND_ASSIGN(auto i16, Cast(x, DT_INT16));
  ExpectTensorEqual(i16[0], Tensor::FromVector<int16_t>({0, 4464, -4464, 0}, TensorShape({4})));
  RILL_ASSERT_OK_AND_ASSIGN(auto u8, Cast(x, DT_UINT8));
  ExpectTensorEqual(u8[0], Tensor::FromVector<uint8_t>({0, 112, 144, 0}, TensorShape({4})));
}

TEST(CastOpTest, HalfRoundsToNearest) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, Cast(Tensor::FromVector<double>({1.0 / 3.0}, TensorShape({1})), DT_HALF));
  EXPECT_EQ(static_cast<float>(out[0].flat<half>()[0]), 0.333251953125f);
}

}  // namespace
}  // namespace rill
