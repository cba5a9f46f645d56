#include "graph/function_lowering.h"

#include <deque>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/status_macros.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

constexpr int kMaxDepth = 64;

bool IsIf(const std::string& op) { return op == "If" || op == "StatelessIf"; }
bool IsWhile(const std::string& op) { return op == "While" || op == "StatelessWhile"; }
bool IsCall(const std::string& op) {
  return op == "PartitionedCall" || op == "StatefulPartitionedCall";
}

using AttrMap = google::protobuf::Map<std::string, AttrValue>;

// The node name of a tensor string ("a:1" -> "a", "^a" -> "a").
std::string NodeOf(const std::string& tensor) {
  std::string s = absl::StartsWith(tensor, "^") ? tensor.substr(1) : tensor;
  return s.substr(0, s.find(':'));
}

std::string TensorString(const std::string& node, int index) {
  return index == 0 ? node : absl::StrCat(node, ":", index);
}

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

struct InlinedBody {
  std::vector<std::string> outputs;  // tensor strings, one per output tensor
  std::vector<DataType> output_types;
  std::vector<std::string> control_rets;  // node names
};

class Lowerer {
 public:
  explicit Lowerer(const GraphDef& graph) : graph_(graph) {
    for (const FunctionDef& f : graph.library().function()) funcs_[f.signature().name()] = &f;
  }

  bool NeedsLowering(const NodeDef& n) const {
    if (IsIf(n.op()) || IsWhile(n.op()) || IsCall(n.op())) return true;
    return funcs_.count(n.op()) > 0 && OpRegistry::Global()->LookUp(n.op()) == nullptr;
  }

