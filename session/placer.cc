#include "session/placer.h"

#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <map>
#include <queue>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "core/device_name.h"
#include "core/status_macros.h"
#include "core/types.h"
#include "graph/graph_def_export.h"
#include "graph/op_classes.h"
#include "graph/unregistered_ops.h"
#include "ops/attr_value_util.h"
#include "ops/node_def_util.h"
#include "ops/op_registry.h"
#include "session/kernel_support_memo.h"
#include "session/loop_placement.h"

namespace rill {
namespace {

constexpr absl::string_view kColocationAttr = "_class";
constexpr absl::string_view kColocationPrefix = "loc:@";

bool HasSomeDetails(const DeviceName& n) {
  return n.has_job || n.has_replica || n.has_task || n.has_type || n.has_id;
}

// TensorFlow's DeviceNameUtils::EnsureSpecification: every component set in `less` is copied
// into `more`.
void EnsureSpecification(DeviceName* more, const DeviceName& less) {
  if (less.has_job) {
    more->has_job = true;
    more->job = less.job;
  }
  if (less.has_replica) {
    more->has_replica = true;
    more->replica = less.replica;
  }
  if (less.has_task) {
    more->has_task = true;
    more->task = less.task;
  }
  if (less.has_type) {
    more->has_type = true;
    more->type = less.type;
  }
  if (less.has_id) {
    more->has_id = true;
    more->id = less.id;
  }
}

// TensorFlow's AttachDef: the node named once more at the end of the message.
absl::Status AttachDef(const absl::Status& s, const std::string& node) {
  const bool named = absl::StrContains(s.message(), "{{node ");
  return absl::Status(s.code(),
                      absl::StrCat(s.message(), "\n\t [[",
                                   named ? node : absl::StrCat("{{node ", node, "}}"), "]]"));
}

// Rill's one line of advice after TensorFlow's text.
absl::Status WithHint(const absl::Status& s, absl::string_view hint) {
  return absl::Status(s.code(), absl::StrCat(s.message(), "\nRill: ", hint));
}

// TensorFlow's AttrSlice::DebugString: every attr, sorted by name, "name=value".
std::string AttrsDebugString(const NodeDef& node) {
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const auto& [k, v] : node.attr()) attrs.emplace_back(k, SummarizeAttrValue(v));
  std::sort(attrs.begin(), attrs.end());
  return absl::StrJoin(attrs, ", ", absl::PairFormatter("="));
}

struct DeviceEntry {
  std::string name;
  DeviceName parsed;
};

// A set of the session's device types: bit i stands for the i-th type in best-first order, so
// the set bits in increasing order list the types best first (one byte per node: Rill's devices
// are CPUs and GPUs, and Place refuses more than kMaxDeviceTypes types).
using TypeSet = uint8_t;
constexpr int kMaxDeviceTypes = 8;
// Device indices are held in 16 bits (Member::assigned_device).
constexpr int kMaxDevices = 32767;

// One union-find element per node (TensorFlow's colocation_graph Member). Only a root's fields
// describe its group.
struct Member {
  int parent = 0;
  int next = 0;  // the next member of the group, in a circular list (for DebugInfo)
  // Interned device names (Placer::Name): the group's merged request, the device it is pinned
  // to, and its resource device; 0 is the empty name.
  int requested = 0, assigned = 0, resource = 0;
  int first_assigned = -1;  // for the reasons: the member the group was first pinned by
  // Cached candidate devices (indices), best first: an index in Placer::candidate_lists_ (shared
  // by the groups with the same request and types, or the group's own from soft placement); -1
  // until computed.
  int possible = -1;
  int16_t assigned_device = -1;  // device index once the group is pinned (< kMaxDevices)
  TypeSet supported = 0;         // device types with kernels for every member
  uint8_t rank : 7;              // union by rank: at most log2(nodes)
  uint8_t soft : 1;              // for the reasons: the candidates came from soft placement
  Member() : rank(0), soft(0) {}
};
// Members are 32 bytes, two to a cache line: the placer holds one per node id and walks them in
// every pass (and 1M nodes' members stay below glibc's mmap threshold, so they are not mapped
// and faulted in afresh by every placement).
static_assert(sizeof(Member) <= 32, "Member grew: it is allocated per node id");

// An edge of the colocation structure, seen from one end: the other end and the words that say
// why the two share a device, from this end's point of view.
struct Link {
  int other;
  std::string why;
};

// What a few nodes have besides their NodeInfo: colocation links and the colocations soft placement
// dropped. Kept apart (NodeInfo::extras) so that the per-node array, which every step of the
// placer walks, holds no vectors or strings: a million-node graph's NodeInfos are then 40 MB
// instead of 120. A heuristic's words are apart too (Placer::heuristic_of_): every Const of a wide
// AddN has them, and they share one text.
struct NodeExtras {
  std::vector<Link> links;
  std::vector<std::string> soft_ignored;  // reason suffixes for colocations soft placement dropped
};

// Per node id. The graph supplies the NodeDef (attr defaults filled), dtypes, inputs and
// consumers; this holds what placement adds.
struct NodeInfo {
  const Node* node = nullptr;  // null for SOURCE, SINK and removed ids
  int request = 0;             // the node's own request, interned (Placer::Name)
  int preassigned = -1;        // device from `previous` (stateful nodes)
  int device = -1;
  int extras = -1;           // index in Placer::extras_; -1: none
  TypeSet supported = 0;     // own device types with a kernel
  bool placed_op = false;    // in op_nodes_: the op is registered (SOURCE, SINK, unknown ops not)
  bool has_request = false;  // the request sets some component
  // Read from the NodeDef by InitNodes, while it is in the cache, for the later passes (a NodeDef
  // is a heap block of its own: a cache miss per node in a graph larger than the cache).
  bool requests_device = false;  // requested_device() is not empty
  bool has_class = false;        // the NodeDef has a colocation attr (kColocationAttr)
};
// 32 bytes, two to a cache line (as Member).
static_assert(sizeof(NodeInfo) <= 32, "NodeInfo grew: it is allocated per node id");

class Placer {
 public:
  Placer(const Graph& graph, const KernelAvailability& kernels, const PlacerOptions& options,
         const Graph* previous)
      : graph_(graph), kernels_(kernels), options_(options), previous_(previous) {}

  absl::StatusOr<Placement> Run(const std::vector<std::string>& device_names) {
    if (device_names.empty()) return absl::FailedPreconditionError("No devices are registered");
    RILL_RETURN_IF_ERROR(InitDevices(device_names));
    result_.devices = device_names;
    result_.nodes.resize(graph_.num_node_ids());
    RILL_RETURN_IF_ERROR(InitNodes());
    RILL_RETURN_IF_ERROR(InitializeMembers());
    RILL_RETURN_IF_ERROR(ColocateResourceAndRefEdges());
    RILL_RETURN_IF_ERROR(ColocateAllNodes());
    RILL_RETURN_IF_ERROR(AssignDevices());
    ComputeReasons();
    return std::move(result_);
  }

 private:
  // ---------------------------------------------------------------------------------------------
  // Setup

