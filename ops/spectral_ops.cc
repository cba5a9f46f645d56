// Op definitions of the complex-number ops (Complex, Real, Imag, ComplexAbs, Angle, Conj) and the
// FFTs (FFT, IFFT, RFFT, IRFFT and their 2-D and 3-D forms). Signatures read from TensorFlow's
// registry (tests/tfgen/dump_op_specs.py).
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// RFFT/IRFFT[2D|3D]: input 0's shape with its innermost `k` dims replaced by the constant
// fft_length (RFFT: the last one becomes fft_length / 2 + 1, 0 for 0), unknown where not constant.
template <int k, bool kForward>
absl::Status RealFftShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.unknown_rank()) {
    c.set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  if (in.rank() < k) {
    return absl::InvalidArgumentError(absl::StrCat("Shape must be at least rank ", k,
                                                   " but is rank ", in.rank(), " for node ",
                                                   c.node().name()));
  }
  std::vector<int64_t> dims = in.dims();
  std::vector<int64_t> lengths;
  const bool known = c.ConstantIndexValues(1, &lengths) && static_cast<int>(lengths.size()) == k;
  for (int i = 0; i < k; ++i) {
    int64_t& d = dims[dims.size() - k + i];
    if (!known || lengths[i] < 0) {
      d = -1;
    } else if (kForward && i == k - 1) {
      d = lengths[i] == 0 ? 0 : lengths[i] / 2 + 1;
    } else {
      d = lengths[i];
    }
  }
  c.set_output(0, PartialTensorShape(dims));
  return absl::OkStatus();
}

}  // namespace

REGISTER_OP("Complex")
    .Input("real: T")
    .Input("imag: T")
    .Output("out: Tout")
    .Attr("T: {float, double} = float")
    .Attr("Tout: {complex64, complex128} = complex64")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Real")
    .Input("input: T")
    .Output("output: Tout")
    .Attr("T: {complex64, complex128} = complex64")
    .Attr("Tout: {float, double} = float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Imag")
    .Input("input: T")
    .Output("output: Tout")
    .Attr("T: {complex64, complex128} = complex64")
    .Attr("Tout: {float, double} = float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("ComplexAbs")
    .Input("x: T")
    .Output("y: Tout")
    .Attr("T: {complex64, complex128} = complex64")
    .Attr("Tout: {float, double} = float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Angle")
    .Input("input: T")
    .Output("output: Tout")
    .Attr("T: {complex64, complex128} = complex64")
    .Attr("Tout: {float, double} = float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Conj")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {complex64, complex128, variant} = complex64")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("FFT")
    .Input("input: Tcomplex")
    .Output("output: Tcomplex")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("IFFT")
    .Input("input: Tcomplex")
    .Output("output: Tcomplex")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("RFFT")
    .Input("input: Treal")
    .Input("fft_length: int32")
    .Output("output: Tcomplex")
    .Attr("Treal: {float, double} = float")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(RealFftShape<1, true>);

REGISTER_OP("IRFFT")
    .Input("input: Tcomplex")
    .Input("fft_length: int32")
    .Output("output: Treal")
    .Attr("Treal: {float, double} = float")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(RealFftShape<1, false>);

REGISTER_OP("FFT2D")
    .Input("input: Tcomplex")
    .Output("output: Tcomplex")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("IFFT2D")
    .Input("input: Tcomplex")
    .Output("output: Tcomplex")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("RFFT2D")
    .Input("input: Treal")
    .Input("fft_length: int32")
    .Output("output: Tcomplex")
    .Attr("Treal: {float, double} = float")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(RealFftShape<2, true>);

REGISTER_OP("IRFFT2D")
    .Input("input: Tcomplex")
    .Input("fft_length: int32")
    .Output("output: Treal")
    .Attr("Treal: {float, double} = float")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(RealFftShape<2, false>);

REGISTER_OP("FFT3D")
    .Input("input: Tcomplex")
    .Output("output: Tcomplex")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("IFFT3D")
    .Input("input: Tcomplex")
    .Output("output: Tcomplex")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("RFFT3D")
    .Input("input: Treal")
    .Input("fft_length: int32")
    .Output("output: Tcomplex")
    .Attr("Treal: {float, double} = float")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(RealFftShape<3, true>);

REGISTER_OP("IRFFT3D")
    .Input("input: Tcomplex")
    .Input("fft_length: int32")
    .Output("output: Treal")
    .Attr("Treal: {float, double} = float")
    .Attr("Tcomplex: {complex64, complex128} = complex64")
    .SetShapeFn(RealFftShape<3, false>);

}  // namespace rill
