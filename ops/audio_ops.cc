// Op definitions of the speech front-end ops of tf.raw_ops: AudioSpectrogram and Mfcc (the
// speech-commands models' feature extraction). Signatures read from TensorFlow's registry
// (tests/tfgen/dump_op_specs.py).
#include <cstdint>
#include <vector>

#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// [channels, frames, fft_length / 2 + 1] of a [samples, channels] input, fft_length the power of
// two at least window_size; frames unknown unless the sample count is.
absl::Status AudioSpectrogramShape(ShapeInferenceContext& c) {
  int64_t window = 0, stride = 0;
  if (!GetNodeAttr(c.node(), "window_size", &window).ok() ||
      !GetNodeAttr(c.node(), "stride", &stride).ok()) {
    return absl::OkStatus();  // the kernel reports bad attrs
  }
  const PartialTensorShape& in = c.input(0);
  // A window above the kernel's 2^30 bound is the kernel's to refuse (and the power-of-two loop
  // below would overflow).
  if (in.unknown_rank() || in.rank() != 2 || window < 2 || stride < 1 ||
      window > (int64_t{1} << 30)) {
    return absl::OkStatus();
  }
  int64_t fft = 1;
  while (fft < window) fft <<= 1;
  const int64_t samples = in.dims()[0];
  const int64_t frames =
      samples < 0 ? -1 : (samples < window ? 0 : 1 + (samples - window) / stride);
  c.set_output(0, PartialTensorShape({in.dims()[1], frames, fft / 2 + 1}));
  return absl::OkStatus();
}

// [channels, frames, dct_coefficient_count].
absl::Status MfccShape(ShapeInferenceContext& c) {
  int64_t coefficients = 0;
  if (!GetNodeAttr(c.node(), "dct_coefficient_count", &coefficients).ok()) return absl::OkStatus();
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank() || in.rank() != 3) return absl::OkStatus();
  c.set_output(0, PartialTensorShape({in.dims()[0], in.dims()[1], coefficients}));
  return absl::OkStatus();
}

REGISTER_OP("AudioSpectrogram")
    .Input("input: float")
    .Output("spectrogram: float")
    .Attr("window_size: int")
    .Attr("stride: int")
    .Attr("magnitude_squared: bool = false")
    .SetShapeFn(AudioSpectrogramShape);

REGISTER_OP("Mfcc")
    .Input("spectrogram: float")
    .Input("sample_rate: int32")
    .Output("output: float")
    .Attr("upper_frequency_limit: float = 4000.0")
    .Attr("lower_frequency_limit: float = 20.0")
    .Attr("filterbank_channel_count: int = 40")
    .Attr("dct_coefficient_count: int = 13")
    .SetShapeFn(MfccShape);

// 16-bit PCM WAV files to and from [samples, channels] float audio.
absl::Status DecodeWavShape(ShapeInferenceContext& c) {
  int64_t channels = -1, samples = -1;
  (void)GetNodeAttr(c.node(), "desired_channels", &channels);
  (void)GetNodeAttr(c.node(), "desired_samples", &samples);
  c.set_output(0, PartialTensorShape({samples < 0 ? -1 : samples, channels < 0 ? -1 : channels}));
  c.set_output(1, PartialTensorShape({}));
  return absl::OkStatus();
}

REGISTER_OP("DecodeWav")
    .Input("contents: string")
    .Output("audio: float")
    .Output("sample_rate: int32")
    .Attr("desired_channels: int = -1")
    .Attr("desired_samples: int = -1")
    .SetShapeFn(DecodeWavShape);

REGISTER_OP("EncodeWav")
    .Input("audio: float")
    .Input("sample_rate: int32")
    .Output("contents: string")
    .SetShapeFn(shape_fns::Scalar);

}  // namespace
}  // namespace rill
