#include "graph/graph_def_import.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/device_name.h"
#include "core/status_macros.h"
#include "graph/graph_def_versions.h"
#include "graph/shape_values.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace rill {
namespace {

// GraphDef versions <= 21 wrote `shape {}` for a Placeholder of unknown shape.
void UpgradeOldPlaceholderShape(const GraphDef& graph_def, NodeDef* node) {
  if (graph_def.versions().producer() > 21 || node->op() != "Placeholder") return;
  auto it = node->mutable_attr()->find("shape");
  if (it == node->mutable_attr()->end() || !it->second.has_shape()) return;
  TensorShapeProto* shape = it->second.mutable_shape();
  if (shape->dim_size() == 0 && !shape->unknown_rank()) shape->set_unknown_rank(true);
}

// `node` without its input list (the Graph keeps inputs as edges): copying the inputs only to
// drop them would allocate each input's string.
NodeDef CopyWithoutInputs(const NodeDef& node) {
  NodeDef copy;
  copy.set_name(node.name());
  copy.set_op(node.op());
  if (!node.device().empty()) copy.set_device(node.device());
  *copy.mutable_attr() = node.attr();
  if (node.has_experimental_debug_info()) {
    *copy.mutable_experimental_debug_info() = node.experimental_debug_info();
  }
  if (node.has_experimental_type()) *copy.mutable_experimental_type() = node.experimental_type();
  const google::protobuf::Reflection* reflection = node.GetReflection();
  if (!reflection->GetUnknownFields(node).empty()) {
    reflection->MutableUnknownFields(&copy)->MergeFrom(reflection->GetUnknownFields(node));
  }
  return copy;
}

absl::Status CheckInputOrder(const std::string& name,
                             const google::protobuf::RepeatedPtrField<std::string>& inputs) {
  bool seen_control = false;
  for (const std::string& input : inputs) {
    if (absl::StartsWith(input, "^")) {
      seen_control = true;
    } else if (seen_control) {
      return absl::InvalidArgumentError(
          absl::StrCat("Node '", name,
                       "': Control dependencies must come after regular dependencies "
                       "(data input '",
                       input, "' follows a control input)"));
    }
  }
  return absl::OkStatus();
}

// Runs each known op's shape function over `order` (a topological order), with the values of
// Const inputs that are small index tensors (ConstantIndexTensor: shapes, axes, multiples,
// paddings) and the partial values of other shape inputs (InputPartialValues).
absl::Status InferShapesInOrder(const std::vector<Node*>& order) {
  std::map<int, Tensor> constants;  // node id -> value, for Const nodes feeding index inputs
  // The registration of the last op looked up: runs of nodes with the same op (most graphs) look
  // it up once (the registry's lookup locks and searches an ordered map of every op's name).
  const std::string* last_op = nullptr;  // the op of a node in `order`
  const OpRegistration* last_reg = nullptr;
  for (Node* node : order) {
    std::vector<PartialTensorShape> inputs(node->num_inputs());
    std::vector<const Tensor*> input_tensors(node->num_inputs(), nullptr);
    for (const Edge* e : node->in_edges()) {
      if (e->IsControlEdge()) continue;
      const std::vector<PartialTensorShape>& produced = e->src()->output_shapes();
      if (e->src_output() < static_cast<int>(produced.size())) {
        inputs[e->dst_input()] = produced[e->src_output()];
      }
      const DataType type = node->input_type(e->dst_input());
      if (type != DT_INT32 && type != DT_INT64) continue;
      auto known = constants.find(e->src()->id());
      if (known == constants.end()) {
        std::optional<Tensor> value = ConstantIndexTensor(e->src()->def());
        if (!value) continue;
        known = constants.emplace(e->src()->id(), *std::move(value)).first;
      }
      input_tensors[e->dst_input()] = &known->second;
    }
    if (!node->is_unknown_op() && (last_op == nullptr || *last_op != node->op())) {
      last_op = &node->op();
      last_reg = OpRegistry::Global()->LookUp(node->op());
    }
    const OpRegistration* reg = node->is_unknown_op() ? nullptr : last_reg;
    if (reg == nullptr) {
      node->set_output_shapes(std::vector<PartialTensorShape>(node->num_outputs()));
      continue;
    }
    ShapeInferenceContext c(node->def(), std::move(inputs), node->num_outputs(),
                            std::move(input_tensors));
    c.set_input_values(InputPartialValues(*node));
    c.set_input_handle_shapes(InputHandleShapes(*node));
    absl::Status s = reg->shape_fn(c);
    if (!s.ok()) {
      if (absl::StrContains(s.message(), absl::StrCat("'", node->name(), "'"))) return s;
      return AnnotateStatus(s, absl::StrCat("Shape inference failed for node '", node->name(),
                                            "' (op ", node->op(), ")"));
    }
    node->set_output_shapes(c.TakeOutputs());
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status InferShapes(Graph* graph) {
  RILL_ASSIGN_OR_RETURN(std::vector<Node*> order, TopologicalOrder(*graph));
  // A loop's Merge reads its NextIteration input before that is inferred: it must see no shape
  // there, as in an import, not one stored by an earlier inference.
  for (Node* node : order) node->set_output_shapes({});
  return InferShapesInOrder(order);
}

bool IsValidNodeName(absl::string_view name) {
  auto rest_char = [](char c) {
    return absl::ascii_isalnum(c) || c == '_' || c == '-' || c == '.' || c == '/';
  };
  size_t i = 0;
  bool first_piece = true;
  while (true) {
    if (!first_piece) {
      if (i >= name.size() || name[i] != '>') return false;
      ++i;
    }
    if (i >= name.size()) return false;
    const char c = name[i];
    // The first piece may start with '_' (internal ops); later pieces may not.
    if (!(absl::ascii_isalnum(c) || c == '.' || (first_piece && c == '_'))) return false;
    ++i;
    while (i < name.size() && rest_char(name[i])) ++i;
    if (i == name.size()) return true;
    first_piece = false;
  }
}

namespace {

// How many inputs ahead the import fetches name-index memory (Graph::PrefetchName): a few
// lookups in flight hide most of a large graph's cache misses.
constexpr int kLookahead = 8;
// How many nodes ahead step 2 fetches the name index's memory for a node's own name: a node's
// other work (a NodeDef copy, attr checks, dtypes) takes far longer than a memory access, so one
// node ahead is enough (measured against 8 ahead: docs/performance.md, "Session creation for
// large graphs").
constexpr int kNodesAhead = 1;

absl::Status NotUnique(absl::string_view name) {
  return absl::InvalidArgumentError(absl::StrCat("Node '", name, "' is not unique"));
}

// The error for the first node before `end` whose name an earlier node has; nullopt if none.
std::optional<absl::Status> FirstDuplicateBefore(const GraphDef& graph_def, int end) {
  absl::flat_hash_set<absl::string_view> names;
  for (int i = 0; i < end; ++i) {
    if (!names.insert(graph_def.node(i).name()).second) return NotUnique(graph_def.node(i).name());
  }
  return std::nullopt;
}

// As FirstDuplicateBefore for the whole GraphDef, while node `i` (named `name`) is being added
// to `graph`, which holds the nodes before it (unique), maybe node i (id i + 2), none after it.
std::optional<absl::Status> FirstDuplicateFrom(const Graph& graph, const GraphDef& graph_def, int i,
                                               absl::string_view name) {
  absl::flat_hash_set<absl::string_view> names;
  for (const Node* node : graph.op_nodes()) {
    if (node->id() != i + 2) names.insert(node->name());
  }
  if (!names.insert(name).second) return NotUnique(name);
  for (int k = i + 1; k < graph_def.node_size(); ++k) {
    if (!names.insert(graph_def.node(k).name()).second) return NotUnique(graph_def.node(k).name());
  }
  return std::nullopt;
}

// The node an input names: "a" for "a", "a:1" and "^a".
absl::string_view InputNodeName(absl::string_view input) {
  if (absl::StartsWith(input, "^")) input.remove_prefix(1);
  return input.substr(0, input.find(':'));
}

// Where adding a node's input edges stopped: the input to add next and its data slot.
struct InputCursor {
  int input = 0;
  int slot = 0;
};

// Adds the edges of `dst`'s inputs (its GraphDef input list) from `cursor` on, in order, calling
// `before_lookup(k)` before input k's node is looked up. OK when all are added; otherwise
// `cursor` is at the input that failed and the error is that input's: a malformed input or one
// naming a node `graph` does not have (yet) (`*unresolved` set), or AddEdge's.
absl::Status AddInputEdges(Graph* graph,
                           const google::protobuf::RepeatedPtrField<std::string>& inputs, Node* dst,
                           absl::FunctionRef<void(int)> before_lookup, InputCursor* cursor,
                           bool* unresolved) {
  *unresolved = false;
  for (; cursor->input < inputs.size(); ++cursor->input) {
    const std::string& input = inputs[cursor->input];
    before_lookup(cursor->input);
    absl::StatusOr<InputName> in = ParseInputName(input);
    if (!in.ok()) {
      *unresolved = true;
      return AnnotateStatus(in.status(), absl::StrCat("Node '", dst->name(), "'"));
    }
    Node* src = graph->FindNode(in->node);
    if (src == nullptr) {
      *unresolved = true;
      return absl::InvalidArgumentError(
          absl::StrCat("Node '", dst->name(), "': Unknown input node '", input, "'"));
    }
    if (in->is_control()) {
      graph->AddControlEdge(src, dst);
    } else {
      RILL_RETURN_IF_ERROR(graph->AddEdge(src, in->index, dst, cursor->slot).status());
      ++cursor->slot;
    }
  }
  return absl::OkStatus();
}

// The import itself. With `movable` (== &graph_def, or null), the NodeDefs, library and
// debug_info are moved out of it instead of copied (large Const values are not duplicated).
absl::StatusOr<std::unique_ptr<Graph>> Import(const GraphDef& graph_def, GraphDef* movable,
                                              const ImportOptions& options) {
  auto graph = std::make_unique<Graph>();
  const int n = graph_def.node_size();
  // 0. Versions and the function library (graph_def_versions.h).
  RILL_RETURN_IF_ERROR(CheckGraphDefVersions(graph_def.versions()));
  RILL_RETURN_IF_ERROR(CheckFunctionLibrary(graph_def.library()));
  absl::flat_hash_map<absl::string_view, const FunctionDef*> functions;
  for (const FunctionDef& f : graph_def.library().function()) {
    functions.emplace(f.signature().name(), &f);
  }
  // 1. Names: none empty, all valid; their uniqueness is checked as the nodes are added (2).
  for (int i = 0; i < n; ++i) {
    const NodeDef& node = graph_def.node(i);
    absl::Status s;
    if (node.name().empty()) {
      s = absl::InvalidArgumentError(
          absl::StrCat("Node ", i, " (op '", node.op(), "') has an empty name"));
    } else if (!IsValidNodeName(node.name())) {
      s = absl::InvalidArgumentError(
          absl::StrCat("Node '", node.name(), "': Node name contains invalid characters"));
    }
    if (!s.ok()) return FirstDuplicateBefore(graph_def, i).value_or(s);
  }
  // 2. Nodes. Their input lists are read in step 3 (a Node holds none): from `graph_def`, or,
  // when its NodeDefs are moved out, from `moved_inputs`, where they are set aside.
  std::vector<google::protobuf::RepeatedPtrField<std::string>> moved_inputs(movable != nullptr ? n
                                                                                               : 0);
  auto inputs = [&](int i) -> const google::protobuf::RepeatedPtrField<std::string>& {
    return movable != nullptr ? moved_inputs[i] : graph_def.node(i).input();
  };
  int num_inputs = 0;
  for (const NodeDef& node : graph_def.node()) num_inputs += node.input_size();
  // Room for an edge per input and, for most graphs, the SOURCE and SINK edges.
  graph->Reserve(n, num_inputs + n);
  // A duplicate name anywhere is reported before any other error of this step (as if all names
  // were checked first): node i's error stands only when no name repeats from node i on.
  auto fail = [&](int i, absl::string_view name, absl::Status s) {
    return FirstDuplicateFrom(*graph, graph_def, i, name).value_or(std::move(s));
  };
  // Each node's edges are added right after it while all its inputs name nodes already added
  // (a GraphDef in topological order: the inputs are often nodes just added, still in the cache).
  // From the first input that does not resolve yet (a forward reference, an unknown node, a
  // malformed input) or whose edge fails, the rest wait for step 3, which goes on from that input
  // with the same helper: edges are added in the same order either way, and step 3 reports the
  // input errors after every node's step-2 checks.
  // The registration of the last node's op, when known: kept for the next node with the same op.
  const OpRegistration* last_reg = nullptr;
  int deferred_from = n;
  InputCursor deferred_cursor;  // node deferred_from's first input left for step 3
  absl::Status edge_error;      // an edge of node deferred_from that failed in step 2
  for (int i = 0; i < n; ++i) {
    // The name index's memory for the next node, fetched while this one is added.
    if (i + kNodesAhead < n) graph->PrefetchName(graph_def.node(i + kNodesAhead).name());
    NodeDef node;
    if (movable != nullptr) {
      node = std::move(*movable->mutable_node(i));
      moved_inputs[i].Swap(node.mutable_input());
    } else {
      node = CopyWithoutInputs(graph_def.node(i));
    }
    if (options.clear_devices) node.clear_device();
    if (!node.device().empty()) {
      absl::Status s = ParseDeviceName(node.device()).status();
      if (!s.ok()) {
        return fail(i, node.name(), AnnotateStatus(s, absl::StrCat("Node '", node.name(), "'")));
      }
    }
    if (absl::Status s = CheckInputOrder(node.name(), inputs(i)); !s.ok()) {
      return fail(i, node.name(), s);
    }
    if (last_reg == nullptr || node.op() != last_reg->op_def.name()) {
      last_reg = OpRegistry::Global()->LookUp(node.op());
    }
    const OpRegistration* reg = last_reg;
    if (reg != nullptr) {
      UpgradeOldPlaceholderShape(graph_def, &node);
    } else if (auto f = functions.find(node.op()); f != functions.end()) {
      NodeDef with_inputs = node;  // a function call: rare, so copied for its input list
      *with_inputs.mutable_input() = inputs(i);
      if (absl::Status s = CheckFunctionCallInputs(with_inputs, *f->second); !s.ok()) {
        return fail(i, node.name(), s);
      }
    }
    // AddNode refuses a name already added ("Node 'x' is not unique"), fills the attr defaults,
    // checks the attrs and computes the dtypes (ValidateNodeDef's checks, with its messages)
    // once; the input count is checked against its dtypes.
    std::string moved_name;  // node i's name for an error, when the GraphDef's is moved out too
    if (movable != nullptr) moved_name = node.name();
    absl::StatusOr<Node*> added = graph->AddNode(std::move(node));
    if (!added.ok()) {
      return fail(i, movable != nullptr ? moved_name : graph_def.node(i).name(), added.status());
    }
    if (reg != nullptr) {
      int data_inputs = 0;
      for (const std::string& in : inputs(i)) data_inputs += absl::StartsWith(in, "^") ? 0 : 1;
      if (data_inputs != (*added)->num_inputs()) {
        // ValidateNodeDef's message, which lists the inputs.
        NodeDef with_inputs = (*added)->def();
        *with_inputs.mutable_input() = inputs(i);
        absl::Status s = ValidateNodeDef(with_inputs, reg->op_def);
        if (!s.ok()) return fail(i, (*added)->name(), s);
      }
    }
    if (deferred_from == n) {
      // The name index's memory for the input kLookahead ahead (a node may have a million).
      const google::protobuf::RepeatedPtrField<std::string>& in = inputs(i);
      auto prefetch = [&](int k) {
        if (k + kLookahead < in.size()) graph->PrefetchName(InputNodeName(in[k + kLookahead]));
      };
      InputCursor cursor;
      bool unresolved = false;
      absl::Status s = AddInputEdges(graph.get(), in, *added, prefetch, &cursor, &unresolved);
      if (!s.ok()) {
        deferred_from = i;
        deferred_cursor = cursor;
        if (!unresolved) edge_error = std::move(s);
      }
    }
  }
  if (!edge_error.ok()) return edge_error;
  // 3. Edges, in the GraphDef's input order, from where step 2 stopped. Node ids are 2 + the
  // GraphDef index. The name index's memory for the input kLookahead inputs ahead is fetched
  // while this one is added.
  int ahead_node = deferred_from, ahead_input = deferred_cursor.input;
  auto prefetch_next = [&](int) {
    while (ahead_node < n && ahead_input >= inputs(ahead_node).size()) {
      ++ahead_node;
      ahead_input = 0;
    }
    if (ahead_node < n) graph->PrefetchName(InputNodeName(inputs(ahead_node)[ahead_input++]));
  };
  for (int k = 0; k < kLookahead; ++k) prefetch_next(k);
  for (int i = deferred_from; i < n; ++i) {
    InputCursor cursor = i == deferred_from ? deferred_cursor : InputCursor();
    bool unresolved = false;
    RILL_RETURN_IF_ERROR(AddInputEdges(graph.get(), inputs(i), graph->FindNodeById(i + 2),
                                       prefetch_next, &cursor, &unresolved));
  }
  // 4. Cycles.
  RILL_ASSIGN_OR_RETURN(std::vector<Node*> order, TopologicalOrder(*graph));
  graph->FixupSourceAndSinkEdges();
  // 5. Shapes.
  if (options.infer_shapes) RILL_RETURN_IF_ERROR(InferShapesInOrder(order));

  if (graph_def.has_versions()) *graph->mutable_versions() = graph_def.versions();
  graph->set_legacy_version(graph_def.version());
  if (graph_def.has_library()) {
    if (movable != nullptr) {
      graph->mutable_library()->Swap(movable->mutable_library());
    } else {
      *graph->mutable_library() = graph_def.library();
    }
  }
  if (graph_def.has_debug_info()) {
    if (movable != nullptr) {
      graph->mutable_debug_info()->Swap(movable->mutable_debug_info());
    } else {
      *graph->mutable_debug_info() = graph_def.debug_info();
    }
  }
  return graph;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Graph>> ImportGraphDef(const GraphDef& graph_def,
                                                      const ImportOptions& options) {
  return Import(graph_def, /*movable=*/nullptr, options);
}

absl::StatusOr<std::unique_ptr<Graph>> ImportGraphDef(GraphDef&& graph_def,
                                                      const ImportOptions& options) {
  return Import(graph_def, &graph_def, options);
}

}  // namespace rill
