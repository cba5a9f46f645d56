#include "session/placement_log.h"

#include <map>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "ops/node_def_util.h"

namespace rill {
namespace {

constexpr absl::string_view kUnplaced = "(unplaced)";

std::string DeviceOf(const Placement& placement, const std::string& node) {
  auto it = placement.nodes.find(node);
  if (it == placement.nodes.end() || it->second.device.empty()) return std::string(kUnplaced);
  return it->second.device;
}

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

std::string PlacementLogLines(const GraphDef& graph, const Placement& placement) {
  absl::flat_hash_map<std::string, const NodeDef*> by_name;
  for (const NodeDef& n : graph.node()) by_name[n.name()] = &n;
  std::string out;
  for (const std::string& name : placement.order) {
    auto node = by_name.find(name);
    auto placed = placement.nodes.find(name);
    if (node == by_name.end() || placed == placement.nodes.end() || placed->second.device.empty()) {
      continue;
    }
    absl::StrAppend(&out, name, ": (", node->second->op(), "): ", placed->second.device, "\n");
  }
  return out;
}

std::string ExplainPlacement(const GraphDef& graph, const Placement& placement, int max_nodes,
                             const std::vector<std::string>& always_show) {
  const int total = graph.node_size();
  // Which nodes get a line.
  std::vector<bool> listed(total, max_nodes < 0 || total <= max_nodes);
  int shown = 0;
  if (max_nodes >= 0 && total > max_nodes) {
    const std::set<std::string> asked(always_show.begin(), always_show.end());
    for (int i = 0; i < total; ++i) {
      if (asked.count(graph.node(i).name()) != 0) {
        listed[i] = true;
        ++shown;
      }
    }
    auto reason = [&](int i) -> std::string {
      auto it = placement.nodes.find(graph.node(i).name());
      return it == placement.nodes.end() ? "" : it->second.reason;
    };
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 0; i < total && shown < max_nodes; ++i) {
        if (listed[i] || (pass == 0 && !IsSurprising(reason(i)))) continue;
        listed[i] = true;
        ++shown;
      }
    }
  } else {
    shown = total;
  }

  std::string out;
  std::map<std::string, int> per_device;
  for (int i = 0; i < total; ++i) {
    const NodeDef& n = graph.node(i);
    const std::string device = DeviceOf(placement, n.name());
    ++per_device[device];
    if (!listed[i]) continue;
    auto it = placement.nodes.find(n.name());
    absl::StrAppend(&out, n.name(), " (", n.op(), ") -> ", device, ": ",
                    it == placement.nodes.end() ? "not in the placement" : it->second.reason, "\n");
  }
  if (shown < total) {
    absl::StrAppend(&out, "... ", Plural(total - shown, "more node", "more nodes"), " not shown (",
                    total,
                    " in all); pass max_nodes = -1 (session_runner --explain_all) to list every "
                    "node, or name the nodes to show\n");
  }

  std::map<std::pair<std::string, std::string>, int> crossing;
  int crossing_total = 0;
  for (const NodeDef& n : graph.node()) {
    const std::string dst = DeviceOf(placement, n.name());
    if (dst == kUnplaced) continue;
    for (const std::string& input : n.input()) {
      absl::StatusOr<InputName> in = ParseInputName(input);
      if (!in.ok() || in->is_control()) continue;
      const std::string src = DeviceOf(placement, in->node);
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
