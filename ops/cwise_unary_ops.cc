// Op definitions of the elementwise unary ops (signatures read from TensorFlow's registry by
// tests/tfgen/dump_op_specs.py, so TensorFlow's graphs import unchanged).
#include "ops/op_registry.h"

namespace rill {
namespace {

REGISTER_OP("Neg")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Abs")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, int8, int16, int32, int64}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Sign")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Square")
    .Input("x: T")
    .Output("y: T")
    .Attr(
        "T: {bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, uint32,"
        "uint64, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Sqrt")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Rsqrt")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Exp")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Log")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Log1p")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Sin")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Cos")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Tanh")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Sigmoid")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Relu")
    .Input("features: T")
    .Output("activations: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32,"
        "uint64, qint8}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Relu6")
    .Input("features: T")
    .Output("activations: T")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32,"
        "uint64}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Elu")
    .Input("features: T")
    .Output("activations: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Selu")
    .Input("features: T")
    .Output("activations: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Softplus")
    .Input("features: T")
    .Output("activations: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("LeakyRelu")
    .Input("features: T")
    .Output("activations: T")
    .Attr("alpha: float = 0.2")
    .Attr("T: {half, bfloat16, float, double} = float")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Floor")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Ceil")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Round")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Reciprocal")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Erf")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Erfc")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Expm1")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Softsign")
    .Input("features: T")
    .Output("activations: T")
    .Attr("T: {half, bfloat16, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Asinh")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Acosh")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Atanh")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Sinh")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Cosh")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Lgamma")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Digamma")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Erfinv")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Ndtri")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

// tf.math.special: Bessel functions and integrals (kernels/math/cwise_bessel_op.cc,
// kernels/math/cwise_special_integrals_op.cc).
REGISTER_OP("BesselI0")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselI1")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselJ0")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselJ1")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselY0")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselY1")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselK0")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselK1")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselK0e")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselK1e")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Dawsn")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Expint")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("FresnelCos")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("FresnelSin")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Spence")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselI0e")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("BesselI1e")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("IsFinite")
    .Input("x: T")
    .Output("y: bool")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Atan")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Asin")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Acos")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Tan")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("IsNan")
    .Input("x: T")
    .Output("y: bool")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("IsInf")
    .Input("x: T")
    .Output("y: bool")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Rint")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Inv")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("PopulationCount")
    .Input("x: T")
    .Output("y: uint8")
    .Attr("T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Invert")
    .Input("x: T")
    .Output("y: T")
    .Attr("T: {int8, int16, int32, int64, uint8, uint16, uint32, uint64}")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("LogicalNot").Input("x: bool").Output("y: bool").SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