  absl::Status InitDevices(const std::vector<std::string>& device_names) {
    for (const std::string& name : device_names) {
      absl::StatusOr<DeviceName> parsed = ParseDeviceName(name);
      if (!parsed.ok() || !IsFullySpecified(*parsed)) {
        return absl::InvalidArgumentError(
            absl::StrCat("Placer was given a device that is not a full device name: '", name, "'"));
      }
      devices_.push_back({name, *parsed});
      if (std::find(types_.begin(), types_.end(), parsed->type) == types_.end()) {
        types_.push_back(parsed->type);
      }
    }
    std::stable_sort(types_.begin(), types_.end(), [](const std::string& a, const std::string& b) {
      const int pa = DeviceTypePriority(a), pb = DeviceTypePriority(b);
      return pa != pb ? pa > pb : a < b;
    });
    if (devices_.size() > kMaxDevices) {
      return absl::InvalidArgumentError(absl::StrCat(
          "Placer was given ", devices_.size(), " devices; it places on at most ", kMaxDevices));
    }
    if (types_.size() > kMaxDeviceTypes) {
      return absl::InvalidArgumentError(absl::StrCat("Placer was given ", types_.size(),
                                                     " device types; it places on at most ",
                                                     kMaxDeviceTypes));
    }
    types_alphabetical_ = types_;
    std::sort(types_alphabetical_.begin(), types_alphabetical_.end());
    interned_.assign(devices_.size(), -1);
    return absl::OkStatus();
  }

  // Device names (requests, merged requests, pinned devices) by interned id: a session has a few
  // distinct ones however many nodes it has, so members and nodes hold an int each. Id 0 is the
  // empty name. Two names with the same set components get one id (unset components are
  // ignored by every device-name function).
  const DeviceName& Name(int id) const { return names_[id]; }
  int Intern(const DeviceName& name) {
    if (!HasSomeDetails(name)) return 0;
    std::string key = absl::StrCat(name.has_job ? "j" : "-", name.has_job ? name.job : "", "/",
                                   name.has_replica ? absl::StrCat(name.replica) : "-", "/",
                                   name.has_task ? absl::StrCat(name.task) : "-", "/",
                                   name.has_type ? "t" : "-", name.has_type ? name.type : "", "/",
                                   name.has_id ? absl::StrCat(name.id) : "-");
    auto [it, added] = name_ids_.try_emplace(std::move(key), static_cast<int>(names_.size()));
    if (added) names_.push_back(name);
    return it->second;
  }

  // The bit of `type` in a TypeSet; 0 for a type no device has.
  TypeSet TypeBit(absl::string_view type) const {
    for (size_t i = 0; i < types_.size(); ++i) {
      if (types_[i] == type) return TypeSet{1} << i;
    }
    return 0;
  }
  bool HasType(TypeSet set, absl::string_view type) const { return (set & TypeBit(type)) != 0; }
  TypeSet ToTypeSet(const std::vector<std::string>& types) const {
    TypeSet set = 0;
    for (const std::string& t : types) set |= TypeBit(t);
    return set;
  }
  // The types in `set`, best first.
  std::vector<std::string> TypeNames(TypeSet set) const {
    std::vector<std::string> names;
    for (size_t i = 0; i < types_.size(); ++i) {
      if (set & (TypeSet{1} << i)) names.push_back(types_[i]);
    }
    return names;
  }

  // Node order as TensorFlow's importer numbers nodes: repeatedly the lowest-id node whose
  // inputs (data and control, SOURCE aside) are all numbered. ImportGraphDef gives nodes ids in
  // GraphDef order, so for a GraphDef written in topological order, as TensorFlow writes them,
  // that is the id order. Nodes on a cycle (through NextIteration) keep id order, after the rest.
  // The ready nodes are found by a cursor sweeping ids upward; only a node that becomes ready
  // behind the cursor goes into a min-heap, and every id in the heap is below the cursor, so the
  // heap's top, when there is one, is the lowest ready id. Graphs written in topological order
  // never use the heap, and none pays a heap operation per node.
  std::vector<const Node*> TensorFlowOrder() const {
    const int num_ids = graph_.num_node_ids();
    std::vector<int> pending(num_ids, 0);
    for (const Node* node : graph_.op_nodes()) {
      for (const Edge* e : node->in_edges()) {
        if (e->src()->IsOp()) ++pending[node->id()];
      }
    }
    std::priority_queue<int, std::vector<int>, std::greater<int>> behind;
    std::vector<const Node*> order;
    order.reserve(graph_.num_op_nodes());
    std::vector<bool> done(num_ids, false);
    int cursor = 0;
    while (true) {
      int id = -1;
      if (!behind.empty()) {
        id = behind.top();
        behind.pop();
      } else {
        while (cursor < num_ids &&
               (graph_.FindNodeById(cursor) == nullptr || !graph_.FindNodeById(cursor)->IsOp() ||
                done[cursor] || pending[cursor] > 0)) {
          ++cursor;
        }
        if (cursor == num_ids) break;
        id = cursor++;
      }
      const Node* node = graph_.FindNodeById(id);
      done[id] = true;
      order.push_back(node);
      for (const Edge* e : node->out_edges()) {
        const int dst = e->dst()->id();
        if (e->dst()->IsOp() && --pending[dst] == 0 && dst < cursor) behind.push(dst);
      }
    }
    for (const Node* node : graph_.op_nodes()) {
      if (!done[node->id()]) order.push_back(node);
    }
    return order;
  }

  absl::Status InitNodes() {
    nodes_.resize(graph_.num_node_ids());
    // Nodes with the same op and type attrs share one answer (kernel_support_memo.h).
    KernelSupportMemo supported(kernels_, types_);
    for (const Node* node : TensorFlowOrder()) {
      NodeInfo& info = nodes_[node->id()];
      info.node = node;
      if (node->is_unknown_op()) {
        result_.nodes[node->id()].reason =
            editor_.AddReason(absl::StrCat("unplaced: op '", node->op(), "' is not registered"));
        result_.unplaced[node->name()] = UnregisteredOpError(graph_, node->op());
        continue;
      }
      info.supported = ToTypeSet(supported.SupportedDeviceTypes(node->def()));
      info.requests_device = !node->requested_device().empty();
      info.has_class = FindNodeAttr(node->def(), kColocationAttr) != nullptr;
      info.placed_op = true;
      op_nodes_.push_back(node->id());
      if (previous_ != nullptr && node->op_def()->is_stateful()) {
        const Node* before = previous_->FindNode(node->name());
        if (before != nullptr && !before->assigned_device_name().empty()) {
          RILL_ASSIGN_OR_RETURN(info.preassigned,
                                PreviousDevice(info, before->assigned_device_name()));
        }
      }
    }
    return absl::OkStatus();
  }

  // TensorFlow's InitializeMemberWithAssignedDevice checks, for a stateful node's earlier device.
  absl::StatusOr<int> PreviousDevice(const NodeInfo& info, const std::string& device) {
    for (size_t d = 0; d < devices_.size(); ++d) {
      if (devices_[d].name != device) continue;
      if (!HasType(info.supported, devices_[d].parsed.type)) {
        return WithHint(
            AttachDef(absl::InternalError(absl::StrCat(
                          "Assigned device '", device,
                          "' does not have registered OpKernel support for ", info.node->op())),
                      info.node->name()),
            "a stateful node keeps the device it was first placed on for the session's life");
      }
      return static_cast<int>(d);
    }
    std::vector<std::string> names;
    for (const DeviceEntry& d : devices_) names.push_back(d.name);
    return WithHint(
        AttachDef(absl::InternalError(absl::StrCat(
                      "Assigned device '", device,
                      "' does not match any device. Here are the devices available on this "
                      "machine: [",
                      absl::StrJoin(names, ", "), "].")),
                  info.node->name()),
        "a stateful node keeps the device it was first placed on for the session's life; place "
        "the graph again on a device list that has it");
  }

  // ---------------------------------------------------------------------------------------------
  // Colocation groups (TensorFlow's ColocationGraph::Initialize)

  static bool IsRefOrResource(DataType t) { return IsRefType(t) || t == DT_RESOURCE; }

