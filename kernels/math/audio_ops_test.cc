#include <cmath>
#include <vector>

#include "core/status_matchers.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "kernels/framework/op_test_util.h"

namespace rill {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::vector<Tensor>> Spectrogram(const Tensor& x, int64_t window, int64_t stride,
                                                bool squared) {
  OpTester t("AudioSpectrogram");
  t.Attr("window_size", window).Attr("stride", stride).Attr("magnitude_squared", squared);
  t.Input(x);
  return t.Run();
}

TEST(AudioSpectrogramOpTest, HannWindowedPowerOfAConstant) {
  // Periodic Hann of 4: [0, .5, 1, .5]; its DFT is [2, -1, 0] (k = 0, 1, 2).
  const Tensor ones = Tensor::FromVector<float>({1, 1, 1, 1, 1, 1}, TensorShape({6, 1}));
  RILL_ASSERT_OK_AND_ASSIGN(auto power, Spectrogram(ones, 4, 2, true));
  ExpectTensorEqual(power[0],
                    Tensor::FromVector<float>({4, 1, 0, 4, 1, 0}, TensorShape({1, 2, 3})));
  RILL_ASSERT_OK_AND_ASSIGN(auto magnitude, Spectrogram(ones, 4, 2, false));
  ExpectTensorEqual(magnitude[0],
                    Tensor::FromVector<float>({2, 1, 0, 2, 1, 0}, TensorShape({1, 2, 3})));
  // Fewer samples than a window: no frame.
  RILL_ASSERT_OK_AND_ASSIGN(auto none, Spectrogram(ones, 8, 2, true));
  EXPECT_EQ(none[0].shape(), TensorShape({1, 0, 5}));
}

TEST(AudioSpectrogramOpTest, BadInputsAreInvalidArgument) {
  const Tensor flat = Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({4}));
  EXPECT_THAT(
      Spectrogram(flat, 2, 1, true).status(),
      StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("input must be 2-dimensional[4]")));
  const Tensor x = Tensor::FromVector<float>({1, 2, 3, 4}, TensorShape({4, 1}));
  EXPECT_THAT(Spectrogram(x, 1, 1, true).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Spectrogram initialization failed for window size 1 and "
                                 "stride 1")));
}

absl::StatusOr<std::vector<Tensor>> Mfcc(const Tensor& spec, int32_t rate, float upper) {
  OpTester t("Mfcc");
  t.Attr("upper_frequency_limit", upper)
      .Attr("lower_frequency_limit", 20.0f)
      .Attr("filterbank_channel_count", int64_t{40})
      .Attr("dct_coefficient_count", int64_t{13});
  t.Input(spec).Input(Tensor::Scalar<int32_t>(rate));
  return t.Run();
}

TEST(MfccOpTest, SilenceIsTheLogFloorThroughTheDct) {
  // Every channel's energy is floored at 1e-12: coefficient 0 is sqrt(2 / 40) * 40 * ln(1e-12),
  // the others sum cosines of a full half-period to 0.
  const Tensor silence =
      Tensor::FromVector<float>(std::vector<float>(2 * 257, 0.0f), TensorShape({1, 2, 257}));
  RILL_ASSERT_OK_AND_ASSIGN(auto out, Mfcc(silence, 16000, 4000.0f));
  ASSERT_EQ(out[0].shape(), TensorShape({1, 2, 13}));
  const float c0 = static_cast<float>(std::sqrt(2.0 / 40) * 40 * std::log(1e-12));
  for (int f = 0; f < 2; ++f) {
    EXPECT_NEAR(out[0].flat<float>()[f * 13], c0, 1e-4);
    for (int i = 1; i < 13; ++i) EXPECT_NEAR(out[0].flat<float>()[f * 13 + i], 0.0f, 1e-4);
  }
  // An upper limit past the last bin: TensorFlow computes no filterbank, the MFCCs are 0.
  RILL_ASSERT_OK_AND_ASSIGN(auto zeros, Mfcc(silence, 2000, 1500.0f));
  for (float v : zeros[0].flat<float>()) EXPECT_EQ(v, 0.0f);
}

TEST(MfccOpTest, BadInputsAreInvalidArgument) {
  const Tensor spec =
      Tensor::FromVector<float>(std::vector<float>(2 * 257, 0.0f), TensorShape({2, 257}));
  EXPECT_THAT(Mfcc(spec, 16000, 4000.0f).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("spectrogram must be 3-dimensional[2,257]")));
  const Tensor ok =
      Tensor::FromVector<float>(std::vector<float>(257, 0.0f), TensorShape({1, 1, 257}));
  EXPECT_THAT(Mfcc(ok, 16000, 10.0f).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("Mfcc initialization failed for channel count 257, sample rate "
                                 "16000 and filterbank_channel_count 40")));
}

}  // namespace
}  // namespace rill
