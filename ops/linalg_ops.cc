// Op definitions of the dense linear-algebra ops: MatrixDeterminant, LogMatrixDeterminant,
// MatrixInverse, Cholesky, Qr, Svd, SelfAdjointEigV2, MatrixTriangularSolve, MatrixSolve.
// Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
//
// Shape functions never fail: the kernels report bad shapes with TensorFlow's texts. Outputs are
// inferred where the input's rank is known (rank >= 2) and are unknown otherwise.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace rill {
namespace {

// The input's dims when its rank is known and >= 2, else nullopt-like (empty + false).
bool MatrixDims(const ShapeInferenceContext& c, int i, std::vector<int64_t>* dims) {
  const PartialTensorShape& in = c.input(i);
  if (in.unknown_rank() || in.rank() < 2) return false;
  *dims = in.dims();
  return true;
}

// Dim arithmetic with -1 for unknown.
int64_t MinDim(int64_t a, int64_t b) {
  if (a >= 0 && b >= 0) return std::min(a, b);
  if (a == 0 || b == 0) return 0;
  return -1;
}

// The batch dims (all but the last `drop`) followed by `tail`.
PartialTensorShape BatchPlus(const std::vector<int64_t>& dims, int drop,
                             std::vector<int64_t> tail) {
  std::vector<int64_t> out(dims.begin(), dims.end() - drop);
  out.insert(out.end(), tail.begin(), tail.end());
  return PartialTensorShape(std::move(out));
}

// Determinants: the batch dims, for every output.
absl::Status DeterminantShape(ShapeInferenceContext& c) {
  std::vector<int64_t> d;
  if (!MatrixDims(c, 0, &d)) return absl::OkStatus();
  for (int i = 0; i < c.num_outputs(); ++i) c.set_output(i, BatchPlus(d, 2, {}));
  return absl::OkStatus();
}

// Square results (inverse, Cholesky): the input's shape.
absl::Status SquareShape(ShapeInferenceContext& c) {
  std::vector<int64_t> d;
  if (!MatrixDims(c, 0, &d)) return absl::OkStatus();
  c.set_output(0, PartialTensorShape(d));
  return absl::OkStatus();
}

absl::Status QrShape(ShapeInferenceContext& c) {
  std::vector<int64_t> d;
  if (!MatrixDims(c, 0, &d)) return absl::OkStatus();
  bool full = false;
  (void)GetNodeAttr(c.node(), "full_matrices", &full);
  const int64_t m = d[d.size() - 2];
  const int64_t n = d[d.size() - 1];
  const int64_t p = full ? m : MinDim(m, n);
  c.set_output(0, BatchPlus(d, 2, {m, p}));
  c.set_output(1, BatchPlus(d, 2, {p, n}));
  return absl::OkStatus();
}

absl::Status SvdShape(ShapeInferenceContext& c) {
  std::vector<int64_t> d;
  if (!MatrixDims(c, 0, &d)) return absl::OkStatus();
  bool full = false;
  bool uv = true;
  (void)GetNodeAttr(c.node(), "full_matrices", &full);
  (void)GetNodeAttr(c.node(), "compute_uv", &uv);
  const int64_t m = d[d.size() - 2];
  const int64_t n = d[d.size() - 1];
  const int64_t p = MinDim(m, n);
  c.set_output(0, BatchPlus(d, 2, {p}));
  if (uv) {
    c.set_output(1, BatchPlus(d, 2, {m, full ? m : p}));
    c.set_output(2, BatchPlus(d, 2, {n, full ? n : p}));
  } else {
    c.set_output(1, PartialTensorShape(std::vector<int64_t>{}));
    c.set_output(2, PartialTensorShape(std::vector<int64_t>{}));
  }
  return absl::OkStatus();
}

// MatrixSolve: the rhs's shape. MatrixTriangularSolve broadcasts the batch dims, so only the rank
// of the rhs is certain when both ranks are known; its last two dims are the rhs's.
absl::Status SolveShape(ShapeInferenceContext& c) {
  std::vector<int64_t> m;
  std::vector<int64_t> r;
  if (!MatrixDims(c, 0, &m) || !MatrixDims(c, 1, &r)) return absl::OkStatus();
  if (c.node().op() == "MatrixSolve") {
    c.set_output(0, PartialTensorShape(r));
    return absl::OkStatus();
  }
  const size_t rank = std::max(m.size(), r.size());
  std::vector<int64_t> out(rank, -1);
  out[rank - 2] = r[r.size() - 2];
  out[rank - 1] = r[r.size() - 1];
  for (size_t i = 0; i + 2 < rank; ++i) {
    const int64_t ri = static_cast<int64_t>(i) - static_cast<int64_t>(rank - r.size());
    const int64_t mi = static_cast<int64_t>(i) - static_cast<int64_t>(rank - m.size());
    const int64_t a = mi >= 0 ? m[mi] : 1;
    const int64_t b = ri >= 0 ? r[ri] : 1;
    if (a == 1) {
      out[i] = b;
    } else if (b == 1 || a == b) {
      out[i] = a;
    }
  }
  c.set_output(0, PartialTensorShape(std::move(out)));
  return absl::OkStatus();
}

REGISTER_OP("MatrixDeterminant")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {half, float, double, complex64, complex128}")
    .SetShapeFn(DeterminantShape);

REGISTER_OP("LogMatrixDeterminant")
    .Input("input: T")
    .Output("sign: T")
    .Output("log_abs_determinant: T")
    .Attr("T: {half, float, double, complex64, complex128}")
    .SetShapeFn(DeterminantShape);

REGISTER_OP("MatrixInverse")
    .Input("input: T")
    .Output("output: T")
    .Attr("adjoint: bool = false")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(SquareShape);

REGISTER_OP("Cholesky")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(SquareShape);

REGISTER_OP("Qr")
    .Input("input: T")
    .Output("q: T")
    .Output("r: T")
    .Attr("full_matrices: bool = false")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(QrShape);

// e [..., n]; v the input's shape with compute_v, else a scalar.
absl::Status SelfAdjointEigShape(ShapeInferenceContext& c) {
  std::vector<int64_t> d;
  if (!MatrixDims(c, 0, &d)) return absl::OkStatus();
  bool compute_v = true;
  (void)GetNodeAttr(c.node(), "compute_v", &compute_v);
  c.set_output(0, BatchPlus(d, 2, {d[d.size() - 1]}));
  c.set_output(1, compute_v ? PartialTensorShape(d) : PartialTensorShape(std::vector<int64_t>{}));
  return absl::OkStatus();
}

REGISTER_OP("SelfAdjointEigV2")
    .Input("input: T")
    .Output("e: T")
    .Output("v: T")
    .Attr("compute_v: bool = true")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(SelfAdjointEigShape);

// tf.linalg.eig: complex eigenvalues (and eigenvectors) of general matrices.
REGISTER_OP("Eig")
    .Input("input: T")
    .Output("e: Tout")
    .Output("v: Tout")
    .Attr("compute_v: bool = true")
    .Attr("T: {float, double, complex64, complex128}")
    .Attr("Tout: {complex64, complex128}")
    .SetShapeFn(SelfAdjointEigShape);

REGISTER_OP("Svd")
    .Input("input: T")
    .Output("s: T")
    .Output("u: T")
    .Output("v: T")
    .Attr("compute_uv: bool = true")
    .Attr("full_matrices: bool = false")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(SvdShape);

REGISTER_OP("MatrixTriangularSolve")
    .Input("matrix: T")
    .Input("rhs: T")
    .Output("output: T")
    .Attr("lower: bool = true")
    .Attr("adjoint: bool = false")
    .Attr("T: {bfloat16, double, float, half, complex64, complex128}")
    .SetShapeFn(SolveShape);

REGISTER_OP("MatrixSolve")
    .Input("matrix: T")
    .Input("rhs: T")
    .Output("output: T")
    .Attr("adjoint: bool = false")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(SolveShape);

}  // namespace
}  // namespace rill
