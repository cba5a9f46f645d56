// Gradients of the ops of ops/control_flow_ops.cc and the variable ops: Switch and Merge (tf.cond),
// TF1 while loops, resource and ref variable reads. Formulas are TensorFlow's; see grad_registry.h
// for the contract of a gradient function.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_helpers.h"
#include "graph/gradients/grad_registry.h"

namespace rill {
namespace {

using Grads = std::vector<Output>;
using GradSpan = absl::Span<const Output>;

// Switch (tf.cond's): the data's gradient is the Merge of the branches' gradients, exactly one
// of which is live when the graph runs (the other branch, and the zeros AddSymbolicGradients
// gives an output without a gradient, are dead); the predicate gets none.
absl::Status SwitchGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {ops::Merge(s, {g[0], g[1]}).output, Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Switch", SwitchGrad);
RILL_REGISTER_GRADIENT("RefSwitch", SwitchGrad);

// Merge: the gradient goes back to the input that was taken (value_index), through a Switch on
// value_index == i for input i.
absl::Status MergeGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  out->clear();
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    Output taken = ops::Equal(s, op.outputs[1], ops::Const(s, static_cast<int32_t>(i)));
    out->push_back(ops::Switch(s, g[0], taken).output_true);
  }
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("Merge", MergeGrad);
RILL_REGISTER_GRADIENT("RefMerge", MergeGrad);

// The loop ops' gradients are built for the whole loop at once by AddSymbolicGradients
// (while_gradients.cc); these functions are never called for them.
absl::Status LoopStructureGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return absl::InternalError(absl::StrCat("The gradient of ", op.type(), " node '", op.name(),
                                          "' is built with its while loop's gradient"));
}
RILL_REGISTER_GRADIENT("Enter", LoopStructureGrad);
RILL_REGISTER_GRADIENT("RefEnter", LoopStructureGrad);
RILL_REGISTER_GRADIENT("Exit", LoopStructureGrad);
RILL_REGISTER_GRADIENT("RefExit", LoopStructureGrad);
RILL_REGISTER_GRADIENT("NextIteration", LoopStructureGrad);
RILL_REGISTER_GRADIENT("RefNextIteration", LoopStructureGrad);

// The loop predicate carries no gradient.
absl::Status LoopCondGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {Output()};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("LoopCond", LoopCondGrad);

// --- TF1 TensorArrays ------------------------------------------------------------------------
// Each forward array has one gradient array per gradient call (TensorArrayGradV3, keyed by the
// gradient's name scope, TensorFlow's "gradient source"); the flow tensors order the gradient
// array's writes and reads as they order the forward ones.

// The gradient source: the name scope up to its last part that starts with "gradients".
std::string GradSource(const Scope& s) {
  const std::string& scope = s.name_scope();
  size_t end = std::string::npos;
  size_t start = 0;
  while (start <= scope.size()) {
    size_t slash = scope.find('/', start);
    if (slash == std::string::npos) slash = scope.size();
    if (scope.compare(start, 9, "gradients") == 0) end = slash;
    start = slash + 1;
  }
  return end == std::string::npos ? scope : scope.substr(0, end);
}

ops::TensorArrayOutputs GradTensorArray(const Scope& s, const Output& handle, const Output& flow) {
  return ops::TensorArrayGradV3(s, handle, flow, GradSource(s));
}

// value = Read(handle, index, flow): the gradient array gets dvalue written at index.
absl::Status TensorArrayReadGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  ops::TensorArrayOutputs ga = GradTensorArray(s, op.inputs[0], op.inputs[2]);
  Output flow = ops::TensorArrayWriteV3(s, ga.handle, op.inputs[1], g[0], ga.flow);
  *out = {Output(), Output(), flow};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TensorArrayReadV3", TensorArrayReadGrad);

// Write and Scatter: dvalue is read back from the gradient array at what the op wrote (`read`:
// TensorArrayReadV3 or TensorArrayGatherV3), after the forward write (the write barrier); the
// flow's gradient passes through.
template <typename ReadFn>
absl::Status ReadBackGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out, ReadFn read) {
  Output flow_out = ops::Identity(s.WithOpName("flow_out"), op.outputs[0]);
  Output flow =
      ops::Identity(s.WithOpName("write_barrier").WithControlDependencies({flow_out}), g[0]);
  RILL_ASSIGN_OR_RETURN(DataType dtype, op.GetType("T"));
  ops::TensorArrayOutputs ga = GradTensorArray(s, op.inputs[0], flow);
  *out = {Output(), Output(), read(s, ga.handle, op.inputs[1], ga.flow, dtype), flow};
  return absl::OkStatus();
}

// flow_out = Write(handle, index, value, flow_in).
absl::Status TensorArrayWriteGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return ReadBackGrad(s, op, g, out, ops::TensorArrayReadV3);
}
RILL_REGISTER_GRADIENT("TensorArrayWriteV3", TensorArrayWriteGrad);