  static bool IsRefOrResourceGenerator(const Node& node) {
    return node.num_inputs() == 0 && node.num_outputs() == 1 &&
           IsRefOrResource(node.output_type(0));
  }

  static bool IsGenerator(const Node& node) {
    return node.num_inputs() == 0 && node.num_outputs() == 1 && !IsRefType(node.output_type(0));
  }

  absl::Status InitializeMembers() {
    members_.resize(nodes_.size());
    for (size_t i = 0; i < members_.size(); ++i) {
      members_[i].parent = static_cast<int>(i);
      members_[i].next = static_cast<int>(i);
    }
    for (int i : op_nodes_) {
      NodeInfo& info = nodes_[i];
      const Node& node = *info.node;
      Member& m = members_[i];
      m.supported = info.supported;
      if (info.preassigned >= 0) {
        m.assigned = Intern(devices_[info.preassigned].parsed);
        m.requested = m.assigned;
        continue;
      }
      if (info.supported == 0) {
        return WithHint(
            AttachDef(kernels_.NoKernelError(node.def(), types_alphabetical_), node.name()),
            "no device in this session can run this op with these types; change the "
            "node's types, or use a device type listed under Registered kernels");
      }
      if (info.requests_device) {
        // Nodes share a few distinct requests: each is parsed and interned once.
        auto [known, added] = request_ids_.try_emplace(node.requested_device(), 0);
        if (!added) {
          info.request = known->second;
          info.has_request = HasSomeDetails(Name(known->second));
          if (IsRefOrResourceGenerator(node)) m.resource = known->second;
          m.requested = known->second;
          continue;
        }
        absl::StatusOr<DeviceName> parsed = ParseDeviceName(node.requested_device());
        if (!parsed.ok()) {
          return WithHint(AttachDef(absl::InvalidArgumentError(absl::StrCat(
                                        "Malformed device specification '", node.requested_device(),
                                        "' in node: ", SummarizeNodeDef(NodeDefWithInputs(node)))),
                                    node.name()),
                          "write a device as /device:CPU:0, /device:GPU:1, /cpu:0 or "
                          "/job:localhost/replica:0/task:0/device:GPU:0");
        }
        known->second = Intern(*parsed);
        info.request = known->second;
        info.has_request = HasSomeDetails(*parsed);
        if (IsRefOrResourceGenerator(node)) {
          // A resource's own device is not moved by soft placement unless nothing else works.
          m.resource = known->second;
        }
        m.requested = known->second;
      }
    }
    return absl::OkStatus();
  }

  // Node `i`'s extras, added when it has none (references stay valid: extras_ is a deque).
  NodeExtras& MutableExtras(int i) {
    int& k = nodes_[i].extras;
    if (k < 0) {
      k = static_cast<int>(extras_.size());
      extras_.emplace_back();
    }
    return extras_[k];
  }
  // Node `i`'s extras; empty ones when it has none.
  const NodeExtras& Extras(int i) const {
    static const NodeExtras* const kNone = new NodeExtras();
    const int k = nodes_[i].extras;
    return k < 0 ? *kNone : extras_[k];
  }

  int FindRoot(int i) {
    while (members_[i].parent != i) {
      members_[i].parent = members_[members_[i].parent].parent;
      i = members_[i].parent;
    }
    return i;
  }

  absl::Status ColocateResourceAndRefEdges() {
    for (int dst : op_nodes_) {
      const Node& node = *nodes_[dst].node;
      for (int k = 0; k < node.num_inputs(); ++k) {
        const DataType t = node.input_type(k);
        if (!IsRefOrResource(t)) continue;
        const Node* src = node.input_node(k);
        if (src == nullptr || !src->IsOp() || src->is_unknown_op()) continue;
        RILL_RETURN_IF_ERROR(ColocateResourceOrRefEdge(src->id(), dst, IsRefType(t)));
      }
    }
    return absl::OkStatus();
  }

  absl::Status ColocateResourceOrRefEdge(int src, int dst, bool is_ref) {
    const std::string& src_name = nodes_[src].node->name();
    const std::string& dst_name = nodes_[dst].node->name();
    const int src_root = FindRoot(src), dst_root = FindRoot(dst);
    Member& s = members_[src_root];
    Member& d = members_[dst_root];
    const absl::string_view edge_hint =
        "a reference or resource edge keeps both ends on one device, soft placement or not; "
        "request the same device for both";
    if (!AreCompatible(Name(s.assigned), Name(d.assigned))) {
      return WithHint(
          absl::InvalidArgumentError(absl::StrCat(
              "Cannot place the graph because a reference or resource edge connects "
              "colocation groups with incompatible assigned devices: ",
              DeviceNameToString(Name(s.assigned)), " vs ", DeviceNameToString(Name(d.assigned)),
              ". The edge src node is ", src_name, " , and the dst node is ", dst_name)),
          edge_hint);
    }
    if (!AreCompatible(Name(s.resource), Name(d.resource))) {
      return WithHint(
          absl::InvalidArgumentError(absl::StrCat(
              "Cannot place the graph because a reference or resource edge connects "
              "colocation groups with incompatible resource devices: ",
              DeviceNameToString(Name(s.resource)), " vs ", DeviceNameToString(Name(d.resource)),
              ". The edge src node is ", src_name, " , and the dst node is ", dst_name)),
          edge_hint);
    }
    if (!AreCompatible(Name(s.requested), Name(d.requested))) {
      // The destination's request gives way to the source's.
      if (options_.log_device_placement) {
        result_.notes.push_back(
            absl::StrCat("Ignoring device specification ", DeviceNameToString(Name(d.requested)),
                         " for node '", dst_name, "' because the input edge from '", src_name,
                         "' is a reference connection and already has a device field set to ",
                         DeviceNameToString(Name(s.requested))));
      }
      DeviceName requested = Name(s.requested);
      EnsureSpecification(&requested, Name(d.assigned));
      EnsureSpecification(&requested, Name(d.resource));
      d.requested = Intern(requested);
    }
    absl::Status status = ColocateNodes(src, src_root, dst, dst_root);
    if (!status.ok()) {
      return WithHint(
          AttachDef(absl::InvalidArgumentError(absl::StrCat(
                        "Nodes were connected by a reference or resource connection (requiring "
                        "them to be on the same device), but the two nodes were assigned two "
                        "different devices: ",
                        status.message())),
                    dst_name),
          "a reference or resource edge keeps both ends on one device; give both nodes kernels "
          "for a common device type");
    }
    const char* kind = is_ref ? "reference" : "resource";
    MutableExtras(dst).links.push_back({src, absl::StrCat(kind, " edge from ", src_name)});
    MutableExtras(src).links.push_back({dst, absl::StrCat(kind, " edge to ", dst_name)});
    return absl::OkStatus();
  }

