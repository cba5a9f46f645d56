#include "graph/function_lowering.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/device_name.h"
#include "core/status_macros.h"
#include "graph/graph_def_import.h"
#include "graph/op_classes.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

constexpr int kMaxDepth = 64;

using AttrMap = google::protobuf::Map<std::string, AttrValue>;

// How many tensors an argument stands for under `attrs` (number_attr / type_list_attr lists).
absl::StatusOr<int> ArgCount(const OpDef::ArgDef& arg, const AttrMap& attrs) {
  if (!arg.number_attr().empty()) {
    auto it = attrs.find(arg.number_attr());
    if (it == attrs.end())
      return absl::InvalidArgumentError(absl::StrCat(
          "attr '", arg.number_attr(), "' (the length of '", arg.name(), "') is not set"));
    return static_cast<int>(it->second.i());
  }
  if (!arg.type_list_attr().empty()) {
    auto it = attrs.find(arg.type_list_attr());
    if (it == attrs.end())
      return absl::InvalidArgumentError(absl::StrCat(
          "attr '", arg.type_list_attr(), "' (the types of '", arg.name(), "') is not set"));
    return it->second.list().type_size();
  }
  return 1;
}

// The dtypes of the tensors `args` stand for under `attrs`.
absl::StatusOr<std::vector<DataType>> ArgTypes(
    const google::protobuf::RepeatedPtrField<OpDef::ArgDef>& args, const AttrMap& attrs) {
  std::vector<DataType> out;
  for (const OpDef::ArgDef& arg : args) {
    if (!arg.type_list_attr().empty()) {
      auto it = attrs.find(arg.type_list_attr());
      if (it == attrs.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("attr '", arg.type_list_attr(), "' is not set"));
      }
      for (int t : it->second.list().type()) out.push_back(static_cast<DataType>(t));
      continue;
    }
    DataType type = arg.type();
    if (!arg.type_attr().empty()) {
      auto it = attrs.find(arg.type_attr());
      if (it == attrs.end()) {
        return absl::InvalidArgumentError(absl::StrCat("attr '", arg.type_attr(), "' is not set"));
      }
      type = it->second.type();
    }
    RILL_ASSIGN_OR_RETURN(int n, ArgCount(arg, attrs));
    for (int i = 0; i < n; ++i) out.push_back(type);
  }
  return out;
}

AttrValue TypeListAttr(const std::vector<DataType>& types) {
  AttrValue v;
  for (DataType t : types) v.mutable_list()->add_type(t);
  return v;
}

AttrValue TypeAttr(DataType t) {
  AttrValue v;
  v.set_type(t);
  return v;
}

// An input of a node being made: an output (or, with index kControlSlot, the control output) of
// a node already in the graph or of a node made by the same lowering step.
struct Ref {
  Node* node = nullptr;  // a node of the graph, or
  int made = -1;         // an index into the step's made nodes
  int index = 0;         // output index; kControlSlot for a control input

  bool is_control() const { return index == kControlSlot; }
  Ref Control() const { return Ref{node, made, kControlSlot}; }
};

Ref Made(int made, int index = 0) { return Ref{nullptr, made, index}; }

// A node one lowering step makes: its NodeDef (without inputs) and its inputs in NodeDef order.
struct NodeSpec {
  NodeDef def;
  std::vector<Ref> inputs;
};

struct InlinedBody {
  std::vector<Ref> outputs;  // one per output tensor
  std::vector<DataType> output_types;
  std::vector<Ref> control_rets;  // control refs
};

// GraphDef versions <= 21 wrote `shape {}` for a Placeholder of unknown shape (as import reads
// the graph's own Placeholders).
void UpgradeOldPlaceholderShape(int producer, NodeDef* node) {
  if (producer > 21 || ClassifyOp(node->op()) != OpClass::kPlaceholder) return;
  auto it = node->mutable_attr()->find("shape");
  if (it == node->mutable_attr()->end() || !it->second.has_shape()) return;
  TensorShapeProto* shape = it->second.mutable_shape();
  if (shape->dim_size() == 0 && !shape->unknown_rank()) shape->set_unknown_rank(true);
}

class Lowerer {
 public:
  Lowerer(Graph* graph, const LoweringOptions& options) : graph_(graph), options_(options) {
    for (const FunctionDef& f : graph->library().function()) funcs_[f.signature().name()] = &f;
  }

  bool NeedsLowering(const Node& n) const {
    if (IsFunctional(n.op_class())) return true;
    return n.is_unknown_op() && funcs_.count(n.op()) > 0;
  }

