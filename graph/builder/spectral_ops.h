// Builder wrappers for the complex-number ops (Complex, Real, Imag, ComplexAbs, Angle, Conj) and
// the FFTs (FFT, IFFT, RFFT, IRFFT and their 2-D and 3-D forms), TensorFlow's C++ API names.
// Included by graph/builder/ops.h.
//
//   Output z = ops::Complex(root, re, im);              // complex64 from float parts
//   Output spectrum = ops::RFFT(root, z_real, fft_length);
//
// The output dtype of a conversion follows its input's: float <-> complex64, double <->
// complex128. Errors are recorded in the scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_SPECTRAL_OPS_H_
#define RILL_GRAPH_BUILDER_SPECTRAL_OPS_H_

#include <cstdint>

#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

// real + i * imag (numpy broadcasting).
Output Complex(const Scope& scope, const Output& real, const Input& imag);
// Parts, magnitude and argument of a complex tensor, and its conjugate.
Output Real(const Scope& scope, const Output& input);
Output Imag(const Scope& scope, const Output& input);
Output ComplexAbs(const Scope& scope, const Output& x);
Output Angle(const Scope& scope, const Output& input);
Output Conj(const Scope& scope, const Input& input);

// Complex FFTs over the innermost one, two or three dimensions (the inverses scale by 1/n).
Output FFT(const Scope& scope, const Input& input);
Output IFFT(const Scope& scope, const Input& input);
Output FFT2D(const Scope& scope, const Input& input);
Output IFFT2D(const Scope& scope, const Input& input);
Output FFT3D(const Scope& scope, const Input& input);
Output IFFT3D(const Scope& scope, const Input& input);
// Real FFTs; fft_length is an int32 vector of one (two, three for the 2-D, 3-D forms) lengths.
Output RFFT(const Scope& scope, const Output& input, const Output& fft_length);
Output IRFFT(const Scope& scope, const Output& input, const Input& fft_length);
Output RFFT2D(const Scope& scope, const Output& input, const Input& fft_length);
Output IRFFT2D(const Scope& scope, const Output& input, const Input& fft_length);
Output RFFT3D(const Scope& scope, const Output& input, const Input& fft_length);
Output IRFFT3D(const Scope& scope, const Output& input, const Input& fft_length);

// Speech features: power (or magnitude) spectra of Hann-windowed frames of a [samples, channels]
// waveform, and MFCCs of such a spectrogram.
Output AudioSpectrogram(const Scope& scope, const Input& input, int64_t window_size, int64_t stride,
                        bool magnitude_squared = false);
Output Mfcc(const Scope& scope, const Input& spectrogram, const Input& sample_rate,
            float upper_frequency_limit = 4000.0f, float lower_frequency_limit = 20.0f,
            int64_t filterbank_channel_count = 40, int64_t dct_coefficient_count = 13);

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_SPECTRAL_OPS_H_
