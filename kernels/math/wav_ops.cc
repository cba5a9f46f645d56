// DecodeWav and EncodeWav: 16-bit PCM RIFF/WAVE files to and from [samples, channels] float audio
// in [-1, 1) (the speech-commands graph's DecodeWav -> AudioSpectrogram -> Mfcc front end).
// Decoding follows TensorFlow's wav_io: a "fmt " chunk of 16 or 18 bytes right after the header,
// PCM with 16 bits per sample and consistent block align and byte rate, then chunks up to one
// "data" chunk (others skipped); samples are int16 / 32768. desired_channels repeats the last
// channel or drops channels, desired_samples pads with zeros or truncates. Encoding writes the
// 44-byte header and samples round(x * 32768) clamped to int16 (NaN as 0). Error texts are
// TensorFlow's.
//
// Kernels are immutable after construction; Compute is thread-safe.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "kernels/framework/kernel_registry.h"
#include "kernels/framework/op_kernel.h"

namespace rill {
namespace {

// Reads little-endian fields of a WAV file, failing as TensorFlow's IncrementOffset does.
class WavReader {
 public:
  explicit WavReader(const std::string& data) : data_(data) {}
  size_t offset() const { return offset_; }
  bool done() const { return offset_ >= data_.size(); }

  absl::Status Skip(uint64_t bytes) {
    if (bytes > data_.size() - offset_) {
      return absl::InvalidArgumentError("Data too short when trying to read string");
    }
    offset_ += bytes;
    return absl::OkStatus();
  }
  absl::StatusOr<std::string> Text(size_t n) {
    const size_t at = offset_;
    RILL_RETURN_IF_ERROR(Skip(n));
    return data_.substr(at, n);
  }
  template <typename T>
  absl::StatusOr<T> Value() {
    const size_t at = offset_;
    RILL_RETURN_IF_ERROR(Skip(sizeof(T)));
    T v;
    std::memcpy(&v, data_.data() + at, sizeof(T));  // the host is little-endian
    return v;
  }
  absl::Status Expect(const char* text) {
    RILL_ASSIGN_OR_RETURN(std::string got, Text(std::strlen(text)));
    if (got != text) {
      return absl::InvalidArgumentError(
          absl::StrCat("Header mismatch: Expected ", text, " but found ", got));
    }
    return absl::OkStatus();
  }

