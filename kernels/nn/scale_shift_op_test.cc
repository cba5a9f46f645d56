#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

absl::StatusOr<std::vector<Tensor>> ScaleShift(const Tensor& x, const Tensor& scale,
                                               const Tensor& offset, const std::string& act,
                                               int threads = 1) {
  OpTester t("_RillScaleShift");
  t.Attr("T", DT_FLOAT).Attr("activation", act).Input(x).Input(scale).Input(offset);
  t.SetIntraOpThreads(threads);
  return t.Run();
}

// The unfused Mul, AddV2 and Relu / Relu6 kernels' operations for one element, each rounded.
float Reference(float x, float s, float b, const std::string& act) {
  const volatile float t = x * s;
  const float v = t + b;
  if (act == "Identity" || std::isnan(v)) return v;
  if (act == "Relu6" && v > 6.f) return 6.f;
  return v > 0.f ? v : 0.f;
}

// Values with inf, NaN, signed zeros, products that overflow and sums that cancel.
std::vector<float> Values(int64_t n) {
  const float special[] = {kInf, -kInf, kNaN, 0.f, -0.f, 3e38f, -3e38f, 1e-38f, 7.5f, -2.25f};
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i) {
    v[i] = i % 7 == 3 ? special[(i / 7) % 10] : static_cast<float>((i * 37) % 101) * 0.173f - 8.f;
  }
  return v;
}

void ExpectBits(const Tensor& got, const std::vector<float>& want) {
  ASSERT_EQ(got.NumElements(), static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    const float g = got.flat<float>()[i];
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(g)) << i;
    } else {
      uint32_t a, b;
      std::memcpy(&a, &g, 4);
      std::memcpy(&b, &want[i], 4);
      EXPECT_EQ(a, b) << i << ": " << g << " vs " << want[i];
    }
  }
}

TEST(ScaleShiftOpTest, IsTheUnfusedMulAddAndActivationBitForBit) {
  // Rows of 3 (shorter than a vector), 300 (longer than a chunk) and 2048 channels; a scale and
  // offset per channel, as a [1, 1, C] row, or scalars.
  for (int64_t channels : {3, 300, 2048}) {
    for (const std::string act : {"Identity", "Relu", "Relu6"}) {
      for (int threads : {1, 2}) {
        for (bool scalars : {false, true}) {
          SCOPED_TRACE(absl::StrCat(channels, " channels ", act, " threads ", threads,
                                    scalars ? " scalars" : ""));
          const TensorShape shape({2, 5, channels});
          const std::vector<float> x = Values(shape.num_elements());
          const int64_t c = scalars ? 1 : channels;
          std::vector<float> s = Values(c + 5), b = Values(c + 11);
          s.erase(s.begin(), s.begin() + 5);
          b.erase(b.begin(), b.begin() + 11);
          const TensorShape cs = scalars ? TensorShape({}) : TensorShape({1, 1, channels});
          RILL_ASSERT_OK_AND_ASSIGN(
              auto out,
              ScaleShift(Tensor::FromVector<float>(x, shape), Tensor::FromVector<float>(s, cs),
                         Tensor::FromVector<float>(b, scalars ? cs : TensorShape({channels})), act,
                         threads));
          EXPECT_EQ(out[0].shape().DebugString(), shape.DebugString());
          std::vector<float> want(x.size());
          for (size_t i = 0; i < x.size(); ++i) {
            want[i] =
                Reference(x[i], s[scalars ? 0 : i % channels], b[scalars ? 0 : i % channels], act);
          }
          ExpectBits(out[0], want);
        }
      }
    }
  }
}

TEST(ScaleShiftOpTest, RowsShorterThanAChunkGiveTheUnfusedResultsAcrossRows) {
  // 1, 3, 5 and 255 channels on 4 x 131 rows (chunks span rows and start mid-row; 255 leaves a
  // one-element tail per chunk), a per-channel scale or offset beside a scalar one, 1 and 2
  // threads (the split starts mid-row).
  for (int64_t channels : {1, 3, 5, 255}) {
    for (int per_channel : {1, 2, 3}) {  // bit 0: scale per channel, bit 1: offset
      for (int threads : {1, 2}) {
        SCOPED_TRACE(
            absl::StrCat(channels, " channels, per channel ", per_channel, " threads ", threads));
        const TensorShape shape({4, 131, channels});
        const std::vector<float> x = Values(shape.num_elements());
        const bool ps = per_channel & 1, pb = per_channel & 2;
        std::vector<float> s = Values(channels + 5), b = Values(channels + 11);
        s.erase(s.begin(), s.begin() + 5);
        b.erase(b.begin(), b.begin() + 11);
        const TensorShape row({channels});
        RILL_ASSERT_OK_AND_ASSIGN(
            auto out,
            ScaleShift(Tensor::FromVector<float>(x, shape),
                       ps ? Tensor::FromVector<float>(s, row) : Tensor::Scalar<float>(s[0]),
                       pb ? Tensor::FromVector<float>(b, row) : Tensor::Scalar<float>(b[0]), "Relu",
                       threads));
        std::vector<float> want(x.size());
        for (size_t i = 0; i < x.size(); ++i) {
          want[i] = Reference(x[i], s[ps ? i % channels : 0], b[pb ? i % channels : 0], "Relu");
        }
        ExpectBits(out[0], want);
      }
    }
  }
}

TEST(ScaleShiftOpTest, BroadcastsAsMulAndAddV2) {
  // x [2, 1] against a scale row [3]: the output is [2, 3].
  RILL_ASSERT_OK_AND_ASSIGN(
      auto out, ScaleShift(Tensor::FromVector<float>({1.f, -2.f}, TensorShape({2, 1})),
                           Tensor::FromVector<float>({1.f, 2.f, 3.f}, TensorShape({3})),
                           Tensor::FromVector<float>({0.5f}, TensorShape({1})), "Relu"));
  ExpectBits(out[0], {1.5f, 2.5f, 3.5f, 0.f, 0.f, 0.f});
  EXPECT_EQ(out[0].shape().DebugString(), "[2,3]");
  EXPECT_THAT(
      ScaleShift(Tensor::FromVector<float>({1.f, 2.f}, TensorShape({2})),
                 Tensor::FromVector<float>({1.f, 2.f, 3.f}, TensorShape({3})),
                 Tensor::FromVector<float>({0.5f}, TensorShape({1})), "Identity"),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("Incompatible shapes: [2] vs. [3]")));
}

}  // namespace
}  // namespace rill
