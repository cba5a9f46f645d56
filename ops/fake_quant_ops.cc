// Op definitions of FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars,
// FakeQuantWithMinMaxVarsPerChannel, QuantizeAndDequantizeV2 and QuantizeAndDequantizeV4: the
// quantize-dequantize nodes quantization-aware training leaves in a frozen graph. Signatures read
// from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include "ops/op_registry.h"

namespace rill {
namespace {

REGISTER_OP("FakeQuantWithMinMaxArgs")
    .Input("inputs: float")
    .Output("outputs: float")
    .Attr("min: float = -6.0")
    .Attr("max: float = 6.0")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("FakeQuantWithMinMaxVars")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("outputs: float")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("FakeQuantWithMinMaxVarsPerChannel")
    .Input("inputs: float")
    .Input("min: float")
    .Input("max: float")
    .Output("outputs: float")
    .Attr("num_bits: int = 8")
    .Attr("narrow_range: bool = false")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("QuantizeAndDequantizeV2")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Output("output: T")
    .Attr("signed_input: bool = true")
    .Attr("num_bits: int = 8")
    .Attr("range_given: bool = false")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("round_mode: {'HALF_TO_EVEN', 'HALF_UP'} = \"HALF_TO_EVEN\"")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("QuantizeAndDequantizeV4")
    .Input("input: T")
    .Input("input_min: T")
    .Input("input_max: T")
    .Output("output: T")
    .Attr("signed_input: bool = true")
    .Attr("num_bits: int = 8")
    .Attr("range_given: bool = false")
    .Attr("T: {bfloat16, half, float, double}")
    .Attr("round_mode: {'HALF_TO_EVEN', 'HALF_UP'} = \"HALF_TO_EVEN\"")
    .Attr("narrow_range: bool = false")
    .Attr("axis: int = -1")
    .SetShapeFn(shape_fns::Unchanged);

}  // namespace
}  // namespace rill
