// TF1 stacks: tf.gradients of a TF1 while loop pushes the forward loop's values onto them and
// the backward loop pops them in reverse. A per-step resource. TensorFlow's names and attrs.
#include "ops/op_registry.h"

namespace rill {
namespace {

REGISTER_OP("StackV2")
    .Input("max_size: int32")
    .Output("handle: resource")
    .Attr("elem_type: type")
    .Attr("stack_name: string = \"\"")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Scalar);

REGISTER_OP("StackPushV2")
    .Input("handle: resource")
    .Input("elem: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("swap_memory: bool = false")
    .SetIsStateful()
    .SetShapeFn([](ShapeInferenceContext& c) {
      c.set_output(0, c.input(1));
      return absl::OkStatus();
    });

REGISTER_OP("StackPopV2")
    .Input("handle: resource")
    .Output("elem: elem_type")
    .Attr("elem_type: type")
    .SetIsStateful()
    .SetShapeFn(shape_fns::Unknown);

REGISTER_OP("StackCloseV2")
    .Input("handle: resource")
    .SetIsStateful()
    .SetShapeFn(shape_fns::NoOutputs);

}  // namespace
}  // namespace rill
