#include "graph/builder/scope.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/device_name.h"
#include "core/mutex.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/builder/op_builder.h"
#include "graph/shape_value.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace rill {

// One device request of a scope chain, in the order the calls were made.
struct Scope::DeviceEntry {
  enum Kind { kSpec, kFunction, kClear };
  Kind kind = kSpec;
  std::string raw;            // kSpec: the string given to WithDevice
  absl::Status parse_status;  // kSpec: why `raw` does not parse
  DeviceName spec;            // kSpec: parsed `raw`
  DeviceFunction function;    // kFunction
};

// One WithControlDependencies call: the nodes it adds as control inputs. `id` identifies the call
// so that nodes built under it can be recognized (TensorFlow's "op_in_group").
struct Scope::ControlScope {
  int id = 0;
  std::vector<std::string> deps;
};

// The graph every scope of one root shares.
struct Scope::Graph {
  // Tells this graph's Outputs from another's (Output::graph_id); never 0.
  const uint64_t id = NextGraphId();
  // The end of the error for an Output or Operation of another graph.
  static constexpr char kOtherGraph[] =
      "belongs to another graph (made from another root scope); build it in this scope's graph, "
      "or import that graph with Scope::ImportGraphDef and use Scope::GetOperation";

  // True for an Output or Operation of this graph or of none (made by hand from a name).
  bool Owns(uint64_t graph_id) const { return graph_id == 0 || graph_id == id; }

  static uint64_t NextGraphId() {
    static std::atomic<uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
  }
  struct NodeInfo {
    int index = 0;  // in `graph.node`
    DataTypeVector output_types;
    std::vector<PartialTensorShape> output_shapes;
    std::vector<int> control_scopes;  // ControlScope ids active when it was built
  };

  rill::Mutex mu;
  GraphDef graph ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<std::string, NodeInfo> nodes ABSL_GUARDED_BY(mu);
  // Lower-cased names (nodes and name scopes) -> times requested, as TensorFlow Python's
  // Graph._names_in_use.
  absl::flat_hash_map<std::string, int> names_in_use ABSL_GUARDED_BY(mu);
  int next_control_scope_id ABSL_GUARDED_BY(mu) = 0;
  absl::Status status ABSL_GUARDED_BY(mu);

  // TensorFlow Python's Graph.unique_name: `name` if unused, else name_1, name_2, ... (the first
  // whose lower-cased form is unused). Marks the result used.
  std::string UniqueName(const std::string& name) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu) {
    const std::string key = absl::AsciiStrToLower(name);
    int i = names_in_use[key]++;
    if (i == 0) return name;
    std::string candidate = key;
    while (names_in_use.contains(candidate)) {
      candidate = absl::StrCat(key, "_", i);
      ++i;
    }
    names_in_use[candidate] = 1;
    return absl::StrCat(name, "_", i - 1);
  }
};

namespace {

// TensorFlow Python's _VALID_OP_NAME_REGEX: ^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$
bool IsNameChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '\\' ||
         c == '/' || c == '>' || c == '-';
}
bool IsValidNodeName(absl::string_view name) {
  if (name.empty()) return false;
  if (!absl::ascii_isalnum(static_cast<unsigned char>(name[0])) && name[0] != '.') return false;
  return std::all_of(name.begin(), name.end(), IsNameChar);
}
// _VALID_SCOPE_NAME_REGEX: ^[A-Za-z0-9_.\\/>-]*$
bool IsValidScopeName(absl::string_view name) {
  return std::all_of(name.begin(), name.end(), IsNameChar);
}

std::string JoinName(const std::string& scope, absl::string_view name) {
  return scope.empty() ? std::string(name) : absl::StrCat(scope, "/", name);
}

bool TypesCompatible(DataType produced, DataType expected) {
  if (produced == expected) return true;
  return IsRefType(produced) && !IsRefType(expected) && BaseType(produced) == expected;
}