  // Merges the groups of x and y (TensorFlow's ColocateNodes): requests merge (with the
  // session's soft-placement flag), supported device types intersect. On error the groups stay
  // apart (though, as in TensorFlow, a failed type intersection leaves the merged requests).
  // Without `want_message` an error's text is left short (the caller drops it): building the
  // colocation debug info for every colocation that soft placement drops would cost time
  // proportional to the group's size each time.
  absl::Status ColocateNodes(int x, int x_root, int y, int y_root, bool want_message = true) {
    if (x_root == y_root) return absl::OkStatus();
    int new_root = x_root, old_root = y_root;
    if (members_[x_root].rank < members_[y_root].rank) std::swap(new_root, old_root);
    Member& nr = members_[new_root];
    const Member& old = members_[old_root];
    auto prefix = [&] {
      return absl::StrCat("Cannot colocate nodes {{colocation_node ", nodes_[x].node->name(),
                          "}} and {{colocation_node ", nodes_[y].node->name(), "}}");
    };
    DeviceName assigned = Name(nr.assigned), resource = Name(nr.resource),
               requested = Name(nr.requested);
    absl::Status s =
        MergeDeviceNames(&assigned, Name(old.assigned), /*allow_soft_placement=*/false);
    if (s.ok()) s = MergeDeviceNames(&resource, Name(old.resource), /*allow_soft_placement=*/false);
    if (s.ok()) {
      s = MergeDeviceNames(&requested, Name(old.requested), options_.allow_soft_placement);
    }
    if (!s.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(prefix(), ": ", s.message()));
    }
    EnsureSpecification(&requested, assigned);
    EnsureSpecification(&requested, resource);
    nr.assigned = Intern(assigned);
    nr.resource = Intern(resource);
    nr.requested = Intern(requested);
    const TypeSet both = nr.supported & old.supported;
    if (both == 0) {
      if (!want_message) return absl::InvalidArgumentError("no common device type");
      return absl::InvalidArgumentError(absl::StrCat(
          prefix(),
          " because no device type supports both of those nodes and the other nodes colocated "
          "with them.",
          DebugInfo(x_root), DebugInfo(y_root)));
    }
    nr.supported = both;
    members_[old_root].parent = new_root;
    // Splice the two circular member lists into one.
    std::swap(members_[new_root].next, members_[old_root].next);
    if (members_[x_root].rank == members_[y_root].rank) ++nr.rank;
    return absl::OkStatus();
  }

  // Every node is in the group of its own name; `_class: ["loc:@x"]` adds the node to group x.
  // A group's first member is kept by the id of the node it is named after, or by name for a
  // group named after no node of the graph.
  absl::Status ColocateAllNodes() {
    std::vector<int> first_by_id(nodes_.size(), -1);
    absl::flat_hash_map<std::string, int> first_by_name;
    for (int i : op_nodes_) {
      const Node& node = *nodes_[i].node;
      const AttrValue* cls =
          nodes_[i].has_class ? FindNodeAttr(node.def(), kColocationAttr) : nullptr;
      if (cls != nullptr) {
        if (cls->value_case() == AttrValue::kList) {
          for (const std::string& spec : cls->list().s()) {
            if (!absl::StartsWith(spec, kColocationPrefix)) continue;
            const std::string group = spec.substr(kColocationPrefix.size());
            const int named = graph_.FindNodeId(group);
            int* first = named >= 0 ? &first_by_id[named]
                                    : &first_by_name.try_emplace(group, -1).first->second;
            RILL_RETURN_IF_ERROR(ColocateNodeToGroup(first, i, group));
          }
        } else if (cls->value_case() == AttrValue::kS && !cls->s().empty()) {
          result_.notes.push_back(absl::StrCat(
              "The value for colocation attribute '_class' must be a list of strings, not a "
              "single string: ",
              SummarizeNodeDef(NodeDefWithInputs(node))));
        }
      }
      RILL_RETURN_IF_ERROR(ColocateNodeToGroup(&first_by_id[i], i, node.name()));
    }
    return absl::OkStatus();
  }

  // Adds `node` to `group`, whose first member is *first (-1: none yet, then `node` is).
  absl::Status ColocateNodeToGroup(int* first, int node, const std::string& group) {
    if (*first < 0) {
      *first = node;
      return absl::OkStatus();
    }
    const int root_node = *first;
    const std::string& name = nodes_[node].node->name();
    const std::string& root_name = nodes_[root_node].node->name();
    const bool want_message = !options_.allow_soft_placement || options_.log_device_placement;
    absl::Status s =
        ColocateNodes(node, FindRoot(node), root_node, FindRoot(root_node), want_message);
    if (!s.ok()) {
      if (!options_.allow_soft_placement) {
        return WithHint(AttachDef(s, name),
                        "give the colocated nodes compatible device requests and kernels, or set "
                        "allow_soft_placement in ConfigProto to let Rill drop this colocation");
      }
      if (options_.log_device_placement) {
        result_.notes.push_back(absl::StrCat(
            "Ignoring request to colocate node '", name, "' with nodes in colocation group '",
            group,
            "' because soft placement is on and an attempt at doing so resulted in the "
            "following error: ",
            AttachDef(s, name).ToString()));
      }
      if (group == name) {
        MutableExtras(node).soft_ignored.push_back(
            absl::StrCat("soft placement ignored _class loc:@", group, " on ", root_name));
      } else {
        MutableExtras(node).soft_ignored.push_back(
            absl::StrCat("soft placement ignored _class loc:@", group));
      }
      return absl::OkStatus();
    }
    // Words for each end: the one carrying `_class loc:@group` names the group.
    auto words = [&](int self, int other) {
      const std::string& self_name = nodes_[self].node->name();
      const std::string& other_name = nodes_[other].node->name();
      if (self_name != group) {
        return absl::StrCat("colocated with ", group, " (_class loc:@", group, ")");
      }
      return absl::StrCat("colocated with ", other_name, " (_class loc:@", group, " on ",
                          other_name, ")");
    };
    MutableExtras(node).links.push_back({root_node, words(node, root_node)});
    MutableExtras(root_node).links.push_back({node, words(root_node, node)});
    return absl::OkStatus();
  }

  // ---------------------------------------------------------------------------------------------
  // Candidates (TensorFlow's GetDevicesForNode)

  std::vector<int> FindMatching(const DeviceName& spec) const {
    std::vector<int> out;
    for (size_t d = 0; d < devices_.size(); ++d) {
      if (Matches(spec, devices_[d].parsed)) out.push_back(static_cast<int>(d));
    }
    return out;
  }

  // The devices among `devices` whose type is in `types`, best first (§1.5).
  std::vector<int> FilterSupported(const std::vector<int>& devices, TypeSet types) const {
    std::vector<int> out;
    for (int d : devices) {
      if (types & TypeBit(devices_[d].parsed.type)) out.push_back(d);
    }
    std::stable_sort(out.begin(), out.end(), [&](int a, int b) {
      return DeviceOrderLess(DeviceTypePriority(devices_[a].parsed.type), devices_[a].name,
                             DeviceTypePriority(devices_[b].parsed.type), devices_[b].name);
    });
    return out;
  }

  std::vector<int> AllDevices() const {
    std::vector<int> all(devices_.size());
    for (size_t d = 0; d < devices_.size(); ++d) all[d] = static_cast<int>(d);
    return all;
  }

  // "/device:CPU:0, /device:GPU:0": the devices that could run the group, best first.
  std::string DevicesThatCanRun(const Member& root) const {
    std::vector<std::string> names;
    for (int d : FilterSupported(AllDevices(), root.supported)) {
      const DeviceName& p = devices_[d].parsed;
      const bool local = p.job == "localhost" && p.replica == 0 && p.task == 0;
      names.push_back(local ? absl::StrCat("/device:", p.type, ":", p.id) : devices_[d].name);
    }
    return absl::StrJoin(names, ", ");
  }

  std::string MemberDebugString(const Member& m) const {
    std::vector<std::string> possible;
    if (m.possible >= 0) {
      for (int d : candidate_lists_[m.possible]) possible.push_back(devices_[d].name);
    }
    // TensorFlow's assigned_device_name_index_: devices numbered from 1 as groups are pinned.
    const int interned = m.assigned_device >= 0 ? interned_[m.assigned_device] : -1;
    return absl::StrCat("Member(assigned_device_name_index_=", interned,
                        " requested_device_name_='", DeviceNameToString(Name(m.requested)),
                        "' assigned_device_name_='", DeviceNameToString(Name(m.assigned)),
                        "' resource_device_name_='", DeviceNameToString(Name(m.resource)),
                        "' supported_device_types_=[", absl::StrJoin(TypeNames(m.supported), ", "),
                        "] possible_devices_=[", absl::StrJoin(possible, ", "), "]");
  }

