// The speech front end of tf.raw_ops on the CPU, in TensorFlow's double arithmetic:
//
//   AudioSpectrogram(input [samples, channels]): per channel, frames of window_size samples every
//     stride samples (1 + (samples - window_size) / stride of them, none when the input is
//     shorter), each times a periodic Hann window (0.5 - 0.5 cos(2 pi i / window_size)), zero
//     padded to the next power of two n and transformed; the output [channels, frames, n / 2 + 1]
//     holds |X_k|^2 (magnitude_squared) or its square root taken in float.
//   Mfcc(spectrogram [channels, frames, bins] of squared magnitudes, sample_rate): per frame, a
//     mel filterbank of filterbank_channel_count triangles between lower_ and
//     upper_frequency_limit (HTK's layout: mel = 1127 ln(1 + f / 700), DC excluded, each bin's
//     magnitude shared between the two channels around it), log of max(energy, 1e-12), then the
//     first dct_coefficient_count coefficients of an orthonormal DCT-II. When the upper limit
//     lies past the spectrogram's last bin TensorFlow computes no filterbank and the
//     coefficients are 0; so are they here.
//
// Errors are InvalidArgument with TensorFlow's texts ("input must be 2-dimensional[4]",
// "Spectrogram initialization failed for window size 1 and stride 1", "spectrogram must be
// 3-dimensional[2,3]", "Mfcc initialization failed for channel count 1, sample rate 16000 and
// filterbank_channel_count 40", ...). Kernels are immutable after construction; Compute is
// thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/math_lib/fft_plan.h"

namespace rill {
namespace {

class AudioSpectrogramOp final : public OpKernel {
 public:
  explicit AudioSpectrogramOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::Status s = ctx.GetAttr("window_size", &window_);
    if (s.ok()) s = ctx.GetAttr("stride", &stride_);
    if (s.ok()) s = ctx.GetAttr("magnitude_squared", &squared_);
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& input = ctx.input(0);
    if (input.shape().rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("input must be 2-dimensional", input.shape().DebugString()));
    }
    if (window_ < 2 || stride_ < 1 || window_ > (int64_t{1} << 30)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Spectrogram initialization failed for window size ", window_, " and stride ", stride_));
    }
    int64_t n = 1;
    while (n < window_) n <<= 1;
    const int64_t bins = n / 2 + 1;
    const int64_t samples = input.shape().dim(0);
    const int64_t channels = input.shape().dim(1);
    const int64_t frames = samples < window_ ? 0 : 1 + (samples - window_) / stride_;
    RILL_ASSIGN_OR_RETURN(Tensor * out,
                          ctx.allocate_output(0, TensorShape({channels, frames, bins})));
    if (out->NumElements() == 0) return absl::OkStatus();
    const double pi = std::atan(1.0) * 4.0;
    std::vector<double> hann(window_);
    for (int64_t i = 0; i < window_; ++i) {
      hann[i] = 0.5 - 0.5 * std::cos((2 * pi * i) / window_);
    }
    // All frames of a channel at once: frame f is lane f of the split-complex [n][frames] array.
    std::shared_ptr<const FftPlan<double>> plan = FftPlan<double>::Get(n);
    std::vector<double> re(n * frames), im(n * frames), work(plan->WorkSize(frames));
    const float* x = input.flat<float>().data();
    float* y = out->flat<float>().data();
    for (int64_t ch = 0; ch < channels; ++ch) {
      std::fill(re.begin(), re.end(), 0.0);
      std::fill(im.begin(), im.end(), 0.0);
      for (int64_t f = 0; f < frames; ++f) {
        for (int64_t j = 0; j < window_; ++j) {
          re[j * frames + f] = static_cast<double>(x[(f * stride_ + j) * channels + ch]) * hann[j];
        }
      }
      plan->Run(re.data(), im.data(), frames, work.data(), /*inverse=*/false);
      for (int64_t f = 0; f < frames; ++f) {
        float* row = y + (ch * frames + f) * bins;
        for (int64_t k = 0; k < bins; ++k) {
          const double a = re[k * frames + f], b = im[k * frames + f];
          const double power = a * a + b * b;
          row[k] = squared_ ? static_cast<float>(power) : std::sqrt(static_cast<float>(power));
        }
      }
    }
    return absl::OkStatus();
  }

 private:
  int64_t window_ = 0;
  int64_t stride_ = 0;
  bool squared_ = false;
};

double FreqToMel(double freq) { return 1127.0 * std::log1p(freq / 700.0); }

