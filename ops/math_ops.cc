// Op definitions: Cross, MatMul, SparseMatMul, Add/AddV2, AddN, Betainc.
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"
#include "ops/quantized_range_shape.h"

namespace rill {
namespace {

absl::Status MatMulShape(ShapeInferenceContext& c) {
  RILL_RETURN_IF_ERROR(c.WithRank(0, 2));
  RILL_RETURN_IF_ERROR(c.WithRank(1, 2));
  bool ta = false, tb = false;
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "transpose_a", &ta));
  RILL_RETURN_IF_ERROR(GetNodeAttr(c.node(), "transpose_b", &tb));
  auto dim = [&](int input, int d) -> int64_t {
    const PartialTensorShape& s = c.input(input);
    return s.unknown_rank() ? -1 : s.dims()[d];
  };
  const int64_t m = dim(0, ta ? 1 : 0), k_a = dim(0, ta ? 0 : 1);
  const int64_t k_b = dim(1, tb ? 1 : 0), n = dim(1, tb ? 0 : 1);
  int64_t k;
  RILL_RETURN_IF_ERROR(c.MergeDim(k_a, k_b, &k, "inner dimensions of MatMul"));
  c.set_output(0, PartialTensorShape({m, n}));
  return absl::OkStatus();
}

// Cross: a and b merged (their last dim, when known, must be 3; the kernel checks values).
absl::Status CrossShape(ShapeInferenceContext& c) {
  RILL_ASSIGN_OR_RETURN(PartialTensorShape merged,
                        shape_fns::MergeShapes(c, c.input(0), c.input(1), "the inputs of Cross"));
  c.set_output(0, std::move(merged));
  return absl::OkStatus();
}

// Betainc: the non-scalar operands merged (scalars are used for every element); a scalar when all
// three are. An operand of unknown rank may be a scalar, so it adds nothing.
absl::Status BetaincShape(ShapeInferenceContext& c) {
  PartialTensorShape merged;  // unknown rank until a non-scalar is merged in
  int scalars = 0;
  for (int i = 0; i < 3; ++i) {
    const PartialTensorShape& in = c.input(i);
    if (in.unknown_rank()) continue;
    if (in.rank() == 0) {
      ++scalars;
      continue;
    }
    RILL_ASSIGN_OR_RETURN(merged, shape_fns::MergeShapes(c, merged, in, "the operands of Betainc"));
  }
  c.set_output(0, scalars == 3 ? PartialTensorShape(std::vector<int64_t>{}) : merged);
  return absl::OkStatus();
}

REGISTER_OP("Cross")
    .Input("a: T")
    .Input("b: T")
    .Output("product: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
        "uint64}")
    .SetShapeFn(CrossShape);

REGISTER_OP("MatMul")
    .Input("a: T")
    .Input("b: T")
    .Output("product: T")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .Attr("grad_a: bool = false")  // TensorFlow 2.x writes these (gradient bookkeeping)
    .Attr("grad_b: bool = false")
    .SetShapeFn(MatMulShape);

// TF1's tf.matmul(a_is_sparse= / b_is_sparse=) and mixed float / bfloat16 products: the product
// in float whatever the input types.
REGISTER_OP("SparseMatMul")
    .Input("a: Ta")
    .Input("b: Tb")
    .Output("product: float")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .Attr("a_is_sparse: bool = false")
    .Attr("b_is_sparse: bool = false")
    .Attr("Ta: {float, bfloat16} = float")
    .Attr("Tb: {float, bfloat16} = float")
    .SetShapeFn(MatMulShape);

// The graph optimizer's MatMul + BiasAdd [+ Relu | Relu6] (session/graph_optimizer.h);
// TensorFlow's internal op of the same name. args: the bias.
REGISTER_OP("_FusedMatMul")
    .Input("a: T")
    .Input("b: T")
    .Input("args: num_args * T")
    .Output("product: T")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .Attr("T: {half, bfloat16, float, double}")
    .Attr("num_args: int >= 0")
    .Attr("fused_ops: list(string) = []")
    .Attr("epsilon: float = 0.0001")
    .Attr("leakyrelu_alpha: float = 0.2")
    .SetShapeFn(MatMulShape);

REGISTER_OP("Add")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, "
        "complex128, string}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("AddV2")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, uint16, uint32, uint64, int8, int16, "
        "int32, int64, complex64, complex128}")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("AddN")
    .Input("inputs: N * T")
    .Output("sum: T")
    .Attr("N: int >= 1")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, int8, int16, int32, int64, complex64, "
        "complex128}")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::AllInputsMerged);

// AddN whose inputs may arrive at different times; `shape` is the shape of each.
REGISTER_OP("AccumulateNV2")
    .Input("inputs: N * T")
    .Output("sum: T")
    .Attr("N: int >= 1")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("shape: shape")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::AllInputsMerged);