  absl::StatusOr<GraphDef> Run() {
    GraphDef out = graph_;
    out.clear_node();
    std::deque<std::pair<NodeDef, int>> work;
    for (const NodeDef& n : graph_.node()) work.emplace_back(n, 0);
    while (!work.empty()) {
      auto [node, depth] = std::move(work.front());
      work.pop_front();
      if (!NeedsLowering(node)) {
        *out.add_node() = std::move(node);
        continue;
      }
      if (depth >= kMaxDepth) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Node '", node.name(), "': function calls nest more than ", kMaxDepth,
            " deep (a function calling itself?); Rill inlines calls and cannot run recursion"));
      }
      std::vector<NodeDef> made;
      absl::Status s = Lower(node, &made);
      if (!s.ok()) {
        return absl::Status(
            s.code(), absl::StrCat("Node '", node.name(), "' (", node.op(), "): ", s.message()));
      }
      for (NodeDef& m : made) work.emplace_back(std::move(m), depth + 1);
    }
    return out;
  }

 private:
  absl::Status Lower(const NodeDef& node, std::vector<NodeDef>* made) {
    std::vector<std::string> data, control;
    for (const std::string& in : node.input()) {
      (absl::StartsWith(in, "^") ? control : data).push_back(in);
    }
    if (IsIf(node.op())) return LowerIf(node, data, control, made);
    if (IsWhile(node.op())) return LowerWhile(node, data, control, made);
    return LowerCall(node, data, control, made);
  }

  // A new node in `made`.
  static NodeDef& Add(std::vector<NodeDef>* made, const std::string& name, const std::string& op,
                      const std::vector<std::string>& inputs, const std::string& device) {
    NodeDef& n = made->emplace_back();
    n.set_name(name);
    n.set_op(op);
    for (const std::string& in : inputs) n.add_input(in);
    n.set_device(device);
    return n;
  }

  // The node keeping the lowered node's name: IdentityN over `outputs`, or a NoOp.
  static void AddNamedOutputs(const NodeDef& node, const std::vector<std::string>& outputs,
                              const std::vector<DataType>& types,
                              const std::vector<std::string>& control_nodes,
                              std::vector<NodeDef>* made) {
    std::vector<std::string> inputs = outputs;
    for (const std::string& c : control_nodes) inputs.push_back("^" + c);
    NodeDef& n =
        Add(made, node.name(), outputs.empty() ? "NoOp" : "IdentityN", inputs, node.device());
    if (!outputs.empty()) (*n.mutable_attr())["T"] = TypeListAttr(types);
  }

  absl::StatusOr<NameAttrList> FuncAttr(const NodeDef& node, const char* attr) const {
    auto it = node.attr().find(attr);
    if (it == node.attr().end() || !it->second.has_func()) {
      return absl::InvalidArgumentError(absl::StrCat("has no function attr '", attr, "'"));
    }
    return it->second.func();
  }

  absl::Status LowerCall(const NodeDef& node, const std::vector<std::string>& data,
                         const std::vector<std::string>& control, std::vector<NodeDef>* made) {
    NameAttrList fn;
    if (IsCall(node.op())) {
      RILL_ASSIGN_OR_RETURN(fn, FuncAttr(node, "f"));
    } else {
      fn.set_name(node.op());
      *fn.mutable_attr() = node.attr();
    }
    // Body roots wait for the call's inputs and control inputs (and die with them).
    std::set<std::string> deps;
    for (const std::string& in : data) deps.insert("^" + NodeOf(in));
    for (const std::string& in : control) deps.insert(in);
    const std::string ctrl = node.name() + "/input_control_node";
    Add(made, ctrl, "NoOp", {deps.begin(), deps.end()}, node.device());
    RILL_ASSIGN_OR_RETURN(InlinedBody body,
                          Inline(fn, data, node.name(), ctrl, node.device(), made));
    AddNamedOutputs(node, body.outputs, body.output_types, body.control_rets, made);
    return absl::OkStatus();
  }

  absl::Status LowerIf(const NodeDef& node, const std::vector<std::string>& data,
                       const std::vector<std::string>& control, std::vector<NodeDef>* made) {
    if (data.empty()) return absl::InvalidArgumentError("has no cond input");
    RILL_ASSIGN_OR_RETURN(NameAttrList then_fn, FuncAttr(node, "then_branch"));
    RILL_ASSIGN_OR_RETURN(NameAttrList else_fn, FuncAttr(node, "else_branch"));
    const std::string& n = node.name();
    const std::string& dev = node.device();
    DataType cond_type = DT_BOOL;
    if (auto it = node.attr().find("Tcond"); it != node.attr().end()) cond_type = it->second.type();
    std::vector<DataType> tin;
    if (auto it = node.attr().find("Tin"); it != node.attr().end()) {
      for (int t : it->second.list().type()) tin.push_back(static_cast<DataType>(t));
    }
    if (tin.size() != data.size() - 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("has ", data.size() - 1, " inputs but Tin lists ", tin.size()));
    }
    std::vector<std::string> pred_inputs{data[0]};
    pred_inputs.insert(pred_inputs.end(), control.begin(), control.end());
    (*Add(made, n + "/pred", "ToBool", pred_inputs, dev).mutable_attr())["T"] = TypeAttr(cond_type);
    const std::string pred = n + "/pred";
    (*Add(made, n + "/switch_pred", "Switch", {pred, pred}, dev).mutable_attr())["T"] =
        TypeAttr(DT_BOOL);
    (*Add(made, n + "/switch_t", "Identity", {n + "/switch_pred:1"}, dev).mutable_attr())["T"] =
        TypeAttr(DT_BOOL);
    (*Add(made, n + "/switch_f", "Identity", {n + "/switch_pred"}, dev).mutable_attr())["T"] =
        TypeAttr(DT_BOOL);
    std::vector<std::string> in_t, in_f;
    for (size_t i = 1; i < data.size(); ++i) {
      const std::string sw = absl::StrCat(n, "/input_", i - 1);
      (*Add(made, sw, "Switch", {data[i], pred}, dev).mutable_attr())["T"] = TypeAttr(tin[i - 1]);
      in_t.push_back(sw + ":1");
      in_f.push_back(sw);
    }
    RILL_ASSIGN_OR_RETURN(InlinedBody then_body,
                          Inline(then_fn, in_t, n + "/then", n + "/switch_t", dev, made));
    RILL_ASSIGN_OR_RETURN(InlinedBody else_body,
                          Inline(else_fn, in_f, n + "/else", n + "/switch_f", dev, made));
    if (then_body.outputs.size() != else_body.outputs.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "then_branch '", then_fn.name(), "' returns ", then_body.outputs.size(),
          " outputs but else_branch '", else_fn.name(), "' returns ", else_body.outputs.size()));
    }
    // "Branch executed": live once the taken branch's control outputs ran.
    auto done = [&](const char* which, const std::string& pivot, const InlinedBody& body) {
      std::vector<std::string> inputs{pivot};
      for (const std::string& c : body.control_rets) inputs.push_back("^" + c);
      const std::string name = absl::StrCat(n, "/", which, "_done");
      (*Add(made, name, "Identity", inputs, dev).mutable_attr())["T"] = TypeAttr(DT_BOOL);
      return name;
    };
    const std::string then_done = done("then", n + "/switch_t", then_body);
    const std::string else_done = done("else", n + "/switch_f", else_body);
    NodeDef& executed = Add(made, n + "/branch_executed", "Merge", {else_done, then_done}, dev);
    (*executed.mutable_attr())["T"] = TypeAttr(DT_BOOL);
    SetAttr(&executed, "N", int64_t{2});
    std::vector<std::string> outputs;
    for (size_t k = 0; k < then_body.outputs.size(); ++k) {
      const std::string m = absl::StrCat(n, "/output_", k);
      NodeDef& merge = Add(made, m, "Merge", {else_body.outputs[k], then_body.outputs[k]}, dev);
      (*merge.mutable_attr())["T"] = TypeAttr(then_body.output_types[k]);
      SetAttr(&merge, "N", int64_t{2});
      outputs.push_back(m);
    }
    AddNamedOutputs(node, outputs, then_body.output_types, {n + "/branch_executed"}, made);
    return absl::OkStatus();
  }

  absl::Status LowerWhile(const NodeDef& node, const std::vector<std::string>& data,
                          const std::vector<std::string>& control, std::vector<NodeDef>* made) {
    RILL_ASSIGN_OR_RETURN(NameAttrList cond_fn, FuncAttr(node, "cond"));
    RILL_ASSIGN_OR_RETURN(NameAttrList body_fn, FuncAttr(node, "body"));
    const std::string& n = node.name();
    const std::string& dev = node.device();
    std::vector<DataType> types;
    if (auto it = node.attr().find("T"); it != node.attr().end()) {
      for (int t : it->second.list().type()) types.push_back(static_cast<DataType>(t));
    }
    if (types.size() != data.size() || data.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("has ", data.size(),
                                                     " loop variables but T lists ", types.size(),
                                                     types.empty() ? " (none)" : ""));
    }
    int64_t parallel = 10;
    if (auto it = node.attr().find("parallel_iterations"); it != node.attr().end()) {
      parallel = it->second.i();
    }
    std::vector<std::string> merges, identities;
    for (size_t i = 0; i < data.size(); ++i) {
      std::vector<std::string> enter_inputs{data[i]};
      enter_inputs.insert(enter_inputs.end(), control.begin(), control.end());
      const std::string enter = absl::StrCat(n, "/enter_", i);
      NodeDef& e = Add(made, enter, "Enter", enter_inputs, dev);
      (*e.mutable_attr())["T"] = TypeAttr(types[i]);
      SetAttr(&e, "frame_name", n);
      SetAttr(&e, "is_constant", false);
      SetAttr(&e, "parallel_iterations", parallel);
      const std::string merge = absl::StrCat(n, "/merge_", i);
      NodeDef& m = Add(made, merge, "Merge", {enter, absl::StrCat(n, "/next_iteration_", i)}, dev);
      (*m.mutable_attr())["T"] = TypeAttr(types[i]);
      SetAttr(&m, "N", int64_t{2});
      merges.push_back(merge);
    }
    RILL_ASSIGN_OR_RETURN(InlinedBody cond,
                          Inline(cond_fn, merges, n + "/cond", merges[0], dev, made));
    if (cond.outputs.size() != 1) {
      return absl::InvalidArgumentError(absl::StrCat("cond '", cond_fn.name(), "' returns ",
                                                     cond.outputs.size(),
                                                     " outputs; it must return one"));
    }
    std::vector<std::string> to_bool_inputs{cond.outputs[0]};
    for (const std::string& c : cond.control_rets) to_bool_inputs.push_back("^" + c);
    (*Add(made, n + "/to_bool", "ToBool", to_bool_inputs, dev).mutable_attr())["T"] =
        TypeAttr(cond.output_types[0]);
    Add(made, n + "/loop_cond", "LoopCond", {n + "/to_bool"}, dev);
    std::vector<std::string> exits;
    for (size_t i = 0; i < data.size(); ++i) {
      const std::string sw = absl::StrCat(n, "/switch_", i);
      (*Add(made, sw, "Switch", {merges[i], n + "/loop_cond"}, dev).mutable_attr())["T"] =
          TypeAttr(types[i]);
      const std::string exit = absl::StrCat(n, "/exit_", i);
      (*Add(made, exit, "Exit", {sw}, dev).mutable_attr())["T"] = TypeAttr(types[i]);
      exits.push_back(exit);
      const std::string id = absl::StrCat(n, "/identity_", i);
      (*Add(made, id, "Identity", {sw + ":1"}, dev).mutable_attr())["T"] = TypeAttr(types[i]);
      identities.push_back(id);
    }
    RILL_ASSIGN_OR_RETURN(InlinedBody body,
                          Inline(body_fn, identities, n + "/body", identities[0], dev, made));
    if (body.outputs.size() != data.size()) {
      return absl::InvalidArgumentError(absl::StrCat("body '", body_fn.name(), "' returns ",
                                                     body.outputs.size(), " values for ",
                                                     data.size(), " loop variables"));
    }
    for (size_t i = 0; i < data.size(); ++i) {
      std::vector<std::string> inputs{body.outputs[i]};
      for (const std::string& c : body.control_rets) inputs.push_back("^" + c);
      (*Add(made, absl::StrCat(n, "/next_iteration_", i), "NextIteration", inputs, dev)
            .mutable_attr())["T"] = TypeAttr(types[i]);
    }
    AddNamedOutputs(node, exits, types, {}, made);
    return absl::OkStatus();
  }

  // The OpDef describing node `n`'s outputs: its op's, the signature of the function it calls,
  // or for the ops lowered here (not registered) their one list output, TensorFlow's "output".
  const OpDef* OpDefOf(const std::string& op) const {
    if (const OpRegistration* reg = OpRegistry::Global()->LookUp(op)) return &reg->op_def;
    if (IsIf(op) || IsCall(op) || IsWhile(op)) {
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
      return IsWhile(op) ? kWhileOut : kListOut;
    }
    auto it = funcs_.find(op);
    return it == funcs_.end() ? nullptr : &it->second->signature();
  }

  // Copies `fn`'s body into `made` under `prefix`, reading `inputs`. Nodes with no inputs get a
  // control input from `control_root`.
  absl::StatusOr<InlinedBody> Inline(const NameAttrList& fn, const std::vector<std::string>& inputs,
                                     const std::string& prefix, const std::string& control_root,
                                     const std::string& device, std::vector<NodeDef>* made) {
    auto found = funcs_.find(fn.name());
    if (found == funcs_.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("function '", fn.name(), "' is not in the graph's function library"));
    }
    const FunctionDef& f = *found->second;
    const OpDef& sig = f.signature();
    // Arguments -> the tensors they stand for.
    absl::flat_hash_map<std::string, std::vector<std::string>> args;
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
    // Body node attrs with placeholders resolved, and their output arg ranges.
    absl::flat_hash_map<std::string, const NodeDef*> body_nodes;
    for (const NodeDef& n : f.node_def()) body_nodes[n.name()] = &n;
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
    // "n:out_arg:idx" (or an argument, or "n" / "n:k") -> the tensor in the inlined graph.
    auto translate = [&](const std::string& ref) -> absl::StatusOr<std::string> {
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
        return is_control ? "^" + NodeOf(a->second[idx]) : a->second[idx];
      }
      auto b = body_nodes.find(parts[0]);
      if (b == body_nodes.end()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "function '", fn.name(), "' refers to unknown node or argument '", ref, "'"));
      }
      const std::string name = prefix + "/" + parts[0];
      if (is_control) return "^" + name;
      if (parts.size() == 1) return name;
      int index = 0;
      if (parts.size() == 2) {
        if (!absl::SimpleAtoi(parts[1], &index)) index = -1;
      } else {
        const OpDef* def = OpDefOf(b->second->op());
        int idx = -1;
        if (def == nullptr || !absl::SimpleAtoi(parts[2], &idx)) {
          return absl::InvalidArgumentError(
              absl::StrCat("function '", fn.name(), "': cannot resolve output '", ref, "' (op '",
                           b->second->op(), "' is unknown)"));
        }
        AttrMap attrs;
        RILL_RETURN_IF_ERROR(resolve_attrs(*b->second, &attrs));
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
      return TensorString(name, index);
    };
    for (const NodeDef& n : f.node_def()) {
      NodeDef& copy = made->emplace_back();
      copy.set_name(prefix + "/" + n.name());
      copy.set_op(n.op());
      copy.set_device(n.device().empty() ? device : n.device());
      RILL_RETURN_IF_ERROR(resolve_attrs(n, copy.mutable_attr()));
      for (const std::string& in : n.input()) {
        RILL_ASSIGN_OR_RETURN(std::string t, translate(in));
        copy.add_input(t);
      }
      if (copy.input_size() == 0 && !control_root.empty()) copy.add_input("^" + control_root);
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
        RILL_ASSIGN_OR_RETURN(std::string t, translate(ref));
        body.outputs.push_back(t);
      }
    }
    if (body.outputs.size() != body.output_types.size()) {
      return absl::InvalidArgumentError(absl::StrCat("function '", fn.name(), "' returns ",
                                                     body.outputs.size(), " tensors for ",
                                                     body.output_types.size(), " output types"));
    }
    for (const auto& [name, node] : f.control_ret()) {
      if (!body_nodes.contains(node)) {
        return absl::InvalidArgumentError(absl::StrCat("function '", fn.name(), "' control_ret '",
                                                       name, "' names unknown node '", node, "'"));
      }
      body.control_rets.push_back(prefix + "/" + node);
    }
    return body;
  }

  const GraphDef& graph_;
  std::map<std::string, const FunctionDef*> funcs_;
};

}  // namespace

bool HasFunctionalOps(const GraphDef& graph) {
  Lowerer l(graph);
  for (const NodeDef& n : graph.node()) {
    if (l.NeedsLowering(n)) return true;
  }
  return false;
}

absl::StatusOr<GraphDef> LowerFunctionalOps(const GraphDef& graph) {
  if (!HasFunctionalOps(graph)) return graph;
  return Lowerer(graph).Run();
}

}  // namespace rill
