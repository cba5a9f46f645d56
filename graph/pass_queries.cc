#include "graph/pass_queries.h"

#include "absl/status/statusor.h"
#include "core/device_name.h"
#include "graph/op_classes.h"

namespace rill {

const AttrValue* NodeAttrOrNull(const Node& n, const char* name) {
  auto it = n.def().attr().find(name);
  return it == n.def().attr().end() ? nullptr : &it->second;
}

bool AssignedToCpu(const Node& n) {
  absl::StatusOr<DeviceName> parsed = ParseDeviceName(n.assigned_device_name());
  return parsed.ok() && parsed->has_type && parsed->type == "CPU";
}

std::vector<const Edge*> DataOutEdges(const Node& n) {
  std::vector<const Edge*> outs;
  for (const Edge* e : n.out_edges()) {
    if (!e->IsControlEdge() && !e->dst()->IsSink()) outs.push_back(e);
  }
  return outs;
}

std::vector<char> NeverDeadNodes(const Graph& graph, const std::vector<Node*>& order) {
  std::vector<char> never_dead(graph.num_node_ids(), 0);
  never_dead[Graph::kSourceId] = 1;
  for (const Node* n : order) {
    const OpClass c = n->op_class();
    if (IsControlFlow(c) || IsRecv(c)) continue;
    bool ok = true;
    for (const Edge* e : n->in_edges()) {
      if (!never_dead[e->src()->id()]) {
        ok = false;
        break;
      }
    }
    never_dead[n->id()] = ok;
  }
  return never_dead;
}

}  // namespace rill
