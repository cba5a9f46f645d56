#include "graph/graph_def_import.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/container/flat_hash_map.h"
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

absl::Status CheckInputOrder(const NodeDef& node) {
  bool seen_control = false;
  for (const std::string& input : node.input()) {
    if (absl::StartsWith(input, "^")) {
      seen_control = true;
    } else if (seen_control) {
      return absl::InvalidArgumentError(
          absl::StrCat("Node '", node.name(),
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
    const OpRegistration* reg =
        node->is_unknown_op() ? nullptr : OpRegistry::Global()->LookUp(node->op());
    if (reg == nullptr) {
      node->set_output_shapes(std::vector<PartialTensorShape>(node->num_outputs()));
      continue;
    }
    ShapeInferenceContext c(node->def(), std::move(inputs), node->num_outputs(),
                            std::move(input_tensors));
    c.set_input_values(InputPartialValues(*node));
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
  // 1. Names.
  {
    absl::flat_hash_map<absl::string_view, int> seen;
    seen.reserve(n);
    for (int i = 0; i < n; ++i) {
      const NodeDef& node = graph_def.node(i);
      if (node.name().empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node ", i, " (op '", node.op(), "') has an empty name"));
      }
      if (!IsValidNodeName(node.name())) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node '", node.name(), "': Node name contains invalid characters"));
      }
      if (!seen.emplace(node.name(), i).second) {
        return absl::InvalidArgumentError(absl::StrCat("Node '", node.name(), "' is not unique"));
      }
    }
  }
  // 2. Nodes. Their input lists are set aside for step 3 (a Node holds none).
  std::vector<google::protobuf::RepeatedPtrField<std::string>> inputs(n);
  int num_inputs = 0;
  for (const NodeDef& node : graph_def.node()) num_inputs += node.input_size();
  // Room for an edge per input and, for most graphs, the SOURCE and SINK edges.
  graph->Reserve(n, num_inputs + n);
  for (int i = 0; i < n; ++i) {
    NodeDef node = movable != nullptr ? std::move(*movable->mutable_node(i)) : graph_def.node(i);
    if (options.clear_devices) node.clear_device();
    if (!node.device().empty()) {
      absl::Status s = ParseDeviceName(node.device()).status();
      if (!s.ok()) return AnnotateStatus(s, absl::StrCat("Node '", node.name(), "'"));
    }
    RILL_RETURN_IF_ERROR(CheckInputOrder(node));
    const OpRegistration* reg = OpRegistry::Global()->LookUp(node.op());
    if (reg != nullptr) {
      UpgradeOldPlaceholderShape(graph_def, &node);
    } else if (auto f = functions.find(node.op()); f != functions.end()) {
      RILL_RETURN_IF_ERROR(CheckFunctionCallInputs(node, *f->second));
    }
    inputs[i].Swap(node.mutable_input());
    // AddNode fills the attr defaults, checks the attrs and computes the dtypes (ValidateNodeDef's
    // checks, with its messages) once; the input count is checked against its dtypes.
    RILL_ASSIGN_OR_RETURN(Node * added, graph->AddNode(std::move(node)));
    if (reg != nullptr) {
      int data_inputs = 0;
      for (const std::string& in : inputs[i]) data_inputs += absl::StartsWith(in, "^") ? 0 : 1;
      if (data_inputs != added->num_inputs()) {
        // ValidateNodeDef's message, which lists the inputs.
        NodeDef with_inputs = added->def();
        *with_inputs.mutable_input() = inputs[i];
        RILL_RETURN_IF_ERROR(ValidateNodeDef(with_inputs, reg->op_def));
      }
    }
  }
  // 3. Edges, in the GraphDef's input order. Node ids are 2 + the GraphDef index.
  for (int i = 0; i < n; ++i) {
    Node* dst = graph->FindNodeById(i + 2);
    int slot = 0;
    for (const std::string& input : inputs[i]) {
      absl::StatusOr<InputName> in = ParseInputName(input);
      if (!in.ok()) return AnnotateStatus(in.status(), absl::StrCat("Node '", dst->name(), "'"));
      Node* src = graph->FindNode(in->node);
      if (src == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node '", dst->name(), "': Unknown input node '", input, "'"));
      }
      if (in->is_control()) {
        graph->AddControlEdge(src, dst);
      } else {
        RILL_RETURN_IF_ERROR(graph->AddEdge(src, in->index, dst, slot++).status());
      }
    }
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
