#include "graph/builder/spectral_ops.h"

#include "graph/builder/op_builder.h"

namespace rill {
namespace ops {
namespace {

// The complex dtype of a real one and the real dtype of a complex one (float <-> complex64,
// double <-> complex128).
DataType ComplexOf(DataType real) { return real == DT_DOUBLE ? DT_COMPLEX128 : DT_COMPLEX64; }
DataType RealOf(DataType complex) { return complex == DT_COMPLEX128 ? DT_DOUBLE : DT_FLOAT; }

Output ToReal(const Scope& scope, const char* op, const Output& x) {
  return OpBuilder(scope, op).Input(x).Attr("Tout", RealOf(x.dtype())).Finalize().output(0);
}

Output OneInput(const Scope& scope, const char* op, const Input& x) {
  return OpBuilder(scope, op).Input(x).Finalize().output(0);
}

Output RealFft(const Scope& scope, const char* op, const Output& input, const Input& fft_length) {
  return OpBuilder(scope, op)
      .Input(input)
      .Input(fft_length)
      .Attr("Tcomplex", ComplexOf(input.dtype()))
      .Finalize()
      .output(0);
}

Output InverseRealFft(const Scope& scope, const char* op, const Output& input,
                      const Input& fft_length) {
  return OpBuilder(scope, op)
      .Input(input)
      .Input(fft_length)
      .Attr("Treal", RealOf(input.dtype()))
      .Finalize()
      .output(0);
}

}  // namespace

Output Complex(const Scope& scope, const Output& real, const Input& imag) {
  return OpBuilder(scope, "Complex")
      .Input(real)
      .Input(imag)
      .Attr("Tout", ComplexOf(real.dtype()))
      .Finalize()
      .output(0);
}

Output Real(const Scope& scope, const Output& input) { return ToReal(scope, "Real", input); }
Output Imag(const Scope& scope, const Output& input) { return ToReal(scope, "Imag", input); }
Output ComplexAbs(const Scope& scope, const Output& x) { return ToReal(scope, "ComplexAbs", x); }
Output Angle(const Scope& scope, const Output& input) { return ToReal(scope, "Angle", input); }
Output Conj(const Scope& scope, const Input& input) { return OneInput(scope, "Conj", input); }

Output FFT(const Scope& scope, const Input& input) { return OneInput(scope, "FFT", input); }
Output IFFT(const Scope& scope, const Input& input) { return OneInput(scope, "IFFT", input); }
Output FFT2D(const Scope& scope, const Input& input) { return OneInput(scope, "FFT2D", input); }
Output IFFT2D(const Scope& scope, const Input& input) { return OneInput(scope, "IFFT2D", input); }
Output FFT3D(const Scope& scope, const Input& input) { return OneInput(scope, "FFT3D", input); }
Output IFFT3D(const Scope& scope, const Input& input) { return OneInput(scope, "IFFT3D", input); }

Output RFFT(const Scope& scope, const Output& input, const Output& fft_length) {
  return RealFft(scope, "RFFT", input, fft_length);
}
Output IRFFT(const Scope& scope, const Output& input, const Input& fft_length) {
  return InverseRealFft(scope, "IRFFT", input, fft_length);
}
Output RFFT2D(const Scope& scope, const Output& input, const Input& fft_length) {
  return RealFft(scope, "RFFT2D", input, fft_length);
}
Output IRFFT2D(const Scope& scope, const Output& input, const Input& fft_length) {
  return InverseRealFft(scope, "IRFFT2D", input, fft_length);
}
Output RFFT3D(const Scope& scope, const Output& input, const Input& fft_length) {
  return RealFft(scope, "RFFT3D", input, fft_length);
}
Output IRFFT3D(const Scope& scope, const Output& input, const Input& fft_length) {
  return InverseRealFft(scope, "IRFFT3D", input, fft_length);
}

Output AudioSpectrogram(const Scope& scope, const Input& input, int64_t window_size, int64_t stride,
                        bool magnitude_squared) {
  return OpBuilder(scope, "AudioSpectrogram")
      .Input(input)
      .Attr("window_size", window_size)
      .Attr("stride", stride)
      .Attr("magnitude_squared", magnitude_squared)
      .Finalize()
      .output(0);
}
Output Mfcc(const Scope& scope, const Input& spectrogram, const Input& sample_rate,
            float upper_frequency_limit, float lower_frequency_limit,
            int64_t filterbank_channel_count, int64_t dct_coefficient_count) {
  return OpBuilder(scope, "Mfcc")
      .Input(spectrogram)
      .Input(sample_rate)
      .Attr("upper_frequency_limit", upper_frequency_limit)
      .Attr("lower_frequency_limit", lower_frequency_limit)
      .Attr("filterbank_channel_count", filterbank_channel_count)
      .Attr("dct_coefficient_count", dct_coefficient_count)
      .Finalize()
      .output(0);
}

}  // namespace ops
}  // namespace rill
