// TF1 control-flow ops (TensorFlow's names, inputs, outputs and attrs, so graphs written by
// tf.cond and tf.while_loop import unchanged). Their behaviour lives in the executor
// (session/executor.cc): Switch marks its untaken output dead, Merge forwards the first live
// input, Enter/Exit move tensors into and out of a loop frame, NextIteration into the frame's
// next iteration. The Ref forms pass a variable's reference through.
#include "ops/op_registry.h"

namespace rill {
namespace {

// Merge's output: the inputs' common shape; dims that differ (or ranks that differ) become
// unknown, since any one of the inputs may arrive. value_index is a scalar.
absl::Status MergeShape(ShapeInferenceContext& c) {
  PartialTensorShape merged = c.num_inputs() > 0 ? c.input(0) : PartialTensorShape();
  for (int i = 1; i < c.num_inputs() && !merged.unknown_rank(); ++i) {
    const PartialTensorShape& in = c.input(i);
    if (in.unknown_rank() || in.rank() != merged.rank()) {
      merged = PartialTensorShape();
      break;
    }
    std::vector<int64_t> dims = merged.dims();
    for (int d = 0; d < in.rank(); ++d) {
      if (dims[d] != in.dims()[d]) dims[d] = -1;
    }
    merged = PartialTensorShape(std::move(dims));
  }
  c.set_output(0, std::move(merged));
  c.set_output(1, PartialTensorShape(std::vector<int64_t>{}));
  return absl::OkStatus();
}

absl::Status SwitchShape(ShapeInferenceContext& c) {
  c.set_output(0, c.input(0));
  c.set_output(1, c.input(0));
  return absl::OkStatus();
}

REGISTER_OP("Switch")
    .Input("data: T")
    .Input("pred: bool")
    .Output("output_false: T")
    .Output("output_true: T")
    .Attr("T: type")
    .SetShapeFn(SwitchShape)
    .Doc("Forwards data to output_true if pred, else output_false; the other output is dead.");

// _SwitchN's outputs: each the data's shape.
absl::Status SwitchNShape(ShapeInferenceContext& c) {
  for (int i = 0; i < c.num_outputs(); ++i) c.set_output(i, c.input(0));
  return absl::OkStatus();
}

// What TensorFlow's function lowering makes of a Case (switch_case): data goes to the output
// output_index names (the last one when it is out of range); the others are dead.
REGISTER_OP("_SwitchN")
    .Input("data: T")
    .Input("output_index: int32")
    .Output("outputs: num_outs * T")
    .Attr("num_outs: int >= 1")
    .Attr("T: type")
    .SetShapeFn(SwitchNShape);

REGISTER_OP("RefSwitch")
    .Input("data: Ref(T)")
    .Input("pred: bool")
    .Output("output_false: Ref(T)")
    .Output("output_true: Ref(T)")
    .Attr("T: type")
    .SetAllowsUninitializedInput()
    .SetShapeFn(SwitchShape);

REGISTER_OP("Merge")
    .Input("inputs: N * T")
    .Output("output: T")
    .Output("value_index: int32")
    .Attr("T: type")
    .Attr("N: int >= 1")
    .SetShapeFn(MergeShape)
    .Doc("Forwards the first live input and its index; dead when every input is dead.");

REGISTER_OP("RefMerge")
    .Input("inputs: Ref(N * T)")
    .Output("output: Ref(T)")
    .Output("value_index: int32")
    .Attr("T: type")
    .Attr("N: int >= 1")
    .SetAllowsUninitializedInput()
    .SetShapeFn(MergeShape);

REGISTER_OP("Enter")
    .Input("data: T")
    .Output("output: T")
    .Attr("T: type")
    .Attr("frame_name: string")
    .Attr("is_constant: bool = false")
    .Attr("parallel_iterations: int = 10")
    .SetShapeFn(shape_fns::Unchanged)
    .Doc("Makes its input available to the child frame frame_name.");

REGISTER_OP("RefEnter")
    .Input("data: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .Attr("frame_name: string")
    .Attr("is_constant: bool = false")
    .Attr("parallel_iterations: int = 10")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("Exit")
    .Input("data: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged)
    .Doc("Makes its input available to the parent frame.");

REGISTER_OP("RefExit")
    .Input("data: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("NextIteration")
    .Input("data: T")
    .Output("output: T")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged)
    .Doc("Makes its input available to the next iteration of its frame.");

REGISTER_OP("RefNextIteration")
    .Input("data: Ref(T)")
    .Output("output: Ref(T)")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Unchanged);

REGISTER_OP("LoopCond")
    .Input("input: bool")
    .Output("output: bool")
    .SetShapeFn(shape_fns::Unchanged)
    .Doc("A while loop's predicate: forwards its input.");

REGISTER_OP("ToBool")
    .Input("input: T")
    .Output("output: bool")
    .Attr("T: type")
    .SetShapeFn(shape_fns::Scalar)
    .Doc(
        "A tensor's truth: a scalar is true when nonzero (non-empty for strings), any other "
        "tensor when it has elements.");

REGISTER_OP("ControlTrigger")
    .SetShapeFn(shape_fns::NoOutputs)
    .Doc("Does nothing; runs even when its inputs are dead.");

}  // namespace
}  // namespace rill
