// Gradients of the ops of ops/linalg_ops.cc, the complex and spectral ops: matrix decompositions
// and solves, batch matrix products, Einsum, FFTs. Formulas are TensorFlow's; see grad_registry.h
// for the contract of a gradient function.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "core/partial_tensor_shape.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_helpers.h"
#include "graph/gradients/grad_registry.h"

namespace rill {
namespace {

using Grads = std::vector<Output>;
using GradSpan = absl::Span<const Output>;

// Shape pieces: x's shape without its last two dims, and its last `n` dims.
Output BatchDims(const Scope& s, const Output& shape) {
  ops::StridedSliceMasks m;
  m.begin = 1;
  return ops::StridedSlice(s, shape, ops::Const(s, {0}), ops::Const(s, {-2}), ops::Const(s, {1}),
                           m);
}
Output LastDims(const Scope& s, const Output& shape, int n) {
  ops::StridedSliceMasks m;
  m.end = 1;
  return ops::StridedSlice(s, shape, ops::Const(s, {-n}), ops::Const(s, {0}), ops::Const(s, {1}),
                           m);
}

// shape[axis] as a scalar (axis may be negative).
Output ShapeAt(const Scope& s, const Output& shape, int axis) {
  ops::StridedSliceMasks m;
  m.shrink_axis = 1;
  if (axis == -1) m.end = 1;
  return ops::StridedSlice(s, shape, ops::Const(s, {axis}), ops::Const(s, {axis + 1}),
                           ops::Const(s, {1}), m);
}

// The number of elements of the last `n` dims of `x`.
Output InnerSize(const Scope& s, const Output& x, int n) {
  return ops::Prod(s, LastDims(s, ops::Shape(s, x), n), ops::Const(s, 0));
}

// adj(x) * adj(y) per batch (BatchMatMulV2, which also takes plain matrices).
Output MatMul(const Scope& s, const Output& x, const Output& y, bool adj_x = false,
              bool adj_y = false) {
  return ops::BatchMatMulV2(s, x, y, adj_x, adj_y);
}

// The conjugate transpose of the last two dims.
Output Adjoint(const Scope& s, const Output& x) {
  Output rank = ops::Rank(s, x);
  Output two = ops::Const(s, 2);
  Output perm =
      ops::ConcatV2(s,
                    {ops::Range(s, ops::Const(s, 0), ops::Sub(s, rank, two), ops::Const(s, 1)),
                     ops::Pack(s, {ops::Sub(s, rank, ops::Const(s, 1)), ops::Sub(s, rank, two)})},
                    ops::Const(s, 0));
  return grad::MaybeConj(s, ops::Transpose(s, x, perm));
}

// Sums `gx` and `gy` (of the broadcast batch shape) back to x's and y's shapes, whose batch dims
// (all but the last two) broadcast against each other.
Grads ReduceBatch(const Scope& s, const Output& x, const Output& y, const Output& gx,
                  const Output& gy) {
  Output sx = ops::Shape(s, x);
  Output sy = ops::Shape(s, y);
  auto r = ops::BroadcastGradientArgs(s, BatchDims(s, sx), BatchDims(s, sy));
  return {ops::Reshape(s, ops::Sum(s, gx, r.r0), sx), ops::Reshape(s, ops::Sum(s, gy, r.r1), sy)};
}

// --- Batch matrix products -------------------------------------------------------------------

Grads BatchMatMulGrads(const Scope& s, const GradOp& op, const Output& g, bool adj_x, bool adj_y) {
  const Output& x = op.inputs[0];
  const Output& y = op.inputs[1];
  if (!adj_x && !adj_y) return {MatMul(s, g, y, false, true), MatMul(s, x, g, true, false)};
  if (!adj_x && adj_y) return {MatMul(s, g, y, false, false), MatMul(s, g, x, true, false)};
  if (adj_x && !adj_y) return {MatMul(s, y, g, false, true), MatMul(s, x, g, false, false)};
  return {MatMul(s, y, g, true, true), MatMul(s, g, x, true, true)};
}

absl::Status BatchMatMulGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool adj_x, op.GetBool("adj_x"));
  RILL_ASSIGN_OR_RETURN(bool adj_y, op.GetBool("adj_y"));
  *out = BatchMatMulGrads(s, op, g[0], adj_x, adj_y);
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("BatchMatMul", BatchMatMulGrad);

// BatchMatMulV2 broadcasts the batch dims: each gradient is summed back to its operand's shape.
absl::Status BatchMatMulV2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool adj_x, op.GetBool("adj_x"));
  RILL_ASSIGN_OR_RETURN(bool adj_y, op.GetBool("adj_y"));
  Grads r = BatchMatMulGrads(s, op, g[0], adj_x, adj_y);
  *out = ReduceBatch(s, op.inputs[0], op.inputs[1], r[0], r[1]);
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("BatchMatMulV2", BatchMatMulV2Grad);
// BatchMatMulV3: V2 with the types as attrs; Rill's kernels need all three equal.
RILL_REGISTER_GRADIENT("BatchMatMulV3", BatchMatMulV2Grad);

// --- Complex numbers -------------------------------------------------------------------------

absl::Status ComplexGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  grad::BinaryGrads r =
      grad::ReduceBroadcast(s, op.inputs[0], op.inputs[1], ops::Real(s, g[0]), ops::Imag(s, g[0]));
  *out = {r.gx, r.gy};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Complex", ComplexGrad);

absl::Status RealGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Complex(s, g[0], ops::ZerosLike(s, g[0]))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Real", RealGrad);

