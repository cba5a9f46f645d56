#include "graph/gradients/gradients.h"

#include <deque>
#include <map>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/ops.h"
#include "graph/gradients/grad_registry.h"
#include "graph/gradients/gradient_builder.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "proto/graph.pb.h"

namespace rill {

bool IsTrainable(DataType dtype) {
  switch (BaseType(dtype)) {
    case DT_FLOAT:
    case DT_DOUBLE:
    case DT_HALF:
    case DT_BFLOAT16:
    case DT_COMPLEX64:
    case DT_COMPLEX128:
    case DT_RESOURCE:
    case DT_VARIANT:
      return true;
    default:
      return false;
  }
}

namespace gradients_internal {

absl::Status ForwardGraph::Load(const Scope& scope) {
  RILL_ASSIGN_OR_RETURN(def, scope.ToGraphDef());
  const int n = def.node_size();
  inputs.resize(n);
  consumers.resize(n);
  std::vector<std::vector<int>> all_consumers(n);  // data and control
  std::vector<int> num_inputs(n, 0);
  for (int i = 0; i < n; ++i) index[def.node(i).name()] = i;
  for (int i = 0; i < n; ++i) {
    const NodeDef& node = def.node(i);
    RILL_ASSIGN_OR_RETURN(Operation op, scope.GetOperation(node.name()));
    ops.push_back(op);
    for (const std::string& input : node.input()) {
      RILL_ASSIGN_OR_RETURN(InputName in, ParseInputName(input));
      auto it = index.find(in.node);
      if (it == index.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node '", node.name(), "': Unknown input node '", input, "'"));
      }
      all_consumers[it->second].push_back(i);
      ++num_inputs[i];
      if (in.is_control()) continue;
      inputs[i].emplace_back(it->second, in.index);
      consumers[it->second].push_back(i);
    }
  }
  // Frames: a node runs in the frame of its inputs' values; an Enter runs in (and outputs to)
  // its child frame, an Exit runs in its loop's frame and outputs to the parent frame.
  frame.assign(n, "");
  std::vector<bool> known(n, false);
  std::deque<int> work;
  auto settle = [&](int node, const std::string& in_frame) {
    known[node] = true;
    frame[node] = in_frame;
    if (IsEnter(node)) {
      const AttrValue* name = FindNodeAttr(def.node(node), "frame_name");
      const std::string child = name == nullptr ? "" : name->s();
      frame[node] = in_frame.empty() ? child : absl::StrCat(in_frame, ";", child);
    }
    work.push_back(node);
  };
  for (int i = 0; i < n; ++i) {
    if (num_inputs[i] == 0) settle(i, "");
  }
  while (!work.empty()) {
    const int p = work.front();
    work.pop_front();
    std::string out = frame[p];
    if (IsExit(p)) {
      const size_t cut = out.rfind(';');
      out = cut == std::string::npos ? "" : out.substr(0, cut);
    }
    for (int c : all_consumers[p]) {
      if (!known[c]) settle(c, out);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int> ForwardGraph::NodeOf(const Output& t, absl::string_view what) const {
  auto it = index.find(t.node());
  if (!t.valid() || it == index.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, " '", t.valid() ? t.TensorName() : "<invalid Output>", "' is not in the graph"));
  }
  if (t.index() < 0 || t.index() >= ops[it->second].num_outputs()) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " '", t.TensorName(), "' names an output its node does not have"));
  }
  return it->second;
}

Output GradientBuilder::Aggregate(const TensorKey& key, const Scope& scope) {
  auto it = grads_.find(key);
  if (it == grads_.end() || it->second.empty()) return Output();
  std::vector<Output>& list = it->second;
  if (list.size() > 1) {
    Output sum = ops::AddN(scope, list);
    list.assign(1, sum);
  }
  return list[0];
}

