#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "core/half.h"
#include "core/status_matchers.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"
#include "kernels/math_lib/simd_dispatch.h"

namespace rill {
namespace {

absl::StatusOr<std::vector<Tensor>> Cast(const Tensor& x, DataType dst, bool truncate = false) {
  OpTester t("Cast");
  t.Attr("SrcT", x.dtype()).Attr("DstT", dst).Attr("Truncate", truncate).Input(x);
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

// half <-> float converts eight elements at a time with F16C, the rest and NaN lanes one by one:
// every half bit pattern widens exactly, and floats round to nearest even as core/half.h's
// conversion does (ties, the subnormal range, float subnormals, overflow past 65519.99 to inf,
// NaNs with payloads to half's quiet NaN of their sign), with F16C and without (baseline).
TEST(CastOpTest, HalfAndFloatConvertAsTheScalarConversions) {
  std::vector<half> hv(65536 + 5);
  for (size_t i = 0; i < hv.size(); ++i) hv[i] = half::FromBits(static_cast<uint16_t>(i & 0xffff));
  std::vector<float> fv;
  const uint32_t bits[] = {0x3f801000u, 0x3f803000u, 0x3f801001u, 0x33000000u, 0x33000001u,
                           0x337fffffu, 0x38800000u, 0x387fe000u, 0x00000001u, 0x807fffffu,
                           0x477fefffu, 0x477ff000u, 0x7f800000u, 0xff800000u, 0x7fc00001u,
                           0xffbfffffu, 0x80000000u, 0x7f7fffffu, 0x35800000u, 0x35a00000u};
  for (int rep = 0; rep < 3; ++rep) {
    for (uint32_t b : bits) {
      float f;
      std::memcpy(&f, &b, 4);
      fv.push_back(f);
    }
  }
  for (int i = 0; i < 1000; ++i) fv.push_back(static_cast<float>(i) * 0.0123f - 6.1f);
  for (SimdLevel level : {SimdLevel::kBaseline, SimdLevel::kAvx512}) {
    SCOPED_TRACE(SimdLevelName(level));
    ScopedSimdLevelForTesting cap(level);
    RILL_ASSERT_OK_AND_ASSIGN(
        auto wide,
        Cast(Tensor::FromVector<half>(hv, TensorShape({static_cast<int64_t>(hv.size())})),
             DT_FLOAT));
    for (size_t i = 0; i < hv.size(); ++i) {
      const float want = static_cast<float>(hv[i]);
      const float got = wide[0].flat<float>()[i];
      ASSERT_EQ(std::memcmp(&got, &want, 4), 0) << "half bits " << hv[i].bits;
    }
    RILL_ASSERT_OK_AND_ASSIGN(
        auto narrow,
        Cast(Tensor::FromVector<float>(fv, TensorShape({static_cast<int64_t>(fv.size())})),
             DT_HALF));
    for (size_t i = 0; i < fv.size(); ++i) {
      ASSERT_EQ(narrow[0].flat<half>()[i].bits, half(fv[i]).bits) << "float " << fv[i];
    }
  }
}

// TensorFlow 2.21's results for the unsigned and bfloat16 dtypes.
TEST(CastOpTest, WideUnsignedIntegersWrapAndConvertExactly) {
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out,
      Cast(Tensor::FromVector<int64_t>({-1, 70000, 4294967296 + 5}, TensorShape({3})), DT_UINT32));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<uint32_t>({4294967295u, 70000u, 5u}, TensorShape({3})));
  RILL_ASSERT_OK_AND_ASSIGN(out, Cast(Tensor::FromVector<uint64_t>(
                                          {18446744073709551615ull, 16777217ull}, TensorShape({2})),
                                      DT_FLOAT));
  ExpectTensorEqual(
      out[0], Tensor::FromVector<float>({18446744073709551616.f, 16777216.f}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Cast(Tensor::FromVector<float>({65535.9f, 1.7f, 0.f}, TensorShape({3})), DT_UINT16));
  ExpectTensorEqual(out[0], Tensor::FromVector<uint16_t>({65535, 1, 0}, TensorShape({3})));
}

TEST(CastOpTest, BFloat16RoundsToNearestUnlessTruncated) {
  // 1 + 2^-8 + 2^-12 lies above the midpoint between bfloat16's 1 and 1 + 2^-7.
  const Tensor x = Tensor::FromVector<float>({1.0f + 0x1p-8f + 0x1p-12f, -3.3f}, TensorShape({2}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Cast(x, DT_BFLOAT16));
  EXPECT_EQ(static_cast<float>(out[0].flat<bfloat16>()[0]), 1.0078125f);
  EXPECT_EQ(static_cast<float>(out[0].flat<bfloat16>()[1]), -3.296875f);
  RILL_ASSERT_OK_AND_ASSIGN(out, Cast(x, DT_BFLOAT16, /*truncate=*/true));
  EXPECT_EQ(static_cast<float>(out[0].flat<bfloat16>()[0]), 1.0f);
  EXPECT_EQ(static_cast<float>(out[0].flat<bfloat16>()[1]), -3.296875f);
  // TensorFlow does not truncate double -> bfloat16.
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Cast(Tensor::FromVector<double>({1.0 + 0x1p-8 + 0x1p-12}, TensorShape({1})), DT_BFLOAT16,
                /*truncate=*/true));
  EXPECT_EQ(static_cast<float>(out[0].flat<bfloat16>()[0]), 1.0078125f);
  RILL_ASSERT_OK_AND_ASSIGN(out, Cast(x, DT_HALF, /*truncate=*/true));
  EXPECT_EQ(static_cast<float>(out[0].flat<half>()[1]), -3.298828125f);
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Cast(Tensor::FromVector<bfloat16>(
                    {bfloat16::FromBits(0x0001), bfloat16::FromBits(0x8000)}, TensorShape({2})),
                DT_BOOL));
  ExpectTensorEqual(out[0], Tensor::FromVector<bool>({true, false}, TensorShape({2})));
  RILL_ASSERT_OK_AND_ASSIGN(
      out, Cast(Tensor::FromVector<bfloat16>({bfloat16(2.5f), bfloat16(-7.0f)}, TensorShape({2})),
                DT_UINT64));
  ExpectTensorEqual(out[0],
                    Tensor::FromVector<uint64_t>({2, 18446744073709551609ull}, TensorShape({2})));
}

}  // namespace
}  // namespace rill
