// Builder wrappers for TF1 control flow (ops/control_flow_ops.cc), plus Cond and WhileLoop, which
// write the node patterns TensorFlow 1.x's tf.cond and tf.while_loop write:
//
//   // r = x > 0 ? x * 2 : -x
//   Output r = ops::Cond(root, ops::Greater(root, x, zero), {x},
//       [](const Scope& s, const std::vector<Output>& in) { return ops::Mul(s, in[0], two); },
//       [](const Scope& s, const std::vector<Output>& in) { return ops::Neg(s, in[0]); })[0];
//
//   // i = 0; while i < 10: i += 1
//   std::vector<Output> out = ops::WhileLoop(root.NewSubScope("while"), {zero},
//       [&](const Scope& s, const std::vector<Output>& v) { return ops::Less(s, v[0], ten); },
//       [&](const Scope& s, const std::vector<Output>& v) {
//         return std::vector<Output>{ops::Add(s, v[0], one)}; });
//
// Values the body or branches read from outside must be passed in (loop_vars / inputs) or, for
// loops, as `invariants` (constant Enters); a function that builds on an outer tensor directly
// makes a graph the executor rejects ("has inputs from frame ..."). Errors are recorded in the
// scope (see op_builder.h). Thread safety: as Scope.
#ifndef RILL_GRAPH_BUILDER_CONTROL_FLOW_OPS_H_
#define RILL_GRAPH_BUILDER_CONTROL_FLOW_OPS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/builder/input.h"
#include "graph/builder/scope.h"

namespace rill {
namespace ops {

struct SwitchOutputs {
  Output output_false, output_true;
};
SwitchOutputs Switch(const Scope& scope, const Output& data, const Output& pred);
SwitchOutputs RefSwitch(const Scope& scope, const Output& data, const Output& pred);

struct MergeOutputs {
  Output output, value_index;
};
MergeOutputs Merge(const Scope& scope, absl::Span<const Output> inputs);
MergeOutputs RefMerge(const Scope& scope, absl::Span<const Output> inputs);

struct EnterAttrs {
  EnterAttrs IsConstant(bool x) const {
    EnterAttrs r = *this;
    r.is_constant = x;
    return r;
  }
  EnterAttrs ParallelIterations(int64_t x) const {
    EnterAttrs r = *this;
    r.parallel_iterations = x;
    return r;
  }
  bool is_constant = false;
  int64_t parallel_iterations = 10;
};
Output Enter(const Scope& scope, const Input& data, absl::string_view frame_name,
             const EnterAttrs& attrs = {});
Output RefEnter(const Scope& scope, const Input& data, absl::string_view frame_name,
                const EnterAttrs& attrs = {});
Output Exit(const Scope& scope, const Input& data);
Output RefExit(const Scope& scope, const Input& data);
Output NextIteration(const Scope& scope, const Output& data);
Output RefNextIteration(const Scope& scope, const Input& data);
Output LoopCond(const Scope& scope, const Input& input);
Operation ControlTrigger(const Scope& scope);
// TensorFlow's truth of a tensor (scalar: nonzero / non-empty; otherwise: has elements).
Output ToBool(const Scope& scope, const Input& input);

// Builds the outputs of one branch from the branch's view of the inputs.
using BranchFn =
    std::function<std::vector<Output>(const Scope& scope, const std::vector<Output>& inputs)>;

// tf.cond: each input goes through a Switch on `pred`; `then_fn` builds on the true outputs (in
// the "<scope>/then" name scope), `else_fn` on the false ones ("<scope>/else"); output k is the
// Merge of both branches' output k. The branches must return the same number of outputs.
std::vector<Output> Cond(const Scope& scope, const Output& pred, absl::Span<const Output> inputs,
                         const BranchFn& then_fn, const BranchFn& else_fn);

using LoopCondFn = std::function<Output(const Scope& scope, const std::vector<Output>& vars)>;
using LoopBodyFn =
    std::function<std::vector<Output>(const Scope& scope, const std::vector<Output>& vars)>;

struct WhileLoopAttrs {
  WhileLoopAttrs ParallelIterations(int64_t x) const {
    WhileLoopAttrs r = *this;
    r.parallel_iterations = x;
    return r;
  }
  // Tensors from outside the loop the condition and body read (after the loop variables).
  WhileLoopAttrs Invariants(std::vector<Output> x) const {
    WhileLoopAttrs r = *this;
    r.invariants = std::move(x);
    return r;
  }
  int64_t parallel_iterations = 10;
  std::vector<Output> invariants;
};

// tf.while_loop: frame "<scope name>/while_context"; per loop variable Enter -> Merge -> Switch
// on LoopCond(cond) -> body on the Identity of the true output -> NextIteration back into the
// Merge, and Exit on the false output. cond and body see the loop variables followed by the
// invariants (constant Enters). Returns the Exits, one per loop variable. InvalidArgument
// (recorded) when the body returns a different number of values than there are loop variables.
std::vector<Output> WhileLoop(const Scope& scope, absl::Span<const Output> loop_vars,
                              const LoopCondFn& cond, const LoopBodyFn& body,
                              const WhileLoopAttrs& attrs = {});

}  // namespace ops
}  // namespace rill

#endif  // RILL_GRAPH_BUILDER_CONTROL_FLOW_OPS_H_