  // The members of the group rooted at `root`, in op_nodes_ order. Time linear in the group's
  // size (times its log), not the graph's, once the first call has indexed op_nodes_.
  std::vector<int> GroupMembers(int root) {
    std::vector<int> members;
    if (!nodes_[root].placed_op) return members;
    if (position_.empty()) {
      position_.assign(nodes_.size(), -1);
      for (size_t k = 0; k < op_nodes_.size(); ++k) position_[op_nodes_[k]] = static_cast<int>(k);
    }
    int i = root;
    do {
      members.push_back(i);
      i = members_[i].next;
    } while (i != root);
    std::sort(members.begin(), members.end(),
              [&](int a, int b) { return position_[a] < position_[b]; });
    return members;
  }

  // TensorFlow's ColocationGraph::DebugInfo for the group rooted at `root`.
  std::string DebugInfo(int root) {
    std::string text =
        "\nColocation Debug Info:\n"
        "Colocation group had the following types and supported devices: ";
    std::map<std::string, std::string> type_to_devices;
    const std::vector<int> members = GroupMembers(root);
    for (int i : members) {
      std::string types;
      for (const std::string& t : TypeNames(nodes_[i].supported)) absl::StrAppend(&types, t, " ");
      type_to_devices[nodes_[i].node->op()] = types;
    }
    if (members.empty()) return "";
    absl::StrAppend(&text, "\nRoot ", MemberDebugString(members_[root]));
    for (const auto& [op, types] : type_to_devices) absl::StrAppend(&text, "\n", op, ": ", types);
    absl::StrAppend(&text,
                    "\n\nColocation members, user-requested devices, and framework assigned "
                    "devices, if any:");
    for (int i : members) {
      absl::StrAppend(&text, "\n  ", nodes_[i].node->name(), " (", nodes_[i].node->op(), ") ",
                      nodes_[i].node->requested_device());
      if (nodes_[i].preassigned >= 0) {
        absl::StrAppend(&text, " framework assigned device=", devices_[nodes_[i].preassigned].name);
      }
    }
    absl::StrAppend(&text, "\n");
    return text;
  }

  std::string RegisteredKernels(const NodeDef& node) const {
    const absl::Status s = kernels_.NoKernelError(node, types_alphabetical_);
    const absl::string_view msg = s.message();
    constexpr absl::string_view kHeader = "Registered kernels:\n";
    const size_t pos = msg.find(kHeader);
    if (pos == absl::string_view::npos) return "  <no registered kernels>\n";
    return std::string(msg.substr(pos + kHeader.size()));
  }

  absl::StatusOr<const std::vector<int>*> GetDevicesForNode(int node) {
    const int root = FindRoot(node);
    Member& m = members_[root];
    if (m.possible >= 0) return &candidate_lists_[m.possible];
    // Without soft placement the candidates depend only on the group's request and types, so
    // groups alike (most often: every node without a request) share one list.
    const std::pair<int, TypeSet> key{m.requested, m.supported};
    if (auto shared = candidates_.find(key); shared != candidates_.end()) {
      m.possible = shared->second;
      return &candidate_lists_[m.possible];
    }
    std::vector<int> devices;
    if (HasSomeDetails(Name(m.requested))) {
      devices = FindMatching(Name(m.requested));
      if (!devices.empty()) devices = FilterSupported(devices, m.supported);
      if (devices.empty() && options_.allow_soft_placement) {
        devices = SoftCandidates(root);
        m.soft = !devices.empty();
      }
      if (devices.empty()) return NoCandidatesError(node, root);
    } else {
      devices = FilterSupported(AllDevices(), m.supported);
      if (devices.empty()) {
        std::vector<std::string> types;
        for (DataType t : nodes_[node].node->input_types()) types.push_back(DataTypeString(t));
        return absl::InvalidArgumentError(absl::StrCat(
            "Node had no OpKernel registered to support this operation: Operation was ",
            nodes_[node].node->op(), " and inputs were [", absl::StrJoin(types, ", "), "].\n",
            DebugInfo(root)));
      }
    }
    m.possible = static_cast<int>(candidate_lists_.size());
    candidate_lists_.push_back(std::move(devices));
    if (!m.soft) candidates_.emplace(key, m.possible);
    return &candidate_lists_[m.possible];
  }

  // TensorFlow's GetSoftDeviceCandidates: the request without its type and id (kept where the
  // group's assigned or resource device pins them), then, failing that, ignoring resource
  // devices too.
  std::vector<int> SoftCandidates(int root) {
    const Member& m = members_[root];
    const DeviceName& assigned = Name(m.assigned);
    const DeviceName& resource = Name(m.resource);
    DeviceName soft = Name(m.requested);
    if (!assigned.has_type && !resource.has_type) {
      soft.has_type = false;
      soft.type.clear();
    }
    if (!assigned.has_id && !resource.has_id) soft.has_id = false;
    std::vector<int> devices = FilterSupported(FindMatching(soft), m.supported);
    if (!devices.empty()) return devices;
    soft = Name(m.requested);
    if (!assigned.has_type) {
      soft.has_type = false;
      soft.type.clear();
    }
    if (!assigned.has_id) soft.has_id = false;
    devices = FilterSupported(FindMatching(soft), m.supported);
    if (!devices.empty()) {
      std::vector<std::string> names;
      for (int d : devices) names.push_back(devices_[d].name);
      result_.notes.push_back(absl::StrCat(
          "Failed to place the graph without changing the devices of some resources. Some of "
          "the operations (that had to be colocated with resource generating operations) are "
          "not supported on the resources' devices. Current candidate devices are [\n  ",
          absl::StrJoin(names, "\n  "),
          "].\nSee below for details of this colocation group:", DebugInfo(root)));
    }
    return devices;
  }

  absl::Status NoCandidatesError(int node, int root) {
    const NodeInfo& info = nodes_[node];
    const Member& m = members_[root];
    const std::string& name = info.node->name();
    const std::string debug_info = DebugInfo(root);
    const std::string can_run = DevicesThatCanRun(m);
    const std::string soft_advice =
        options_.allow_soft_placement
            ? absl::StrCat(
                  "even soft placement found no device (it keeps the job, replica and "
                  "task of the request); request one of: ",
                  can_run)
            : "";
    absl::StatusOr<DeviceName> specified = ParseDeviceName(info.node->requested_device());
    std::string inner, hint;
    if (specified.ok() && *specified == Name(m.requested)) {
      if (FindMatching(*specified).empty()) {
        std::vector<std::string> names;
        for (const DeviceEntry& d : devices_) names.push_back(d.name);
        std::sort(names.begin(), names.end());
        std::string gpu_msg;
        if (!options_.cuda_enabled && absl::AsciiStrToLower(specified->type) == "gpu") {
          gpu_msg = " The requested device appears to be a GPU, but CUDA is not enabled.";
        }
        inner = absl::StrCat(
            "{{node ", name, "}} was explicitly assigned to ", info.node->requested_device(),
            " but available devices are [ ", absl::StrJoin(names, ", "),
            " ]. Make sure the device specification refers to a valid device.", gpu_msg);
        hint = absl::StrCat(
            "set allow_soft_placement in ConfigProto to fall back to an available device, or "
            "request one of: ",
            can_run);
      } else if (specified->has_type) {
        inner = absl::StrCat("Could not satisfy explicit device specification '",
                             info.node->requested_device(), "' because no supported kernel for ",
                             specified->type, " devices is available.", debug_info,
                             "\nOp: ", info.node->op(),
                             "\nNode attrs: ", AttrsDebugString(info.node->def()),
                             "\nRegistered kernels:\n", RegisteredKernels(info.node->def()));
        hint = absl::StrCat(
            "set allow_soft_placement in ConfigProto to fall back to a device with a kernel for "
            "these types, or request one of: ",
            can_run);
      } else {
        inner = absl::StrCat("Could not satisfy explicit device specification '",
                             info.node->requested_device(), debug_info);
        hint = absl::StrCat(
            "set allow_soft_placement in ConfigProto to fall back to a device with a kernel, or "
            "request one of: ",
            can_run);
      }
    } else {
      std::vector<std::string> names;
      for (const DeviceEntry& d : devices_) names.push_back(d.name);
      inner =
          absl::StrCat("Could not satisfy explicit device specification '",
                       info.node->requested_device(), "' because the node {{colocation_node ", name,
                       "}} was colocated with a group of nodes that required incompatible "
                       "device '",
                       DeviceNameToString(Name(m.requested)), "'. All available devices [",
                       absl::StrJoin(names, ", "), "]. ", debug_info);
      hint = absl::StrCat(
          "the nodes colocated with it require '", DeviceNameToString(Name(m.requested)),
          "'; set allow_soft_placement in ConfigProto to fall back to an available device, or "
          "request for the whole group one of: ",
          can_run);
    }
    if (!soft_advice.empty()) hint = soft_advice;
    return WithHint(AttachDef(absl::InvalidArgumentError(absl::StrCat(
                                  "Cannot assign a device for operation ", name, ": ", inner)),
                              name),
                    hint);
  }