// TensorFlow Python's DeviceSpec.make_merged_spec: `outer` with every field `inner` sets
// replaced by inner's.
DeviceName MergeInner(DeviceName outer, const DeviceName& inner) {
  if (inner.has_job) outer.has_job = true, outer.job = inner.job;
  if (inner.has_replica) outer.has_replica = true, outer.replica = inner.replica;
  if (inner.has_task) outer.has_task = true, outer.task = inner.task;
  if (inner.has_type) outer.has_type = true, outer.type = inner.type;
  if (inner.has_id) outer.has_id = true, outer.id = inner.id;
  return outer;
}

// The graph being built as the shape-tensor evaluator (graph/shape_value.h) walks it: handles are
// indices in `graph.node`. The caller holds the graph's mutex.
class ScopeGraphView final : public ShapeValueGraph {
 public:
  explicit ScopeGraphView(const Scope::Graph& g) : g_(g) {}
  const NodeDef& Def(int node) const override ABSL_NO_THREAD_SAFETY_ANALYSIS {
    return g_.graph.node(node);
  }
  bool Input(int node, int i, int* producer,
             int* output) const override ABSL_NO_THREAD_SAFETY_ANALYSIS {
    int data = 0;
    for (const std::string& input : g_.graph.node(node).input()) {
      if (absl::StartsWith(input, "^")) return false;  // control inputs come last
      if (data++ < i) continue;
      absl::StatusOr<InputName> in = ParseInputName(input);
      if (!in.ok()) return false;
      auto p = g_.nodes.find(in->node);
      if (p == g_.nodes.end()) return false;
      *producer = p->second.index;
      *output = in->index;
      return true;
    }
    return false;
  }
  PartialTensorShape OutputShape(int node,
                                 int output) const override ABSL_NO_THREAD_SAFETY_ANALYSIS {
    auto p = g_.nodes.find(g_.graph.node(node).name());
    if (p == g_.nodes.end() || output >= static_cast<int>(p->second.output_shapes.size())) {
      return PartialTensorShape();
    }
    return p->second.output_shapes[output];
  }

 private:
  const Scope::Graph& g_;
};

// The partial value of output `output` of `producer` fed to an input of dtype `type`: for int32
// and int64 inputs not fed by a Const (whose tensor the shape function gets), else nullopt.
std::optional<PartialValue> ShapeInputValue(const Scope::Graph& g,
                                            const Scope::Graph::NodeInfo& producer, int output,
                                            DataType type) ABSL_NO_THREAD_SAFETY_ANALYSIS {
  if (type != DT_INT32 && type != DT_INT64) return std::nullopt;
  ScopeGraphView view(g);
  if (view.Def(producer.index).op() == "Const") return std::nullopt;
  return EvaluatePartialValue(view, producer.index, output);
}

// The colocation groups of `node`: its `_class` "loc:@" entries, or "loc:@<name>".
std::vector<std::string> ColocationGroups(const NodeDef& node) {
  std::vector<std::string> groups;
  if (const AttrValue* c = FindNodeAttr(node, "_class")) {
    for (const std::string& s : c->list().s()) {
      if (absl::StartsWith(s, "loc:@")) groups.push_back(s);
    }
  }
  if (groups.empty()) groups.push_back(absl::StrCat("loc:@", node.name()));
  return groups;
}

}  // namespace

std::string Output::InputString() const {
  return index_ == 0 ? node_ : absl::StrCat(node_, ":", index_);
}

std::string Output::TensorName() const { return absl::StrCat(node_, ":", index_); }

Output Operation::output(int i) const {
  if (!valid() || i < 0 || i >= num_outputs()) return Output();
  Output out(name_, i, output_types_[i]);
  out.graph_id_ = graph_id_;
  return out;
}

Scope::Scope(std::shared_ptr<Graph> graph) : graph_(std::move(graph)) {}

Scope Scope::NewRootScope() { return Scope(std::make_shared<Graph>()); }

