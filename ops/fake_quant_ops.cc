// Op definitions of FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars and
// FakeQuantWithMinMaxVarsPerChannel: the quantize-dequantize nodes quantization-aware training
// leaves in a frozen graph. Signatures read from TensorFlow's registry
// (tests/tfgen/dump_op_specs.py).
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

}  // namespace
}  // namespace rill
