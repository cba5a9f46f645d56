#include "session/placer.h"

#include <algorithm>
#include <numeric>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
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

struct NodeInfo {
  const NodeDef* def = nullptr;
  NodeDef filled;  // with attr defaults, for kernel lookups
  const OpDef* op = nullptr;
  DataTypeVector in_types, out_types;
  std::vector<std::string> supported;  // device types with a kernel, by priority
  bool has_request = false;
  DeviceName request;
  std::vector<int> consumers;
};

class Placer {
 public:
  Placer(const GraphDef& graph, const std::vector<std::string>& devices,
         const KernelAvailability& kernels, const PlacerOptions& options,
         const Placement* previous)
      : graph_(graph), kernels_(kernels), options_(options), previous_(previous) {
    device_names_ = devices;
    std::sort(device_names_.begin(), device_names_.end(), [](const std::string& a, const std::string& b) {
      absl::StatusOr<DeviceName> pa = ParseDeviceName(a), pb = ParseDeviceName(b);
      return pa.ok() && pb.ok() ? DeviceOrderLess(*pa, *pb) : a < b;
    });
  }

  absl::StatusOr<Placement> Run() {
    if (device_names_.empty()) return absl::FailedPreconditionError("No devices are registered");
    for (const std::string& d : device_names_) {
      RILL_ASSIGN_OR_RETURN(DeviceName parsed, ParseDeviceName(d));
      parsed_.push_back(parsed);
      if (std::find(types_.begin(), types_.end(), parsed.type) == types_.end()) {
        types_.push_back(parsed.type);
      }
    }
    const int n = graph_.node_size();
    nodes_.resize(n);
    parent_.resize(n);
    std::iota(parent_.begin(), parent_.end(), 0);
    for (int i = 0; i < n; ++i) index_[graph_.node(i).name()] = i;
    for (int i = 0; i < n; ++i) RILL_RETURN_IF_ERROR(InitNode(i));
    RILL_RETURN_IF_ERROR(BuildGroups());
    // First pass: everything but generators, in graph order; then generators.
    std::vector<int> deferred;
    for (int i = 0; i < n; ++i) {
      if (nodes_[i].op == nullptr) {
        result_.nodes[graph_.node(i).name()] = {"", absl::StrCat("unplaced: op '", graph_.node(i).op(),
                                                                 "' is not registered")};
        continue;
      }
      if (IsGenerator(i)) {
        deferred.push_back(i);
        continue;
      }
      RILL_RETURN_IF_ERROR(PlaceNode(i));
    }
    for (int i : deferred) RILL_RETURN_IF_ERROR(PlaceNode(i));
    return std::move(result_);
  }

 private:
  int Find(int x) { return parent_[x] == x ? x : parent_[x] = Find(parent_[x]); }

  std::string DeviceList() const {
    std::vector<std::string> sorted = device_names_;
    std::sort(sorted.begin(), sorted.end());
    return absl::StrCat("[ ", absl::StrJoin(sorted, ", "), " ]");
  }