Scope Scope::NewSubScope(absl::string_view child_scope_name) const {
  Scope s = *this;
  s.op_name_.clear();
  s.exact_name_ = false;
  if (child_scope_name.empty()) return s;
  if (!IsValidScopeName(child_scope_name)) {
    UpdateStatus(absl::InvalidArgumentError(
        absl::StrCat("'", child_scope_name, "' is not a valid scope name")));
    return s;
  }
  rill::MutexLock lock(&graph_->mu);
  s.name_scope_ = graph_->UniqueName(JoinName(name_scope_, child_scope_name));
  return s;
}

Scope Scope::WithOpName(absl::string_view op_name) const {
  Scope s = *this;
  s.op_name_ = std::string(op_name);
  s.exact_name_ = false;
  return s;
}

Scope Scope::WithExactOpName(absl::string_view full_name) const {
  Scope s = *this;
  s.op_name_ = std::string(full_name);
  s.exact_name_ = true;
  return s;
}

Scope Scope::WithDevice(absl::string_view device) const {
  Scope s = *this;
  auto entry = std::make_shared<DeviceEntry>();
  if (device.empty()) {
    entry->kind = DeviceEntry::kClear;
  } else {
    entry->kind = DeviceEntry::kSpec;
    entry->raw = std::string(device);
    absl::StatusOr<DeviceName> parsed = ParseDeviceName(device);
    if (parsed.ok()) {
      entry->spec = *std::move(parsed);
    } else {
      entry->parse_status = parsed.status();
    }
  }
  s.devices_.push_back(std::move(entry));
  return s;
}

Scope Scope::WithDeviceFunction(DeviceFunction fn) const {
  Scope s = *this;
  auto entry = std::make_shared<DeviceEntry>();
  entry->kind = DeviceEntry::kFunction;
  entry->function = std::move(fn);
  s.devices_.push_back(std::move(entry));
  return s;
}

Scope Scope::ColocateWith(const Operation& op) const {
  Scope s = *this;
  if (!op.valid()) {
    UpdateStatus(absl::InvalidArgumentError(
        "ColocateWith was given an invalid Operation (default-constructed, or from a node that "
        "failed to build)"));
    return s;
  }
  if (!graph_->Owns(op.graph_id())) {
    UpdateStatus(absl::InvalidArgumentError(
        absl::StrCat("ColocateWith was given '", op.name(), "', which ", Graph::kOtherGraph)));
    return s;
  }
  s.devices_.clear();
  s.colocate_with_.push_back(op.name());
  return s;
}

Scope Scope::ClearColocation() const {
  Scope s = *this;
  s.colocate_with_.clear();
  return s;
}

Scope Scope::WithControlDependencies(absl::Span<const Operation> deps) const {
  Scope s = *this;
  auto control = std::make_shared<ControlScope>();
  for (size_t i = 0; i < deps.size(); ++i) {
    if (!deps[i].valid()) {
      UpdateStatus(absl::InvalidArgumentError(
          absl::StrCat("WithControlDependencies was given an invalid Operation at position ", i,
                       " (default-constructed, or from a node that failed to build)")));
      return s;
    }
    if (!graph_->Owns(deps[i].graph_id())) {
      UpdateStatus(absl::InvalidArgumentError(absl::StrCat(
          "WithControlDependencies was given '", deps[i].name(), "', which ", Graph::kOtherGraph)));
      return s;
    }
    control->deps.push_back(deps[i].name());
  }
  {
    rill::MutexLock lock(&graph_->mu);
    control->id = graph_->next_control_scope_id++;
  }
  s.control_scopes_.push_back(std::move(control));
  return s;
}

Scope Scope::WithNoControlDependencies() const {
  Scope s = *this;
  s.control_scopes_.clear();
  return s;
}

uint64_t Scope::graph_id() const { return graph_->id; }

int Scope::NodeCount() const {
  rill::MutexLock lock(&graph_->mu);
  return graph_->graph.node_size();
}

absl::Status Scope::status() const {
  rill::MutexLock lock(&graph_->mu);
  return graph_->status;
}

void Scope::UpdateStatus(const absl::Status& status) const {
  if (status.ok()) return;
  rill::MutexLock lock(&graph_->mu);
  if (graph_->status.ok()) graph_->status = status;
}

