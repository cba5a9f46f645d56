// Gradients of TF1 while loops (Enter -> Merge -> Switch on LoopCond -> body -> NextIteration,
// Exit on the Switch's false output), built as TensorFlow builds them:
//   - a counter added to the forward loop counts its iterations;
//   - a backpropagation loop in its own frame runs that many times: each loop variable's
//     gradient enters at its Exit's gradient, goes through the gradients of the body (from the
//     NextIteration's input back to the Switch's true output) once per iteration, and leaves at
//     the Exit of the backprop loop as the gradient of the Enter's input;
//   - gradients of loop invariants (constant Enters) are summed over the iterations by an
//     accumulator loop variable;
//   - forward values the body's gradient functions read are pushed on a stack per iteration in
//     the forward loop and popped, in reverse order, by the backprop loop (StackV2). Pushes and
//     pops are ordered across iterations through the counters.
// Nested loops are refused (Unimplemented) by the caller.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/ops.h"
#include "graph/gradients/gradient_builder.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"

namespace rill {
namespace gradients_internal {
namespace {

bool IsStructural(const std::string& op) {
  return op == "Enter" || op == "RefEnter" || op == "Merge" || op == "RefMerge" || op == "Switch" ||
         op == "RefSwitch" || op == "Exit" || op == "RefExit" || op == "NextIteration" ||
         op == "RefNextIteration" || op == "LoopCond";
}

struct LoopVar {
  int enter = -1, merge = -1, sw = -1, exit = -1, next = -1;
};

struct Loop {
  std::vector<LoopVar> vars;
  std::vector<int> invariants;  // constant Enters
  int loop_cond = -1;
  int64_t parallel_iterations = 10;
};

absl::Status Malformed(const std::string& frame, const std::string& why) {
  return absl::UnimplementedError(absl::StrCat(
      "Cannot build the gradient of while loop '", frame, "': ", why,
      "; only TF1 loops of Enter, Merge, Switch, LoopCond, NextIteration and Exit are supported"));
}

absl::StatusOr<Loop> FindLoop(const ForwardGraph& g, const std::string& frame) {
  Loop loop;
  auto consumer_of = [&](int node, std::initializer_list<const char*> ops, int output) {
    for (int c : g.consumers[node]) {
      for (const char* op : ops) {
        if (g.op(c) != op) continue;
        for (const auto& [p, index] : g.inputs[c]) {
          if (p == node && index == output) return c;
        }
      }
    }
    return -1;
  };
  for (int node = 0; node < static_cast<int>(g.frame.size()); ++node) {
    if (!g.IsEnter(node) || g.frame[node] != frame) continue;
    const NodeDef& def = g.def.node(node);
    const AttrValue* constant = FindNodeAttr(def, "is_constant");
    if (const AttrValue* p = FindNodeAttr(def, "parallel_iterations")) {
      loop.parallel_iterations = p->i();
    }
    if (constant != nullptr && constant->b()) {
      loop.invariants.push_back(node);
      continue;
    }
    LoopVar v;
    v.enter = node;
    v.merge = consumer_of(node, {"Merge", "RefMerge"}, 0);
    if (v.merge < 0) return Malformed(frame, absl::StrCat("Enter '", def.name(), "' has no Merge"));
    if (g.inputs[v.merge].size() != 2) {
      return Malformed(
          frame, absl::StrCat("Merge '", g.def.node(v.merge).name(), "' does not have 2 inputs"));
    }
    v.next = g.inputs[v.merge][1].first;
    if (g.op(v.next) != "NextIteration" && g.op(v.next) != "RefNextIteration") {
      v.next = g.inputs[v.merge][0].first;
    }
    v.sw = consumer_of(v.merge, {"Switch", "RefSwitch"}, 0);
    if (v.sw < 0) {
      return Malformed(frame,
                       absl::StrCat("Merge '", g.def.node(v.merge).name(), "' has no Switch"));
    }
    v.exit = consumer_of(v.sw, {"Exit", "RefExit"}, 0);
    loop.loop_cond = g.inputs[v.sw][1].first;
    loop.vars.push_back(v);
  }
  if (loop.vars.empty() || loop.loop_cond < 0) return Malformed(frame, "no loop variables");
  return loop;
}

}  // namespace

absl::Status GradientBuilder::BuildLoopGradient(const std::string& frame, Pass& main) {
  RILL_ASSIGN_OR_RETURN(Loop loop, FindLoop(graph_, frame));
  const int n = graph_.def.node_size();
  const Output pred_fwd = graph_.ops[loop.loop_cond].output(0);
  const std::string first_exit =
      graph_.def.node(loop.vars[0].exit >= 0 ? loop.vars[0].exit : loop.vars[0].enter).name();
  const Scope scope = root_.NewSubScope(absl::StrCat(first_exit, "_grad"));
  const std::string grad_frame = absl::StrCat(scope.name_scope(), "/while_context");
  auto enter = [&](const Scope& s, const Output& x, const std::string& f, bool constant) {
    return ops::Enter(
        s, x, f,
        ops::EnterAttrs().IsConstant(constant).ParallelIterations(loop.parallel_iterations));
  };

  // The forward counter (its increment is built last, after the stack pushes it waits for).
  const Scope fwd = scope.NewSubScope("forward_counter");
  Output c_enter = enter(fwd, ops::Const(fwd, 0), frame, false);
  ops::MergeOutputs c_merge = ops::Merge(fwd, {c_enter, c_enter});
  ops::SwitchOutputs c_switch = ops::Switch(fwd, c_merge.output, pred_fwd);
  Output count = ops::Exit(fwd.WithOpName("count"), c_switch.output_false);
  Output c_pivot = ops::Identity(fwd, c_switch.output_true);

  // The backprop loop's counter: runs `count` times; its pivot orders each iteration's nodes.
  const Scope bwd = scope.NewSubScope("backprop_counter");
  Output n_enter = enter(bwd, count, grad_frame, false);
  ops::MergeOutputs n_merge = ops::Merge(bwd, {n_enter, n_enter});
  Output pred = ops::LoopCond(
      bwd, ops::Greater(bwd, n_merge.output, enter(bwd, ops::Const(bwd, 0), grad_frame, true)));
  ops::SwitchOutputs n_switch = ops::Switch(bwd, n_merge.output, pred);
  Output pivot = ops::Identity(bwd.WithOpName("pivot"), n_switch.output_true);
  RILL_RETURN_IF_ERROR(scope.status());

  // One backprop loop variable per trainable forward loop variable.
  struct GradVar {
    int var;
    ops::MergeOutputs merge;
    Output body_grad, exit;
  };
  std::vector<GradVar> grad_vars;
  for (int k = 0; k < static_cast<int>(loop.vars.size()); ++k) {
    const LoopVar& v = loop.vars[k];
    const Output var_out = graph_.ops[v.merge].output(0);
    if (!IsTrainable(var_out.dtype())) continue;
    Output d_exit;
    if (v.exit >= 0) d_exit = Aggregate({v.exit, 0}, root_);
    if (!d_exit.valid()) {
      if (v.exit < 0) continue;
      d_exit = ops::ZerosLike(root_, graph_.ops[v.exit].output(0));
    }
    const Scope s = scope.NewSubScope("var");
    GradVar gv;
    gv.var = k;
    Output e = enter(s, d_exit, grad_frame, false);
    gv.merge = ops::Merge(s, {e, e});
    ops::SwitchOutputs sw = ops::Switch(s, gv.merge.output, pred);
    gv.exit = ops::Exit(s, sw.output_false);
    gv.body_grad = ops::Identity(s, sw.output_true);
    grad_vars.push_back(gv);
  }
  RILL_RETURN_IF_ERROR(scope.status());

  // The body: nodes of the frame between the Switches' true outputs (and the invariants) and
  // the NextIterations' inputs.
  std::vector<bool> reached(n, false), body(n, false);
  std::vector<int> stack;
  for (const LoopVar& v : loop.vars) stack.push_back(v.sw);
  for (int c : loop.invariants) stack.push_back(c);
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    for (int c : graph_.consumers[node]) {
      if (reached[c] || graph_.frame[c] != frame || IsStructural(graph_.op(c))) continue;
      reached[c] = true;
      stack.push_back(c);
    }
  }
  for (const GradVar& gv : grad_vars)
    stack.push_back(graph_.inputs[loop.vars[gv.var].next][0].first);
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    if (!reached[node] || body[node]) continue;
    body[node] = true;
    for (const auto& [p, index] : graph_.inputs[node]) stack.push_back(p);
  }
  const Scope body_scope = scope.NewSubScope("body").WithControlDependencies({pivot});
  Pass pass{body, body, std::vector<int>(n, 0), {}, body_scope};
  for (const LoopVar& v : loop.vars) pass.deposit[v.sw] = true;
  for (int c : loop.invariants) pass.deposit[c] = true;
  for (int node = 0; node < n; ++node) {
    if (!body[node]) continue;
    for (const auto& [p, index] : graph_.inputs[node]) {
      if (pass.deposit[p]) ++pass.pending[p];
    }
  }
  RILL_ASSIGN_OR_RETURN(GraphDef before, root_.ToGraphDef());
  const int first_new = before.node_size();
  for (const GradVar& gv : grad_vars) {
    const auto [p, index] = graph_.inputs[loop.vars[gv.var].next][0];
    grads_[{p, index}].push_back(gv.body_grad);
  }
  for (int node = 0; node < n; ++node) {
    if (body[node] && pass.pending[node] == 0) pass.ready.push_back(node);
  }
  RILL_RETURN_IF_ERROR(Drain(pass, /*main=*/false));

