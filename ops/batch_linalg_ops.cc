// Op definitions of the Batch* linear-algebra ops (BatchMatrixDeterminant, BatchMatrixInverse,
// BatchMatrixSolve, BatchMatrixTriangularSolve, BatchCholesky, BatchSelfAdjointEigV2,
// BatchMatrixSolveLs): the names TF1 graphs of 2015-2016 carry for today's batched Matrix* ops,
// which they equal. Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py);
// each shape function is its modern op's, looked up when it runs (registration order across
// files is not fixed).
#include <string>

#include "absl/strings/str_cat.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

ShapeFn ShapeOf(std::string modern) {
  return [modern](ShapeInferenceContext& c) -> absl::Status {
    const OpRegistration* reg = OpRegistry::Global()->LookUp(modern);
    if (reg == nullptr) {
      return absl::InternalError(absl::StrCat("op ", modern, " is not registered"));
    }
    return reg->shape_fn(c);
  };
}

}  // namespace

REGISTER_OP("BatchMatrixDeterminant")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {float, double, complex64, complex128}")
    .SetShapeFn(ShapeOf("MatrixDeterminant"));

REGISTER_OP("BatchMatrixInverse")
    .Input("input: T")
    .Output("output: T")
    .Attr("adjoint: bool = false")
    .Attr("T: {double, float}")
    .SetShapeFn(ShapeOf("MatrixInverse"));

REGISTER_OP("BatchMatrixSolve")
    .Input("matrix: T")
    .Input("rhs: T")
    .Output("output: T")
    .Attr("adjoint: bool = false")
    .Attr("T: {double, float}")
    .SetShapeFn(ShapeOf("MatrixSolve"));

REGISTER_OP("BatchMatrixTriangularSolve")
    .Input("matrix: T")
    .Input("rhs: T")
    .Output("output: T")
    .Attr("lower: bool = true")
    .Attr("adjoint: bool = false")
    .Attr("T: {double, float}")
    .SetShapeFn(ShapeOf("MatrixTriangularSolve"));

REGISTER_OP("BatchCholesky")
    .Input("input: T")
    .Output("output: T")
    .Attr("T: {double, float}")
    .SetShapeFn(ShapeOf("Cholesky"));

REGISTER_OP("BatchSelfAdjointEigV2")
    .Input("input: T")
    .Output("e: T")
    .Output("v: T")
    .Attr("compute_v: bool = true")
    .Attr("T: {double, float}")
    .SetShapeFn(ShapeOf("SelfAdjointEigV2"));

REGISTER_OP("BatchMatrixSolveLs")
    .Input("matrix: T")
    .Input("rhs: T")
    .Input("l2_regularizer: double")
    .Output("output: T")
    .Attr("T: {double, float}")
    .Attr("fast: bool = true")
    .SetShapeFn(ShapeOf("MatrixSolveLs"));

}  // namespace rill