  // ---------------------------------------------------------------------------------------------
  // Assignment (TensorFlow's Placer::Run)

  absl::Status LimitToAssignedDevice(int node, int device) {
    const int root = FindRoot(node);
    Member& m = members_[root];
    if (m.first_assigned < 0) m.first_assigned = node;
    if (m.assigned_device == device) return absl::OkStatus();
    // Groups share a few distinct (names, device) pairs: each is merged once.
    const std::array<int, 4> key = {m.assigned, m.resource, m.requested, device};
    auto [merged, added] = pinned_.try_emplace(key);
    if (added) {
      const DeviceName& parsed = devices_[device].parsed;
      DeviceName assigned = Name(m.assigned), resource = Name(m.resource),
                 requested = Name(m.requested);
      absl::Status s = MergeDeviceNames(&assigned, parsed, /*allow_soft_placement=*/false);
      if (s.ok()) s = MergeOverrideDeviceNames(&resource, parsed);
      if (s.ok()) s = MergeOverrideDeviceNames(&requested, parsed);
      if (!s.ok()) {
        pinned_.erase(merged);
        return absl::InternalError(absl::StrCat(
            "Constraining by assigned device should not cause an error. Node ",
            nodes_[node].node->name(), " assigned to ", devices_[device].name, ": ", s.message()));
      }
      merged->second = {Intern(assigned), Intern(resource), Intern(requested)};
    }
    m.assigned = merged->second[0];
    m.resource = merged->second[1];
    m.requested = merged->second[2];
    if (interned_[device] < 0) interned_[device] = ++num_interned_;
    m.assigned_device = static_cast<int16_t>(device);
    m.possible = -1;
    return absl::OkStatus();
  }

  absl::Status AssignAndLog(int node, int device) {
    nodes_[node].device = device;
    RILL_RETURN_IF_ERROR(LimitToAssignedDevice(node, device));
    result_.order.push_back(node);
    return absl::OkStatus();
  }

  absl::StatusOr<const std::vector<int>*> CandidatesOrError(int node) {
    absl::StatusOr<const std::vector<int>*> devices = GetDevicesForNode(node);
    if (devices.ok()) return devices;
    const absl::Status& s = devices.status();
    if (absl::StartsWith(s.message(), "Cannot assign a device")) return s;
    return AttachDef(
        absl::InvalidArgumentError(absl::StrCat("Cannot assign a device for operation ",
                                                nodes_[node].node->name(), ": ", s.message())),
        nodes_[node].node->name());
  }

  static bool Contains(const std::vector<int>& devices, int d) {
    return d >= 0 && std::find(devices.begin(), devices.end(), d) != devices.end();
  }

  // The words "follows its consumer X", naming distinct consumers in edge order, as an index in
  // heuristic_texts_ (one text per consumer for the nodes that have one).
  int ConsumerWords(const Node& node) {
    absl::InlinedVector<const Node*, 4> consumers;
    // Distinct consumers: most nodes have a few out-edges, searched in place; a set for many.
    constexpr size_t kFewEdges = 16;
    absl::flat_hash_set<int> seen;
    const bool few = node.out_edges().size() <= kFewEdges;
    for (const Edge* e : node.out_edges()) {
      if (!e->dst()->IsOp()) continue;
      const bool added =
          few ? std::find(consumers.begin(), consumers.end(), e->dst()) == consumers.end()
              : seen.insert(e->dst()->id()).second;
      if (added) consumers.push_back(e->dst());
    }
    if (consumers.size() == 1) {
      auto [known, added] = follows_consumer_.try_emplace(consumers[0]->id(), -1);
      if (added) {
        known->second =
            AddHeuristicText(absl::StrCat("follows its consumer ", consumers[0]->name()));
      }
      return known->second;
    }
    std::vector<const std::string*> names;
    for (const Node* c : consumers) names.push_back(&c->name());
    if (names.size() <= 3) {
      return AddHeuristicText(absl::StrCat(
          "follows its consumers ",
          absl::StrJoin(names, ", ",
                        [](std::string* out, const std::string* n) { out->append(*n); })));
    }
    return AddHeuristicText(absl::StrCat("follows its consumers ", *names[0], ", ", *names[1], ", ",
                                         *names[2], " and ", names.size() - 3, " more"));
  }

  int AddHeuristicText(std::string words) {
    heuristic_texts_.push_back(std::move(words));
    return static_cast<int>(heuristic_texts_.size()) - 1;
  }
  // Node `i`'s heuristic words are heuristic_texts_[text].
  void SetHeuristic(int i, int text) {
    if (heuristic_of_.empty()) heuristic_of_.assign(nodes_.size(), -1);
    heuristic_of_[i] = text;
  }
  // Node `i`'s heuristic words ("follows its consumer X"); empty when no heuristic chose.
  const std::string& Heuristic(int i) const {
    static const std::string* const kNone = new std::string();
    return heuristic_of_.empty() || heuristic_of_[i] < 0 ? *kNone
                                                         : heuristic_texts_[heuristic_of_[i]];
  }

  // The device all of the node's consumers (op nodes with a data or control edge from it) were
  // placed on; -1 when it has none or they differ.
  int ConsumersDevice(const Node& node) const {
    int device = -1;
    bool any = false;
    for (const Edge* e : node.out_edges()) {
      if (!e->dst()->IsOp()) continue;
      const int d = nodes_[e->dst()->id()].device;
      if (!any) {
        device = d;
        any = true;
      } else if (d != device) {
        return -1;
      }
    }
    return device;
  }