  // Each variable's gradient for the next (earlier) iteration; invariants' accumulators.
  std::vector<Operation> next_iterations;
  for (const GradVar& gv : grad_vars) {
    Output g = Aggregate({loop.vars[gv.var].sw, 1}, body_scope);
    if (!g.valid()) g = ops::ZerosLike(body_scope, gv.body_grad);
    Output next = ops::NextIteration(scope.NewSubScope("var"), g);
    RILL_RETURN_IF_ERROR(root_.UpdateInput(Operation(gv.merge.output.node()), 1, next));
  }
  std::vector<std::pair<int, Output>> invariant_grads;  // (constant Enter, its Exit)
  for (int c : loop.invariants) {
    Output g = Aggregate({c, 0}, body_scope);
    if (!g.valid()) continue;
    const Scope s = scope.NewSubScope("accumulator");
    const auto [p, index] = graph_.inputs[c][0];
    Output e = enter(s, ops::ZerosLike(root_, graph_.ops[p].output(index)), grad_frame, false);
    ops::MergeOutputs m = ops::Merge(s, {e, e});
    ops::SwitchOutputs sw = ops::Switch(s, m.output, pred);
    Output sum = ops::AddV2(s, ops::Identity(s, sw.output_true), g);
    RILL_RETURN_IF_ERROR(
        root_.UpdateInput(Operation(m.output.node()), 1, ops::NextIteration(s, sum)));
    invariant_grads.emplace_back(c, ops::Exit(s, sw.output_false));
  }
  RILL_RETURN_IF_ERROR(scope.status());