 private:
  const std::string& data_;
  size_t offset_ = 0;
};

struct Wav {
  std::vector<float> samples;  // interleaved
  int64_t frames = 0;
  int channels = 0;
  uint32_t sample_rate = 0;
};

absl::Status DecodeWavFile(const std::string& data, Wav* wav) {
  WavReader r(data);
  RILL_RETURN_IF_ERROR(r.Expect("RIFF"));
  RILL_RETURN_IF_ERROR(r.Value<uint32_t>().status());
  RILL_RETURN_IF_ERROR(r.Expect("WAVE"));
  RILL_RETURN_IF_ERROR(r.Expect("fmt "));
  RILL_ASSIGN_OR_RETURN(uint32_t format_size, r.Value<uint32_t>());
  if (format_size != 16 && format_size != 18) {
    return absl::InvalidArgumentError(
        absl::StrCat("Bad format chunk size for WAV: Expected 16 or 18, but got", format_size));
  }
  RILL_ASSIGN_OR_RETURN(uint16_t format, r.Value<uint16_t>());
  if (format != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Bad audio format for WAV: Expected 1 (PCM), but got", format));
  }
  RILL_ASSIGN_OR_RETURN(uint16_t channels, r.Value<uint16_t>());
  if (channels < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("Bad number of channels for WAV: Expected at least 1, but got ", channels));
  }
  RILL_ASSIGN_OR_RETURN(wav->sample_rate, r.Value<uint32_t>());
  RILL_ASSIGN_OR_RETURN(uint32_t bytes_per_second, r.Value<uint32_t>());
  RILL_ASSIGN_OR_RETURN(uint16_t bytes_per_frame, r.Value<uint16_t>());
  RILL_ASSIGN_OR_RETURN(uint16_t bits, r.Value<uint16_t>());
  if (bits != 16) {
    return absl::InvalidArgumentError(
        absl::StrCat("Can only read 16-bit WAV files, but received ", bits));
  }
  const uint32_t want_frame = bits * channels / 8;
  if (bytes_per_frame != want_frame) {
    return absl::InvalidArgumentError(absl::StrCat("Bad bytes per sample in WAV header: Expected ",
                                                   want_frame, " but got ", bytes_per_frame));
  }
  const uint64_t want_rate = uint64_t{bytes_per_frame} * wav->sample_rate;
  if (bytes_per_second != want_rate) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Bad bytes per second in WAV header: Expected ", want_rate, " but got ", bytes_per_second,
        " (sample_rate=", wav->sample_rate, ", bytes_per_sample=", bytes_per_frame, ")"));
  }
  if (format_size == 18) RILL_RETURN_IF_ERROR(r.Skip(2));
  wav->channels = channels;
  bool found = false;
  while (!r.done()) {
    RILL_ASSIGN_OR_RETURN(std::string id, r.Text(4));
    RILL_ASSIGN_OR_RETURN(uint32_t size, r.Value<uint32_t>());
    if (size > static_cast<uint32_t>(std::numeric_limits<int32_t>::max())) {
      return absl::InvalidArgumentError(
          absl::StrCat("WAV data chunk '", id, "' is too large: ", size,
                       " bytes, but the limit is ", std::numeric_limits<int32_t>::max()));
    }
    if (id != "data") {
      RILL_RETURN_IF_ERROR(r.Skip(size));
      continue;
    }
    if (found) return absl::InvalidArgumentError("More than one data chunk found in WAV");
    found = true;
    wav->frames = size / bytes_per_frame;
    const uint64_t count = static_cast<uint64_t>(wav->frames) * channels;
    const size_t start = r.offset();
    RILL_RETURN_IF_ERROR(r.Skip(count * sizeof(int16_t)));
    wav->samples.resize(count);
    for (uint64_t i = 0; i < count; ++i) {
      int16_t s;
      std::memcpy(&s, data.data() + start + i * sizeof(int16_t), sizeof(s));
      wav->samples[i] = s / 32768.0f;
    }
  }
  if (!found) return absl::InvalidArgumentError("No data chunk found in WAV");
  return absl::OkStatus();
}

class DecodeWavOp final : public OpKernel {
 public:
  explicit DecodeWavOp(OpKernelConstruction& ctx) : OpKernel(ctx) {
    absl::Status s = ctx.GetAttr("desired_channels", &desired_channels_);
    if (s.ok()) s = ctx.GetAttr("desired_samples", &desired_samples_);
    if (s.ok() && desired_channels_ < -1) {
      s = absl::InvalidArgumentError(
          absl::StrCat("desired_channels must be >= -1, got ", desired_channels_));
    }
    if (s.ok() && desired_samples_ < -1) {
      s = absl::InvalidArgumentError(
          absl::StrCat("desired_samples must be >= -1, got ", desired_samples_));
    }
    ctx.SetStatus(s);
  }

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& contents = ctx.input(0);
    if (contents.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("contents must be scalar, got shape ", contents.shape().DebugString()));
    }
    Wav wav;
    RILL_RETURN_IF_ERROR(DecodeWavFile(contents.flat<std::string>()[0], &wav));
    const int64_t channels = desired_channels_ == -1 ? wav.channels : desired_channels_;
    const int64_t frames = desired_samples_ == -1 ? wav.frames : desired_samples_;
    RILL_ASSIGN_OR_RETURN(Tensor * audio, ctx.allocate_output(0, TensorShape({frames, channels})));
    RILL_ASSIGN_OR_RETURN(Tensor * rate, ctx.allocate_output(1, TensorShape({})));
    rate->flat<int32_t>()[0] = static_cast<int32_t>(wav.sample_rate);
    float* out = audio->flat<float>().data();
    for (int64_t f = 0; f < frames; ++f) {
      for (int64_t c = 0; c < channels; ++c) {
        const int64_t source = std::min<int64_t>(c, wav.channels - 1);
        out[f * channels + c] = f < wav.frames ? wav.samples[f * wav.channels + source] : 0.0f;
      }
    }
    return absl::OkStatus();
  }

 private:
  int64_t desired_channels_ = -1, desired_samples_ = -1;
};