absl::Status Scope::ToGraphDef(GraphDef* graph) const {
  rill::MutexLock lock(&graph_->mu);
  RILL_RETURN_IF_ERROR(graph_->status);
  *graph = graph_->graph;
  return absl::OkStatus();
}

absl::StatusOr<GraphDef> Scope::ToGraphDef() const {
  GraphDef graph;
  RILL_RETURN_IF_ERROR(ToGraphDef(&graph));
  return graph;
}

absl::Status Scope::UpdateInput(const Operation& node, int input_index,
                                const Output& new_input) const {
  Graph& g = *graph_;
  rill::MutexLock lock(&g.mu);
  RILL_RETURN_IF_ERROR(g.status);
  auto fail = [&](std::string message) {
    g.status = absl::InvalidArgumentError(
        absl::StrCat("UpdateInput of node '", node.name(), "': ", message));
    return g.status;
  };
  if (!g.Owns(node.graph_id())) return fail(absl::StrCat("the node ", Graph::kOtherGraph));
  if (!g.Owns(new_input.graph_id())) {
    return fail(absl::StrCat("'", new_input.TensorName(), "' ", Graph::kOtherGraph));
  }
  auto dst = g.nodes.find(node.name());
  if (dst == g.nodes.end()) return fail("no such node in this graph");
  auto src = g.nodes.find(new_input.node());
  if (src == g.nodes.end())
    return fail(absl::StrCat("unknown input node '", new_input.node(), "'"));
  if (new_input.index() < 0 ||
      new_input.index() >= static_cast<int>(src->second.output_types.size())) {
    return fail(absl::StrCat("'", new_input.node(), "' has no output ", new_input.index()));
  }
  NodeDef* def = g.graph.mutable_node(dst->second.index);
  int data_inputs = 0;
  while (data_inputs < def->input_size() && !absl::StartsWith(def->input(data_inputs), "^")) {
    ++data_inputs;
  }
  if (input_index < 0 || input_index >= data_inputs) {
    return fail(absl::StrCat("no data input ", input_index, " (it has ", data_inputs, ")"));
  }
  absl::StatusOr<InputName> old = ParseInputName(def->input(input_index));
  if (!old.ok()) return fail(std::string(old.status().message()));
  const DataType old_type = g.nodes.at(old->node).output_types[old->index];
  const DataType new_type = src->second.output_types[new_input.index()];
  if (old_type != new_type) {
    return fail(absl::StrCat("input ", input_index, " is ", DataTypeString(old_type), " but '",
                             new_input.TensorName(), "' is ", DataTypeString(new_type)));
  }
  def->set_input(input_index, new_input.InputString());
  return absl::OkStatus();
}

absl::StatusOr<PartialTensorShape> Scope::GetShape(const Output& output) const {
  if (!graph_->Owns(output.graph_id())) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", output.TensorName(), "' ", Graph::kOtherGraph));
  }
  rill::MutexLock lock(&graph_->mu);
  auto it = graph_->nodes.find(output.node());
  if (it == graph_->nodes.end()) {
    return absl::NotFoundError(absl::StrCat("No node named '", output.node(), "' in the graph"));
  }
  const auto& shapes = it->second.output_shapes;
  if (output.index() < 0 || output.index() >= static_cast<int>(shapes.size())) {
    return absl::InvalidArgumentError(absl::StrCat("Node '", output.node(), "' has ", shapes.size(),
                                                   " outputs; no output ", output.index()));
  }
  return shapes[output.index()];
}

