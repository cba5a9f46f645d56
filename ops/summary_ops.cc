// Op definitions of TensorFlow's summary ops that Rill runs: TensorSummary (the deprecated
// tf.summary.tensor_summary form: a serialized Summary proto holding the input as a TensorProto).
// Signatures read from TensorFlow's registry (tests/tfgen/dump_op_specs.py).
#include "ops/op_registry.h"

namespace rill {
namespace {

REGISTER_OP("TensorSummary")
    .Input("tensor: T")
    .Output("summary: string")
    .Attr("T: type")
    .Attr("description: string = \"\"")
    .Attr("labels: list(string) = []")
    .Attr("display_name: string = \"\"")
    .SetShapeFn(shape_fns::Scalar);

}  // namespace
}  // namespace rill