void Put32(std::string* out, uint32_t v) { out->append(reinterpret_cast<const char*>(&v), 4); }
void Put16(std::string* out, uint16_t v) { out->append(reinterpret_cast<const char*>(&v), 2); }

class EncodeWavOp final : public OpKernel {
 public:
  using OpKernel::OpKernel;

  absl::Status Compute(OpKernelContext& ctx) const override {
    const Tensor& audio = ctx.input(0);
    const Tensor& rate_t = ctx.input(1);
    if (audio.shape().rank() != 2) {
      return absl::InvalidArgumentError(
          absl::StrCat("audio must be 2-dimensional", audio.shape().DebugString()));
    }
    if (rate_t.shape().rank() != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("Input sample_rate should be a scalar tensor, got ",
                       rate_t.shape().DebugString(), " instead."));
    }
    const int64_t frames = audio.shape().dim(0), channels = audio.shape().dim(1);
    // TensorFlow takes the int32 rate as a size_t, so a negative one prints wrapped.
    const uint64_t rate = static_cast<uint64_t>(static_cast<int64_t>(rate_t.flat<int32_t>()[0]));
    if (rate == 0 || rate >= (uint64_t{1} << 32)) {
      return absl::InvalidArgumentError(
          absl::StrCat("sample_rate must be in (0, 2^32), got: ", rate));
    }
    if (channels <= 0 || channels >= (1 << 16)) {
      return absl::InvalidArgumentError(
          absl::StrCat("num_channels must be in (0, 2^16), got: ", channels));
    }
    const uint64_t data_bytes = static_cast<uint64_t>(frames) * channels * 2;
    if (data_bytes > std::numeric_limits<uint32_t>::max() - 36) {
      return absl::InvalidArgumentError(absl::StrCat(
          "audio of ", frames, " frames of ", channels,
          " channels does not fit in a WAV file (at most 2^32 - 37 bytes of samples)"));
    }
    std::string out;
    out.reserve(44 + data_bytes);
    out.append("RIFF");
    Put32(&out, static_cast<uint32_t>(36 + data_bytes));
    out.append("WAVEfmt ");
    Put32(&out, 16);
    Put16(&out, 1);
    Put16(&out, static_cast<uint16_t>(channels));
    Put32(&out, static_cast<uint32_t>(rate));
    Put32(&out, static_cast<uint32_t>(rate * channels * 2));
    Put16(&out, static_cast<uint16_t>(channels * 2));
    Put16(&out, 16);
    out.append("data");
    Put32(&out, static_cast<uint32_t>(data_bytes));
    for (float x : audio.flat<float>()) {
      const float scaled = std::round(x * 32768.0f);
      const int16_t s =
          std::isnan(scaled) ? 0 : static_cast<int16_t>(std::clamp(scaled, -32768.0f, 32767.0f));
      Put16(&out, static_cast<uint16_t>(s));
    }
    RILL_ASSIGN_OR_RETURN(Tensor * contents, ctx.allocate_output(0, TensorShape({})));
    contents->flat<std::string>()[0] = std::move(out);
    return absl::OkStatus();
  }
};

REGISTER_KERNEL(KernelDefBuilder("DecodeWav").Device(kDeviceCpu), DecodeWavOp);
REGISTER_KERNEL(KernelDefBuilder("EncodeWav").Device(kDeviceCpu), EncodeWavOp);

}  // namespace
}  // namespace rill
