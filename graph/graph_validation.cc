#include "graph/graph_validation.h"

#include <deque>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/device_name.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"

namespace rill {
namespace {

bool TypesCompatible(DataType produced, DataType expected) {
  if (produced == expected) return true;
  return IsRefType(produced) && !IsRefType(expected) && BaseType(produced) == expected;
}

}  // namespace

absl::StatusOr<GraphDef> ValidateGraphDef(const GraphDef& graph,
                                          const ValidationOptions& options) {
  GraphDef out = graph;
  const int n = out.node_size();
  absl::flat_hash_map<std::string, int> index;
  for (int i = 0; i < n; ++i) {
    const std::string& name = out.node(i).name();
    if (name.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("Node ", i, " has an empty name"));
    }
    if (!index.emplace(name, i).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("Node '", name, "' is not unique: two nodes have that name"));
    }
  }
  std::vector<DataTypeVector> in_types(n), out_types(n);
  std::vector<bool> known(n, false);
  const bool old_producer = out.versions().producer() <= 21 && out.has_versions();
  for (int i = 0; i < n; ++i) {
    NodeDef& node = *out.mutable_node(i);
    if (options.clear_devices) node.clear_device();
    if (!node.device().empty() && !ParseDeviceName(node.device()).ok()) {
      return absl::InvalidArgumentError(absl::StrCat("Malformed device specification '",
                                                     node.device(), "' in node: ",
                                                     SummarizeNodeDef(node)));
    }
    const OpRegistration* reg = OpRegistry::Global()->LookUp(node.op());
    if (reg == nullptr) continue;  // unknown op: kept, fails only runs that need it
    if (old_producer && node.op() == "Placeholder") {
      AttrValue* shape = nullptr;
      auto it = node.mutable_attr()->find("shape");
      if (it != node.mutable_attr()->end()) shape = &it->second;
      if (shape != nullptr && shape->has_shape() && shape->shape().dim_size() == 0 &&
          !shape->shape().unknown_rank()) {
        shape->mutable_shape()->set_unknown_rank(true);
      }
    }
    AddDefaultsToNodeDef(reg->op_def, &node);
    RILL_RETURN_IF_ERROR(ValidateNodeDef(node, reg->op_def));
    RILL_RETURN_IF_ERROR(InOutTypesForNode(node, reg->op_def, &in_types[i], &out_types[i]));
    known[i] = true;
  }
  // Edges: existence, output ranges, dtypes.
  std::vector<std::vector<int>> consumers(n);
  std::vector<int> pending(n, 0);
  for (int i = 0; i < n; ++i) {
    const NodeDef& node = out.node(i);
    int slot = 0;
    for (const std::string& input : node.input()) {
      absl::StatusOr<InputName> in = ParseInputName(input);
      if (!in.ok()) return AnnotateStatus(in.status(), absl::StrCat("Node '", node.name(), "'"));
      auto it = index.find(in->node);
      if (it == index.end()) {
        return absl::InvalidArgumentError(absl::StrCat("Node '", node.name(), "': Unknown input node '",
                                                       input, "'"));
      }
      const int src = it->second;
      if (out.node(src).op() != "NextIteration") {
        consumers[src].push_back(i);
        ++pending[i];
      }
      if (in->is_control()) continue;
      const int s = slot++;
      if (!known[src] || !known[i]) continue;
      if (in->index >= static_cast<int>(out_types[src].size())) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Node '", node.name(), "': Connecting to invalid output ", in->index, " of source node ",
            in->node, " which has ", out_types[src].size(), " outputs."));
      }
      if (s < static_cast<int>(in_types[i].size()) &&
          !TypesCompatible(out_types[src][in->index], in_types[i][s])) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Input ", s, " of node ", node.name(), " was passed ",
            DataTypeString(out_types[src][in->index]), " from ", in->node, ":", in->index,
            " incompatible with expected ", DataTypeString(in_types[i][s]), "."));
      }
    }
  }
  // Cycles not through NextIteration: Kahn's algorithm over the other edges.
  std::deque<int> ready;
  for (int i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push_back(i);
  }
  int visited = 0;
  while (!ready.empty()) {
    int i = ready.front();
    ready.pop_front();
    ++visited;
    for (int c : consumers[i]) {
      if (--pending[c] == 0) ready.push_back(c);
    }
  }
  if (visited != n) {
    std::vector<std::string> cycle;
    for (int i = 0; i < n && cycle.size() < 10; ++i) {
      if (pending[i] > 0) cycle.push_back(out.node(i).name());
    }
    return absl::InvalidArgumentError(absl::StrCat(
        "Graph has a cycle that does not pass through NextIteration; nodes on or after it: ",
        absl::StrJoin(cycle, ", ")));
  }
  return out;
}

}  // namespace rill