Operation Scope::AddNode(const OpBuilder& builder) const {
  Graph& g = *graph_;
  rill::MutexLock lock(&g.mu);
  if (!g.status.ok()) return Operation();

  // The node's name.
  std::string name;
  if (exact_name_) {
    name = op_name_;
  } else {
    const std::string& relative = !op_name_.empty()                ? op_name_
                                  : !builder.default_name_.empty() ? builder.default_name_
                                                                   : builder.op_type_;
    name = g.UniqueName(JoinName(name_scope_, relative));
  }
  // Errors from here on name the node. `fail` prefixes "Node 'X' (Op): "; `fail_as_is` is for
  // messages that already name it in TensorFlow's words.
  auto fail_as_is = [&](absl::Status s) {
    g.status = std::move(s);
    return Operation();
  };
  auto fail = [&](const absl::Status& s) {
    return fail_as_is(
        AnnotateStatus(s, absl::StrCat("Node '", name, "' (", builder.op_type_, ")")));
  };
  if (!IsValidNodeName(name)) {
    return fail_as_is(
        absl::InvalidArgumentError(absl::StrCat("'", name, "' is not a valid node name")));
  }
  if (g.nodes.contains(name)) {
    return fail_as_is(
        absl::InvalidArgumentError(absl::StrCat("Duplicate node name in graph: '", name, "'")));
  }
  if (exact_name_) g.names_in_use.try_emplace(absl::AsciiStrToLower(name), 1);
  if (!builder.error_.ok()) return fail(builder.error_);
  absl::StatusOr<const OpRegistration*> reg = OpRegistry::Global()->LookUpOrError(builder.op_type_);
  if (!reg.ok()) return fail(reg.status());
  const OpDef& op_def = (*reg)->op_def;

  NodeDef node = builder.attrs_;
  node.set_name(name);
  node.set_op(builder.op_type_);

  // Data inputs: each must name an output of a node already in this graph.
  std::vector<const Output*> inputs;              // per data input
  std::vector<const Graph::NodeInfo*> producers;  // per data input
  std::vector<DataType> produced;                 // per data input
  std::vector<std::vector<DataType>> arg_types;   // per input arg
  for (const std::vector<Output>& arg : builder.inputs_) {
    arg_types.emplace_back();
    for (const Output& in : arg) {
      if (!in.valid()) {
        return fail(absl::InvalidArgumentError(absl::StrCat(
            "input ", producers.size(),
            " is an invalid Output (default-constructed, or from a node that failed to build)")));
      }
      if (!g.Owns(in.graph_id())) {
        return fail(absl::InvalidArgumentError(absl::StrCat(
            "input ", producers.size(), " ('", in.TensorName(), "') ", Graph::kOtherGraph)));
      }
      auto it = g.nodes.find(in.node());
      if (it == g.nodes.end()) {
        return fail_as_is(absl::InvalidArgumentError(
            absl::StrCat("Node '", name, "': Unknown input node '", in.InputString(), "'")));
      }
      const Graph::NodeInfo& info = it->second;
      if (in.index() < 0 || in.index() >= static_cast<int>(info.output_types.size())) {
        return fail_as_is(absl::InvalidArgumentError(absl::StrCat(
            "Node '", name, "': Connecting to invalid output ", in.index(), " of source node ",
            in.node(), " which has ", info.output_types.size(), " outputs.")));
      }
      inputs.push_back(&in);
      producers.push_back(&info);
      produced.push_back(info.output_types[in.index()]);
      arg_types.back().push_back(info.output_types[in.index()]);
      node.add_input(in.InputString());
    }
  }

  // Type attrs the inputs determine, unless set explicitly: T from the first input bound to it, N
  // from a list's length, a type list from the list's dtypes.
  const int bound = std::min<int>(op_def.input_arg_size(), static_cast<int>(arg_types.size()));
  for (int k = 0; k < bound; ++k) {
    const OpDef::ArgDef& arg = op_def.input_arg(k);
    const std::vector<DataType>& types = arg_types[k];
    auto unset = [&](const std::string& attr) { return !node.attr().contains(attr); };
    if (!arg.type_list_attr().empty()) {
      if (unset(arg.type_list_attr())) {
        std::vector<DataType> base;
        for (DataType t : types) base.push_back(BaseType(t));
        SetAttr(&node, arg.type_list_attr(), base);
      }
      continue;
    }
    if (!arg.number_attr().empty() && unset(arg.number_attr())) {
      SetAttr(&node, arg.number_attr(), static_cast<int64_t>(types.size()));
    }
    if (!arg.type_attr().empty() && unset(arg.type_attr()) && !types.empty()) {
      SetAttr(&node, arg.type_attr(), BaseType(types[0]));
    }
  }
  AddDefaultsToNodeDef(op_def, &node);
  if (absl::Status s = ValidateNodeDef(node, op_def); !s.ok()) return fail(s);
  DataTypeVector in_types, out_types;
  if (absl::Status s = InOutTypesForNode(node, op_def, &in_types, &out_types); !s.ok()) {
    return fail(s);
  }
  std::vector<std::string> ref_producers;  // producers of reference inputs, in input order
  for (size_t i = 0; i < in_types.size() && i < produced.size(); ++i) {
    if (!TypesCompatible(produced[i], in_types[i])) {
      return fail_as_is(absl::InvalidArgumentError(
          absl::StrCat("Input ", i, " of node ", name, " was passed ", DataTypeString(produced[i]),
                       " from ", inputs[i]->TensorName(), " incompatible with expected ",
                       DataTypeString(in_types[i]), ".")));
    }
    if (IsRefType(in_types[i])) {
      ref_producers.push_back(inputs[i]->node());
    }
  }

  // Control inputs (TensorFlow's _control_dependencies_for_inputs): a control scope is skipped
  // when a data input was built under it; a dep that is already a data input is skipped.
  std::set<std::string> data_nodes;
  for (const Output* in : inputs) data_nodes.insert(in->node());
  std::set<std::string> control;  // sorted, as TensorFlow writes them
  for (const auto& cs : control_scopes_) {
    bool dominated = false;
    for (const Graph::NodeInfo* p : producers) {
      if (std::find(p->control_scopes.begin(), p->control_scopes.end(), cs->id) !=
          p->control_scopes.end()) {
        dominated = true;
      }
    }
    if (dominated) continue;
    for (const std::string& dep : cs->deps) {
      if (!data_nodes.count(dep)) control.insert(dep);
    }
  }
  for (const std::string& dep : control) {
    if (!g.nodes.contains(dep)) {
      return fail_as_is(absl::InvalidArgumentError(
          absl::StrCat("Node '", name, "': Unknown input node '^", dep, "'")));
    }
    node.add_input(absl::StrCat("^", dep));
  }

  // Device requests, innermost first (TensorFlow Python's _apply_device_functions). A reference
  // input colocates the node with its producer, which (as colocate_with) drops the requests.
  std::string device;
  if (ref_producers.empty()) {
    for (auto it = devices_.rbegin(); it != devices_.rend(); ++it) {
      const DeviceEntry& entry = **it;
      if (entry.kind == DeviceEntry::kClear) break;
      if (entry.kind == DeviceEntry::kFunction) {
        node.set_device(device);
        device = entry.function(node);
        continue;
      }
      if (!entry.parse_status.ok()) return fail(entry.parse_status);
      absl::StatusOr<DeviceName> current = ParseDeviceName(device);
      if (!current.ok()) return fail(current.status());
      device = DeviceNameToString(MergeInner(entry.spec, *current));
    }
  }

  // Colocation: ref-input producers (innermost, the last first), then ColocateWith targets (the
  // latest first). The first with a device gives the node its device.
  std::vector<std::string> targets(ref_producers.rbegin(), ref_producers.rend());
  targets.insert(targets.end(), colocate_with_.rbegin(), colocate_with_.rend());
  if (!targets.empty()) {
    std::set<std::string> groups;
    bool device_set = false;
    for (const std::string& target : targets) {
      auto it = g.nodes.find(target);
      if (it == g.nodes.end()) {
        return fail(absl::InvalidArgumentError(absl::StrCat(
            "cannot colocate with '", target, "': no node of that name in the graph")));
      }
      const NodeDef& t = g.graph.node(it->second.index);
      for (std::string& group : ColocationGroups(t)) groups.insert(std::move(group));
      if (!device_set && !t.device().empty()) {
        device = t.device();
        device_set = true;
      }
    }
    SetAttr(&node, "_class", std::vector<std::string>(groups.begin(), groups.end()));
  }
  node.set_device(device);
  if (!device.empty()) {
    if (absl::Status s = ParseDeviceName(device).status(); !s.ok()) return fail(s);
  }

  // Shape inference.
  std::vector<PartialTensorShape> input_shapes;
  std::vector<std::optional<Tensor>> constants;  // values of Const index inputs
  std::vector<const Tensor*> input_tensors;
  for (size_t i = 0; i < producers.size(); ++i) {
    input_shapes.push_back(producers[i]->output_shapes[inputs[i]->index()]);
    constants.push_back(ConstantIndexTensor(g.graph.node(producers[i]->index)));
  }
  for (const std::optional<Tensor>& c : constants) input_tensors.push_back(c ? &*c : nullptr);
  ShapeInferenceContext shapes(node, std::move(input_shapes), static_cast<int>(out_types.size()),
                               std::move(input_tensors));
  std::vector<std::optional<PartialValue>> values;
  for (size_t i = 0; i < producers.size() && i < in_types.size(); ++i) {
    values.push_back(ShapeInputValue(g, *producers[i], inputs[i]->index(), in_types[i]));
  }
  shapes.set_input_values(std::move(values));
  if (absl::Status s = (*reg)->shape_fn(shapes); !s.ok()) {
    // Shape functions usually name the node already ("... for node 'X' (op MatMul: ...)").
    if (absl::StrContains(s.message(), absl::StrCat("node '", name, "'"))) return fail_as_is(s);
    return fail(s);
  }

  Graph::NodeInfo info;
  info.index = g.graph.node_size();
  info.output_types = out_types;
  info.output_shapes = shapes.TakeOutputs();
  for (const auto& cs : control_scopes_) info.control_scopes.push_back(cs->id);
  *g.graph.add_node() = std::move(node);
  g.nodes.emplace(name, std::move(info));
  return Tagged(Operation(name, std::move(out_types)), g.id);
}

}  // namespace rill

