#include "graph/builder/control_flow_ops.h"

#include "absl/strings/str_cat.h"
#include "graph/builder/op_builder.h"
#include "graph/builder/ops.h"

namespace rill {
namespace ops {
namespace {

SwitchOutputs SwitchOf(const Scope& scope, absl::string_view op, const Output& data,
                       const Output& pred) {
  Operation node = OpBuilder(scope, op).Input(data).Input(pred).Finalize();
  return {node.output(0), node.output(1)};
}

MergeOutputs MergeOf(const Scope& scope, absl::string_view op, absl::Span<const Output> inputs) {
  Operation node = OpBuilder(scope, op).InputList(inputs).Finalize();
  return {node.output(0), node.output(1)};
}

Output EnterOf(const Scope& scope, absl::string_view op, const Input& data,
               absl::string_view frame_name, const EnterAttrs& attrs) {
  return OpBuilder(scope, op)
      .Input(data)
      .Attr("frame_name", frame_name)
      .Attr("is_constant", attrs.is_constant)
      .Attr("parallel_iterations", attrs.parallel_iterations)
      .Finalize()
      .output(0);
}

Output Forward(const Scope& scope, absl::string_view op, const Input& data) {
  return OpBuilder(scope, op).Input(data).Finalize().output(0);
}

}  // namespace

SwitchOutputs Switch(const Scope& scope, const Output& data, const Output& pred) {
  return SwitchOf(scope, "Switch", data, pred);
}
SwitchOutputs RefSwitch(const Scope& scope, const Output& data, const Output& pred) {
  return SwitchOf(scope, "RefSwitch", data, pred);
}
MergeOutputs Merge(const Scope& scope, absl::Span<const Output> inputs) {
  return MergeOf(scope, "Merge", inputs);
}
MergeOutputs RefMerge(const Scope& scope, absl::Span<const Output> inputs) {
  return MergeOf(scope, "RefMerge", inputs);
}
Output Enter(const Scope& scope, const Input& data, absl::string_view frame_name,
             const EnterAttrs& attrs) {
  return EnterOf(scope, "Enter", data, frame_name, attrs);
}
Output RefEnter(const Scope& scope, const Input& data, absl::string_view frame_name,
                const EnterAttrs& attrs) {
  return EnterOf(scope, "RefEnter", data, frame_name, attrs);
}
Output Exit(const Scope& scope, const Input& data) { return Forward(scope, "Exit", data); }
Output RefExit(const Scope& scope, const Input& data) { return Forward(scope, "RefExit", data); }
Output NextIteration(const Scope& scope, const Output& data) {
  return Forward(scope, "NextIteration", data);
}
Output RefNextIteration(const Scope& scope, const Input& data) {
  return Forward(scope, "RefNextIteration", data);
}
Output LoopCond(const Scope& scope, const Input& input) {
  return Forward(scope, "LoopCond", input);
}
Output ToBool(const Scope& scope, const Input& input) {
  return OpBuilder(scope, "ToBool").Input(input).Finalize().output(0);
}
Operation ControlTrigger(const Scope& scope) {
  return OpBuilder(scope, "ControlTrigger").Finalize();
}

std::vector<Output> Cond(const Scope& scope, const Output& pred, absl::Span<const Output> inputs,
                         const BranchFn& then_fn, const BranchFn& else_fn) {
  // Pivots: nodes of a branch that read nothing else hang on them by a control edge, so they
  // are dead with their branch.
  SwitchOutputs p = Switch(scope, pred, pred);
  Output pivot_t = Identity(scope.WithOpName("switch_t"), p.output_true);
  Output pivot_f = Identity(scope.WithOpName("switch_f"), p.output_false);
  std::vector<Output> in_t, in_f;
  for (const Output& x : inputs) {
    SwitchOutputs s = Switch(scope, x, pred);
    in_t.push_back(s.output_true);
    in_f.push_back(s.output_false);
  }
  std::vector<Output> out_t =
      then_fn(scope.NewSubScope("then").WithControlDependencies({pivot_t}), in_t);
  std::vector<Output> out_f =
      else_fn(scope.NewSubScope("else").WithControlDependencies({pivot_f}), in_f);
  if (out_t.size() != out_f.size()) {
    scope.UpdateStatus(absl::InvalidArgumentError(
        absl::StrCat("Cond in scope '", scope.name_scope(), "': the then branch returns ",
                     out_t.size(), " outputs but the else branch returns ", out_f.size())));
    return {};
  }
  std::vector<Output> out;
  for (size_t k = 0; k < out_t.size(); ++k) {
    out.push_back(Merge(scope, {out_f[k], out_t[k]}).output);
  }
  return out;
}

std::vector<Output> WhileLoop(const Scope& scope, absl::Span<const Output> loop_vars,
                              const LoopCondFn& cond, const LoopBodyFn& body,
                              const WhileLoopAttrs& attrs) {
  const std::string frame = absl::StrCat(scope.name_scope(), "/while_context");
  const EnterAttrs enter_attrs = EnterAttrs().ParallelIterations(attrs.parallel_iterations);
  // The Enters take the caller's control dependencies (they run in the enclosing frame); nodes
  // inside the loop must not depend on nodes outside it, so they start with none.
  const Scope inside = scope.WithNoControlDependencies();
  std::vector<Output> merges;
  std::vector<Operation> merge_ops;
  for (const Output& v : loop_vars) {
    Output enter = Enter(scope, v, frame, enter_attrs);
    MergeOutputs m = Merge(inside, {enter, enter});
    merges.push_back(m.output);
    merge_ops.push_back(m.output);
  }
  std::vector<Output> invariants;
  for (const Output& v : attrs.invariants) {
    invariants.push_back(Enter(scope, v, frame, enter_attrs.IsConstant(true)));
  }
  auto with_invariants = [&](std::vector<Output> vars) {
    vars.insert(vars.end(), invariants.begin(), invariants.end());
    return vars;
  };
  if (merges.empty()) {
    scope.UpdateStatus(absl::InvalidArgumentError(absl::StrCat(
        "WhileLoop in scope '", scope.name_scope(), "' needs at least one loop variable")));
    return {};
  }
  Output pred = cond(inside.WithControlDependencies({merges[0]}), with_invariants(merges));
  Output loop_cond = LoopCond(inside, pred);
  std::vector<Output> exits, identities;
  for (const Output& m : merges) {
    SwitchOutputs s = Switch(inside, m, loop_cond);
    exits.push_back(Exit(inside, s.output_false));
    identities.push_back(Identity(inside, s.output_true));
  }
  std::vector<Output> next =
      body(inside.WithControlDependencies({identities[0]}), with_invariants(identities));
  if (next.size() != merges.size()) {
    scope.UpdateStatus(absl::InvalidArgumentError(
        absl::StrCat("WhileLoop in scope '", scope.name_scope(), "': the body returns ",
                     next.size(), " values for ", merges.size(), " loop variables")));
    return {};
  }
  for (size_t k = 0; k < next.size(); ++k) {
    Output n = NextIteration(inside, next[k]);
    if (!scope.UpdateInput(merge_ops[k], 1, n).ok()) return {};
  }
  return exits;
}

}  // namespace ops
}  // namespace rill
