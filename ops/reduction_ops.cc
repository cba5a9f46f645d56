// Op definitions of the reductions over axes given as an input: Sum, Mean, Prod, Max, Min, All,
// Any. Signatures read from TensorFlow's registry (tools/tfgen/dump_op_specs.py).
#include "ops/op_registry.h"

namespace rill {
namespace {

// Output shape: unknown without the axis values (shape inference sees no constants yet).
REGISTER_OP("Sum")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
          "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Mean")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
          "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Prod")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr("T: {float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, "
          "bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Max")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
          "uint64, qint8, quint8, qint32, qint16, quint16}")
    .Attr("Tidx: {int32, int64} = int32")
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("Min")
    .Input("input: T")
    .Input("reduction_indices: Tidx")
    .Output("output: T")
    .Attr("keep_dims: bool = false")
    .Attr("T: {float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, "
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

}  // namespace
}  // namespace rill