  // Forward values read by the gradient nodes: invariants enter the backprop frame; per-iteration
  // values go through a stack.
  RILL_ASSIGN_OR_RETURN(GraphDef after, root_.ToGraphDef());
  std::map<TensorKey, Output> substitutes;
  std::vector<Operation> pushes, pops;
  const Scope stacks = scope.NewSubScope("stack");
  for (int i = first_new; i < after.node_size(); ++i) {
    const NodeDef& node = after.node(i);
    int data_index = 0;
    for (const std::string& input : node.input()) {
      RILL_ASSIGN_OR_RETURN(InputName in, ParseInputName(input));
      if (in.is_control()) continue;
      const int k = data_index++;
      auto it = graph_.index.find(in.node);
      if (it == graph_.index.end() || graph_.frame[it->second] != frame) continue;
      const int p = it->second;
      const TensorKey key{p, in.index};
      auto sub = substitutes.find(key);
      if (sub == substitutes.end()) {
        const Output value = graph_.ops[p].output(in.index);
        Output replacement;
        if (graph_.IsEnter(p) &&
            std::find(loop.invariants.begin(), loop.invariants.end(), p) != loop.invariants.end()) {
          const auto [outer, outer_index] = graph_.inputs[p][0];
          const Output outer_value = graph_.ops[outer].output(outer_index);
          // The same kind of Enter as the forward one, so the value keeps its dtype.
          replacement = graph_.op(p) == "RefEnter"
                            ? ops::RefEnter(stacks, outer_value, grad_frame,
                                            ops::EnterAttrs().IsConstant(true).ParallelIterations(
                                                loop.parallel_iterations))
                            : enter(stacks, outer_value, grad_frame, true);
        } else {
          if (IsRefType(value.dtype())) {
            return Malformed(frame, absl::StrCat("the gradient reads the reference '",
                                                 value.TensorName(), "' inside the loop"));
          }
          const DataType t = value.dtype();
          Output handle = ops::StackV2(stacks, ops::Const(stacks, -1), t);
          pushes.push_back(ops::StackPushV2(stacks.WithControlDependencies({c_pivot}),
                                            enter(stacks, handle, frame, true), value));
          Output pop = ops::StackPopV2(stacks.WithControlDependencies({pivot}),
                                       enter(stacks, handle, grad_frame, true), t);
          pops.push_back(pop);
          replacement = pop;
        }
        sub = substitutes.emplace(key, replacement).first;
      }
      RILL_RETURN_IF_ERROR(root_.UpdateInput(Operation(node.name()), k, sub->second));
    }
  }
  RILL_RETURN_IF_ERROR(scope.status());