// TensorFlow's MfccMelFilterbank + MfccDct, set up for one spectrogram width and sample rate.
class MfccTables {
 public:
  // False where TensorFlow's Initialize fails.
  bool Init(int64_t bins, int64_t rate, int64_t channels, double lower, double upper,
            int64_t coefficients) {
    if (channels < 1 || rate <= 0 || bins < 2 || lower < 0 || upper <= lower) return false;
    if (coefficients < 1 || coefficients > channels) return false;
    channels_ = channels;
    std::vector<double> center(channels + 1);
    const double mel_low = FreqToMel(lower);
    const double spacing = (FreqToMel(upper) - mel_low) / static_cast<double>(channels + 1);
    for (int64_t i = 0; i <= channels; ++i) center[i] = mel_low + spacing * (i + 1);
    const double hz_per_bin = 0.5 * rate / static_cast<double>(bins - 1);
    start_ = static_cast<int64_t>(1.5 + lower / hz_per_bin);
    end_ = static_cast<int64_t>(upper / hz_per_bin);
    band_.assign(bins, -2);
    weight_.assign(bins, 0.0);
    int64_t channel = 0;
    for (int64_t i = 0; i < bins; ++i) {
      if (i < start_ || i > end_) continue;
      const double melf = FreqToMel(i * hz_per_bin);
      while (channel < channels && center[channel] < melf) ++channel;
      band_[i] = channel - 1;
      const int64_t c = band_[i];
      weight_[i] = c >= 0 ? (center[c + 1] - melf) / (center[c + 1] - center[c])
                          : (center[0] - melf) / (center[0] - mel_low);
    }
    cosines_.assign(coefficients * channels, 0.0);
    const double norm = std::sqrt(2.0 / channels);
    const double arg = std::atan(1.0) * 4.0 / channels;
    for (int64_t i = 0; i < coefficients; ++i) {
      for (int64_t j = 0; j < channels; ++j) {
        cosines_[i * channels + j] = norm * std::cos(i * arg * (j + 0.5));
      }
    }
    coefficients_ = coefficients;
    return true;
  }

  // One frame of `bins` squared magnitudes to `coefficients` MFCCs; `energy` is scratch.
  void Run(const float* frame, int64_t bins, std::vector<double>* energy, float* out) const {
    if (bins <= end_) {  // TensorFlow computes no filterbank: an empty DCT input
      for (int64_t i = 0; i < coefficients_; ++i) out[i] = 0.0f;
      return;
    }
    energy->assign(channels_, 0.0);
    for (int64_t i = start_; i <= end_; ++i) {
      const double magnitude = std::sqrt(static_cast<double>(frame[i]));
      const double weighted = magnitude * weight_[i];
      int64_t c = band_[i];
      if (c >= 0) (*energy)[c] += weighted;
      if (++c < channels_) (*energy)[c] += magnitude - weighted;
    }
    for (double& e : *energy) e = std::log(e < 1e-12 ? 1e-12 : e);
    for (int64_t i = 0; i < coefficients_; ++i) {
      double sum = 0.0;
      for (int64_t j = 0; j < channels_; ++j) sum += cosines_[i * channels_ + j] * (*energy)[j];
      out[i] = static_cast<float>(sum);
    }
  }

 private:
  int64_t channels_ = 0, coefficients_ = 0, start_ = 0, end_ = 0;
  std::vector<int64_t> band_;  // the channel a bin's right-side weight goes to (-1, -2 unused)
  std::vector<double> weight_;
  std::vector<double> cosines_;  // [coefficients][channels]
};

class MfccOp final : public OpKernel {
 public:
  explicit MfccOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::Status s = ctx.GetAttr("upper_frequency_limit", &upper_);
    if (s.ok()) s = ctx.GetAttr("lower_frequency_limit", &lower_);
    if (s.ok()) s = ctx.GetAttr("filterbank_channel_count", &channels_);
    if (s.ok()) s = ctx.GetAttr("dct_coefficient_count", &coefficients_);
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& spec = ctx.input(0);
    if (spec.shape().rank() != 3) {
      return absl::InvalidArgumentError(
          absl::StrCat("spectrogram must be 3-dimensional", spec.shape().DebugString()));
    }
    const Tensor& rate_t = ctx.input(1);
    if (rate_t.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input sample_rate should be a scalar tensor, got ",
                       rate_t.shape().DebugString(), " instead."));
    }
    const int32_t rate = rate_t.flat<int32_t>()[0];
    const int64_t bins = spec.shape().dim(2);
    const int64_t frames = spec.shape().dim(0) * spec.shape().dim(1);
    MfccTables tables;
    if (!tables.Init(bins, rate, channels_, lower_, upper_, coefficients_)) {
      return absl::InvalidArgumentError(
          absl::StrCat("Mfcc initialization failed for channel count ", bins, ", sample rate ",
                       rate, " and filterbank_channel_count ", channels_));
    }
    RILL_ASSIGN_OR_RETURN(
        Tensor * out, ctx.allocate_output(0, TensorShape({spec.shape().dim(0), spec.shape().dim(1),
                                                          coefficients_})));
    const float* x = spec.flat<float>().data();
    float* y = out->flat<float>().data();
    std::vector<double> energy;
    for (int64_t f = 0; f < frames; ++f) {
      tables.Run(x + f * bins, bins, &energy, y + f * coefficients_);
    }
    return absl::OkStatus();
  }

 private:
  float upper_ = 0, lower_ = 0;
  int64_t channels_ = 0, coefficients_ = 0;
};

REGISTER_KERNEL(KernelDefBuilder("AudioSpectrogram").Device(kDeviceCpu), AudioSpectrogramOp);
REGISTER_KERNEL(KernelDefBuilder("Mfcc").Device(kDeviceCpu), MfccOp);

}  // namespace
}  // namespace rill