  // Lowers every functional node, depth first: the nodes a step makes are lowered before the
  // graph's next functional node, so a recursion reaches the depth limit after a few bodies
  // instead of after an exponential number of them.
  absl::Status Run() {
    std::vector<std::pair<Node*, int>> stack;  // (node, nesting depth); top is lowered next
    for (Node* n : graph_->op_nodes()) {
      if (NeedsLowering(*n)) stack.emplace_back(n, 0);
    }
    if (stack.empty()) return absl::OkStatus();
    std::reverse(stack.begin(), stack.end());
    int64_t made_total = 0;
    while (!stack.empty()) {
      auto [node, depth] = stack.back();
      stack.pop_back();
      if (depth >= kMaxDepth) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Node '", node->name(), "': function calls nest more than ", kMaxDepth,
            " deep (a function calling itself?); Rill inlines calls and cannot run recursion"));
      }
      std::vector<NodeSpec> made;
      absl::Status s = Lower(*node, &made);
      if (!s.ok()) {
        return absl::Status(
            s.code(), absl::StrCat("Node '", node->name(), "' (", node->op(), "): ", s.message()));
      }
      made_total += static_cast<int64_t>(made.size());
      if (made_total > options_.max_new_nodes) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Node '", node->name(), "' (", node->op(), "): lowering function calls would add more ",
            "than ", options_.max_new_nodes,
            " nodes to the graph; reduce the recursion or the nesting of function calls (Rill "
            "inlines every call)"));
      }
      RILL_ASSIGN_OR_RETURN(std::vector<Node*> added, Apply(node, std::move(made)));
      for (auto it = added.rbegin(); it != added.rend(); ++it) {
        if (NeedsLowering(**it)) stack.emplace_back(*it, depth + 1);
      }
    }
    graph_->FixupSourceAndSinkEdges();
    if (options_.infer_shapes) return InferShapes(graph_);
    return TopologicalOrder(*graph_).status();
  }

 private:
  absl::Status Lower(const Node& node, std::vector<NodeSpec>* made) {
    std::vector<Ref> data, control;
    for (int i = 0; i < node.num_inputs(); ++i) {
      const Edge* e = node.input_edge(i);
      if (e == nullptr) return absl::InvalidArgumentError(absl::StrCat("input ", i, " is unset"));
      data.push_back(Ref{e->src(), -1, e->src_output()});
    }
    for (const Edge* e : node.in_edges()) {
      if (e->IsControlEdge() && e->src()->IsOp())
        control.push_back(Ref{e->src(), -1, kControlSlot});
    }
    switch (node.op_class()) {
      case OpClass::kFunctionalIf:
        return LowerIf(node, data, control, made);
      case OpClass::kFunctionalCase:
        return LowerCase(node, data, control, made);
      case OpClass::kFunctionalWhile:
        return LowerWhile(node, data, control, made);
      default:
        return LowerCall(node, data, control, made);
    }
  }

  // Adds a node to `made`; returns its index.
  static int Add(std::vector<NodeSpec>* made, const std::string& name, const std::string& op,
                 std::vector<Ref> inputs, const std::string& device) {
    NodeSpec& n = made->emplace_back();
    n.def.set_name(name);
    n.def.set_op(op);
    n.def.set_device(device);
    n.inputs = std::move(inputs);
    return static_cast<int>(made->size()) - 1;
  }
  static NodeDef& Def(std::vector<NodeSpec>* made, int i) { return (*made)[i].def; }

  // The node taking over the lowered node's name: IdentityN over `outputs`, or a NoOp.
  static void AddNamedOutputs(const Node& node, const std::vector<Ref>& outputs,
                              const std::vector<DataType>& types, const std::vector<Ref>& controls,
                              std::vector<NodeSpec>* made) {
    std::vector<Ref> inputs = outputs;
    for (const Ref& c : controls) inputs.push_back(c.Control());
    const int n = Add(made, node.name(), outputs.empty() ? "NoOp" : "IdentityN", std::move(inputs),
                      node.requested_device());
    if (!outputs.empty()) (*Def(made, n).mutable_attr())["T"] = TypeListAttr(types);
  }

  static absl::StatusOr<NameAttrList> FuncAttr(const Node& node, const char* attr) {
    auto it = node.def().attr().find(attr);
    if (it == node.def().attr().end() || !it->second.has_func()) {
      return absl::InvalidArgumentError(absl::StrCat("has no function attr '", attr, "'"));
    }
    return it->second.func();
  }

  absl::Status LowerCall(const Node& node, const std::vector<Ref>& data,
                         const std::vector<Ref>& control, std::vector<NodeSpec>* made) {
    NameAttrList fn;
    if (node.op_class() == OpClass::kFunctionCall) {
      RILL_ASSIGN_OR_RETURN(fn, FuncAttr(node, "f"));
      RILL_RETURN_IF_ERROR(CheckCallTypes(node, fn, data));
    } else {
      fn.set_name(node.op());
      *fn.mutable_attr() = node.def().attr();
    }
    // Body roots wait for the call's inputs and control inputs (and die with them); the
    // producers in name order, each once.
    std::vector<Node*> deps;
    for (const Ref& in : data) deps.push_back(in.node);
    for (const Ref& in : control) deps.push_back(in.node);
    std::sort(deps.begin(), deps.end(),
              [](const Node* a, const Node* b) { return a->name() < b->name(); });
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    std::vector<Ref> dep_refs;
    for (Node* d : deps) dep_refs.push_back(Ref{d, -1, kControlSlot});
    const std::string& dev = node.requested_device();
    const int ctrl = Add(made, node.name() + "/input_control_node", "NoOp", dep_refs, dev);
    RILL_ASSIGN_OR_RETURN(InlinedBody body, Inline(fn, data, node.name(), ctrl, dev, made));
    AddNamedOutputs(node, body.outputs, body.output_types, body.control_rets, made);
    return absl::OkStatus();
  }

  // A PartitionedCall's Tin against its input edges (import's text) and Tin and Tout against
  // the function's signature: the call is not a registered op, so import checked neither, and
  // the inlined body would otherwise run with whatever the call declared. An attr the call
  // lacks is not checked, and a signature whose types the call's attrs cannot resolve is left
  // to Inline, which names what is missing.
  absl::Status CheckCallTypes(const Node& node, const NameAttrList& fn,
                              const std::vector<Ref>& data) {
    const AttrMap& attrs = node.def().attr();
    if (attrs.count("Tin") == 0 || attrs.count("Tout") == 0) return absl::OkStatus();
    auto types = [&](const char* name) {
      std::vector<DataType> out;
      for (int t : attrs.at(name).list().type()) out.push_back(static_cast<DataType>(t));
      return out;
    };
    const std::vector<DataType> tin = types("Tin"), tout = types("Tout");
    if (tin.size() != data.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("has ", data.size(), " inputs but Tin lists ", tin.size()));
    }
    for (size_t i = 0; i < data.size(); ++i) {
      const Node* src = data[i].node;
      if (src == nullptr || data[i].index < 0 || data[i].index >= src->num_outputs()) continue;
      const DataType got = BaseType(src->output_type(data[i].index));
      if (got != tin[i]) {
        return absl::InvalidArgumentError(
            absl::StrCat("Input ", i, " of node ", node.name(), " was passed ", DataTypeString(got),
                         " from ", src->name(), ":", data[i].index, " incompatible with expected ",
                         DataTypeString(tin[i]), "."));
      }
    }
    auto found = funcs_.find(fn.name());
    if (found == funcs_.end()) return absl::OkStatus();
    const OpDef& sig = found->second->signature();
    absl::StatusOr<std::vector<DataType>> args = ArgTypes(sig.input_arg(), fn.attr());
    absl::StatusOr<std::vector<DataType>> rets = ArgTypes(sig.output_arg(), fn.attr());
    if (!args.ok() || !rets.ok()) return absl::OkStatus();
    if (*args != tin) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tin [", DataTypeListString(tin), "] does not match the arguments of function '",
          fn.name(), "' [", DataTypeListString(*args), "]"));
    }
    if (*rets != tout) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Tout [", DataTypeListString(tout), "] does not match the outputs of function '",
          fn.name(), "' [", DataTypeListString(*rets), "]"));
    }
    return absl::OkStatus();
  }

  absl::Status LowerIf(const Node& node, const std::vector<Ref>& data,
                       const std::vector<Ref>& control, std::vector<NodeSpec>* made) {
    if (data.empty()) return absl::InvalidArgumentError("has no cond input");
    RILL_ASSIGN_OR_RETURN(NameAttrList then_fn, FuncAttr(node, "then_branch"));
    RILL_ASSIGN_OR_RETURN(NameAttrList else_fn, FuncAttr(node, "else_branch"));
    const AttrMap& attrs = node.def().attr();
    const std::string& n = node.name();
    const std::string& dev = node.requested_device();
    DataType cond_type = DT_BOOL;
    if (auto it = attrs.find("Tcond"); it != attrs.end()) cond_type = it->second.type();
    std::vector<DataType> tin;
    if (auto it = attrs.find("Tin"); it != attrs.end()) {
      for (int t : it->second.list().type()) tin.push_back(static_cast<DataType>(t));
    }
    if (tin.size() != data.size() - 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("has ", data.size() - 1, " inputs but Tin lists ", tin.size()));
    }
    std::vector<Ref> pred_inputs{data[0]};
    pred_inputs.insert(pred_inputs.end(), control.begin(), control.end());
    const int pred = Add(made, n + "/pred", "ToBool", pred_inputs, dev);
    (*Def(made, pred).mutable_attr())["T"] = TypeAttr(cond_type);
    const int switch_pred = Add(made, n + "/switch_pred", "Switch", {Made(pred), Made(pred)}, dev);
    (*Def(made, switch_pred).mutable_attr())["T"] = TypeAttr(DT_BOOL);
    const int switch_t = Add(made, n + "/switch_t", "Identity", {Made(switch_pred, 1)}, dev);
    (*Def(made, switch_t).mutable_attr())["T"] = TypeAttr(DT_BOOL);
    const int switch_f = Add(made, n + "/switch_f", "Identity", {Made(switch_pred, 0)}, dev);
    (*Def(made, switch_f).mutable_attr())["T"] = TypeAttr(DT_BOOL);
    std::vector<Ref> in_t, in_f;
    for (size_t i = 1; i < data.size(); ++i) {
      const int sw =
          Add(made, absl::StrCat(n, "/input_", i - 1), "Switch", {data[i], Made(pred)}, dev);
      (*Def(made, sw).mutable_attr())["T"] = TypeAttr(tin[i - 1]);
      in_t.push_back(Made(sw, 1));
      in_f.push_back(Made(sw, 0));
    }
    RILL_ASSIGN_OR_RETURN(InlinedBody then_body,
                          Inline(then_fn, in_t, n + "/then", switch_t, dev, made));
    RILL_ASSIGN_OR_RETURN(InlinedBody else_body,
                          Inline(else_fn, in_f, n + "/else", switch_f, dev, made));
    if (then_body.outputs.size() != else_body.outputs.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "then_branch '", then_fn.name(), "' returns ", then_body.outputs.size(),
          " outputs but else_branch '", else_fn.name(), "' returns ", else_body.outputs.size()));
    }
    // Tin and Tout against each branch's signature (TensorFlow refuses such a graph).
    const std::vector<Ref> args(data.begin() + 1, data.end());
    RILL_RETURN_IF_ERROR(CheckCallTypes(node, then_fn, args));
    RILL_RETURN_IF_ERROR(CheckCallTypes(node, else_fn, args));
    // "Branch executed": live once the taken branch's control outputs ran.
    auto done = [&](const char* which, int pivot, const InlinedBody& body) {
      std::vector<Ref> inputs{Made(pivot)};
      inputs.insert(inputs.end(), body.control_rets.begin(), body.control_rets.end());
      const int d = Add(made, absl::StrCat(n, "/", which, "_done"), "Identity", inputs, dev);
      (*Def(made, d).mutable_attr())["T"] = TypeAttr(DT_BOOL);
      return d;
    };
    const int then_done = done("then", switch_t, then_body);
    const int else_done = done("else", switch_f, else_body);
    const int executed =
        Add(made, n + "/branch_executed", "Merge", {Made(else_done), Made(then_done)}, dev);
    (*Def(made, executed).mutable_attr())["T"] = TypeAttr(DT_BOOL);
    SetAttr(&Def(made, executed), "N", int64_t{2});
    std::vector<Ref> outputs;
    for (size_t k = 0; k < then_body.outputs.size(); ++k) {
      const int m = Add(made, absl::StrCat(n, "/output_", k), "Merge",
                        {else_body.outputs[k], then_body.outputs[k]}, dev);
      (*Def(made, m).mutable_attr())["T"] = TypeAttr(then_body.output_types[k]);
      SetAttr(&Def(made, m), "N", int64_t{2});
      outputs.push_back(Made(m));
    }
    AddNamedOutputs(node, outputs, then_body.output_types, {Made(executed)}, made);
    return absl::OkStatus();
  }

  // Case / StatelessCase: as TensorFlow's lowering, a _SwitchN of the branch index on itself
  // gives one pivot per branch (an out-of-range index takes the last branch, _SwitchN's rule; a
  // non-scalar index is _SwitchN's error), each input goes through a _SwitchN on the index, the
  // branches are inlined on the pivots' outputs ("<case>/branch_<b>/...") and each output is the
  // Merge of every branch's.
  absl::Status LowerCase(const Node& node, const std::vector<Ref>& data,
                         const std::vector<Ref>& control, std::vector<NodeSpec>* made) {
    if (data.empty()) return absl::InvalidArgumentError("has no branch_index input");
    const AttrMap& attrs = node.def().attr();
    auto branches_attr = attrs.find("branches");
    if (branches_attr == attrs.end() || branches_attr->second.list().func_size() == 0) {
      return absl::InvalidArgumentError("has no branches (attr 'branches' lists no function)");
    }
    const auto& branches = branches_attr->second.list().func();
    const int num = branches.size();
    const std::string& n = node.name();
    const std::string& dev = node.requested_device();
    std::vector<DataType> tin;
    if (auto it = attrs.find("Tin"); it != attrs.end()) {
      for (int t : it->second.list().type()) tin.push_back(static_cast<DataType>(t));
    }
    if (tin.size() != data.size() - 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("has ", data.size() - 1, " inputs but Tin lists ", tin.size()));
    }
    // The index, gated by the Case's control inputs, selects the pivots and the inputs.
    std::vector<Ref> gate_inputs{data[0]};
    gate_inputs.insert(gate_inputs.end(), control.begin(), control.end());
    const int gate = Add(made, n + "/index", "Identity", gate_inputs, dev);
    (*Def(made, gate).mutable_attr())["T"] = TypeAttr(DT_INT32);
    const int index = Add(made, n + "/branch_index", "_SwitchN", {Made(gate), Made(gate)}, dev);
    (*Def(made, index).mutable_attr())["T"] = TypeAttr(DT_INT32);
    SetAttr(&Def(made, index), "num_outs", int64_t{num});
    std::vector<int> pivots;
    for (int b = 0; b < num; ++b) {
      const int p = Add(made, absl::StrCat(n, "/pivot_", b), "Identity", {Made(index, b)}, dev);
      (*Def(made, p).mutable_attr())["T"] = TypeAttr(DT_INT32);
      pivots.push_back(p);
    }
    std::vector<std::vector<Ref>> branch_inputs(num);
    for (size_t i = 1; i < data.size(); ++i) {
      const int sw =
          Add(made, absl::StrCat(n, "/input_", i - 1), "_SwitchN", {data[i], Made(gate)}, dev);
      (*Def(made, sw).mutable_attr())["T"] = TypeAttr(tin[i - 1]);
      SetAttr(&Def(made, sw), "num_outs", int64_t{num});
      for (int b = 0; b < num; ++b) branch_inputs[b].push_back(Made(sw, b));
    }
    std::vector<InlinedBody> bodies;
    for (int b = 0; b < num; ++b) {
      RILL_ASSIGN_OR_RETURN(InlinedBody body,
                            Inline(branches[b], branch_inputs[b], absl::StrCat(n, "/branch_", b),
                                   pivots[b], dev, made));
      if (b > 0 && body.outputs.size() != bodies[0].outputs.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("branch 0 '", branches[0].name(), "' returns ", bodies[0].outputs.size(),
                         " outputs but branch ", b, " '", branches[b].name(), "' returns ",
                         body.outputs.size()));
      }
      bodies.push_back(std::move(body));
    }
    // Tin and Tout against each branch's signature: the Case's readers were typed by Tout, and
    // TensorFlow refuses a graph whose branches return something else.
    const std::vector<Ref> args(data.begin() + 1, data.end());
    for (int b = 0; b < num; ++b) RILL_RETURN_IF_ERROR(CheckCallTypes(node, branches[b], args));
    // "Branch executed": live once the taken branch's control outputs ran.
    std::vector<Ref> done;
    for (int b = 0; b < num; ++b) {
      std::vector<Ref> inputs{Made(pivots[b])};
      inputs.insert(inputs.end(), bodies[b].control_rets.begin(), bodies[b].control_rets.end());
      const int d = Add(made, absl::StrCat(n, "/branch_", b, "_done"), "Identity", inputs, dev);
      (*Def(made, d).mutable_attr())["T"] = TypeAttr(DT_INT32);
      done.push_back(Made(d));
    }
    const int executed = Add(made, n + "/branch_executed", "Merge", done, dev);
    (*Def(made, executed).mutable_attr())["T"] = TypeAttr(DT_INT32);
    SetAttr(&Def(made, executed), "N", int64_t{num});
    std::vector<Ref> outputs;
    for (size_t k = 0; k < bodies[0].outputs.size(); ++k) {
      std::vector<Ref> inputs;
      for (int b = 0; b < num; ++b) inputs.push_back(bodies[b].outputs[k]);
      const int m = Add(made, absl::StrCat(n, "/output_", k), "Merge", inputs, dev);
      (*Def(made, m).mutable_attr())["T"] = TypeAttr(bodies[0].output_types[k]);
      SetAttr(&Def(made, m), "N", int64_t{num});
      outputs.push_back(Made(m));
    }
    AddNamedOutputs(node, outputs, bodies[0].output_types, {Made(executed)}, made);
    return absl::OkStatus();
  }

  // Which loop variables `body_fn` passes through unchanged: its output i is its argument i,
  // directly or through Identity nodes (TensorFlow's while_v2 returns every captured tensor, a
  // recurrent layer's weights, input list and step count, that way). Only for bodies whose
  // arguments and outputs are one tensor each, `vars` of them; all false otherwise.
  std::vector<bool> LoopInvariants(const NameAttrList& body_fn, size_t vars) const {
    std::vector<bool> invariant(vars, false);
    auto found = funcs_.find(body_fn.name());
    if (found == funcs_.end()) return invariant;
    const FunctionDef& f = *found->second;
    const OpDef& sig = f.signature();
    auto single = [](const OpDef::ArgDef& a) {
      return a.number_attr().empty() && a.type_list_attr().empty();
    };
    if (static_cast<size_t>(sig.input_arg_size()) != vars ||
        static_cast<size_t>(sig.output_arg_size()) != vars ||
        !std::all_of(sig.input_arg().begin(), sig.input_arg().end(), single) ||
        !std::all_of(sig.output_arg().begin(), sig.output_arg().end(), single)) {
      return invariant;
    }
    absl::flat_hash_map<absl::string_view, const NodeDef*> nodes;
    for (const NodeDef& n : f.node_def()) nodes[n.name()] = &n;
    for (size_t i = 0; i < vars; ++i) {
      auto ret = f.ret().find(sig.output_arg(static_cast<int>(i)).name());
      if (ret == f.ret().end()) continue;
      std::string ref = ret->second;
      // A bounded walk up Identity nodes (their control inputs only order the returned value,
      // which the next iteration's pivot orders anyway: see LowerWhile).
      for (int hops = 0; hops < 16; ++hops) {
        std::vector<std::string> parts = absl::StrSplit(ref, ':');
        if (parts.size() == 3 && parts[1] == "output" && parts[2] == "0") {
          auto n = nodes.find(parts[0]);
          if (n == nodes.end() || n->second->op() != "Identity" || n->second->input_size() < 1 ||
              absl::StartsWith(n->second->input(0), "^")) {
            break;
          }
          ref = n->second->input(0);
          continue;
        }
        const std::string& arg = sig.input_arg(static_cast<int>(i)).name();
        invariant[i] = ref == arg || ref == arg + ":0";
        break;
      }
    }
    return invariant;
  }

  // A While as TensorFlow lowers it (Enter, Merge, Switch, Identity, NextIteration and Exit per
  // loop variable around the inlined cond and body), except for the variables the body passes
  // through unchanged (LoopInvariants): those enter as constants (an Enter with is_constant, as
  // TF1's while_loop enters the tensors a loop captures), so an iteration runs one node for each
  // instead of four, and a weight matrix reaching a MatMul is seen as the Const it is
  // (graph_optimizer.h's _rill_constant_weights). Deadness and order are kept: the body reads
  // such a variable through an Identity with a control input from the pivot (the first other
  // variable's identity, live exactly while the loop goes on, as TF1 gates ops fed by loop
  // invariants alone), the cond reads the Enter, and the While's output is the input tensor
  // through an Identity waiting for the pivot variable's Exit. A loop whose every variable is
  // invariant is lowered in full.
  absl::Status LowerWhile(const Node& node, const std::vector<Ref>& data,
                          const std::vector<Ref>& control, std::vector<NodeSpec>* made) {
    RILL_ASSIGN_OR_RETURN(NameAttrList cond_fn, FuncAttr(node, "cond"));
    RILL_ASSIGN_OR_RETURN(NameAttrList body_fn, FuncAttr(node, "body"));
    const AttrMap& attrs = node.def().attr();
    const std::string& n = node.name();
    const std::string& dev = node.requested_device();
    std::vector<DataType> types;
    if (auto it = attrs.find("T"); it != attrs.end()) {
      for (int t : it->second.list().type()) types.push_back(static_cast<DataType>(t));
    }
    if (types.size() != data.size() || data.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("has ", data.size(),
                                                     " loop variables but T lists ", types.size(),
                                                     types.empty() ? " (none)" : ""));
    }
    int64_t parallel = 10;
    if (auto it = attrs.find("parallel_iterations"); it != attrs.end()) parallel = it->second.i();
    std::vector<bool> invariant = LoopInvariants(body_fn, data.size());
    size_t pivot = static_cast<size_t>(std::find(invariant.begin(), invariant.end(), false) -
                                       invariant.begin());
    if (pivot == data.size()) {  // every variable passed through: no pivot, the full lowering
      invariant.assign(data.size(), false);
      pivot = 0;
    }
    std::vector<int> enters(data.size(), -1), merges(data.size(), -1);
    std::vector<Ref> merge_refs, identities(data.size());
    for (size_t i = 0; i < data.size(); ++i) {
      std::vector<Ref> enter_inputs{data[i]};
      enter_inputs.insert(enter_inputs.end(), control.begin(), control.end());
      const int enter = Add(made, absl::StrCat(n, "/enter_", i), "Enter", enter_inputs, dev);
      NodeDef& e = Def(made, enter);
      (*e.mutable_attr())["T"] = TypeAttr(types[i]);
      SetAttr(&e, "frame_name", n);
      SetAttr(&e, "is_constant", static_cast<bool>(invariant[i]));
      SetAttr(&e, "parallel_iterations", parallel);
      enters[i] = enter;
      if (invariant[i]) {
        merge_refs.push_back(Made(enter));
        continue;
      }
      // Input 1, the NextIteration, is set once that node is made.
      const int merge = Add(made, absl::StrCat(n, "/merge_", i), "Merge", {Made(enter)}, dev);
      (*Def(made, merge).mutable_attr())["T"] = TypeAttr(types[i]);
      SetAttr(&Def(made, merge), "N", int64_t{2});
      merges[i] = merge;
      merge_refs.push_back(Made(merge));
    }
    RILL_ASSIGN_OR_RETURN(InlinedBody cond,
                          Inline(cond_fn, merge_refs, n + "/cond", merges[pivot], dev, made));
    if (cond.outputs.size() != 1) {
      return absl::InvalidArgumentError(absl::StrCat("cond '", cond_fn.name(), "' returns ",
                                                     cond.outputs.size(),
                                                     " outputs; it must return one"));
    }
    std::vector<Ref> to_bool_inputs{cond.outputs[0]};
    to_bool_inputs.insert(to_bool_inputs.end(), cond.control_rets.begin(), cond.control_rets.end());
    const int to_bool = Add(made, n + "/to_bool", "ToBool", to_bool_inputs, dev);
    (*Def(made, to_bool).mutable_attr())["T"] = TypeAttr(cond.output_types[0]);
    const int loop_cond = Add(made, n + "/loop_cond", "LoopCond", {Made(to_bool)}, dev);
    std::vector<Ref> exits(data.size());
    for (size_t i = 0; i < data.size(); ++i) {
      if (invariant[i]) continue;
      const int sw = Add(made, absl::StrCat(n, "/switch_", i), "Switch",
                         {Made(merges[i]), Made(loop_cond)}, dev);
      (*Def(made, sw).mutable_attr())["T"] = TypeAttr(types[i]);
      const int exit = Add(made, absl::StrCat(n, "/exit_", i), "Exit", {Made(sw)}, dev);
      (*Def(made, exit).mutable_attr())["T"] = TypeAttr(types[i]);
      exits[i] = Made(exit);
      const int id = Add(made, absl::StrCat(n, "/identity_", i), "Identity", {Made(sw, 1)}, dev);
      (*Def(made, id).mutable_attr())["T"] = TypeAttr(types[i]);
      identities[i] = Made(id);
    }
    for (size_t i = 0; i < data.size(); ++i) {
      if (!invariant[i]) continue;
      const int id = Add(made, absl::StrCat(n, "/identity_", i), "Identity",
                         {Made(enters[i]), identities[pivot].Control()}, dev);
      (*Def(made, id).mutable_attr())["T"] = TypeAttr(types[i]);
      identities[i] = Made(id);
      const int out = Add(made, absl::StrCat(n, "/invariant_", i), "Identity",
                          {data[i], exits[pivot].Control()}, dev);
      (*Def(made, out).mutable_attr())["T"] = TypeAttr(types[i]);
      exits[i] = Made(out);
    }
    RILL_ASSIGN_OR_RETURN(InlinedBody body, Inline(body_fn, identities, n + "/body",
                                                   identities[pivot].made, dev, made));
    if (body.outputs.size() != data.size()) {
      return absl::InvalidArgumentError(absl::StrCat("body '", body_fn.name(), "' returns ",
                                                     body.outputs.size(), " values for ",
                                                     data.size(), " loop variables"));
    }
    for (size_t i = 0; i < data.size(); ++i) {
      if (invariant[i]) continue;
      std::vector<Ref> inputs{body.outputs[i]};
      inputs.insert(inputs.end(), body.control_rets.begin(), body.control_rets.end());
      const int next =
          Add(made, absl::StrCat(n, "/next_iteration_", i), "NextIteration", inputs, dev);
      (*Def(made, next).mutable_attr())["T"] = TypeAttr(types[i]);
      (*made)[merges[i]].inputs.push_back(Made(next));
    }
    AddNamedOutputs(node, exits, types, {}, made);
    return absl::OkStatus();
  }

  // The OpDef describing the outputs of a body node running `op`: the op's, the signature of
  // the function it calls, or for the functional ops (not registered) their one list output,
  // TensorFlow's "output".
  const OpDef* OpDefOf(const std::string& op) const {
    if (const OpRegistration* reg = OpRegistry::Global()->LookUp(op)) return &reg->op_def;
    const OpClass c = ClassifyOp(op);
    if (IsFunctional(c)) {
      static const OpDef* const kListOut = [] {
        auto* d = new OpDef;
        OpDef::ArgDef* out = d->add_output_arg();
        out->set_name("output");
        out->set_type_list_attr("Tout");
        return d;
      }();
      static const OpDef* const kWhileOut = [] {
        auto* d = new OpDef;
        OpDef::ArgDef* out = d->add_output_arg();
        out->set_name("output");
        out->set_type_list_attr("T");
        return d;
      }();
      return c == OpClass::kFunctionalWhile ? kWhileOut : kListOut;
    }
    auto it = funcs_.find(op);
    return it == funcs_.end() ? nullptr : &it->second->signature();
  }

  // Appends `fn`'s body to `made` under `prefix`, reading `inputs`. Body nodes without inputs get
  // a control input from made node `control_root`. FunctionDef input names ("n:out_arg:idx", an
  // argument, "n", "n:k") are resolved here, against the body and the arguments.
  absl::StatusOr<InlinedBody> Inline(const NameAttrList& fn, const std::vector<Ref>& inputs,
                                     const std::string& prefix, int control_root,
                                     const std::string& device, std::vector<NodeSpec>* made) {
    auto found = funcs_.find(fn.name());
    if (found == funcs_.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("function '", fn.name(), "' is not in the graph's function library"));
    }
    const FunctionDef& f = *found->second;
    const OpDef& sig = f.signature();
    // Arguments and body nodes share one namespace (TensorFlow's instantiation refuses a clash:
    // a reference to the name would otherwise silently pick the argument).
    {
      absl::flat_hash_set<std::string> names;
      for (const OpDef::ArgDef& arg : sig.input_arg()) {
        if (!names.insert(arg.name()).second) {
          return absl::InvalidArgumentError(
              absl::StrCat("function '", fn.name(), "': Duplicated arg name: ", arg.name()));
        }
      }
      for (const NodeDef& n : f.node_def()) {
        if (!names.insert(n.name()).second) {
          return absl::InvalidArgumentError(
              absl::StrCat("function '", fn.name(), "': Node '", n.name(),
                           "' is not unique (an argument or another node has that name)"));
        }
      }
    }
    // Arguments -> the tensors they stand for.
    absl::flat_hash_map<std::string, std::vector<Ref>> args;
    size_t next = 0;
    for (const OpDef::ArgDef& arg : sig.input_arg()) {
      RILL_ASSIGN_OR_RETURN(int count, ArgCount(arg, fn.attr()));
      for (int i = 0; i < count; ++i) {
        if (next >= inputs.size()) break;
        args[arg.name()].push_back(inputs[next++]);
      }
    }
    size_t expected = 0;
    for (const auto& [name, tensors] : args) expected += tensors.size();
    if (next != inputs.size() || expected != inputs.size()) {
      return absl::InvalidArgumentError(absl::StrCat("calls function '", fn.name(), "' with ",
                                                     inputs.size(), " inputs; its signature takes ",
                                                     sig.input_arg_size(), " arguments"));
    }
    // Body node i becomes made node base + i.
    const int base = static_cast<int>(made->size());
    absl::flat_hash_map<std::string, int> body_nodes;
    for (int i = 0; i < f.node_def_size(); ++i) body_nodes[f.node_def(i).name()] = i;
    auto resolve_attrs = [&](const NodeDef& n, AttrMap* out) -> absl::Status {
      *out = n.attr();
      for (auto& [key, value] : *out) {
        if (value.placeholder().empty()) continue;
        auto it = fn.attr().find(value.placeholder());
        if (it == fn.attr().end()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "function '", fn.name(), "' node '", n.name(), "' attr '", key,
              "' is the placeholder $", value.placeholder(), ", which the call does not set"));
        }
        value = it->second;
      }
      return absl::OkStatus();
    };
    // A FunctionDef input name -> the tensor (or control output) it stands for.
    auto translate = [&](const std::string& ref) -> absl::StatusOr<Ref> {
      const bool is_control = absl::StartsWith(ref, "^");
      const std::string body_ref = is_control ? ref.substr(1) : ref;
      std::vector<std::string> parts = absl::StrSplit(body_ref, ':');
      if (auto a = args.find(parts[0]); a != args.end()) {
        size_t idx = 0;
        if (parts.size() == 2 && !absl::SimpleAtoi(parts[1], &idx)) idx = a->second.size();
        if (idx >= a->second.size()) {
          return absl::InvalidArgumentError(
              absl::StrCat("function '", fn.name(), "' refers to '", ref, "', out of range"));
        }
        return is_control ? a->second[idx].Control() : a->second[idx];
      }
      auto b = body_nodes.find(parts[0]);
      if (b == body_nodes.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "function '", fn.name(), "' refers to unknown node or argument '", ref, "'"));
      }
      const int target = base + b->second;
      if (is_control) return Made(target, kControlSlot);
      if (parts.size() == 1) return Made(target);
      int index = 0;
      if (parts.size() == 2) {
        if (!absl::SimpleAtoi(parts[1], &index)) index = -1;
      } else {
        const NodeDef& producer = f.node_def(b->second);
        const OpDef* def = OpDefOf(producer.op());
        int idx = -1;
        if (def == nullptr) {
          // TensorFlow's NotFound "Op type not registered ..." for the op, as outside functions.
          const absl::Status unknown = OpRegistry::Global()->LookUpOrError(producer.op()).status();
          return absl::Status(unknown.code(),
                              absl::StrCat(unknown.message(), " (node '", producer.name(),
                                           "' of function '", fn.name(), "')"));
        }
        if (!absl::SimpleAtoi(parts[2], &idx)) {
          return absl::InvalidArgumentError(
              absl::StrCat("function '", fn.name(), "': cannot resolve output '", ref, "'"));
        }
        AttrMap attrs;
        RILL_RETURN_IF_ERROR(resolve_attrs(producer, &attrs));
        index = -1;
        int start = 0;
        for (const OpDef::ArgDef& out : def->output_arg()) {
          RILL_ASSIGN_OR_RETURN(int count, ArgCount(out, attrs));
          if (out.name() == parts[1]) {
            if (idx < count) index = start + idx;
            break;
          }
          start += count;
        }
      }
      if (index < 0) {
        return absl::InvalidArgumentError(absl::StrCat("function '", fn.name(), "' refers to '",
                                                       ref, "', which its node does not output"));
      }
      return Made(target, index);
    };
    for (const NodeDef& n : f.node_def()) {
      NodeSpec& copy = made->emplace_back();
      copy.def.set_name(prefix + "/" + n.name());
      copy.def.set_op(n.op());
      copy.def.set_device(n.device().empty() ? device : n.device());
      RILL_RETURN_IF_ERROR(resolve_attrs(n, copy.def.mutable_attr()));
      // `copy` stays valid: nothing is added to `made` until the next body node.
      for (const std::string& in : n.input()) {
        RILL_ASSIGN_OR_RETURN(Ref t, translate(in));
        copy.inputs.push_back(t);
      }
      if (copy.inputs.empty()) copy.inputs.push_back(Made(control_root, kControlSlot));
    }
    InlinedBody body;
    RILL_ASSIGN_OR_RETURN(body.output_types, ArgTypes(sig.output_arg(), fn.attr()));
    for (const OpDef::ArgDef& out : sig.output_arg()) {
      auto it = f.ret().find(out.name());
      if (it == f.ret().end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "function '", fn.name(), "' has no ret entry for output '", out.name(), "'"));
      }
      RILL_ASSIGN_OR_RETURN(int count, ArgCount(out, fn.attr()));
      for (int i = 0; i < count; ++i) {
        const std::string ref = count == 1 ? it->second : absl::StrCat(it->second, ":", i);
        RILL_ASSIGN_OR_RETURN(Ref t, translate(ref));
        body.outputs.push_back(t);
      }
    }
    if (body.outputs.size() != body.output_types.size()) {
      return absl::InvalidArgumentError(absl::StrCat("function '", fn.name(), "' returns ",
                                                     body.outputs.size(), " tensors for ",
                                                     body.output_types.size(), " output types"));
    }
    // TensorFlow's FunctionBody keeps the body nodes whose names a control_ret lists, so a name
    // of no body node (or of an argument, which is ready before the body) adds no dependency.
    for (const auto& [name, node] : f.control_ret()) {
      auto b = body_nodes.find(node);
      if (b != body_nodes.end()) body.control_rets.push_back(Made(base + b->second, kControlSlot));
    }
    return body;
  }

  // Replaces `node` by `made` in the graph, checking the made nodes as ImportGraphDef checks a
  // GraphDef's, and moves `node`'s out-edges to the made node that takes over its name (the
  // last). Returns the nodes added, in `made`'s order.
  absl::StatusOr<std::vector<Node*>> Apply(Node* node, std::vector<NodeSpec> made) {
    struct Consumer {
      Node* dst;
      int src_output;
      int dst_input;
    };
    std::vector<Consumer> consumers;
    for (const Edge* e : node->out_edges()) {
      if (e->dst()->IsSink()) continue;  // FixupSourceAndSinkEdges redoes these
      consumers.push_back(Consumer{e->dst(), e->src_output(), e->dst_input()});
    }
    graph_->RemoveNode(node);

    std::vector<std::string> names;
    names.reserve(made.size());
    for (const NodeSpec& spec : made) {
      if (!IsValidNodeName(spec.def.name())) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node '", spec.def.name(), "': Node name contains invalid characters"));
      }
      names.push_back(spec.def.name());
    }
    // A made input as GraphDef text, for messages.
    std::vector<Node*> added;
    added.reserve(made.size());
    auto input_string = [&](const Ref& r) {
      const std::string& src = r.node != nullptr ? r.node->name() : names[r.made];
      if (r.is_control()) return absl::StrCat("^", src);
      return r.index == 0 ? src : absl::StrCat(src, ":", r.index);
    };
    const int producer = graph_->versions().producer();
    for (NodeSpec& spec : made) {
      const std::string& name = spec.def.name();
      if (!spec.def.device().empty()) {
        absl::Status s = ParseDeviceName(spec.def.device()).status();
        if (!s.ok()) return AnnotateStatus(s, absl::StrCat("Node '", name, "'"));
      }
      int data_inputs = 0;
      bool seen_control = false;
      for (const Ref& in : spec.inputs) {
        if (in.is_control()) {
          seen_control = true;
          continue;
        }
        if (seen_control) {
          return absl::InvalidArgumentError(
              absl::StrCat("Node '", name,
                           "': Control dependencies must come after regular dependencies "
                           "(data input '",
                           input_string(in), "' follows a control input)"));
        }
        ++data_inputs;
      }
      UpgradeOldPlaceholderShape(producer, &spec.def);
      RILL_ASSIGN_OR_RETURN(Node * n, graph_->AddNode(std::move(spec.def)));
      if (!n->is_unknown_op() && data_inputs != n->num_inputs()) {
        // ValidateNodeDef's message, which lists the inputs.
        NodeDef with_inputs = n->def();
        for (const Ref& in : spec.inputs) with_inputs.add_input(input_string(in));
        RILL_RETURN_IF_ERROR(ValidateNodeDef(with_inputs, *n->op_def()));
      }
      added.push_back(n);
    }
    for (size_t i = 0; i < made.size(); ++i) {
      Node* dst = added[i];
      int slot = 0;
      for (const Ref& in : made[i].inputs) {
        Node* src = in.node != nullptr ? in.node : added[in.made];
        if (in.is_control()) {
          graph_->AddControlEdge(src, dst);
        } else {
          RILL_RETURN_IF_ERROR(graph_->AddEdge(src, in.index, dst, slot++).status());
        }
      }
    }
    Node* named = added.back();
    for (const Consumer& c : consumers) {
      if (c.dst_input == kControlSlot) {
        graph_->AddControlEdge(named, c.dst);
      } else {
        RILL_RETURN_IF_ERROR(graph_->AddEdge(named, c.src_output, c.dst, c.dst_input).status());
      }
    }
    return added;
  }

  Graph* graph_;
  const LoweringOptions& options_;
  std::map<std::string, const FunctionDef*> funcs_;
};

}  // namespace

bool HasFunctionalOps(const Graph& graph) {
  absl::flat_hash_set<absl::string_view> funcs;
  for (const FunctionDef& f : graph.library().function()) funcs.insert(f.signature().name());
  for (const Node* n : graph.op_nodes()) {
    if (IsFunctional(n->op_class())) return true;
    if (n->is_unknown_op() && funcs.contains(n->op())) return true;
  }
  return false;
}

absl::Status LowerFunctionalOps(Graph* graph, const LoweringOptions& options) {
  return Lowerer(graph, options).Run();
}

}  // namespace rill
