// Op definitions of the elementwise binary ops (signatures read from TensorFlow's registry by
// tests/tfgen/dump_op_specs.py, so TensorFlow's graphs import unchanged).
#include "ops/attr_value_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

// Equal / NotEqual: numpy broadcasting, except that with incompatible_shape_error=false operands
// that do not broadcast are no error (the kernel compares them as a scalar false / true): the
// output shape is unknown then, as in TensorFlow.
absl::Status EqualityShape(ShapeInferenceContext& c) {
  bool incompatible_shape_error = true;
  (void)GetNodeAttr(c.node(), "incompatible_shape_error", &incompatible_shape_error);
  absl::StatusOr<PartialTensorShape> out = shape_fns::BroadcastPartial(c, c.input(0), c.input(1));
  if (!out.ok() && !incompatible_shape_error) {
    c.set_output(0, PartialTensorShape());
    return absl::OkStatus();
  }
  if (!out.ok()) return out.status();
  c.set_output(0, *std::move(out));
  return absl::OkStatus();
}

REGISTER_OP("Sub")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64,"
        "complex64, complex128, uint32, uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Mul")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64,"
        "int64, complex64, complex128}")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Div")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64,"
        "int64, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("RealDiv")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64,"
        "int64, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("MulNoNan")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("DivNoNan")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {half, float, bfloat16, double, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("FloorDiv")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64,"
        "int64, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("FloorMod")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half, float,"
        "double}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Maximum")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64,"
        "uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Minimum")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, int64,"
        "uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Pow")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {bfloat16, float, half, double, int8, int16, int32, int64, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("SquaredDifference")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {bfloat16, half, float, double, int32, int64, complex64, complex128}")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Less")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32,"
        "uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("LessEqual")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32,"
        "uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Greater")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32,"
        "uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("GreaterEqual")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32,"
        "uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Equal")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr("T: type")
    .Attr("incompatible_shape_error: bool = true")
    .SetIsCommutative()
    .SetShapeFn(EqualityShape);

REGISTER_OP("NotEqual")
    .Input("x: T")
    .Input("y: T")
    .Output("z: bool")
    .Attr("T: type")
    .Attr("incompatible_shape_error: bool = true")
    .SetIsCommutative()
    .SetShapeFn(EqualityShape);

REGISTER_OP("Atan2")
    .Input("y: T")
    .Input("x: T")
    .Output("z: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Xlogy")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {half, bfloat16, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Xdivy")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {half, bfloat16, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Xlog1py")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {half, bfloat16, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);

// polygamma(a, x) = d^(a+1)/dx^(a+1) lgamma(x) for a non-negative integer order a (NaN otherwise).
REGISTER_OP("Polygamma")
    .Input("a: T")
    .Input("x: T")
    .Output("z: T")
    .Attr("T: {float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);

// The regularized incomplete gamma functions P(a, x) (Igamma) and Q(a, x) = 1 - P(a, x) (Igammac),
// and dP/da (IgammaGradA, Igamma's gradient in a).
REGISTER_OP("Igamma")
    .Input("a: T")
    .Input("x: T")
    .Output("z: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("Igammac")
    .Input("a: T")
    .Input("x: T")
    .Output("z: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("IgammaGradA")
    .Input("a: T")
    .Input("x: T")
    .Output("z: T")
    .Attr("T: {float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);

// The derivative of a gamma sample in its alpha (tf.random.gamma's gradient).
REGISTER_OP("RandomGammaGrad")
    .Input("alpha: T")
    .Input("sample: T")
    .Output("output: T")
    .Attr("T: {float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);

// The Hurwitz zeta function sum_k (q + k)^-x.
REGISTER_OP("Zeta")
    .Input("x: T")
    .Input("q: T")
    .Output("z: T")
    .Attr("T: {float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("TruncateDiv")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr(
        "T: {bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, "
        "int64, complex64, complex128}")
    .SetShapeFn(shape_fns::BroadcastBinary);

// TensorFlow's own spec lists half twice; the set is the same.
REGISTER_OP("Mod")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {int32, int64, half, bfloat16, float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("TruncateMod")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {int32, int64, bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("BitwiseAnd")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("BitwiseOr")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("BitwiseXor")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("LeftShift")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("RightShift")
    .Input("x: T")
    .Input("y: T")
    .Output("z: T")
    .Attr("T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}")
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("LogicalAnd")
    .Input("x: bool")
    .Input("y: bool")
    .Output("z: bool")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::BroadcastBinary);

REGISTER_OP("LogicalOr")
    .Input("x: bool")
    .Input("y: bool")
    .Output("z: bool")
    .SetIsCommutative()
    .SetShapeFn(shape_fns::BroadcastBinary);

}  // namespace
}  // namespace rill