absl::Status GradientBuilder::Backprop(int node, Pass& pass) {
  const NodeDef& def = graph_.def.node(node);
  const Operation& op = graph_.ops[node];
  const Scope base = ForNode(pass.scope, node);
  std::vector<Output> out_grads(op.num_outputs());
  bool has_out_grads = false;
  for (int i = 0; i < op.num_outputs(); ++i) {
    if (!IsTrainable(op.output(i).dtype())) continue;
    out_grads[i] = Aggregate({node, i}, base);
    has_out_grads |= out_grads[i].valid();
  }
  std::vector<Output> in_grads(graph_.inputs[node].size());
  if (has_out_grads && !stop_[node]) {
    bool no_gradient = false;
    const GradFunc* fn = GradRegistry::Global()->Find(def.op(), &no_gradient);
    if (fn == nullptr && !no_gradient) {
      return absl::NotFoundError(absl::StrCat(
          "No gradient defined for op: ", def.op(), " (node '", def.name(),
          "'); register one with RILL_REGISTER_GRADIENT or stop the gradient before it "
          "(StopGradient, GradientOptions::stop_gradients)"));
    }
    if (fn != nullptr) {
      // Outputs no gradient reached get zeros, as TensorFlow's gradients do; handles (lists,
      // resources) have no zeros: their gradient functions take the invalid Output as none.
      for (int i = 0; i < op.num_outputs(); ++i) {
        const DataType t = BaseType(op.output(i).dtype());
        if (!out_grads[i].valid() && IsTrainable(t) && t != DT_VARIANT && t != DT_RESOURCE) {
          out_grads[i] = ops::ZerosLike(base, op.output(i));
        }
      }
      const Scope scope = base.NewSubScope(absl::StrCat(def.name(), "_grad"));
      GradOp grad_op;
      grad_op.node = def;
      for (const auto& [producer, index] : graph_.inputs[node]) {
        grad_op.inputs.push_back(graph_.ops[producer].output(index));
      }
      for (int i = 0; i < op.num_outputs(); ++i) grad_op.outputs.push_back(op.output(i));
      in_grads.clear();
      RILL_RETURN_IF_ERROR((*fn)(scope, grad_op, out_grads, &in_grads));
      RILL_RETURN_IF_ERROR(scope.status());
      if (in_grads.size() != graph_.inputs[node].size()) {
        return absl::InternalError(absl::StrCat(
            "The gradient of op ", def.op(), " (node '", def.name(), "') returned ",
            in_grads.size(), " gradients for ", graph_.inputs[node].size(), " inputs"));
      }
      int valid = 0;
      for (const Output& g : in_grads) valid += g.valid();
      if (options_.gate_gradients && valid > 1) {
        // tf.tuple: every gradient waits for all of them.
        const Scope tuple = scope.NewSubScope("tuple");
        std::vector<Operation> deps;
        for (const Output& g : in_grads) {
          if (g.valid()) deps.push_back(g);
        }
        Operation gate = ops::NoOp(tuple.WithOpName("group_deps").WithControlDependencies(deps));
        for (Output& g : in_grads) {
          if (g.valid()) {
            g = ops::Identity(
                tuple.WithOpName("control_dependency").WithControlDependencies({gate}), g);
          }
        }
        RILL_RETURN_IF_ERROR(scope.status());
      }
    }
  }
  for (size_t i = 0; i < graph_.inputs[node].size(); ++i) {
    const auto [producer, index] = graph_.inputs[node][i];
    if (!pass.deposit[producer]) continue;
    if (in_grads[i].valid() && IsTrainable(graph_.ops[producer].output(index).dtype())) {
      grads_[{producer, index}].push_back(in_grads[i]);
    }
    if (--pass.pending[producer] == 0 && pass.in[producer]) pass.ready.push_back(producer);
  }
  return absl::OkStatus();
}