  absl::Status AssignDevices() {
    std::vector<int> second_pass;
    for (int i : op_nodes_) {
      NodeInfo& info = nodes_[i];
      if (info.preassigned >= 0) {
        RILL_RETURN_IF_ERROR(AssignAndLog(i, info.preassigned));
        continue;
      }
      if (IsGenerator(*info.node)) {
        second_pass.push_back(i);
        continue;
      }
      RILL_ASSIGN_OR_RETURN(const std::vector<int>* devices, CandidatesOrError(i));
      int chosen = -1;
      // Shape, Size and Rank go where their input is, when they may.
      const Node* input =
          IsShapeMetadata(info.node->op_class()) ? info.node->input_node(0) : nullptr;
      if (input != nullptr && input->IsOp()) {
        const int input_device = nodes_[input->id()].device;
        if (Contains(*devices, input_device)) {
          chosen = input_device;
          auto [known, added] = follows_input_.try_emplace(input->id(), -1);
          if (added) {
            known->second = AddHeuristicText(absl::StrCat("follows its input ", input->name()));
          }
          SetHeuristic(i, known->second);
        }
      }
      if (chosen < 0) chosen = (*devices)[0];
      RILL_RETURN_IF_ERROR(AssignAndLog(i, chosen));
    }
    for (int i : second_pass) {
      NodeInfo& info = nodes_[i];
      RILL_ASSIGN_OR_RETURN(const std::vector<int>* devices, CandidatesOrError(i));
      int chosen = -1;
      // A generator goes where all its consumers went, when it may.
      const int consumers_device = ConsumersDevice(*info.node);
      if (Contains(*devices, consumers_device)) {
        chosen = consumers_device;
        SetHeuristic(i, ConsumerWords(*info.node));
      }
      if (chosen < 0) chosen = (*devices)[0];
      RILL_RETURN_IF_ERROR(AssignAndLog(i, chosen));
    }
    return absl::OkStatus();
  }

  // ---------------------------------------------------------------------------------------------
  // Reasons: for each group, the member whose constraint decided the device (the anchor) gets the
  // rule; every other member points, one link at a time, toward it.

  std::string RequestWords(const NodeInfo& info) const { return info.node->requested_device(); }

  // Why soft placement moved a node whose own request is not honoured.
  std::string SoftWords(const NodeInfo& info, const Member& root) const {
    const std::string request = RequestWords(info);
    const DeviceName& parsed = Name(info.request);
    std::vector<int> matched = FindMatching(parsed);
    if (matched.empty()) return absl::StrCat("soft placement: ", request, " does not exist");
    if (FilterSupported(matched, root.supported).empty()) {
      std::string type = parsed.type;
      if (!parsed.has_type) {
        std::vector<std::string> types;
        for (int d : matched) {
          if (std::find(types.begin(), types.end(), devices_[d].parsed.type) == types.end()) {
            types.push_back(devices_[d].parsed.type);
          }
        }
        type = absl::StrJoin(types, "/");
      }
      return absl::StrCat("soft placement: no ", type, " kernel for these types");
    }
    return absl::StrCat("soft placement: ", request,
                        " conflicts with the requests of its colocation group");
  }

  static constexpr absl::string_view kDefaultWords =
      "default: highest-priority device with a kernel (GPU > CPU)";
  // True when DefaultWords gives kDefaultWords alone: the group is on the best device type.
  bool DefaultWordsAlone(int device) const { return devices_[device].parsed.type == types_[0]; }
  std::string DefaultWords(int anchor, absl::Span<const int> group, int device) const {
    std::string words(kDefaultWords);
    const std::string& best_type = types_[0];
    if (DefaultWordsAlone(device)) return words;
    const NodeInfo& info = nodes_[anchor];
    if (!HasType(info.supported, best_type)) {
      return absl::StrCat(words, "; no ", best_type, " kernel for these types");
    }
    for (int m : group) {
      if (!HasType(nodes_[m].supported, best_type)) {
        return absl::StrCat(words, "; no ", best_type, " kernel for colocated node ",
                            nodes_[m].node->name());
      }
    }
    return words;
  }

  void ComputeReasons() {
    constexpr absl::string_view kStateful =
        "stateful: keeps the device it was given when first placed";
    // Root -> members in graph order, in one array (a group per root is a slice of it); each
    // group's reasons depend only on that group.
    std::vector<int> root_of(op_nodes_.size());
    std::vector<int> group_size(nodes_.size(), 0);
    std::vector<int> roots;
    for (size_t k = 0; k < op_nodes_.size(); ++k) {
      const int root = FindRoot(op_nodes_[k]);
      root_of[k] = root;
      if (group_size[root]++ == 0) roots.push_back(root);
    }
    std::vector<int> group_start(nodes_.size(), 0);
    int total = 0;
    for (int root : roots) {
      group_start[root] = total;
      total += group_size[root];
    }
    std::vector<int> members(total);
    {
      std::vector<int> next = group_start;
      for (size_t k = 0; k < op_nodes_.size(); ++k) members[next[root_of[k]]++] = op_nodes_[k];
    }
    // Each node's words are deduplicated as they are made (most nodes share a few texts), so the
    // per-node array holds an index into `texts`, not a string; the result's reasons are added
    // afterwards, in op_nodes_ order.
    std::deque<std::string> texts;
    absl::flat_hash_map<absl::string_view, int> text_ids;  // keys point into `texts`
    std::vector<int> text_of(nodes_.size(), -1);
    auto intern = [&](std::string words) {
      auto known = text_ids.find(words);
      if (known == text_ids.end()) {
        texts.push_back(std::move(words));
        known = text_ids.emplace(texts.back(), static_cast<int>(texts.size()) - 1).first;
      }
      return known->second;
    };
    std::vector<int> text_of_heuristic(heuristic_texts_.size(), -1);  // heuristic -> texts index
    int default_text = -1;                                            // kDefaultWords' texts index
    std::vector<int> hop(nodes_.size(), -1);
    std::vector<const std::string*> hop_words(nodes_.size(), nullptr);  // into the links' words
    std::vector<int> queue;
    for (int root : roots) {
      const absl::Span<const int> group(members.data() + group_start[root], group_size[root]);
      const Member& m = members_[root];
      const int device = nodes_[group[0]].device;
      const DeviceName& placed = devices_[device].parsed;
      auto honoured = [&](int i) {
        return nodes_[i].has_request && Matches(Name(nodes_[i].request), placed);
      };
      int anchor = -1;
      std::string anchor_words;
      for (int i : group) {
        if (nodes_[i].preassigned >= 0) {
          anchor = i;
          anchor_words = std::string(kStateful);
          break;
        }
      }
      if (anchor < 0) {
        for (int i : group) {
          if (honoured(i)) {
            anchor = i;
            anchor_words = absl::StrCat("explicit request ", RequestWords(nodes_[i]));
            break;
          }
        }
      }
      if (anchor < 0 && m.soft) {
        anchor = group[0];
        for (int i : group) {
          if (nodes_[i].has_request) {
            anchor = i;
            break;
          }
        }
        anchor_words = SoftWords(nodes_[anchor], m);
        if (!Heuristic(anchor).empty()) absl::StrAppend(&anchor_words, "; ", Heuristic(anchor));
      }
      // When the anchor's words are a heuristic's text alone, anchor_words stays empty and
      // anchor_heuristic names the text (most such groups are one Const, and many share it).
      int anchor_heuristic = -1;
      if (anchor < 0 && m.first_assigned >= 0 && !Heuristic(m.first_assigned).empty()) {
        anchor = m.first_assigned;
        anchor_heuristic = heuristic_of_[anchor];
      }
      // When they are kDefaultWords alone, anchor_default is set instead (most groups of a graph
      // on one device type: one text for them all, interned once, no string per group).
      bool anchor_default = false;
      if (anchor < 0) {
        anchor = group[0];
        if (DefaultWordsAlone(device)) {
          anchor_default = true;
        } else {
          anchor_words = DefaultWords(anchor, group, device);
        }
      }
      if (!m.soft && nodes_[anchor].has_request && !honoured(anchor) &&
          nodes_[anchor].preassigned < 0) {
        if (anchor_heuristic >= 0) anchor_words = heuristic_texts_[anchor_heuristic];
        if (anchor_default) anchor_words = std::string(kDefaultWords);
        anchor_heuristic = -1;
        anchor_default = false;
        absl::StrAppend(&anchor_words, "; its own request ", RequestWords(nodes_[anchor]),
                        " was overridden");
      }
      // Breadth-first from the anchor over the links: each member's first step toward it.
      // `queue` is reused across groups (most groups are one node: no allocation per group).
      queue.clear();
      queue.push_back(anchor);
      hop[anchor] = anchor;
      for (size_t next = 0; next < queue.size(); ++next) {
        const int at = queue[next];
        for (const Link& link : Extras(at).links) {
          if (hop[link.other] >= 0 || FindRoot(link.other) != root) continue;
          hop[link.other] = at;
          for (const Link& back : Extras(link.other).links) {
            if (back.other == at) {
              hop_words[link.other] = &back.why;
              break;
            }
          }
          queue.push_back(link.other);
        }
      }
      for (int i : group) {
        const NodeInfo& info = nodes_[i];
        if (i == anchor && anchor_heuristic >= 0 && Extras(i).soft_ignored.empty()) {
          // The heuristic's text, interned once for all the anchors that have it.
          int& text = text_of_heuristic[anchor_heuristic];
          if (text < 0) text = intern(heuristic_texts_[anchor_heuristic]);
          text_of[i] = text;
          continue;
        }
        if (i == anchor && anchor_default && Extras(i).soft_ignored.empty()) {
          if (default_text < 0) default_text = intern(std::string(kDefaultWords));
          text_of[i] = default_text;
          continue;
        }
        std::string words;
        if (i == anchor) {
          // The anchor is the group's only user of its words.
          if (anchor_default) {
            words = std::string(kDefaultWords);
          } else {
            words = anchor_heuristic >= 0 ? heuristic_texts_[anchor_heuristic]
                                          : std::move(anchor_words);
          }
        } else if (info.preassigned >= 0) {
          words = std::string(kStateful);
        } else if (honoured(i)) {
          words = absl::StrCat("explicit request ", RequestWords(info));
        } else if (info.has_request && m.soft) {
          words = SoftWords(info, m);
        } else {
          words = hop[i] >= 0 && hop_words[i] != nullptr && !hop_words[i]->empty()
                      ? *hop_words[i]
                      : absl::StrCat("colocated with ", nodes_[anchor].node->name());
          if (info.has_request) {
            absl::StrAppend(&words, "; its own request ", RequestWords(info), " was overridden");
          }
        }
        for (const std::string& ignored : Extras(i).soft_ignored) {
          absl::StrAppend(&words, "; ", ignored);
        }
        text_of[i] = intern(std::move(words));
      }
    }
    std::vector<int> reason_of_text(texts.size(), -1);
    for (int i : op_nodes_) {
      int& reason = reason_of_text[text_of[i]];
      if (reason < 0) reason = editor_.AddReason(std::move(texts[text_of[i]]));
      result_.nodes[i] = {nodes_[i].device, reason};
    }
  }