namespace rill {
namespace {

// The output dtypes of a call of `function` (its signature's output args) for `node`.
absl::StatusOr<DataTypeVector> FunctionCallOutputTypes(const FunctionDef& function,
                                                       const NodeDef& node) {
  DataTypeVector types;
  for (const OpDef::ArgDef& arg : function.signature().output_arg()) {
    if (arg.type() != DT_INVALID && arg.number_attr().empty()) {
      types.push_back(arg.type());
      continue;
    }
    const AttrValue* t = arg.type_attr().empty() ? nullptr : FindNodeAttr(node, arg.type_attr());
    if (t == nullptr || !arg.number_attr().empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Node '", node.name(), "': cannot tell the dtype of output '", arg.name(),
                       "' of function '", function.signature().name(), "'"));
    }
    types.push_back(t->type());
  }
  return types;
}

}  // namespace

absl::Status Scope::ImportGraphDef(const GraphDef& graph) const {
  Graph& g = *graph_;
  rill::MutexLock lock(&g.mu);
  RILL_RETURN_IF_ERROR(g.status);
  auto fail = [&](absl::Status s) {
    g.status = s;
    return s;
  };
  absl::flat_hash_map<std::string, const FunctionDef*> functions;
  for (const FunctionDef& f : g.graph.library().function()) functions[f.signature().name()] = &f;
  for (const FunctionDef& f : graph.library().function()) {
    auto it = functions.find(f.signature().name());
    if (it == functions.end()) {
      *g.graph.mutable_library()->add_function() = f;
    } else if (it->second->SerializeAsString() != f.SerializeAsString()) {
      return fail(absl::InvalidArgumentError(absl::StrCat(
          "Cannot import function '", f.signature().name(),
          "': a different function of that name is already in the graph; rename one of them")));
    }
  }
  for (const FunctionDef& f : g.graph.library().function()) functions[f.signature().name()] = &f;
  for (const NodeDef& imported : graph.node()) {
    const std::string& name = imported.name();
    if (g.nodes.contains(name)) {
      return fail(
          absl::InvalidArgumentError(absl::StrCat("Duplicate node name in graph: '", name, "'")));
    }
    NodeDef node = imported;
    DataTypeVector out_types;
    const OpRegistration* reg = OpRegistry::Global()->LookUp(node.op());
    DataTypeVector in_types;
    if (reg != nullptr) {
      AddDefaultsToNodeDef(reg->op_def, &node);
      if (absl::Status s = InOutTypesForNode(node, reg->op_def, &in_types, &out_types); !s.ok()) {
        return fail(AnnotateStatus(s, absl::StrCat("Node '", name, "' (", node.op(), ")")));
      }
    } else if (auto f = functions.find(node.op()); f != functions.end()) {
      absl::StatusOr<DataTypeVector> types = FunctionCallOutputTypes(*f->second, node);
      if (!types.ok()) return fail(types.status());
      out_types = *std::move(types);
    } else {
      return fail(absl::NotFoundError(absl::StrCat("Node '", name, "': Op type not registered '",
                                                   node.op(), "' in binary running on Rill")));
    }
    // Shapes from the shape function when every data input's producer is known; else unknown.
    std::vector<PartialTensorShape> shapes(out_types.size(), PartialTensorShape());
    if (reg != nullptr) {
      std::vector<PartialTensorShape> input_shapes;
      std::vector<std::optional<Tensor>> constants;
      std::vector<std::optional<PartialValue>> values;
      bool known = true;
      for (const std::string& input : node.input()) {
        absl::StatusOr<InputName> in = ParseInputName(input);
        if (!in.ok()) return fail(AnnotateStatus(in.status(), absl::StrCat("Node '", name, "'")));
        if (in->is_control()) continue;
        auto p = g.nodes.find(in->node);
        if (p == g.nodes.end() || in->index >= static_cast<int>(p->second.output_shapes.size())) {
          known = false;
          break;
        }
        input_shapes.push_back(p->second.output_shapes[in->index]);
        constants.push_back(ConstantIndexTensor(g.graph.node(p->second.index)));
        const size_t i = values.size();
        values.push_back(i < in_types.size() ? ShapeInputValue(g, p->second, in->index, in_types[i])
                                             : std::nullopt);
      }
      if (known) {
        std::vector<const Tensor*> input_tensors;
        for (const std::optional<Tensor>& c : constants) {
          input_tensors.push_back(c ? &*c : nullptr);
        }
        ShapeInferenceContext context(node, std::move(input_shapes),
                                      static_cast<int>(out_types.size()), std::move(input_tensors));
        context.set_input_values(std::move(values));
        if (reg->shape_fn(context).ok()) shapes = context.TakeOutputs();
      }
    }
    // The name and its name scopes ("a/b/c": "a", "a/b") are in use, as after TensorFlow's
    // import: a later NewSubScope("a") gives "a_1".
    const std::string lower = absl::AsciiStrToLower(name);
    for (size_t slash = lower.find('/'); slash != std::string::npos;
         slash = lower.find('/', slash + 1)) {
      g.names_in_use.try_emplace(lower.substr(0, slash), 1);
    }
    g.names_in_use.try_emplace(lower, 1);
    Graph::NodeInfo info;
    info.index = g.graph.node_size();
    info.output_types = out_types;
    info.output_shapes = std::move(shapes);
    *g.graph.add_node() = std::move(node);
    g.nodes.emplace(name, std::move(info));
  }
  return absl::OkStatus();
}

absl::StatusOr<NodeDef> Scope::GetNodeDef(absl::string_view name) const {
  rill::MutexLock lock(&graph_->mu);
  auto it = graph_->nodes.find(name);
  if (it == graph_->nodes.end()) {
    return absl::NotFoundError(absl::StrCat("No node named '", name, "' in the graph"));
  }
  return graph_->graph.node(it->second.index);
}

absl::StatusOr<Operation> Scope::GetOperation(absl::string_view name) const {
  rill::MutexLock lock(&graph_->mu);
  auto it = graph_->nodes.find(name);
  if (it == graph_->nodes.end()) {
    return absl::NotFoundError(absl::StrCat("No node named '", name, "' in the graph"));
  }
  return Tagged(Operation(std::string(name), it->second.output_types), graph_->id);
}

}  // namespace rill