// value = Gather(handle, indices, flow): dvalue is scattered into the gradient array.
absl::Status TensorArrayGatherGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  ops::TensorArrayOutputs ga = GradTensorArray(s, op.inputs[0], op.inputs[2]);
  *out = {Output(), Output(), ops::TensorArrayScatterV3(s, ga.handle, op.inputs[1], g[0], ga.flow)};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TensorArrayGatherV3", TensorArrayGatherGrad);

// flow_out = Scatter(handle, indices, value, flow_in).
absl::Status TensorArrayScatterGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return ReadBackGrad(s, op, g, out, ops::TensorArrayGatherV3);
}
RILL_REGISTER_GRADIENT("TensorArrayScatterV3", TensorArrayScatterGrad);

// (value, lengths) = Concat(handle, flow): dvalue is split back into the gradient array by the
// forward lengths.
absl::Status TensorArrayConcatGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  ops::TensorArrayOutputs ga = GradTensorArray(s, op.inputs[0], op.inputs[1]);
  OpBuilder split(s, "TensorArraySplitV3");
  split.Input(ga.handle).Input(g[0]).Input(op.outputs[1]).Input(ga.flow);
  Output flow = split.Finalize().output(0);
  *out = {Output(), flow};
  return s.status();
}
RILL_REGISTER_GRADIENT("TensorArrayConcatV3", TensorArrayConcatGrad);

// flow_out = Split(handle, value, lengths, flow_in): dvalue is the gradient array concatenated,
// read after the forward split (the write barrier); the flow's gradient passes through.
absl::Status TensorArraySplitGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output flow_out = ops::Identity(s.WithOpName("flow_out"), op.outputs[0]);
  Output flow =
      ops::Identity(s.WithOpName("write_barrier").WithControlDependencies({flow_out}), g[0]);
  RILL_ASSIGN_OR_RETURN(DataType dtype, op.GetType("T"));
  ops::TensorArrayOutputs ga = GradTensorArray(s, op.inputs[0], flow);
  std::vector<Output> joined = ops::TensorArrayConcatV3(s, ga.handle, ga.flow, dtype);
  if (joined.empty()) return s.status();
  *out = {Output(), joined[0], Output(), flow};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("TensorArraySplitV3", TensorArraySplitGrad);

// Reading a resource variable: the gradient of the handle is the gradient of the value.
absl::Status ReadVariableOpGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  *out = {g[0]};
  return absl::OkStatus();
}
RILL_REGISTER_GRADIENT("ReadVariableOp", ReadVariableOpGrad);

// Variable updates and checks pass no gradient (TensorFlow's NotDifferentiable).
RILL_REGISTER_NO_GRADIENT("Assign");
RILL_REGISTER_NO_GRADIENT("AssignAdd");
RILL_REGISTER_NO_GRADIENT("AssignSub");
RILL_REGISTER_NO_GRADIENT("ScatterAdd");
RILL_REGISTER_NO_GRADIENT("ScatterSub");
RILL_REGISTER_NO_GRADIENT("ScatterMul");
RILL_REGISTER_NO_GRADIENT("ScatterDiv");
RILL_REGISTER_NO_GRADIENT("ScatterNdAdd");
RILL_REGISTER_NO_GRADIENT("ScatterNdSub");
RILL_REGISTER_NO_GRADIENT("ScatterNdUpdate");
RILL_REGISTER_NO_GRADIENT("VarIsInitializedOp");
RILL_REGISTER_NO_GRADIENT("VariableShape");
// TensorArray and TensorList bookkeeping carries no gradient.
RILL_REGISTER_NO_GRADIENT("TensorArrayV3");
RILL_REGISTER_NO_GRADIENT("TensorArrayCloseV3");
RILL_REGISTER_NO_GRADIENT("TensorArraySizeV3");
RILL_REGISTER_NO_GRADIENT("TensorArrayGradV3");
RILL_REGISTER_NO_GRADIENT("TensorArrayV2");
RILL_REGISTER_NO_GRADIENT("TensorArrayCloseV2");
RILL_REGISTER_NO_GRADIENT("TensorArraySizeV2");
RILL_REGISTER_NO_GRADIENT("TensorArrayGradV2");
RILL_REGISTER_NO_GRADIENT("TensorArray");
RILL_REGISTER_NO_GRADIENT("TensorArrayClose");
RILL_REGISTER_NO_GRADIENT("TensorArraySize");
RILL_REGISTER_NO_GRADIENT("TensorArrayGrad");
RILL_REGISTER_NO_GRADIENT("TensorListElementShape");
RILL_REGISTER_NO_GRADIENT("TensorListLength");

}  // namespace
}  // namespace rill