  const Graph& graph_;
  const KernelAvailability& kernels_;
  const PlacerOptions options_;
  const Graph* previous_;  // Not owned; may be null.

  std::vector<DeviceEntry> devices_;                // in the caller's order
  std::vector<std::string> types_;                  // device types present, best first
  std::vector<std::string> types_alphabetical_;     // the same, sorted (TensorFlow's error lists)
  std::vector<int> interned_;                       // device -> TensorFlow's device name index
  std::vector<DeviceName> names_ = {DeviceName()};  // by interned id (see Name)
  absl::flat_hash_map<std::string, int> name_ids_;  // Intern's key -> id
  absl::flat_hash_map<std::string, int> request_ids_;  // a node's requested_device -> id
  // LimitToAssignedDevice's merges: (assigned, resource, requested, device) -> the three after.
  absl::flat_hash_map<std::array<int, 4>, std::array<int, 3>> pinned_;
  int num_interned_ = 0;

  std::vector<NodeInfo> nodes_;    // by node id
  std::deque<NodeExtras> extras_;  // NodeInfo::extras indexes it
  // Heuristics' words ("follows its consumer X"): per node id an index in heuristic_texts_ (-1:
  // none; empty until the first is set). Nodes following the same single consumer (or input)
  // share one text, made once.
  std::vector<int> heuristic_of_;
  std::deque<std::string> heuristic_texts_;
  absl::flat_hash_map<int, int> follows_consumer_;  // consumer id -> text
  absl::flat_hash_map<int, int> follows_input_;     // input id -> text
  std::vector<int> op_nodes_;  // ids of the nodes with a registered op, in TensorFlow's order
  std::vector<Member> members_;
  // Members' candidate lists (Member::possible indexes them): one per (interned request, device
  // types) when they come from the request (candidates_ finds it), one per group when soft
  // placement chose them. A deque: GetDevicesForNode's callers hold pointers into it.
  std::deque<std::vector<int>> candidate_lists_;
  absl::flat_hash_map<std::pair<int, TypeSet>, int> candidates_;
  std::vector<int> position_;  // by node id: index in op_nodes_; built by GroupMembers
  Placement result_;
  PlacementEditor editor_{&result_};  // result_'s reason texts, while Run builds it
};

}  // namespace

const std::string& Placement::device(int id) const {
  static const std::string* const kNone = new std::string();
  return id >= 0 && id < static_cast<int>(nodes.size()) && nodes[id].device >= 0
             ? devices[nodes[id].device]
             : *kNone;
}

const std::string& Placement::reason(int id) const {
  static const std::string* const kNone = new std::string();
  return listed(id) ? reasons[nodes[id].reason] : *kNone;
}

PlacementEditor::PlacementEditor(Placement* placement) : placement_(placement) {
  for (size_t i = 0; i < placement_->reasons.size(); ++i) {
    index_.try_emplace(placement_->reasons[i], static_cast<int>(i));
  }
}

int PlacementEditor::AddReason(std::string words) {
  std::vector<std::string>& reasons = placement_->reasons;
  auto [it, added] = index_.try_emplace(words, static_cast<int>(reasons.size()));
  if (added) reasons.push_back(std::move(words));
  return it->second;
}

void PlacementEditor::Set(int id, int device, std::string reason) {
  std::vector<NodePlacement>& nodes = placement_->nodes;
  if (id >= static_cast<int>(nodes.size())) nodes.resize(id + 1);
  nodes[id] = {device, AddReason(std::move(reason))};
}

void ApplyPlacement(const Placement& placement, Graph* graph) {
  for (Node* n : graph->op_nodes()) {
    if (placement.listed(n->id())) n->set_assigned_device_name(placement.device(n->id()));
  }
}

absl::Status Placement::unplaced_status(const Graph& graph, const std::string& name) const {
  auto it = unplaced.find(name);
  if (it != unplaced.end()) return it->second;
  if (listed(graph.FindNodeId(name))) return absl::OkStatus();
  return absl::NotFoundError(absl::StrCat("Node '", name, "' is not in the placed graph"));
}

absl::StatusOr<Placement> Place(const Graph& graph, const std::vector<std::string>& devices,
                                const KernelAvailability& kernels, const PlacerOptions& options,
                                const Graph* previous) {
  absl::StatusOr<Placement> placement = Placer(graph, kernels, options, previous).Run(devices);
  if (!placement.ok()) return placement;
  // Rill's own rule (session/loop_placement.h): a while loop runs on one device.
  absl::StatusOr<std::vector<std::string>> moved =
      KeepLoopsOnOneDevice(graph, kernels, &*placement);
  if (!moved.ok()) return moved.status();
  return placement;
}

}  // namespace rill