  absl::Status InitNode(int i) {
    NodeInfo& info = nodes_[i];
    info.def = &graph_.node(i);
    const OpRegistration* reg = OpRegistry::Global()->LookUp(info.def->op());
    if (!info.def->device().empty()) {
      absl::StatusOr<DeviceName> req = ParseDeviceName(info.def->device());
      if (!req.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("Malformed device specification '",
                                                       info.def->device(), "' in node: ",
                                                       SummarizeNodeDef(*info.def)));
      }
      info.request = *req;
      info.has_request = true;
    }
    for (const std::string& input : info.def->input()) {
      absl::StatusOr<InputName> in = ParseInputName(input);
      if (!in.ok()) continue;
      auto it = index_.find(in->node);
      if (it != index_.end()) nodes_[it->second].consumers.push_back(i);
    }
    if (reg == nullptr) return absl::OkStatus();
    info.op = &reg->op_def;
    info.filled = *info.def;
    AddDefaultsToNodeDef(*info.op, &info.filled);
    RILL_RETURN_IF_ERROR(InOutTypesForNode(info.filled, *info.op, &info.in_types, &info.out_types));
    info.supported = kernels_.SupportedDeviceTypes(info.filled, types_);
    if (info.supported.empty()) return kernels_.NoKernelError(info.filled, types_);
    return absl::OkStatus();
  }

  // Colocation: `_class` lists and reference/resource edges.
  absl::Status BuildGroups() {
    const int n = graph_.node_size();
    why_.assign(n, "");
    for (int i = 0; i < n; ++i) {
      const NodeInfo& info = nodes_[i];
      if (info.op == nullptr) continue;
      int slot = 0;
      for (const std::string& input : info.def->input()) {
        absl::StatusOr<InputName> in = ParseInputName(input);
        if (!in.ok() || in->is_control()) continue;
        const int s = slot++;
        auto it = index_.find(in->node);
        if (it == index_.end() || nodes_[it->second].op == nullptr) continue;
        const DataType t = s < static_cast<int>(info.in_types.size()) ? info.in_types[s] : DT_INVALID;
        if (IsRefType(t) || t == DT_RESOURCE) {
          const bool ref = IsRefType(t);
          Union(it->second, i, absl::StrCat(ref ? "reference" : "resource", " edge from ",
                                            in->node));
          // The source's request wins over the destination's (TensorFlow overrides it).
          if (nodes_[it->second].has_request) {
            nodes_[i].request = nodes_[it->second].request;
            nodes_[i].has_request = true;
          }
        }
      }
      std::vector<std::string> classes;
      const AttrValue* cls = FindNodeAttr(*info.def, "_class");
      if (cls != nullptr && cls->value_case() == AttrValue::kList) {
        for (const std::string& c : cls->list().s()) {
          if (!absl::StartsWith(c, "loc:@")) continue;
          auto it = index_.find(c.substr(5));
          if (it != index_.end() && it->second != i && nodes_[it->second].op != nullptr) {
            Union(it->second, i, absl::StrCat("colocated with ", c.substr(5), " (_class loc:@",
                                              c.substr(5), ")"));
          }
        }
      }
    }
    // Merge requests and supported types per group.
    for (int i = 0; i < n; ++i) {
      if (nodes_[i].op == nullptr) continue;
      const int root = Find(i);
      Group& g = groups_[root];
      g.members.push_back(i);
      if (g.members.size() == 1) {
        g.supported = nodes_[i].supported;
      } else {
        std::vector<std::string> both;
        for (const std::string& t : g.supported) {
          if (std::find(nodes_[i].supported.begin(), nodes_[i].supported.end(), t) !=
              nodes_[i].supported.end()) {
            both.push_back(t);
          }
        }
        if (both.empty()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Cannot colocate nodes {{colocation_node ", graph_.node(g.members[0]).name(),
              "}} and {{colocation_node ", graph_.node(i).name(),
              "}} because no device type supports both of those nodes and the other nodes "
              "colocated with them."));
        }
        g.supported = both;
      }
      if (nodes_[i].has_request) {
        DeviceName merged = g.request;
        absl::Status s = MergeDeviceNames(&merged, nodes_[i].request, options_.allow_soft_placement);
        if (!s.ok()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Cannot colocate nodes {{colocation_node ", graph_.node(g.members[0]).name(),
              "}} and {{colocation_node ", graph_.node(i).name(), "}}: ", s.message()));
        }
        g.request = merged;
        g.has_request = true;
      }
    }
    return absl::OkStatus();
  }

  void Union(int a, int b, std::string why) {
    a = Find(a);
    b = Find(b);
    if (a == b) return;
    parent_[b] = a;
    for (int i = 0; i < static_cast<int>(why_.size()); ++i) {
      if (why_[i].empty() && Find(i) == a && i != a) why_[i] = why;
    }
  }

  bool IsGenerator(int i) const {
    const NodeInfo& info = nodes_[i];
    if (info.def->input_size() != 0 || info.out_types.size() != 1) return false;
    if (IsRefType(info.out_types[0]) || info.out_types[0] == DT_RESOURCE) return false;
    return groups_.at(const_cast<Placer*>(this)->Find(i)).members.size() == 1;
  }

  // Devices that can run the group, best first.
  std::vector<int> Candidates(const DeviceName* spec, const std::vector<std::string>& types) {
    std::vector<int> out;
    for (size_t d = 0; d < parsed_.size(); ++d) {
      if (spec != nullptr && !Matches(*spec, parsed_[d])) continue;
      if (std::find(types.begin(), types.end(), parsed_[d].type) == types.end()) continue;
      out.push_back(static_cast<int>(d));
    }
    return out;
  }

  absl::Status PlaceNode(int i) {
    const NodeDef& def = graph_.node(i);
    const int root = Find(i);
    Group& g = groups_[root];
    std::string reason;
    int chosen = -1;
    if (g.assigned >= 0) {
      chosen = g.assigned;
      reason = why_[i].empty() ? g.reason : why_[i];
    }
    if (chosen < 0 && previous_ != nullptr && nodes_[i].op->is_stateful()) {
      auto it = previous_->nodes.find(def.name());
      if (it != previous_->nodes.end() && !it->second.device.empty()) {
        for (size_t d = 0; d < device_names_.size(); ++d) {
          if (device_names_[d] == it->second.device) chosen = static_cast<int>(d);
        }
        reason = "stateful: keeps the device it had when first placed";
      }
    }
    if (chosen < 0 && g.has_request) {
      std::vector<int> c = Candidates(&g.request, g.supported);
      if (!c.empty()) {
        chosen = c[0];
        reason = absl::StrCat("explicit request ", DeviceNameToString(g.request));
        if (!nodes_[i].has_request && !why_[i].empty()) reason = why_[i];
      } else {
        const bool any_device = !Candidates(&g.request, types_).empty();
        const std::string req = nodes_[i].has_request ? def.device()
                                                      : DeviceNameToString(g.request);
        if (!options_.allow_soft_placement) {
          std::string inner;
          if (!any_device) {
            inner = absl::StrCat("{{node ", def.name(), "}} was explicitly assigned to ", req,
                                 " but available devices are ", DeviceList(),
                                 ". Make sure the device specification refers to a valid device.");
            if (g.request.has_type && g.request.type == "GPU") {
              inner += " The requested device appears to be a GPU, but CUDA is not enabled.";
            }
          } else {
            inner = absl::StrCat("Could not satisfy explicit device specification '", req,
                                 "' because no supported kernel for ", g.request.type,
                                 " devices is available.");
          }
          return absl::InvalidArgumentError(absl::StrCat(
              "Cannot assign a device for operation ", def.name(), ": ", inner,
              "\nRill: set allow_soft_placement: true in the ConfigProto to fall back to a "
              "device that can run it, or request one of ",
              DeviceList(), "."));
        }
        // Soft placement: drop type and id, keep job/replica/task.
        DeviceName relaxed = g.request;
        relaxed.has_type = relaxed.has_id = false;
        std::vector<int> soft = Candidates(&relaxed, g.supported);
        if (soft.empty()) soft = Candidates(nullptr, g.supported);
        chosen = soft[0];
        reason = any_device ? absl::StrCat("soft placement: no ", g.request.type,
                                           " kernel for these types (requested ", req, ")")
                            : absl::StrCat("soft placement: ", req, " does not exist");
      }
    }
    if (chosen < 0 && IsGenerator(i)) {
      // Follow the consumers when they all sit on one device that can run this node.
      std::string device;
      bool agree = !nodes_[i].consumers.empty();
      for (int c : nodes_[i].consumers) {
        auto it = result_.nodes.find(graph_.node(c).name());
        if (it == result_.nodes.end() || it->second.device.empty() ||
            (!device.empty() && device != it->second.device)) {
          agree = false;
          break;
        }
        device = it->second.device;
      }
      if (agree) {
        for (int d : Candidates(nullptr, g.supported)) {
          if (device_names_[d] == device) {
            chosen = d;
            reason = absl::StrCat("follows its consumer ",
                                  graph_.node(nodes_[i].consumers[0]).name());
          }
        }
      }
    }
    if (chosen < 0) {
      std::vector<int> c = Candidates(nullptr, g.supported);
      chosen = c[0];
      reason = why_[i].empty() ? "default: highest-priority device with a kernel (GPU > CPU)"
                               : why_[i];
    }
    if (g.assigned < 0) {
      g.assigned = chosen;
      g.reason = reason;
    }
    result_.nodes[def.name()] = {device_names_[chosen], reason};
    result_.order.push_back(def.name());
    return absl::OkStatus();
  }

  struct Group {
    std::vector<int> members;
    std::vector<std::string> supported;
    bool has_request = false;
    DeviceName request;
    int assigned = -1;
    std::string reason;
  };

  const GraphDef& graph_;
  const KernelAvailability& kernels_;
  const PlacerOptions options_;
  const Placement* previous_;
  std::vector<std::string> device_names_;
  std::vector<DeviceName> parsed_;
  std::vector<std::string> types_;  // device types present, by priority
  std::vector<NodeInfo> nodes_;
  std::vector<int> parent_;
  std::vector<std::string> why_;  // why a node joined its group
  absl::flat_hash_map<std::string, int> index_;
  std::map<int, Group> groups_;
  Placement result_;
};

}  // namespace

absl::StatusOr<Placement> Place(const GraphDef& graph, const std::vector<std::string>& devices,
                                const KernelAvailability& kernels, const PlacerOptions& options,
                                const Placement* previous) {
  return Placer(graph, devices, kernels, options, previous).Run();
}

}  // namespace rill