REGISTER_OP("Betainc")
    .Input("a: T")
    .Input("b: T")
    .Input("x: T")
    .Output("z: T")
    .Attr("T: {float, double}")
    .SetShapeFn(BetaincShape);

// Tridiagonal systems (kernels/math/tridiagonal_ops.cc): the output has rhs's shape.
absl::Status RhsShape(ShapeInferenceContext& c) {
  c.set_output(0, c.input(c.num_inputs() - 1));
  return absl::OkStatus();
}

REGISTER_OP("TridiagonalMatMul")
    .Input("superdiag: T")
    .Input("maindiag: T")
    .Input("subdiag: T")
    .Input("rhs: T")
    .Output("output: T")
    .Attr("T: {double, float, complex64, complex128}")
    .SetShapeFn(RhsShape);

REGISTER_OP("TridiagonalSolve")
    .Input("diagonals: T")
    .Input("rhs: T")
    .Output("output: T")
    .Attr("partial_pivoting: bool = true")
    .Attr("perturb_singular: bool = false")
    .Attr("T: {double, float, complex64, complex128}")
    .SetShapeFn(RhsShape);

REGISTER_OP("BandedTriangularSolve")
    .Input("matrix: T")
    .Input("rhs: T")
    .Output("output: T")
    .Attr("lower: bool = true")
    .Attr("adjoint: bool = false")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Lu")
    .Input("input: T")
    .Output("lu: T")
    .Output("p: output_idx_type")
    .Attr("T: {double, float, half, complex64, complex128}")
    .Attr("output_idx_type: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("MatrixSolveLs")
    .Input("matrix: T")
    .Input("rhs: T")
    .Input("l2_regularizer: double")
    .Output("output: T")
    .Attr("T: {double, float, half, complex64, complex128}")
    .Attr("fast: bool = true")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("MatrixLogarithm")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("MatrixSquareRoot")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {double, float, half, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

// TridiagonalMatMul's gradient op (graph/gradients/linalg_tridiagonal_grad.cc): the gradients of
// the three diagonals and of rhs for the product's gradient `grad`, in one pass.
absl::Status TridiagonalMatMulGradShape(ShapeInferenceContext& c) {
  for (int i = 0; i < 4; ++i) c.set_output(i, c.input(i));
  return absl::OkStatus();
}

REGISTER_OP("_RillTridiagonalMatMulGrad")
    .Input("superdiag: T")
    .Input("maindiag: T")
    .Input("subdiag: T")
    .Input("rhs: T")
    .Input("grad: T")
    .Output("superdiag_grad: T")
    .Output("maindiag_grad: T")
    .Output("subdiag_grad: T")
    .Output("rhs_grad: T")
    .Attr("T: {float, double}")
    .SetShapeFn(TridiagonalMatMulGradShape);

// TridiagonalSolve's gradient ops (graph/gradients/linalg_tridiagonal_grad.cc): the compact
// diagonals [..., 3, M] of a tridiagonal matrix's transpose, and the three diagonals of x y^T for
// x, y [..., M, N].
absl::Status SameAsInput0(ShapeInferenceContext& c) {
  c.set_output(0, c.input(0));
  return absl::OkStatus();
}

REGISTER_OP("_RillTridiagonalTranspose")
    .Input("diagonals: T")
    .Output("output: T")
    .Attr("T: {float, double}")
    .SetShapeFn(SameAsInput0);

REGISTER_OP("_RillTridiagonalOfProduct")
    .Input("x: T")
    .Input("y: T")
    .Output("diagonals: T")
    .Attr("T: {float, double}")
    .SetShapeFn(shape_fns::Unknown);

}  // namespace
// The eight-bit product of quantize_nodes graphs: MatMul's shape, scalar ranges.
REGISTER_OP("QuantizedMatMul")
    .Input("a: T1")
    .Input("b: T2")
    .Input("min_a: float")
    .Input("max_a: float")
    .Input("min_b: float")
    .Input("max_b: float")
    .Output("out: Toutput")
    .Output("min_out: float")
    .Output("max_out: float")
    .Attr("T1: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("T2: {qint8, quint8, qint32, qint16, quint16}")
    .Attr("Toutput: {qint8, quint8, qint32, qint16, quint16} = qint32")
    .Attr("transpose_a: bool = false")
    .Attr("transpose_b: bool = false")
    .Attr("Tactivation: {qint8, quint8, qint32, qint16, quint16} = quint8")
    .SetShapeFn([](ShapeInferenceContext& c) {
      RILL_RETURN_IF_ERROR(MatMulShape(c));
      return QuantizedRangeShapes(c, 2, 6);
    });

}  // namespace rill
