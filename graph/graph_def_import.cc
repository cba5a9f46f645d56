#include "graph/graph_def_import.h"

#include <algorithm>
#include <deque>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/device_name.h"
#include "core/status_macros.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"
#include "ops/shape_inference.h"

namespace rill {
namespace {

bool IsNextIteration(const Node* n) {
  return n->op() == "NextIteration" || n->op() == "RefNextIteration";
}

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
      return absl::InvalidArgumentError(absl::StrCat(
          "Node '", node.name(), "': Control dependencies must come after regular dependencies "
          "(data input '", input, "' follows a control input)"));
    }
  }
  return absl::OkStatus();
}

absl::Status InferShapes(const std::vector<Node*>& order) {
  for (Node* node : order) {
    std::vector<PartialTensorShape> inputs(node->num_inputs());
    for (const Edge* e : node->in_edges()) {
      if (e->IsControlEdge()) continue;
      const std::vector<PartialTensorShape>& produced = e->src()->output_shapes();
      if (e->src_output() < static_cast<int>(produced.size())) {
        inputs[e->dst_input()] = produced[e->src_output()];
      }
    }
    const OpRegistration* reg =
        node->is_unknown_op() ? nullptr : OpRegistry::Global()->LookUp(node->op());
    if (reg == nullptr) {
      node->set_output_shapes(std::vector<PartialTensorShape>(node->num_outputs()));
      continue;
    }
    ShapeInferenceContext c(node->def(), std::move(inputs), node->num_outputs());
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

absl::StatusOr<std::vector<Node*>> TopologicalOrder(Graph& graph) {
  std::vector<int> pending(graph.num_node_ids(), 0);
  auto counts = [](const Edge* e) {
    return e->src()->IsOp() && e->dst()->IsOp() && !IsNextIteration(e->src());
  };
  std::deque<Node*> ready;
  for (Node* n : graph.op_nodes()) {
    for (const Edge* e : n->in_edges()) pending[n->id()] += counts(e) ? 1 : 0;
    if (pending[n->id()] == 0) ready.push_back(n);
  }
  std::vector<Node*> order;
  order.reserve(graph.num_op_nodes());
  while (!ready.empty()) {
    Node* n = ready.front();
    ready.pop_front();
    order.push_back(n);
    for (const Edge* e : n->out_edges()) {
      if (counts(e) && --pending[e->dst()->id()] == 0) ready.push_back(e->dst());
    }
  }
  if (static_cast<int>(order.size()) == graph.num_op_nodes()) return order;

  // Every node left has a counted in-edge from another node left: walk such edges backwards
  // from the first one until a node repeats; the walk's tail is a cycle.
  Node* start = nullptr;
  for (Node* n : graph.op_nodes()) {
    if (pending[n->id()] > 0) {
      start = n;
      break;
    }
  }
  std::vector<Node*> walk;
  std::vector<int> position(graph.num_node_ids(), -1);
  Node* n = start;
  while (position[n->id()] < 0) {
    position[n->id()] = static_cast<int>(walk.size());
    walk.push_back(n);
    Node* prev = nullptr;
    for (const Edge* e : n->in_edges()) {
      if (counts(e) && pending[e->src()->id()] > 0) {
        prev = e->src();
        break;
      }
    }
    n = prev;  // never null: see above
  }
  // walk[position[n]..] is the cycle, listed against edge direction: reverse it and start it
  // at its lowest id.
  std::vector<Node*> ring(walk.rbegin(), walk.rend() - position[n->id()]);
  std::rotate(ring.begin(),
              std::min_element(ring.begin(), ring.end(),
                               [](const Node* x, const Node* y) { return x->id() < y->id(); }),
              ring.end());
  std::vector<std::string> cycle;
  for (const Node* c : ring) cycle.push_back(c->name());
  cycle.push_back(cycle.front());
  const int left = graph.num_op_nodes() - static_cast<int>(order.size());
  return absl::InvalidArgumentError(absl::StrCat(
      "Graph has a cycle that does not pass through NextIteration: ",
      absl::StrJoin(cycle, " -> "), " (", left,
      " nodes in a cycle or depending on one; only loops closed by NextIteration are allowed)"));
}

absl::StatusOr<std::unique_ptr<Graph>> ImportGraphDef(const GraphDef& graph_def,
                                                      const ImportOptions& options) {
  auto graph = std::make_unique<Graph>();
  // 1. Names.
  {
    absl::flat_hash_map<absl::string_view, int> seen;
    for (int i = 0; i < graph_def.node_size(); ++i) {
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
  // 2. Nodes.
  for (const NodeDef& original : graph_def.node()) {
    NodeDef node = original;
    if (options.clear_devices) node.clear_device();
    if (!node.device().empty()) {
      absl::Status s = ParseDeviceName(node.device()).status();
      if (!s.ok()) return AnnotateStatus(s, absl::StrCat("Node '", node.name(), "'"));
    }
    RILL_RETURN_IF_ERROR(CheckInputOrder(node));
    if (const OpRegistration* reg = OpRegistry::Global()->LookUp(node.op()); reg != nullptr) {
      UpgradeOldPlaceholderShape(graph_def, &node);
      AddDefaultsToNodeDef(reg->op_def, &node);
      RILL_RETURN_IF_ERROR(ValidateNodeDef(node, reg->op_def));
    }
    RILL_RETURN_IF_ERROR(graph->AddNode(std::move(node)).status());
  }
  // 3. Edges, in the GraphDef's input order. Node ids are 2 + the GraphDef index.
  for (int i = 0; i < graph_def.node_size(); ++i) {
    const NodeDef& node = graph_def.node(i);
    Node* dst = graph->FindNodeById(i + 2);
    int slot = 0;
    for (const std::string& input : node.input()) {
      absl::StatusOr<InputName> in = ParseInputName(input);
      if (!in.ok()) return AnnotateStatus(in.status(), absl::StrCat("Node '", node.name(), "'"));
      Node* src = graph->FindNode(in->node);
      if (src == nullptr) {
        return absl::InvalidArgumentError(
            absl::StrCat("Node '", node.name(), "': Unknown input node '", input, "'"));
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
  if (options.infer_shapes) RILL_RETURN_IF_ERROR(InferShapes(order));

  if (graph_def.has_versions()) *graph->mutable_versions() = graph_def.versions();
  graph->set_legacy_version(graph_def.version());
  if (graph_def.has_library()) *graph->mutable_library() = graph_def.library();
  if (graph_def.has_debug_info()) *graph->mutable_debug_info() = graph_def.debug_info();
  return graph;
}

}  // namespace rill