absl::Status ImagGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Complex(s, ops::ZerosLike(s, g[0]), g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Imag", ImagGrad);

absl::Status ConjGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Conj(s, g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Conj", ConjGrad);

// d angle(x) = -g / (Im(x) + i Re(x)).
absl::Status AngleGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  Output z = ops::Complex(s, ops::Imag(s, x), ops::Real(s, x));
  Output complex_grad = ops::Complex(s, g[0], ops::ZerosLike(s, g[0]));
  *out = {ops::Div(s, ops::Neg(s, complex_grad), z)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Angle", AngleGrad);

// d|x| = g * x / |x| (0 where |x| is 0), built from the real and imaginary parts.
absl::Status ComplexAbsGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  const Output& abs = op.outputs[0];
  *out = {ops::Complex(s, ops::DivNoNan(s, ops::Mul(s, g[0], ops::Real(s, x)), abs),
                       ops::DivNoNan(s, ops::Mul(s, g[0], ops::Imag(s, x)), abs))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("ComplexAbs", ComplexAbsGrad);

// --- Bands and diagonals ---------------------------------------------------------------------

absl::Status MatrixBandPartGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::MatrixBandPart(s, g[0], op.inputs[1], op.inputs[2]), Output(), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixBandPart", MatrixBandPartGrad);

// MatrixDiagV3(diagonal, k, num_rows, num_cols, padding_value): the diagonals of the gradient.
absl::Status MatrixDiagV3Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(std::string align, op.GetString("align"));
  Output part = ops::MatrixDiagPartV3(s, g[0], op.inputs[1], grad::ScalarLike(s, 0.0, g[0]), align);
  *out = {part, Output(), Output(), Output(), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixDiagV3", MatrixDiagV3Grad);

// MatrixDiagPartV3(input, k, padding_value): the gradient placed on the diagonals of zeros.
absl::Status MatrixDiagPartV3Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(std::string align, op.GetString("align"));
  Output full = ops::MatrixSetDiagV3(s, ops::ZerosLike(s, op.inputs[0]), g[0], op.inputs[1], align);
  *out = {full, Output(), Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixDiagPartV3", MatrixDiagPartV3Grad);

// MatrixSetDiagV3(input, diagonal, k): the input gets the gradient with those diagonals zeroed,
// the diagonal gets them.
absl::Status MatrixSetDiagV3Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(std::string align, op.GetString("align"));
  const Output& k = op.inputs[2];
  Output grad_input = ops::MatrixSetDiagV3(s, g[0], ops::ZerosLike(s, op.inputs[1]), k, align);
  Output grad_diag = ops::MatrixDiagPartV3(s, g[0], k, grad::ScalarLike(s, 0.0, g[0]), align);
  *out = {grad_input, grad_diag, Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixSetDiagV3", MatrixSetDiagV3Grad);

// The V1 forms, main diagonal only: MatrixDiag's gradient is the gradient's diagonal,
// MatrixDiagPart's the gradient set on the diagonal of zeros, MatrixSetDiag's as the V3 form's.
absl::Status MatrixDiagGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::MatrixDiagPart(s, g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixDiag", MatrixDiagGrad);
absl::Status MatrixDiagPartGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::MatrixSetDiag(s, ops::ZerosLike(s, op.inputs[0]), g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixDiagPart", MatrixDiagPartGrad);
absl::Status MatrixSetDiagGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::MatrixSetDiag(s, g[0], ops::ZerosLike(s, op.inputs[1])),
          ops::MatrixDiagPart(s, g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixSetDiag", MatrixSetDiagGrad);
// Diag and DiagPart: each other's gradient.
absl::Status DiagGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::DiagPart(s, g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Diag", DiagGrad);
absl::Status DiagPartGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Diag(s, g[0])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("DiagPart", DiagPartGrad);

// --- Inverses, determinants, solves, Cholesky --------------------------------------------------

absl::Status MatrixInverseGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool adj, op.GetBool("adjoint"));
  const Output& ainv = op.outputs[0];
  *out = {ops::Neg(s, MatMul(s, ainv, MatMul(s, g[0], ainv, adj, !adj), !adj, false))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixInverse", MatrixInverseGrad);

// d det(a) = g * det(a) * inv(a)^H; d log|det(a)| = g * inv(a)^H.
Output DeterminantGrad(const Scope& s, const Output& a, const Output& per_matrix,
                       const Output& det_like) {
  Output a_adj_inv = ops::MatrixInverse(s, a, /*adjoint=*/true);
  Output shape =
      ops::ConcatV2(s, {ops::Shape(s, det_like), ops::Const(s, {1, 1})}, ops::Const(s, 0));
  return ops::Mul(s, ops::Reshape(s, per_matrix, shape), a_adj_inv);
}

absl::Status MatrixDeterminantGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& c = op.outputs[0];
  *out = {DeterminantGrad(s, op.inputs[0], ops::Mul(s, g[0], c), c)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixDeterminant", MatrixDeterminantGrad);

// Outputs (sign, log|det|): only log|det| carries a gradient.
absl::Status LogMatrixDeterminantGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {DeterminantGrad(s, op.inputs[0], g[1], op.outputs[1])};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("LogMatrixDeterminant", LogMatrixDeterminantGrad);

// c = a^-1 b: db = a^-H g, da = -db c^H (adjoint forms swapped).
absl::Status MatrixSolveGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool adj, op.GetBool("adjoint"));
  const Output& c = op.outputs[0];
  Output grad_b = ops::MatrixSolve(s, op.inputs[0], g[0], !adj);
  Output grad_a = adj ? MatMul(s, c, grad_b, false, true) : MatMul(s, grad_b, c, false, true);
  *out = {ops::Neg(s, grad_a), grad_b};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixSolve", MatrixSolveGrad);

// As MatrixSolve, with a's gradient kept to its triangle and both summed over broadcast batches.
absl::Status MatrixTriangularSolveGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(bool adj, op.GetBool("adjoint"));
  RILL_ASSIGN_OR_RETURN(bool lower, op.GetBool("lower"));
  const Output& a = op.inputs[0];
  const Output& c = op.outputs[0];
  Output grad_b = ops::MatrixTriangularSolve(s, a, g[0], lower, !adj);
  Output grad_a =
      ops::Neg(s, adj ? MatMul(s, c, grad_b, false, true) : MatMul(s, grad_b, c, false, true));
  Output minus_one = ops::Const(s, int64_t{-1});
  Output zero = ops::Const(s, int64_t{0});
  grad_a = lower ? ops::MatrixBandPart(s, grad_a, minus_one, zero)
                 : ops::MatrixBandPart(s, grad_a, zero, minus_one);
  *out = ReduceBatch(s, a, op.inputs[1], grad_a, grad_b);
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("MatrixTriangularSolve", MatrixTriangularSolveGrad);

// a = l l^H: da = sym(l^-H Phi(l^H g) l^-1) / 2, Phi keeping the lower triangle with the
// diagonal halved.
absl::Status CholeskyGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& l = op.outputs[0];
  Output shape = ops::Shape(s, l);
  Output ones =
      ops::Fill(s, ops::ConcatV2(s, {BatchDims(s, shape), LastDims(s, shape, 1)}, ops::Const(s, 0)),
                grad::ScalarLike(s, 1.0, l));
  Output minus_one = ops::Const(s, -1);
  Output eye = ops::MatrixDiagV3(s, ones, ops::Const(s, 0), minus_one, minus_one,
                                 grad::ScalarLike(s, 0.0, l));
  Output l_inverse = ops::MatrixTriangularSolve(s, l, eye);
  Output middle = MatMul(s, l, g[0], true, false);
  Output half = grad::ScalarLike(s, 0.5, l);
  middle = ops::MatrixSetDiagV3(
      s, middle,
      ops::Mul(s, half,
               ops::MatrixDiagPartV3(s, middle, ops::Const(s, 0), grad::ScalarLike(s, 0.0, l))),
      ops::Const(s, 0));
  middle = ops::MatrixBandPart(s, middle, ops::Const(s, int64_t{-1}), ops::Const(s, int64_t{0}));
  Output grad_a = MatMul(s, MatMul(s, l_inverse, middle, true, false), l_inverse);
  grad_a = ops::AddV2(s, grad_a, Adjoint(s, grad_a));
  *out = {ops::Mul(s, grad_a, half)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Cholesky", CholeskyGrad);

// --- Fourier transforms ----------------------------------------------------------------------

// FFT: the inverse transform scaled by the transform size; IFFT: the forward one divided by it.
absl::Status FftGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out, int rank,
                     bool inverse) {
  const DataType complex_type = BaseType(g[0].dtype());
  const DataType real_type = complex_type == DT_COMPLEX128 ? DT_DOUBLE : DT_FLOAT;
  Output size = InnerSize(s, g[0], rank);
  if (!inverse) {
    Output back = rank == 1   ? ops::IFFT(s, g[0])
                  : rank == 2 ? ops::IFFT2D(s, g[0])
                              : ops::IFFT3D(s, g[0]);
    *out = {ops::Mul(s, back, ops::Cast(s, size, complex_type))};
  } else {
    Output rsize =
        ops::Cast(s,
                  ops::RealDiv(s, grad::ScalarLike(s, 1.0, ops::Cast(s, size, real_type)),
                               ops::Cast(s, size, real_type)),
                  complex_type);
    Output back = rank == 1   ? ops::FFT(s, g[0])
                  : rank == 2 ? ops::FFT2D(s, g[0])
                              : ops::FFT3D(s, g[0]);
    *out = {ops::Mul(s, back, rsize)};
  }
  return absl::OkStatus();
}
absl::Status FFTGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return FftGrad(s, op, g, out, 1, false);
}
absl::Status IFFTGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return FftGrad(s, op, g, out, 1, true);
}
absl::Status FFT2DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return FftGrad(s, op, g, out, 2, false);
}
absl::Status IFFT2DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return FftGrad(s, op, g, out, 2, true);
}
RILL_REGISTER_GRADIENT("FFT", FFTGrad);
RILL_REGISTER_GRADIENT("IFFT", IFFTGrad);
RILL_REGISTER_GRADIENT("FFT2D", FFT2DGrad);
absl::Status FFT3DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return FftGrad(s, op, g, out, 3, false);
}
absl::Status IFFT3DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return FftGrad(s, op, g, out, 3, true);
}
RILL_REGISTER_GRADIENT("IFFT2D", IFFT2DGrad);
RILL_REGISTER_GRADIENT("FFT3D", FFT3DGrad);
RILL_REGISTER_GRADIENT("IFFT3D", IFFT3DGrad);

// The last entry of a 1-D int tensor, as a scalar.
Output LastEntry(const Scope& s, const Output& v) {
  ops::StridedSliceMasks m;
  m.end = 1;
  m.shrink_axis = 1;
  return ops::StridedSlice(s, v, ops::Const(s, {-1}), ops::Const(s, {0}), ops::Const(s, {1}), m);
}

// IRFFT: the RFFT of the gradient divided by the transform size, the bins the real transform
// stores once for two (all but the first and, for an even length, the last) doubled.
absl::Status IrfftGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out, int rank) {
  const Output& fft_length = op.inputs[1];
  const DataType real_type = BaseType(g[0].dtype());
  const DataType complex_type = real_type == DT_DOUBLE ? DT_COMPLEX128 : DT_COMPLEX64;
  Output is_odd = ops::FloorMod(s, LastEntry(s, fft_length), ops::Const(s, 2));
  Output last_dim = LastEntry(s, ops::Shape(s, op.inputs[0]));
  Output one = grad::ScalarLike(s, 1.0, g[0]);
  auto ones = [&](const Output& n) {
    return ops::Fill(s, ops::Reshape(s, n, ops::Const(s, {1})), one);
  };
  Output mask =
      ops::ConcatV2(s,
                    {ops::Reshape(s, one, ops::Const(s, {1})),
                     ops::Mul(s, grad::ScalarLike(s, 2.0, g[0]),
                              ones(ops::AddV2(s, ops::Sub(s, last_dim, ops::Const(s, 2)), is_odd))),
                     ones(ops::Sub(s, ops::Const(s, 1), is_odd))},
                    ops::Const(s, 0));
  Output rsize = ops::Reciprocal(s, ops::Cast(s, InnerSize(s, g[0], rank), real_type));
  Output the_rfft = rank == 1 ? ops::RFFT(s, g[0], fft_length) : ops::RFFT2D(s, g[0], fft_length);
  *out = {ops::Mul(s, the_rfft, ops::Cast(s, ops::Mul(s, rsize, mask), complex_type)), Output()};
  return absl::OkStatus();
}
absl::Status IRFFTGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return IrfftGrad(s, op, g, out, 1);
}
absl::Status IRFFT2DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return IrfftGrad(s, op, g, out, 2);
}
RILL_REGISTER_GRADIENT("IRFFT", IRFFTGrad);
RILL_REGISTER_GRADIENT("IRFFT2D", IRFFT2DGrad);

// RFFT: half the IRFFT of the gradient times the input size, plus the real part of the terms
// for the first bin and (even lengths) the last bin that IRFFT counts once.
absl::Status RFFTGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  const Output& fft_length = op.inputs[1];
  const DataType complex_type = BaseType(g[0].dtype());
  const DataType real_type = complex_type == DT_COMPLEX128 ? DT_DOUBLE : DT_FLOAT;
  Output is_even = ops::Cast(
      s,
      ops::Sub(s, ops::Const(s, 1), ops::FloorMod(s, LastEntry(s, fft_length), ops::Const(s, 2))),
      complex_type);
  ops::StridedSliceMasks m;
  m.ellipsis = 1;
  Output y0 = ops::StridedSlice(s, g[0], ops::Const(s, {0, 0}), ops::Const(s, {0, 1}),
                                ops::Const(s, {1, 1}), m);
  ops::StridedSliceMasks m_last = m;
  m_last.end = 2;
  Output ym = ops::StridedSlice(s, g[0], ops::Const(s, {0, -1}), ops::Const(s, {0, 0}),
                                ops::Const(s, {1, 1}), m_last);
  Output n = LastEntry(s, ops::Shape(s, x));
  Output ymask = ops::Cast(
      s,
      ops::Sub(s, ops::Const(s, 1),
               ops::Mul(s, ops::Const(s, 2),
                        ops::FloorMod(s, ops::Range(s, ops::Const(s, 0), n, ops::Const(s, 1)),
                                      ops::Const(s, 2)))),
      complex_type);
  Output extra = ops::AddV2(s, y0, ops::Mul(s, ops::Mul(s, is_even, ym), ymask));
  Output input_size = ops::Cast(s, InnerSize(s, x, 1), real_type);
  Output the_irfft = ops::IRFFT(s, g[0], fft_length);
  *out = {ops::Mul(s, grad::ScalarLike(s, 0.5, the_irfft),
                   ops::AddV2(s, ops::Mul(s, the_irfft, input_size), ops::Real(s, extra))),
          Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("RFFT", RFFTGrad);

// RFFT2D: as RFFT along the last dim, the terms for the first and (even lengths) last bins
// transformed along the other dim: Re(W conj(y)) with W[i][j] = exp(-2 pi i ij / rows), built
// from its real and imaginary parts (only the real part of the extra terms is used).
absl::Status RFFT2DGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& x = op.inputs[0];
  const Output& fft_length = op.inputs[1];
  const DataType real_type = BaseType(x.dtype());
  Output input_shape = ops::Shape(s, x);
  Output is_even = ops::Cast(
      s,
      ops::Sub(s, ops::Const(s, 1), ops::FloorMod(s, LastEntry(s, fft_length), ops::Const(s, 2))),
      real_type);
  Output rows = ShapeAt(s, input_shape, -2);
  Output inner_dim = ShapeAt(s, input_shape, -1);
  Output idx = ops::Range(s, ops::Const(s, 0), rows, ops::Const(s, 1));
  Output ij = ops::Cast(s,
                        ops::Mul(s, ops::ExpandDims(s, idx, ops::Const(s, 1)),
                                 ops::ExpandDims(s, idx, ops::Const(s, 0))),
                        real_type);
  Output angle = ops::RealDiv(s, ops::Mul(s, grad::ScalarLike(s, -2.0 * M_PI, ij), ij),
                              ops::Cast(s, rows, real_type));
  Output w_re = ops::Cos(s, angle);
  Output w_im = ops::Sin(s, angle);
  // Re(W conj(y)) = W_re Re(y) + W_im Im(y).
  auto real_term = [&](const Output& y) {
    return ops::AddV2(s, MatMul(s, w_re, ops::Real(s, y)), MatMul(s, w_im, ops::Imag(s, y)));
  };
  ops::StridedSliceMasks m;
  m.ellipsis = 1;
  Output y0 = ops::StridedSlice(s, g[0], ops::Const(s, {0, 0}), ops::Const(s, {0, 1}),
                                ops::Const(s, {1, 1}), m);
  ops::StridedSliceMasks m_last = m;
  m_last.end = 2;
  Output ym = ops::StridedSlice(s, g[0], ops::Const(s, {0, -1}), ops::Const(s, {0, 0}),
                                ops::Const(s, {1, 1}), m_last);
  Output ymask = ops::Cast(
      s,
      ops::Sub(
          s, ops::Const(s, 1),
          ops::Mul(s, ops::Const(s, 2),
                   ops::FloorMod(s, ops::Range(s, ops::Const(s, 0), inner_dim, ops::Const(s, 1)),
                                 ops::Const(s, 2)))),
      real_type);
  Output ym_term = ops::Mul(s, real_term(ym), ymask);  // broadcast [..., rows, 1] * [inner]
  Output extra = ops::AddV2(s, real_term(y0), ops::Mul(s, is_even, ym_term));
  Output input_size = ops::Cast(s, InnerSize(s, x, 2), real_type);
  Output the_irfft = ops::IRFFT2D(s, g[0], fft_length);
  *out = {ops::Mul(s, grad::ScalarLike(s, 0.5, the_irfft),
                   ops::AddV2(s, ops::Mul(s, the_irfft, input_size), extra)),
          Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("RFFT2D", RFFT2DGrad);

// --- Einsum ----------------------------------------------------------------------------------

constexpr char kEllipsis[] = "...";
constexpr size_t kEllipsisSize = 3;

// The axis of `label` in `subs`: its index before an ellipsis, or its negative index from the end
// after one; the leftmost occurrence. -1000 when absent.
int AxisOfLabel(absl::string_view subs, char label) {
  const size_t dots = subs.find(kEllipsis);
  absl::string_view head = dots == absl::string_view::npos ? subs : subs.substr(0, dots);
  if (size_t i = head.find(label); i != absl::string_view::npos) return static_cast<int>(i);
  if (dots == absl::string_view::npos) return -1000;
  absl::string_view tail = subs.substr(dots + kEllipsisSize);
  if (size_t i = tail.find(label); i != absl::string_view::npos) {
    return static_cast<int>(i) - static_cast<int>(tail.size());
  }
  return -1000;
}

// shape[start:end] (end 0 meaning the end of the shape).
Output ShapeSlice(const Scope& s, const Output& shape, int start, int end) {
  ops::StridedSliceMasks m;
  if (end == 0) m.end = 1;
  return ops::StridedSlice(s, shape, ops::Const(s, {start}), ops::Const(s, {end}),
                           ops::Const(s, {1}), m);
}

bool HasRepeatedLabel(absl::string_view subs) {
  std::string letters;
  for (char c : subs) {
    if (c == '.') continue;
    if (letters.find(c) != std::string::npos) return true;
    letters.push_back(c);
  }
  return false;
}

// The distinct labels of `subs` (not '.') absent from `keep`, sorted.
std::string LabelsNotIn(absl::string_view subs, absl::string_view keep) {
  std::string out;
  for (char c : subs) {
    if (c == '.' || keep.find(c) != absl::string_view::npos) continue;
    if (out.find(c) == std::string::npos) out.push_back(c);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The gradient of a one-operand einsum `input_subs->output_subs` that sums out `reduced`:
// the output gradient broadcast along the summed labels.
Output EinsumGradReduced(const Scope& s, const Output& output_grad, const std::string& output_subs,
                         const std::string& input_subs, const Output& input_shape,
                         const std::string& reduced) {
  std::vector<int> axes;
  std::vector<Output> dims;
  for (char c : reduced) {
    axes.push_back(AxisOfLabel(input_subs, c));
    dims.push_back(ShapeAt(s, input_shape, axes.back()));
  }
  std::string without;
  for (char c : input_subs) {
    if (reduced.find(c) == std::string::npos) without.push_back(c);
  }
  if (!HasRepeatedLabel(input_subs) && !HasRepeatedLabel(output_subs) && without == output_subs) {
    Output kept = grad::ReducedShape(s, input_shape, ops::Const(s, axes, {int64_t(axes.size())}));
    return ops::BroadcastTo(s, ops::Reshape(s, output_grad, kept), input_shape);
  }
  Output grad_shape = ops::Shape(s, output_grad);
  Output zero = ops::Const(s, 0);
  Output full = ops::ConcatV2(s, {ops::Pack(s, dims), grad_shape}, zero);
  Output ones = ops::ConcatV2(
      s,
      {ops::Const(s, std::vector<int>(reduced.size(), 1), {int64_t(reduced.size())}), grad_shape},
      zero);
  Output broadcast = ops::BroadcastTo(s, ops::Reshape(s, output_grad, ones), full);
  return ops::Einsum(s, {broadcast}, reduced + output_subs + "->" + input_subs);
}

// The gradient of a two-operand einsum with respect to the operand `input_subs` (before
// unbroadcasting).
Output EinsumGradWrt(const Scope& s, const Output& output_grad, const Output& other,
                     const Output& input_shape, const std::string& input_subs,
                     const std::string& other_subs, const std::string& output_subs) {
  const std::string reduced = LabelsNotIn(input_subs, output_subs + other_subs);
  std::string left;
  for (char c : input_subs) {
    if (reduced.find(c) == std::string::npos) left.push_back(c);
  }
  Output grad_reduced =
      ops::Einsum(s, {output_grad, other}, output_subs + "," + other_subs + "->" + left);
  if (reduced.empty()) return grad_reduced;
  return EinsumGradReduced(s, grad_reduced, left, input_subs, input_shape, reduced);
}

// The ellipsis dims of `subs` (which has one) as slice bounds shape[start:end], end <= 0
// counting from the end and 0 meaning to the end.
struct BcastRange {
  int start = 0, end = 0;
};
BcastRange EllipsisRange(const std::string& subs) {
  const size_t start = subs.find(kEllipsis);
  const int remaining = static_cast<int>(subs.size() - (start + kEllipsisSize));
  return {static_cast<int>(start), remaining > 0 ? -remaining : 0};
}

absl::Status EinsumGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  RILL_ASSIGN_OR_RETURN(std::string equation, op.GetString("equation"));
  const size_t arrow = equation.find("->");
  if (arrow == std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("Node '", op.name(), "' (Einsum): equation '", equation, "' has no '->'"));
  }
  const std::string input_subs = equation.substr(0, arrow);
  const std::string output_subs = equation.substr(arrow + 2);
  if (op.inputs.size() == 1) {
    Output input_shape = ops::Shape(s, op.inputs[0]);
    const std::string reduced = LabelsNotIn(input_subs, output_subs);
    if (reduced.empty()) {
      *out = {ops::Einsum(s, {g[0]}, output_subs + "->" + input_subs)};
    } else {
      *out = {EinsumGradReduced(s, g[0], output_subs, input_subs, input_shape, reduced)};
    }
    return absl::OkStatus();
  }
  const size_t comma = input_subs.find(',');
  if (op.inputs.size() != 2 || comma == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("Node '", op.name(), "' (Einsum): equation '",
                                                   equation, "' does not have 2 operands"));
  }
  std::string x_subs = input_subs.substr(0, comma);
  std::string y_subs = input_subs.substr(comma + 1);
  const bool out_ellipsis = output_subs.find(kEllipsis) != std::string::npos;
  if (out_ellipsis) {
    if (x_subs.find(kEllipsis) == std::string::npos) x_subs += kEllipsis;
    if (y_subs.find(kEllipsis) == std::string::npos) y_subs += kEllipsis;
  }
  const Output x = grad::MaybeConj(s, op.inputs[0]);
  const Output y = grad::MaybeConj(s, op.inputs[1]);
  Output x_shape = ops::Shape(s, x);
  Output y_shape = ops::Shape(s, y);
  Output grad_x = EinsumGradWrt(s, g[0], y, x_shape, x_subs, y_subs, output_subs);
  Output grad_y = EinsumGradWrt(s, g[0], x, y_shape, y_subs, x_subs, output_subs);
  if (!out_ellipsis) {
    *out = {grad_x, grad_y};
    return absl::OkStatus();
  }
  // Sum each gradient over the ellipsis dims its operand broadcast.
  const BcastRange bx = EllipsisRange(x_subs);
  const BcastRange by = EllipsisRange(y_subs);
  auto r = ops::BroadcastGradientArgs(s, ShapeSlice(s, x_shape, bx.start, bx.end),
                                      ShapeSlice(s, y_shape, by.start, by.end));
  Output rx = ops::AddV2(s, r.r0, ops::Const(s, bx.start));
  Output ry = ops::AddV2(s, r.r1, ops::Const(s, by.start));
  *out = {ops::Reshape(s, ops::Sum(s, grad_x, rx), x_shape),
          ops::Reshape(s, ops::Sum(s, grad_y, ry), y_shape)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Einsum", EinsumGrad);

// --- QR ----------------------------------------------------------------------------------------

// x[..., :, begin:end] (end 0 meaning to the end).
Output Columns(const Scope& s, const Output& x, int begin, int end) {
  ops::StridedSliceMasks m;
  m.ellipsis = 1;
  m.begin = 2 | (begin == 0 ? 4 : 0);
  m.end = 2 | (end == 0 ? 4 : 0);
  return ops::StridedSlice(s, x, ops::Const(s, {0, 0, begin}), ops::Const(s, {0, 0, end}),
                           ops::Const(s, {1, 1, 1}), m);
}

// x r^-H for upper-triangular r.
Output SolveUpperAdjoint(const Scope& s, const Output& x, const Output& r) {
  return Adjoint(s, ops::MatrixTriangularSolve(s, r, Adjoint(s, x), /*lower=*/false));
}

// The QR gradient for num_rows >= num_cols (reduced q).
Output QrGradDeep(const Scope& s, const Output& q, const Output& r, const Output& dq,
                  const Output& dr) {
  Output qdq = MatMul(s, q, dq, true, false);
  Output qdq_ = ops::Sub(s, qdq, Adjoint(s, qdq));
  Output rdr = MatMul(s, r, dr, false, true);
  Output rdr_ = ops::Sub(s, rdr, Adjoint(s, rdr));
  Output tril = ops::MatrixBandPart(s, ops::AddV2(s, qdq_, rdr_), ops::Const(s, int64_t{-1}),
                                    ops::Const(s, int64_t{0}));
  Output grad_a = MatMul(s, q, ops::AddV2(s, dr, SolveUpperAdjoint(s, tril, r)));
  Output grad_b = SolveUpperAdjoint(s, ops::Sub(s, dq, MatMul(s, q, qdq)), r);
  return ops::AddV2(s, grad_a, grad_b);
}

// Needs the static matrix dims of q and r; a wide input (rows < cols) splits a = [x, y] with x
// square. Real dtypes only (the complex correction term is not built).
absl::Status QrGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& q = op.outputs[0];
  const Output& r = op.outputs[1];
  RILL_ASSIGN_OR_RETURN(PartialTensorShape q_shape, s.GetShape(q));
  RILL_ASSIGN_OR_RETURN(PartialTensorShape r_shape, s.GetShape(r));
  auto dim = [](const PartialTensorShape& shape, int from_end) -> int64_t {
    if (shape.rank() < 2) return -1;
    return shape.dims()[shape.rank() - from_end];
  };
  const int64_t q_rows = dim(q_shape, 2), q_cols = dim(q_shape, 1);
  const int64_t r_rows = dim(r_shape, 2), r_cols = dim(r_shape, 1);
  if (q_rows < 0 || q_cols < 0 || r_rows < 0 || r_cols < 0) {
    return absl::UnimplementedError(
        absl::StrCat("Node '", op.name(), "' (Qr): the gradient needs static matrix dims; got q ",
                     q_shape.DebugString(), ", r ", r_shape.DebugString()));
  }
  if (r_rows > r_cols && q_rows == q_cols) {
    return absl::UnimplementedError(absl::StrCat(
        "Node '", op.name(), "' (Qr): no gradient for full_matrices=true with more rows (", r_rows,
        ") than columns (", r_cols, "); use full_matrices=false"));
  }
  const DataType t = BaseType(q.dtype());
  if (t == DT_COMPLEX64 || t == DT_COMPLEX128) {
    return absl::UnimplementedError(
        absl::StrCat("Node '", op.name(), "' (Qr): no gradient for complex inputs"));
  }
  if (q_rows >= r_cols) {
    *out = {QrGradDeep(s, q, r, g[0], g[1])};
    return absl::OkStatus();
  }
  const int n = static_cast<int>(q_rows);
  Output y = Columns(s, op.inputs[0], n, 0);
  Output u = Columns(s, r, 0, n);
  Output dv = Columns(s, g[1], n, 0);
  Output du = Columns(s, g[1], 0, n);
  Output dy = MatMul(s, q, dv);
  Output dx = QrGradDeep(s, q, u, ops::AddV2(s, g[0], MatMul(s, y, dv, false, true)), du);
  *out = {ops::ConcatV2(s, {dx, dy}, ops::Const(s, -1))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Qr", QrGrad);

// --- SVD ---------------------------------------------------------------------------------------

// A batch of diagonal matrices from the last dim of `d`.
Output MatrixDiag(const Scope& s, const Output& d) {
  Output minus_one = ops::Const(s, -1);
  return ops::MatrixDiagV3(s, d, ops::Const(s, 0), minus_one, minus_one,
                           grad::ScalarLike(s, 0.0, d));
}

// x / (x^2 + 1e-20): 1/x away from 0, 0 at 0.
Output SafeReciprocal(const Scope& s, const Output& x) {
  return ops::Mul(
      s, x, ops::Reciprocal(s, ops::AddV2(s, ops::Mul(s, x, x), grad::ScalarLike(s, 1e-20, x))));
}

// Outputs (s, u, v). Needs the static matrix dims of the input; with full_matrices they may
// differ by at most one. Real dtypes only.
absl::Status SvdGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& a = op.inputs[0];
  RILL_ASSIGN_OR_RETURN(bool compute_uv, op.GetBool("compute_uv"));
  RILL_ASSIGN_OR_RETURN(bool full_matrices, op.GetBool("full_matrices"));
  const DataType t = BaseType(a.dtype());
  if (t == DT_COMPLEX64 || t == DT_COMPLEX128) {
    return absl::UnimplementedError(
        absl::StrCat("Node '", op.name(), "' (Svd): no gradient for complex inputs"));
  }
  Output grad_s_mat = MatrixDiag(s, g[0]);
  if (!compute_uv) {
    std::vector<Output> usv = ops::Svd(s, a, /*compute_uv=*/true, /*full_matrices=*/false);
    *out = {MatMul(s, usv[1], MatMul(s, grad_s_mat, usv[2], false, true))};
    return absl::OkStatus();
  }
  RILL_ASSIGN_OR_RETURN(PartialTensorShape a_shape, s.GetShape(a));
  const int rank = a_shape.rank();
  int64_t m = rank >= 2 ? a_shape.dims()[rank - 2] : -1;
  int64_t n = rank >= 2 ? a_shape.dims()[rank - 1] : -1;
  if (m < 0 || n < 0) {
    return absl::UnimplementedError(absl::StrCat("Node '", op.name(),
                                                 "' (Svd): the gradient needs static matrix "
                                                 "dims; got ",
                                                 a_shape.DebugString()));
  }
  Output sv = op.outputs[0];
  Output u = op.outputs[1];
  Output v = op.outputs[2];
  Output grad_u = g[1];
  Output grad_v = g[2];
  const bool use_adjoint = m > n;
  if (use_adjoint) {
    std::swap(m, n);
    std::swap(u, v);
    std::swap(grad_u, grad_v);
  }
  if (full_matrices && n - m > 1) {
    return absl::UnimplementedError(absl::StrCat(
        "Node '", op.name(), "' (Svd): no gradient for full_matrices=true with matrix dims ", m,
        " and ", n, " differing by more than one; use full_matrices=false"));
  }
  const int mi = static_cast<int>(m);
  Output s_mat = MatrixDiag(s, sv);
  Output s2 = ops::Square(s, sv);
  Output f =
      ops::MatrixSetDiagV3(s,
                           SafeReciprocal(s, ops::Sub(s, ops::ExpandDims(s, s2, ops::Const(s, -2)),
                                                      ops::ExpandDims(s, s2, ops::Const(s, -1)))),
                           ops::ZerosLike(s, sv), ops::Const(s, 0));
  Output s_inv_mat = MatrixDiag(s, SafeReciprocal(s, sv));
  Output v1 = Columns(s, v, 0, mi);
  Output grad_v1 = Columns(s, grad_v, 0, mi);
  Output u_gu = MatMul(s, u, grad_u, true, false);
  Output v_gv = MatMul(s, v1, grad_v1, true, false);
  Output f_u = ops::Mul(s, f, u_gu);
  Output f_v = ops::Mul(s, f, v_gv);
  Output term1_nouv = ops::AddV2(
      s, ops::AddV2(s, grad_s_mat, MatMul(s, ops::AddV2(s, f_u, Adjoint(s, f_u)), s_mat)),
      MatMul(s, s_mat, ops::AddV2(s, f_v, Adjoint(s, f_v))));
  Output grad_a = MatMul(s, u, MatMul(s, term1_nouv, v1, false, true));
  if (m != n) {
    Output gv1t = Adjoint(s, grad_v1);
    Output gv1t_v1 = MatMul(s, gv1t, v1);
    Output term2_nous = ops::Sub(s, gv1t, MatMul(s, gv1t_v1, v1, false, true));
    if (full_matrices) {
      Output v2 = Columns(s, v, mi, static_cast<int>(n));
      Output grad_v2 = Columns(s, grad_v, mi, static_cast<int>(n));
      Output v1t_gv2 = MatMul(s, v1, grad_v2, true, false);
      term2_nous = ops::Sub(s, term2_nous, MatMul(s, v1t_gv2, v2, false, true));
    }
    Output term2 = MatMul(s, MatMul(s, u, s_inv_mat), term2_nous);
    grad_a = ops::AddV2(s, grad_a, term2);
  }
  *out = {use_adjoint ? Adjoint(s, grad_a) : grad_a};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Svd", SvdGrad);

// SelfAdjointEigV2 (TensorFlow's linalg_grad.py): with compute_v, grad_a = V (diag(grad_e) +
// F o (V^H grad_v)) V^H with F[i][j] = 1 / (e_j - e_i) off the diagonal (SafeReciprocal), 0 on
// it; without it, V diag(grad_e) V^H from a second decomposition. The op reads only the lower
// triangle, so grad_a is symmetrized, its lower triangle kept and its diagonal halved. Real
// dtypes only.
absl::Status SelfAdjointEigV2Grad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& a = op.inputs[0];
  RILL_ASSIGN_OR_RETURN(bool compute_v, op.GetBool("compute_v"));
  const DataType t = BaseType(a.dtype());
  if (t == DT_COMPLEX64 || t == DT_COMPLEX128) {
    return absl::UnimplementedError(
        absl::StrCat("Node '", op.name(), "' (SelfAdjointEigV2): no gradient for complex inputs"));
  }
  Output e = op.outputs[0];
  Output grad_a;
  if (compute_v) {
    Output v = op.outputs[1];
    Output f =
        ops::MatrixSetDiagV3(s,
                             SafeReciprocal(s, ops::Sub(s, ops::ExpandDims(s, e, ops::Const(s, -2)),
                                                        ops::ExpandDims(s, e, ops::Const(s, -1)))),
                             ops::ZerosLike(s, e), ops::Const(s, 0));
    Output inner =
        ops::AddV2(s, MatrixDiag(s, g[0]), ops::Mul(s, f, MatMul(s, v, g[1], true, false)));
    grad_a = MatMul(s, v, MatMul(s, inner, v, false, true));
  } else {
    Output v =
        OpBuilder(s, "SelfAdjointEigV2").Input(a).Attr("compute_v", true).Finalize().output(1);
    grad_a = MatMul(s, v, MatMul(s, MatrixDiag(s, g[0]), v, false, true));
  }
  grad_a = ops::MatrixBandPart(s, ops::AddV2(s, grad_a, Adjoint(s, grad_a)),
                               ops::Const(s, int64_t{-1}), ops::Const(s, int64_t{0}));
  Output half_diag = ops::Mul(
      s, grad::ScalarLike(s, 0.5, grad_a),
      ops::MatrixDiagPartV3(s, grad_a, ops::Const(s, 0), grad::ScalarLike(s, 0.0, grad_a)));
  *out = {ops::MatrixSetDiagV3(s, grad_a, half_diag, ops::Const(s, 0))};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("SelfAdjointEigV2", SelfAdjointEigV2Grad);

// Eig (TensorFlow's linalg_grad.py, distinct eigenvalues): with Vt = V^H and compute_v,
// grad_a = Vt^-1 (diag(grad_e) + conj(F) o (Vt grad_v - Vt V diag(Re(diag(Vt grad_v))))) Vt with
// F[i][j] = 1 / (e_j - e_i) off the diagonal (SafeReciprocal), 0 on it; the diagonal term keeps
// the eigenvectors' unit norms. Without compute_v, Vt^-1 diag(grad_e) Vt from a second
// decomposition. Vt^-1 is a MatrixSolve with Vt, ill-conditioned near defective matrices; equal
// eigenvalues give inf or NaN, as in TensorFlow. Real inputs get the real part.
absl::Status EigGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const Output& a = op.inputs[0];
  RILL_ASSIGN_OR_RETURN(bool compute_v, op.GetBool("compute_v"));
  Output e = op.outputs[0];
  Output v = compute_v ? op.outputs[1] : ops::Eig(s, a, BaseType(e.dtype()), true)[1];
  Output vt = Adjoint(s, v);
  Output mid = MatrixDiag(s, g[0]);
  if (compute_v) {
    Output f = ops::Conj(
        s,
        ops::MatrixSetDiagV3(s,
                             SafeReciprocal(s, ops::Sub(s, ops::ExpandDims(s, e, ops::Const(s, -2)),
                                                        ops::ExpandDims(s, e, ops::Const(s, -1)))),
                             ops::ZerosLike(s, e), ops::Const(s, 0)));
    Output vgv = MatMul(s, vt, g[1]);
    Output re = ops::Cast(s, ops::Real(s, vgv), BaseType(vgv.dtype()));
    Output real_diag = ops::MatrixDiagPartV3(s, re, ops::Const(s, 0), grad::ScalarLike(s, 0.0, re));
    mid = ops::AddV2(
        s, mid,
        ops::Mul(s, f, ops::Sub(s, vgv, MatMul(s, MatMul(s, vt, v), MatrixDiag(s, real_diag)))));
  }
  Output grad_a = ops::MatrixSolve(s, vt, MatMul(s, mid, vt));
  const DataType t = BaseType(a.dtype());
  *out = {t == DT_COMPLEX64 || t == DT_COMPLEX128 ? grad_a : ops::Real(s, grad_a)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Eig", EigGrad);

}  // namespace
}  // namespace rill