  // Counters: the forward one waits for this iteration's pushes, the backprop one for its pops,
  // so stacks are used in iteration order.
  Output c_next = ops::NextIteration(fwd, ops::AddV2(fwd.WithControlDependencies(pushes), c_pivot,
                                                     enter(fwd, ops::Const(fwd, 1), frame, true)));
  RILL_RETURN_IF_ERROR(root_.UpdateInput(Operation(c_merge.output.node()), 1, c_next));
  Output n_next =
      ops::NextIteration(bwd, ops::Sub(bwd.WithControlDependencies(pops), pivot,
                                       enter(bwd, ops::Const(bwd, 1), grad_frame, true)));
  RILL_RETURN_IF_ERROR(root_.UpdateInput(Operation(n_merge.output.node()), 1, n_next));
  RILL_RETURN_IF_ERROR(scope.status());

  // The gradients of the loop's inputs, for the main pass.
  auto deposit = [&](int enter_node, const Output& g) {
    const auto [p, index] = graph_.inputs[enter_node][0];
    if (g.valid() && main.deposit[p] && IsTrainable(graph_.ops[p].output(index).dtype())) {
      grads_[{p, index}].push_back(g);
    }
  };
  for (const GradVar& gv : grad_vars) deposit(loop.vars[gv.var].enter, gv.exit);
  for (const auto& [c, g] : invariant_grads) deposit(c, g);
  for (int node = 0; node < n; ++node) {
    if (!graph_.IsEnter(node) || graph_.frame[node] != frame || !between_[node]) continue;
    const int p = graph_.inputs[node][0].first;
    if (main.in[p] && --main.pending[p] == 0) main.ready.push_back(p);
  }
  return absl::OkStatus();
}

}  // namespace gradients_internal
}  // namespace rill
