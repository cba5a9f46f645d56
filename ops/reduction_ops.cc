// Op definitions of the reductions over axes given as an input: Sum, Mean,
// Prod, Max, Min, All, Any, ArgMax, ArgMin, and the scan Cumsum. Signatures
// read from TensorFlow's registry (tools/tfgen/dump_op_specs.py).
#include "ops/op_registry.h"

namespace rill {
namespace {

// ArgMax/ArgMin: one dim fewer than the input; which one depends on the axis
// value.
absl::Status ArgReductionShape(ShapeInferenceContext& c) {
  const PartialTensorShape& in = c.input(0);
  if (in.rank() > 0)
    c.set_output(0,
                 PartialTensorShape(std::vector<int64_t>(in.rank() - 1, -1)));
  return absl::OkStatus();
}

// Output shape: unknown without the axis values (shape inference sees no
// constants yet).
REGISTER_OP("Sum")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, "
        "qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Mean")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, "
        "qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Prod")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, "
        "qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Max")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, "
        "uint16, half, uint32, "
        "uint64, qint8, quint8, qint32, qint16, quint16}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Min")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, "
        "uint16, half, uint32, "
        "uint64, qint8, quint8, qint32, qint16, quint16}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("All")
    .Input("input: bool")
    .Input("reduction_indices: Tidx")
    .Output("output: bool")
    .Attr("keep_dims: bool = false")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Any")
    .Input("input: bool")
    .Input("reduction_indices: Tidx")
    .Output("output: bool")
    .Attr("keep_dims: bool = false")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("ArgMax")
    .Input("input: T")
    .Input("dimension: Tidx")
    .Output("output: output_type")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, "
        "uint16, half, uint32, "
        "uint64, qint8, quint8, qint32, qint16, quint16, bool}")
    .Attr("Tidx: {int16, int32, int64} = int32")
    .Attr("output_type: {int16, uint16, int32, int64} = int64")
    .SetShapeFn(ArgReductionShape);

REGISTER_OP("ArgMin")
    .Input("input: T")
    .Input("dimension: Tidx")
    .Output("output: output_type")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, int64, bfloat16, "
        "uint16, half, uint32, "
        "uint64, qint8, quint8, qint32, qint16, quint16, bool}")
    .Attr("Tidx: {int32, int64} = int32")
    .Attr("output_type: {int32, int64} = int64")
    .SetShapeFn(ArgReductionShape);

REGISTER_OP("Cumsum")
    .Input("x: T")
    .Input("axis: Tidx")
    .Output("out: T")
    .Attr("exclusive: bool = false")
    .Attr("reverse: bool = false")
    .Attr(
        "T: {float, double, int32, uint8, int16, int8, complex64, int64, "
        "qint8, quint8, qint32, "
        "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