absl::Status GradientBuilder::Drain(Pass& pass, bool main) {
  while (!pass.ready.empty()) {
    const int node = pass.ready.front();
    pass.ready.pop_front();
    if (main && graph_.IsExit(node)) {
      // A loop's gradient is built once every Exit between the outputs and inputs is done.
      const std::string& frame = graph_.frame[node];
      if (loop_done_[frame]) continue;
      bool all = true;
      for (int n = 0; n < static_cast<int>(graph_.frame.size()); ++n) {
        if (graph_.frame[n] == frame && graph_.IsExit(n) && pass.in[n] && pass.pending[n] > 0) {
          all = false;
        }
      }
      if (!all) continue;
      loop_done_[frame] = true;
      RILL_RETURN_IF_ERROR(BuildLoopGradient(frame, pass));
      continue;
    }
    RILL_RETURN_IF_ERROR(Backprop(node, pass));
  }
  return absl::OkStatus();
}

absl::Status GradientBuilder::Build(const std::vector<Output>& outputs,
                                    const std::vector<Output>& inputs,
                                    const std::vector<Output>& grad_inputs,
                                    std::vector<Output>* grad_outputs) {
  if (!grad_inputs.empty() && grad_inputs.size() != outputs.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("grad_inputs has ", grad_inputs.size(), " entries but outputs has ",
                     outputs.size(), "; give one gradient per output, or none for ones"));
  }
  RILL_RETURN_IF_ERROR(graph_.Load(root_));
  const int n = graph_.def.node_size();
  std::vector<int> output_nodes, input_nodes;
  for (const Output& y : outputs) {
    RILL_ASSIGN_OR_RETURN(int node, graph_.NodeOf(y, "Output"));
    output_nodes.push_back(node);
  }
  for (const Output& x : inputs) {
    RILL_ASSIGN_OR_RETURN(int node, graph_.NodeOf(x, "Input"));
    input_nodes.push_back(node);
  }
  // Tensors inside a while loop's body are not differentiated from outside (TensorFlow's graph
  // gradients go through the loop's Exits and Enters).
  for (size_t i = 0; i < outputs.size() + inputs.size(); ++i) {
    const bool is_output = i < outputs.size();
    const int node = is_output ? output_nodes[i] : input_nodes[i - outputs.size()];
    const bool outside = graph_.frame[node].empty() || (is_output && graph_.IsExit(node));
    if (!outside) {
      return absl::UnimplementedError(absl::StrCat(
          "Gradients ", is_output ? "of" : "with respect to",
          " a tensor inside a while loop are "
          "not supported: node '",
          graph_.def.node(node).name(), "' runs in the loop frame '", graph_.frame[node],
          "'; use the loop's ", is_output ? "output (its Exit)" : "input (what enters it)"));
    }
  }
  // Nodes reachable forward from an input, then those of them that reach an output.
  std::vector<bool> reached(n, false);
  std::vector<int> stack(input_nodes.begin(), input_nodes.end());
  while (!stack.empty()) {
    int node = stack.back();
    stack.pop_back();
    if (reached[node]) continue;
    reached[node] = true;
    for (int c : graph_.consumers[node]) stack.push_back(c);
  }
  std::vector<bool>& between = between_;
  between.assign(n, false);
  stack.assign(output_nodes.begin(), output_nodes.end());
  while (!stack.empty()) {
    int node = stack.back();
    stack.pop_back();
    if (!reached[node] || between[node]) continue;
    between[node] = true;
    for (const auto& [producer, index] : graph_.inputs[node]) stack.push_back(producer);
  }
  // The main pass runs outside loops: a loop's Exits stand for the whole loop, whose Enters
  // consume the loop's inputs.
  Pass main{
      std::vector<bool>(n, false), std::vector<bool>(n, false), std::vector<int>(n, 0), {}, root_};
  for (int node = 0; node < n; ++node) {
    if (!between[node]) continue;
    const std::string& frame = graph_.frame[node];
    if (frame.find(';') != std::string::npos) {
      return absl::UnimplementedError(
          absl::StrCat("Gradients of nested while loops are not supported yet: node '",
                       graph_.def.node(node).name(), "' runs in the nested frame '", frame,
                       "'; stop the gradient before the inner loop"));
    }
    const bool outer = frame.empty() || graph_.IsExit(node);
    main.in[node] = outer;
    main.deposit[node] = outer;
  }
  for (int node = 0; node < n; ++node) {
    if (!between[node]) continue;
    const bool counts = main.in[node] ? !graph_.IsExit(node) : graph_.IsEnter(node);
    if (!counts) continue;
    for (const auto& [producer, index] : graph_.inputs[node]) {
      if (main.in[producer]) ++main.pending[producer];
    }
  }
  // Stop nodes: those of options.stop_gradients, and input nodes no other between node feeds.
  stop_.assign(n, false);
  for (const Output& t : options_.stop_gradients) {
    RILL_ASSIGN_OR_RETURN(int node, graph_.NodeOf(t, "stop_gradients tensor"));
    stop_[node] = true;
  }
  for (int node : input_nodes) {
    bool fed_by_between = false;
    for (const auto& [producer, index] : graph_.inputs[node]) {
      fed_by_between |= main.in[producer] && main.pending[producer] > 0;
    }
    if (!fed_by_between) stop_[node] = true;
  }
  // Initial gradients of the outputs.
  for (size_t j = 0; j < outputs.size(); ++j) {
    const Output& y = outputs[j];
    Output dy;
    if (grad_inputs.empty()) {
      dy =
          ops::OnesLike(ForNode(root_, output_nodes[j]).WithOpName(absl::StrCat("grad_ys_", j)), y);
    } else {
      dy = grad_inputs[j];
      if (!dy.valid()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Gradient for output '", y.TensorName(), "' is an invalid Output"));
      }
      if (BaseType(dy.dtype()) != BaseType(y.dtype())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Gradient for output '", y.TensorName(), "' has dtype ", DataTypeString(dy.dtype()),
            ", expected ", DataTypeString(BaseType(y.dtype()))));
      }
    }
    RILL_RETURN_IF_ERROR(root_.status());
    if (main.in[output_nodes[j]] && IsTrainable(y.dtype())) {
      grads_[{output_nodes[j], y.index()}].push_back(dy);
    }
  }
  std::set<int> queued;
  for (int node : output_nodes) {
    if (main.in[node] && main.pending[node] == 0 && queued.insert(node).second) {
      main.ready.push_back(node);
    }
  }
  RILL_RETURN_IF_ERROR(Drain(main, /*main=*/true));
  grad_outputs->clear();
  for (size_t i = 0; i < inputs.size(); ++i) {
    Output g = Aggregate({input_nodes[i], inputs[i].index()}, ForNode(root_, input_nodes[i]));
    if (!g.valid() && options_.unconnected_gradients == GradientOptions::Unconnected::kZero) {
      g = ops::ZerosLike(ForNode(root_, input_nodes[i]), inputs[i]);
    }
    grad_outputs->push_back(g);
  }
  return root_.status();
}

}  // namespace gradients_internal

absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  const std::vector<Output>& grad_inputs,
                                  std::vector<Output>* grad_outputs,
                                  const GradientOptions& options) {
  RILL_RETURN_IF_ERROR(scope.status());
  gradients_internal::GradientBuilder builder(scope, options);
  absl::Status s = builder.Build(outputs, inputs, grad_inputs, grad_outputs);
  scope.UpdateStatus(s);
  return s;
}

absl::Status AddSymbolicGradients(const Scope& scope, const std::vector<Output>& outputs,
                                  const std::vector<Output>& inputs,
                                  std::vector<Output>* grad_outputs) {
  return AddSymbolicGradients(scope, outputs, inputs, {}, grad_outputs);
}

}  // namespace rill
