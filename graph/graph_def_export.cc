#include "graph/graph_def_export.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"

namespace rill {
namespace {

void AddInputs(const Node& node, NodeDef* def) {
  std::vector<const Edge*> data;
  for (const Edge* e : node.in_edges()) {
    if (!e->IsControlEdge()) data.push_back(e);
  }
  std::sort(data.begin(), data.end(),
            [](const Edge* a, const Edge* b) { return a->dst_input() < b->dst_input(); });
  for (const Edge* e : data) {
    def->add_input(e->src_output() == 0 ? e->src()->name()
                                        : absl::StrCat(e->src()->name(), ":", e->src_output()));
  }
  for (const Edge* e : node.in_edges()) {
    if (e->IsControlEdge() && e->src()->IsOp()) def->add_input(absl::StrCat("^", e->src()->name()));
  }
}

}  // namespace

NodeDef NodeDefWithInputs(const Node& node) {
  NodeDef def = node.def();
  def.clear_input();
  AddInputs(node, &def);
  return def;
}

void ExportGraphDef(const Graph& graph, GraphDef* out) { ExportGraphDef(graph, {}, out); }

void ExportGraphDef(const Graph& graph, const ExportOptions& options, GraphDef* out) {
  out->Clear();
  out->mutable_node()->Reserve(graph.num_op_nodes());
  for (const Node* node : graph.op_nodes()) {
    NodeDef* def = out->add_node();
    *def = node->def();
    if (options.assigned_devices && !node->assigned_device_name().empty()) {
      def->set_device(node->assigned_device_name());
    }
    AddInputs(*node, def);
  }
  if (graph.has_versions()) *out->mutable_versions() = graph.versions();
  if (graph.legacy_version() != 0) out->set_version(graph.legacy_version());
  if (graph.has_library()) *out->mutable_library() = graph.library();
  if (graph.has_debug_info()) *out->mutable_debug_info() = graph.debug_info();
}

}  // namespace rill
