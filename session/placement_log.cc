#include "session/placement_log.h"

#include <map>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace rill {
namespace {

constexpr absl::string_view kUnplaced = "(unplaced)";

// Reasons a reader would not guess: shown first when the listing is capped.
bool IsSurprising(const std::string& reason) {
  return absl::StartsWith(reason, "soft placement") ||
         absl::StrContains(reason, "was overridden") ||
         absl::StrContains(reason, "soft placement ignored");
}

std::string Plural(int n, absl::string_view one, absl::string_view many) {
  return absl::StrCat(n, " ", n == 1 ? one : many);
}

}  // namespace

std::string DeviceMappingText(const std::vector<DeviceAttributes>& devices) {
  std::string body;
  for (const DeviceAttributes& d : devices) {
    if (!d.physical_device_desc().empty()) {
      absl::StrAppend(&body, d.name(), " -> ", d.physical_device_desc(), "\n");
    }
  }
  return body.empty() ? "Device mapping: no known devices.\n" : "Device mapping:\n" + body;
}

std::string PlacementLogLines(const Graph& graph, const Placement& placement) {
  std::string out;
  for (int id : placement.order) {
    const Node* node = id >= 0 && id < graph.num_node_ids() ? graph.FindNodeById(id) : nullptr;
    const std::string& device = placement.device(id);
    if (node == nullptr || device.empty()) continue;
    absl::StrAppend(&out, node->name(), ": (", node->op(), "): ", device, "\n");
  }
  return out;
}

std::string ExplainPlacement(const Graph& graph, const Placement& placement, int max_nodes,
                             const std::vector<std::string>& always_show) {
  const int total = graph.num_op_nodes();
  const std::string unplaced_name(kUnplaced);
  auto device_of = [&](const Node* n) -> const std::string& {
    const std::string& device = placement.device(n->id());
    return device.empty() ? unplaced_name : device;
  };
  // Which nodes get a line, by node id.
  std::vector<bool> listed(graph.num_node_ids(), max_nodes < 0 || total <= max_nodes);
  int shown = 0;
  if (max_nodes >= 0 && total > max_nodes) {
    for (const std::string& name : always_show) {
      const int id = graph.FindNodeId(name);
      if (id >= 0 && !listed[id]) {
        listed[id] = true;
        ++shown;
      }
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (const Node* n : graph.op_nodes()) {
        if (shown >= max_nodes) break;
        if (listed[n->id()] || (pass == 0 && !IsSurprising(placement.reason(n->id())))) {
          continue;
        }
        listed[n->id()] = true;
        ++shown;
      }
    }
  } else {
    shown = total;
  }

  std::string out;
  std::map<std::string, int> per_device;
  for (const Node* n : graph.op_nodes()) {
    const std::string& device = device_of(n);
    ++per_device[device];
    if (!listed[n->id()]) continue;
    absl::StrAppend(&out, n->name(), " (", n->op(), ") -> ", device, ": ",
                    placement.listed(n->id()) ? placement.reason(n->id()) : "not in the placement",
                    "\n");
  }
  if (shown < total) {
    absl::StrAppend(&out, "... ", Plural(total - shown, "more node", "more nodes"), " not shown (",
                    total,
                    " in all); pass max_nodes = -1 (session_runner --explain_all) to list every "
                    "node, or name the nodes to show\n");
  }

  std::map<std::pair<std::string, std::string>, int> crossing;
  int crossing_total = 0;
  for (const Node* n : graph.op_nodes()) {
    const std::string& dst = device_of(n);
    if (dst == kUnplaced) continue;
    for (const Edge* e : n->in_edges()) {
      if (e->IsControlEdge() || !e->src()->IsOp()) continue;
      const std::string& src = device_of(e->src());
      if (src == kUnplaced || src == dst) continue;
      ++crossing[{src, dst}];
      ++crossing_total;
    }
  }
  out += "Per-device summary:\n";
  for (const auto& [device, count] : per_device) {
    if (device == kUnplaced) continue;
    absl::StrAppend(&out, "  ", device, ": ", Plural(count, "node", "nodes"), "\n");
  }
  auto unplaced = per_device.find(std::string(kUnplaced));
  if (unplaced != per_device.end()) {
    absl::StrAppend(&out, "  ", kUnplaced, ": ", Plural(unplaced->second, "node", "nodes"),
                    " (op not registered; runs that need them fail)\n");
  }
  absl::StrAppend(&out, "  data edges crossing devices: ", crossing_total, "\n");
  for (const auto& [pair, count] : crossing) {
    absl::StrAppend(&out, "    ", pair.first, " -> ", pair.second, ": ", count, "\n");
  }
  return out;
}

}  // namespace rill
