// Gradients of the ops of ops/control_flow_ops.cc and the variable ops: Switch and Merge (tf.cond),
// TF1 while loops, resource and ref variable reads. Formulas are TensorFlow's; see grad_registry.h
// for the contract of a gradient function.
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "core/status_macros.h"
#include "core/types.h"
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
RILL_REGISTER_NO_GRADIENT("VarIsInitializedOp");
// TensorArray and TensorList bookkeeping carries no gradient.
RILL_REGISTER_NO_GRADIENT("TensorArrayV3");
RILL_REGISTER_NO_GRADIENT("TensorArrayCloseV3");
RILL_REGISTER_NO_GRADIENT("TensorArraySizeV3");
RILL_REGISTER_NO_GRADIENT("TensorListElementShape");
RILL_REGISTER_NO_GRADIENT("TensorListLength");

}  // namespace
}  // namespace rill
