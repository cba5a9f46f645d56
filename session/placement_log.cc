#include "session/placement_log.h"

#include <map>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "ops/node_def_util.h"

namespace rill {

std::string DeviceMappingText(const std::vector<DeviceAttributes>& devices) {
  std::string body;
  for (const DeviceAttributes& d : devices) {
    if (!d.physical_device_desc().empty()) {
      absl::StrAppend(&body, d.name(), " -> ", d.physical_device_desc(), "\n");
    }
  }
  return body.empty() ? "Device mapping: no known devices.\n" : "Device mapping:\n" + body;
}

std::string PlacementLogLines(const GraphDef& graph, const Placement& placement) {
  absl::flat_hash_map<std::string, const NodeDef*> by_name;
  for (const NodeDef& n : graph.node()) by_name[n.name()] = &n;
  std::string out;
  for (const std::string& name : placement.order) {
    auto it = by_name.find(name);
    if (it == by_name.end()) continue;
    absl::StrAppend(&out, name, ": (", it->second->op(), "): ",
                    placement.nodes.at(name).device, "\n");
  }
  return out;
}

std::string ExplainPlacement(const GraphDef& graph, const Placement& placement, int max_nodes) {
  std::string out;
  std::map<std::string, int> per_device;
  int shown = 0;
  for (const NodeDef& n : graph.node()) {
    auto it = placement.nodes.find(n.name());
    if (it == placement.nodes.end()) continue;
    const std::string device = it->second.device.empty() ? "(unplaced)" : it->second.device;
    ++per_device[device];
    if (max_nodes < 0 || shown < max_nodes) {
      absl::StrAppend(&out, n.name(), " (", n.op(), ") -> ", device, ": ", it->second.reason, "\n");
      ++shown;
    }
  }
  const int total = static_cast<int>(placement.nodes.size());
  if (shown < total) {
    absl::StrAppend(&out, "... ", total - shown, " more nodes not shown (of ", total,
                    "); pass --explain_all to list every node\n");
  }
  int crossing = 0;
  for (const NodeDef& n : graph.node()) {
    auto dst = placement.nodes.find(n.name());
    if (dst == placement.nodes.end()) continue;
    for (const std::string& input : n.input()) {
      absl::StatusOr<InputName> in = ParseInputName(input);
      if (!in.ok() || in->is_control()) continue;
      auto src = placement.nodes.find(in->node);
      if (src != placement.nodes.end() && src->second.device != dst->second.device) ++crossing;
    }
  }
  out += "Per-device summary:\n";
  for (const auto& [device, count] : per_device) {
    absl::StrAppend(&out, "  ", device, ": ", count, count == 1 ? " node\n" : " nodes\n");
  }
  absl::StrAppend(&out, "  data edges crossing devices: ", crossing, "\n");
  return out;
}

}  // namespace rill
