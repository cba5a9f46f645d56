// Gradients of the ops of ops/control_flow_ops.cc and the variable ops: Switch and Merge (tf.cond),
// TF1 while loops, resource and ref variable reads. Formulas are TensorFlow's; see grad_registry.h
// for the contract of a gradient function.
#include <string>
#include <vector>

#include "absl/strings/match.h"
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

// The name suffix of a TensorArray op's version: "V3", "V2" (TensorFlow 0.12-1.0's string
// handles) or "" (TensorFlow 0.x's ref handles). A gradient builds its ops in its forward op's
// version, so the handles it passes fit.
std::string Version(const GradOp& op) {
  const std::string& type = op.type();
  if (absl::EndsWith(type, "V3")) return "V3";
  return absl::EndsWith(type, "V2") ? "V2" : "";
}

struct GradArray {
  Output handle;
  Output flow;
};

// The gradient array of `handle`'s array for this gradient call. The V2 and V1 grad ops output no
// flow: the flow they were given orders what follows.
GradArray GradTensorArray(const Scope& s, const std::string& version, const Output& handle,
                          const Output& flow) {
  if (version == "V3") {
    ops::TensorArrayOutputs ga = ops::TensorArrayGradV3(s, handle, flow, GradSource(s));
    return {ga.handle, ga.flow};
  }
  Operation grad = OpBuilder(s, "TensorArrayGrad" + version)
                       .Input(handle)
                       .Input(flow)
                       .Attr("source", GradSource(s))
                       .Finalize();
  return {grad.output(0), flow};
}

// One of the array ops in `version`, from its inputs and its dtype attr (when it has one).
Operation ArrayOp(const Scope& s, const std::string& name, const std::string& version,
                  std::initializer_list<Output> inputs, DataType dtype = DT_INVALID) {
  OpBuilder b(s, "TensorArray" + name + version);
  for (const Output& in : inputs) b.Input(in);
  if (dtype != DT_INVALID) b.Attr("dtype", dtype);
  return b.Finalize();
}

// value = Read(handle, index, flow): the gradient array gets dvalue written at index.
absl::Status TensorArrayReadGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const std::string v = Version(op);
  GradArray ga = GradTensorArray(s, v, op.inputs[0], op.inputs[2]);
  Output flow = ArrayOp(s, "Write", v, {ga.handle, op.inputs[1], g[0], ga.flow}).output(0);
  *out = {Output(), Output(), flow};
  return s.status();
}

// Write and Scatter: dvalue is read back from the gradient array at what the op wrote (`read`:
// Read or Gather), after the forward write (the write barrier); the flow's gradient passes
// through.
absl::Status ReadBackGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out,
                          const std::string& read) {
  Output flow_out = ops::Identity(s.WithOpName("flow_out"), op.outputs[0]);
  Output flow =
      ops::Identity(s.WithOpName("write_barrier").WithControlDependencies({flow_out}), g[0]);
  RILL_ASSIGN_OR_RETURN(DataType dtype, op.GetType("T"));
  const std::string v = Version(op);
  GradArray ga = GradTensorArray(s, v, op.inputs[0], flow);
  Output value = ArrayOp(s, read, v, {ga.handle, op.inputs[1], ga.flow}, dtype).output(0);
  *out = {Output(), Output(), value, flow};
  return s.status();
}

// flow_out = Write(handle, index, value, flow_in).
absl::Status TensorArrayWriteGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return ReadBackGrad(s, op, g, out, "Read");
}

// value = Gather(handle, indices, flow): dvalue is scattered into the gradient array.
absl::Status TensorArrayGatherGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const std::string v = Version(op);
  GradArray ga = GradTensorArray(s, v, op.inputs[0], op.inputs[2]);
  *out = {Output(), Output(),
          ArrayOp(s, "Scatter", v, {ga.handle, op.inputs[1], g[0], ga.flow}).output(0)};
  return s.status();
}

// flow_out = Scatter(handle, indices, value, flow_in).
absl::Status TensorArrayScatterGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  return ReadBackGrad(s, op, g, out, "Gather");
}

// (value, lengths) = Concat(handle, flow): dvalue is split back into the gradient array by the
// forward lengths.
absl::Status TensorArrayConcatGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  const std::string v = Version(op);
  GradArray ga = GradTensorArray(s, v, op.inputs[0], op.inputs[1]);
  Output flow = ArrayOp(s, "Split", v, {ga.handle, g[0], op.outputs[1], ga.flow}).output(0);
  *out = {Output(), flow};
  return s.status();
}

// flow_out = Split(handle, value, lengths, flow_in): dvalue is the gradient array concatenated,
// read after the forward split (the write barrier); the flow's gradient passes through.
absl::Status TensorArraySplitGrad(const Scope& s, const GradOp& op, GradSpan g, Grads* out) {
  Output flow_out = ops::Identity(s.WithOpName("flow_out"), op.outputs[0]);
  Output flow =
      ops::Identity(s.WithOpName("write_barrier").WithControlDependencies({flow_out}), g[0]);
  RILL_ASSIGN_OR_RETURN(DataType dtype, op.GetType("T"));
  const std::string v = Version(op);
  GradArray ga = GradTensorArray(s, v, op.inputs[0], flow);
  Operation joined = ArrayOp(s, "Concat", v, {ga.handle, ga.flow}, dtype);
  if (!s.ok()) return s.status();
  *out = {Output(), joined.output(0), Output(), flow};
  return absl::OkStatus();
}

// Every version: V3, TensorFlow 0.12-1.0's V2 names and TensorFlow 0.x's V1 names.
#define RILL_REGISTER_TENSOR_ARRAY_GRADIENT(name, fn)  \
  RILL_REGISTER_GRADIENT("TensorArray" name "V3", fn); \
  RILL_REGISTER_GRADIENT("TensorArray" name "V2", fn); \
  RILL_REGISTER_GRADIENT("TensorArray" name, fn)
RILL_REGISTER_TENSOR_ARRAY_GRADIENT("Read", TensorArrayReadGrad);
RILL_REGISTER_TENSOR_ARRAY_GRADIENT("Write", TensorArrayWriteGrad);
RILL_REGISTER_TENSOR_ARRAY_GRADIENT("Gather", TensorArrayGatherGrad);
RILL_REGISTER_TENSOR_ARRAY_GRADIENT("Scatter", TensorArrayScatterGrad);
RILL_REGISTER_TENSOR_ARRAY_GRADIENT("Concat", TensorArrayConcatGrad);
RILL_REGISTER_TENSOR_ARRAY_GRADIENT("Split", TensorArraySplitGrad);
#undef RILL_REGISTER_TENSOR_ARRAY_GRADIENT

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
